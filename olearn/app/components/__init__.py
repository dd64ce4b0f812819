"""The app's browser components: what runs in the page, with no Python rerun per frame or step.

- :mod:`olearn.app.components.player`: the frame player (Playground, Crammer-Singer).
- :mod:`olearn.app.components.stepper`: the step-through (SPA, CW).
- :mod:`olearn.app.components.keys`: the step keys of a page stepped by the server (the
  lesson, PCVM): PageDown / PageUp, the arrows and space press its Next / Previous.
- :mod:`olearn.app.components.theme`: carries the theme chosen to Streamlit and reports the
  one shown, whose colours the figures take.
- :mod:`olearn.app.components.assets`: their JavaScript, CSS and HTML, as files (Biome checks
  the JavaScript and CSS, see ``biome.json``), and the page-wide CSS the frame emits.

The page glue (frame, widgets synced with the URL, caching, downloads) stays in
:mod:`olearn.app`; the server's operations live in :mod:`olearn.app.server`.
"""
