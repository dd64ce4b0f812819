"""olearn's Streamlit app, from a clone of the repository: ``streamlit run app.py``.

The frame lives in :mod:`olearn.app.frame`, the page scripts in ``pages/`` beside this file
(each calls :func:`olearn.app.frame.require_frame` first, so even a fresh server's first
request, which Streamlit serves in its legacy ``pages/`` mode, gets the frame); an installed
package starts the same app with ``olearn app``.
"""

from olearn.app.frame import main

main()
