"""olearn's Streamlit app, from a clone of the repository: ``streamlit run app.py``.

The frame lives in :mod:`olearn.app.frame` and the page scripts in ``olearn/pages/``; an
installed package starts the same app with ``olearn app``.
"""

from olearn.app.frame import main

main()
