"""Figures out of the app, for slides and for offline use, at no cost to the server.

- Every chart (:func:`plot`): the modebar's camera saves a 2x PNG, and an "SVG" button that
  :func:`figure_tools` adds beside it saves an SVG (``Plotly.downloadImage`` in the browser;
  plotly's config cannot carry a second image button, its ``click`` being a function).  The
  files are named ``olearn-<chart key>``.
- Every animation (Playground, CS-SVM): :func:`animation_button` offers one self-contained
  HTML file (plotly.js inlined) that plays offline, built only when the button is clicked
  (``st.download_button`` with a callable), so a rerun of the page builds nothing.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import streamlit as st

from olearn.viz.animate import animated_dict, animation_html
from olearn.viz.common import PLOTLY_CONFIG

_JS = r"""
const ICON = '<svg viewBox="0 0 28 16" class="icon" height="1em" width="1.75em">'
  + '<text x="14" y="13" text-anchor="middle" font-size="13" font-weight="700"'
  + ' font-family="sans-serif" class="olearn-svg-label">SVG</text></svg>';
export default function (component) {
  const cfg = JSON.parse(component.data.config);
  const T = (window.__olearnFigureTools = window.__olearnFigureTools || { added: 0 });
  T.title = cfg.title;
  if (T.timer) return;  // one watcher per tab: every chart, every page
  function add(gd) {
    const bar = gd.querySelector('.modebar');
    if (!bar || !window.Plotly) return;
    let a = bar.querySelector('.olearn-svg');
    if (!a) {
      const camera = bar.querySelector('[data-title*="PNG" i]');
      const group = camera ? camera.parentElement : bar.querySelector('.modebar-group');
      if (!group) return;
      a = document.createElement(camera ? camera.tagName : 'button');  // plotly's own kind
      a.className = 'modebar-btn olearn-svg';
      a.setAttribute('rel', 'tooltip');
      a.setAttribute('data-gravity', 'n');
      if (a.tagName === 'BUTTON') a.type = 'button';
      a.innerHTML = ICON;
      a.addEventListener('click', () => {
        const o = (gd._context && gd._context.toImageButtonOptions) || {};
        const L = gd._fullLayout || {};
        window.Plotly.downloadImage(gd, { format: 'svg', filename: o.filename || 'olearn',
          width: L.width, height: L.height });
      });
      group.insertBefore(a, camera ? camera.nextSibling : null);
      T.added += 1;
    }
    a.setAttribute('data-title', T.title);
    a.setAttribute('aria-label', T.title);
  }
  const label = document.createElement('style');  // the modebar's icon colour, on hover too
  label.textContent = '.olearn-svg-label { fill: rgba(68,68,68,0.3); }'
    + ' .olearn-svg:hover .olearn-svg-label { fill: rgba(68,68,68,0.7); }';
  document.head.appendChild(label);
  T.timer = setInterval(() => document.querySelectorAll('.js-plotly-plot').forEach(add), 400);
}
"""

_component = st.components.v2.component("olearn_figure_tools", html="", js=_JS)


def chart_config(key: str | None) -> dict:
    """The plotly config of chart ``key``: the app's (:data:`PLOTLY_CONFIG`), its image files
    named ``olearn-<key>``.

    >>> chart_config("cmp.err")["toImageButtonOptions"]
    {'format': 'png', 'scale': 2, 'filename': 'olearn-cmp-err'}
    """
    name = "olearn" if not key else "olearn-" + "".join(c if c.isalnum() else "-" for c in key)
    return {
        **PLOTLY_CONFIG,
        "toImageButtonOptions": {**PLOTLY_CONFIG["toImageButtonOptions"], "filename": name},
    }


def plot(fig, key: str | None = None, **kw):
    """Render a plotly figure full width with :func:`chart_config` (PNG and SVG downloads)."""
    return st.plotly_chart(fig, config=chart_config(key), key=key, **kw)


def figure_tools(title: str) -> None:
    """Mount, once per run (the frame does it), the browser code that adds the "SVG" button
    (tooltip ``title``) to every chart's modebar."""
    _component(key="olearn-figure-tools", data={"config": json.dumps({"title": title})})


def stream_html(views: dict, title: str = "olearn Playground") -> str:
    """The Playground's animation as one HTML page: the planes with the play control, the
    curves (and the weight space, if drawn) following it; ``views`` as
    :func:`olearn.app.cached.stream_views` returns it (the frames the app plays)."""
    lead = animated_dict(views["planes"], views["unpacked_planes"]())  # the player's are packed
    followers = [
        animated_dict(views[name], json.loads(views["frames"][name]), controls=False)
        for name in ("curves", "weights")
        if views.get(name) is not None
    ]
    return animation_html(lead, followers, title, chart_config("playground"))


def cs_html(views: dict, title: str = "olearn Crammer-Singer SVM") -> str:
    """The Crammer-Singer decomposition as one HTML page that plays; ``views`` as
    :func:`olearn.app.cached.cs_player_views` returns it.  The slider reads each frame's
    number among the sub-problems that changed W, as the page counts them."""
    lead = animated_dict(views["figure"], json.loads(views["frames"]), views["ks"], 5, "# ")
    return animation_html(lead, (), title, chart_config("cs_svm"))


def animation_button(
    labels: tuple[str, str], build: Callable[[], str], file_name: str, key: str
) -> None:
    """A download button (``labels``: its label and help) for an animation's HTML, built by
    ``build()`` only when clicked (no rerun follows the click)."""
    st.download_button(
        labels[0],
        help=labels[1],
        data=lambda: build().encode("utf-8"),
        file_name=file_name,
        mime="text/html",
        key=key,
        on_click="ignore",
        icon=":material/download:",
    )
