"""Interactive plotly figures in the sphinx-gallery examples, with nothing fetched.

An example shows a figure with ``fig.show()`` (as it would in a script or a notebook).  During
the build the default renderer is :class:`GalleryRenderer`, which only collects the figure;
:func:`scraper` then embeds it as a ``<div>`` without plotly.js.  plotly.js itself is copied
from the installed plotly package into ``_static`` and loaded by the gallery pages only (no
CDN: the built site works offline).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import plotly.io as pio
from plotly.io._base_renderers import ExternalRenderer

_shown: list[dict] = []
PLOTLY_JS = "plotly.min.js"


class GalleryRenderer(ExternalRenderer):
    """Keep every shown figure for :func:`scraper` (nothing is opened)."""

    def render(self, fig_dict):
        _shown.append(fig_dict)


# A figure drawn while the page is still laid out can take a width its column no longer has:
# resize every figure once the page has loaded (and with the window: ``responsive``).
_RESIZE = (
    "<script>if (!window.olearnPlotlyResize) { window.olearnPlotlyResize = true;"
    " window.addEventListener('load', function () {"
    " document.querySelectorAll('.plotly-graph-div').forEach("
    "function (gd) { Plotly.Plots.resize(gd); }); }); }</script>"
)


def scraper(block, block_vars, gallery_conf, **kwargs):
    """sphinx-gallery image scraper: the figures shown in this code block as raw HTML."""
    rst = ""
    for fig_dict in _shown:
        html = pio.to_html(
            fig_dict,
            config={"responsive": True},
            include_plotlyjs=False,
            full_html=False,
            default_width="100%",
            validate=False,
            auto_play=False,
        )
        body = f'<div class="olearn-plotly">\n{html}\n{_RESIZE}\n</div>'
        rst += "\n.. raw:: html\n\n" + textwrap.indent(body, "    ") + "\n"
    del _shown[:]
    return rst


def reset(gallery_conf, fname):
    """Before each example: our renderer, no figure left from the previous one."""
    pio.renderers.default = "olearn_sphinx_gallery"
    del _shown[:]


def _write_plotly_js(app):
    from plotly.offline import get_plotlyjs

    static = Path(app.outdir) / "_static"
    static.mkdir(parents=True, exist_ok=True)
    (static / PLOTLY_JS).write_text(get_plotlyjs(), encoding="utf-8")


def _plotly_on_gallery_pages(app, pagename, templatename, context, doctree):
    if pagename.startswith("auto_examples/"):
        app.add_js_file(PLOTLY_JS, priority=400)


def setup(app):
    app.connect("builder-inited", _write_plotly_js)
    app.connect("html-page-context", _plotly_on_gallery_pages)
