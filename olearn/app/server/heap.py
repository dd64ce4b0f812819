"""The server's long-lived heap, set apart from the collection Streamlit runs after every script.

Streamlit ends every script run with a full garbage collection (``runner.postScriptGC``,
on by default: ``gc.collect(2)``).  A full collection walks every object the process tracks,
and olearn's server holds ~320,000 of them once its kernels are loaded and the default
views prepared (numba, scipy, scikit-learn, plotly, the cached figures): ~150 ms of CPU per
script run on this 2-core machine, the whole of olearn's cost per arrival above a minimal
Streamlit app (issue 23's profile: ``py-spy`` over 40 arrivals, 34% of the server's samples
in ``ScriptRunner._on_script_finished``).

:func:`settle` runs once per server, at the end of its background preparation
(:mod:`olearn.app.server.serve` under ``olearn app``; :func:`prepare_and_settle` after the
kernels under ``streamlit run app.py``): :func:`gc.freeze` moves everything alive to the permanent
generation, which collections skip.  The collection after each run then walks only
what sessions made since (well under a millisecond for a page's run), and still frees their
garbage, so Streamlit's reason for it (memory that would otherwise build up) holds.  What is
frozen is never collected: the modules, compiled kernels and cached defaults, which live as
long as the server anyway.
"""

from __future__ import annotations

import gc


def settle() -> int:
    """Freeze what is alive now (see the module); the number of objects frozen so far."""
    gc.collect()  # the warm-up's own garbage goes first, rather than being kept for good
    gc.freeze()
    return gc.get_freeze_count()


def prepare_and_settle() -> None:
    """The server's default views (:func:`olearn.app.cached.prepare_defaults`, yielding to
    pages between two of them), then :func:`settle`: what the background preparation runs
    after the kernels under ``streamlit run app.py``."""
    from olearn.app.cached import prepare_defaults
    from olearn.app.server.background import yield_to_pages

    try:
        prepare_defaults(pause=yield_to_pages)
    finally:
        settle()
