"""The app's server operations: ``olearn app`` and what it runs, never imported by a page.

- :mod:`~olearn.app.server.launch`: ``olearn app`` (one Streamlit process) and ``olearn app
  --workers N``; :data:`~olearn.app.server.launch.SETTINGS`, the app's Streamlit options.
- :mod:`~olearn.app.server.hosting`: N Streamlit processes behind nginx, started and stopped
  as one (``nginx.conf.template``: the proxy's configuration).
- :mod:`~olearn.app.server.serve`: the server process itself, ``streamlit run`` with the
  pages' preparation started first.
- :mod:`~olearn.app.server.background`: that preparation's thread, and how it gives way to
  the pages being drawn (the frame's hooks).
- :mod:`~olearn.app.server.heap`: the long-lived heap frozen once the preparation ends.

See :mod:`olearn.app` for the rule between this house and the page glue.  Nothing here imports
Streamlit at import time.
"""
