"""Sphinx configuration of olearn's documentation site.

Build: ``docs/build [OUTDIR]``, which runs ``sphinx-build -W --keep-going -b html`` on a copy
of ``docs/`` in a temporary folder, so that what sphinx-gallery writes beside the sources (the
examples' pages, ``auto_examples/``) stays out of the source tree.  Nothing is fetched while
building: no intersphinx, plotly.js is copied from the installed plotly package into
``_static`` and loaded by the gallery pages only.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import plotly.io as pio

DOCS = Path(__file__).resolve().parent
# the work tree (docs/build names it: it builds a copy of docs/ elsewhere)
ROOT = Path(os.environ.get("OLEARN_DOCS_ROOT", DOCS.parent))
sys.path.insert(0, str(ROOT))  # olearn from the work tree, also without `pip install -e .`
sys.path.insert(0, str(DOCS))  # _plotly_gallery

import _plotly_gallery  # noqa: E402

import olearn  # noqa: E402

project = "olearn"
author = "the olearn developers"
copyright = "the olearn developers, BSD-3-Clause"
try:
    from importlib.metadata import version as _version

    release = _version("olearn")
except Exception:  # a work tree that was never installed
    release = olearn.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "gallery"]
templates_path: list[str] = []

# autodoc + numpydoc: the estimators carry numpydoc docstrings; the rules' docstrings are
# shorter prose.  Members are listed explicitly per page (api/*.rst).
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"  # numpydoc's "Parameters" say the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3

# The gallery: every example is executed at build time; plotly figures shown with
# ``fig.show()`` are embedded interactive (see _plotly_gallery).
pio.renderers["olearn_sphinx_gallery"] = _plotly_gallery.GalleryRenderer()
pio.renderers.default = "olearn_sphinx_gallery"
os.environ.setdefault("OLEARN_DOCS_BUILD", "1")

sphinx_gallery_conf = {
    "examples_dirs": "gallery",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",  # execute every plot_*.py
    "run_stale_examples": True,  # on every build, also one whose page is already written
    "image_scrapers": ("_plotly_gallery.scraper",),
    "reset_modules": ("_plotly_gallery.reset",),
    "capture_repr": ("_repr_html_", "__repr__"),
    "download_all_examples": True,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "abort_on_example_error": False,
    "only_warn_on_example_error": False,  # a failing example fails the build
    "matplotlib_animations": False,
    "show_memory": False,
    "min_reported_time": 1,
}

html_theme = "pydata_sphinx_theme"
html_title = f"olearn {release}"
html_static_path = ["_static"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 6,
}
html_show_sourcelink = False


def _skip_sklearn_plumbing(app, what, name, obj, skip, options):
    """scikit-learn's metadata-routing methods (``set_fit_request``...) are added to every
    estimator class; their docstrings point into scikit-learn's own site."""
    if name == "get_metadata_routing" or (name.startswith("set_") and name.endswith("_request")):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_sklearn_plumbing)
    _plotly_gallery.setup(app)
