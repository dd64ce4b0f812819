"""The Streamlit app's own layer (installed with the ``[app]`` extra), in two houses.

**Page glue and components**, here: what a page script calls while it runs.

- :mod:`olearn.app.frame`: navigation, language switch, page config (``main()``).
- :mod:`olearn.app.ui`: widgets synced with the URL, the error guard, figure rendering.
- :mod:`olearn.app.cached`: cached entry points into :mod:`olearn.teaching` for the pages.
- :mod:`olearn.app.downloads`: figures and animations out of the app; :mod:`olearn.app.hypers`:
  the hyper-parameters' controls built from the registry.
- :mod:`olearn.app.components`: the browser components (the frame player, the stepper, the
  step keys, the theme) and their JavaScript, CSS and HTML.

**Server operations**, in :mod:`olearn.app.server`: what starts, prepares and hosts the
server, and never runs inside a page.

- :mod:`olearn.app.server.launch`: ``olearn app``, which runs :data:`ENTRY` with Streamlit
  (through :mod:`olearn.app.server.serve`), and ``--workers N`` behind nginx
  (:mod:`olearn.app.server.hosting`, with its ``nginx.conf.template``).
- :mod:`olearn.app.server.background`: the server's background preparation (imports, default
  views, kernels), which gives way to the pages being drawn; :mod:`olearn.app.server.heap`
  freezes what it leaves alive.

The rule between them (``tests/test_import_graph.py`` checks it): the server house may import
the page glue (the preparation computes the pages' default views), but of the page glue only
:mod:`olearn.app.frame` imports the server house, and only its hooks: the background's
(:func:`~olearn.app.server.background.page_running` around every page, ``started`` /
``warming`` for the "preparing" notice, ``start_background`` under ``streamlit run app.py``)
and :func:`olearn.app.server.heap.prepare_and_settle`.  Nothing else in ``olearn`` imports the
server house but :mod:`olearn.cli`; and the library's :mod:`olearn._warmup` (compiling the
kernels) knows nothing of pages or servers.

The page scripts live in the repository's top-level ``pages/`` folder; ``olearn/pages`` is a
link to it, so a wheel ships them inside the package (:data:`PAGES_DIR` is wherever they are).
Two entry scripts run the same frame: ``olearn app`` runs :data:`ENTRY`, which has no
``pages/`` folder beside it; ``streamlit run app.py`` in a clone runs the root ``app.py``,
beside ``pages/``, where :func:`olearn.app.frame.require_frame` keeps a fresh server's first
request (Streamlit's legacy multipage mode) inside the frame.
This module imports nothing from Streamlit.
"""

from pathlib import Path

PAGES_DIR = (Path(__file__).resolve().parents[1] / "pages").resolve()  # link -> ../pages
ENTRY = Path(__file__).resolve().with_name("streamlit_app.py")


def page_path(key: str) -> str:
    """The absolute path of the page script ``key`` (``"spa"`` -> ``.../pages/spa.py``)."""
    path = PAGES_DIR / f"{key}.py"
    if not path.is_file():
        raise KeyError(f"no page {key!r} in {PAGES_DIR}")
    return str(path)
