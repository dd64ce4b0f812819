"""A frame player for animated plotly charts, played in the browser (no Python rerun per frame).

The page draws its charts with ``st.plotly_chart(fig, key=...)`` (the figure at one t, no
frames) and calls :func:`player` with the charts' keys and their frames.  The player (a
``st.components.v2`` component: a few lines of JavaScript in the app page, no iframe) adds
the frames to each chart once with ``Plotly.addFrames`` and then moves every chart to the
same frame: Play / Pause / Step / Back / Rewind, a time slider, a speed choice, and the
keys space, ← and →.  A frame is shown by rewriting the SVG plotly drew (the region and line
paths, which points are visible, the moving markers, the count text): a few milliseconds,
where ``Plotly.animate`` restyles every point of every trace (~100 ms for four panels).
Once stopped, the player also brings plotly's own data to that frame with
``Plotly.animate`` (so hover, PNG export and a resize show it too).  It shows the current
step's note (one line per t, given by the page) beside the buttons.

Python hears back only when the lecturer stops: on Pause, Step, Back, Rewind, a slider
release or a speed change, the player reports ``{"t": ..., "fps": ...}`` (a trigger value,
debounced); the page stores it and writes it to the URL, so a shared link shows the frame on
screen.  A report can be lost on its way (the rerun it asks for replaced by another one while
the server is busy): the browser checks that the URL, which only the server writes, shows the
frame on screen and sends the report again until it does.  The report's rerun finds the same
(cached) figures, so nothing is redrawn.

Each chart's ``layout.meta`` carries a signature of its data; the player waits for charts
with its signature before adding frames, and re-applies the current frame whenever a chart
was redrawn (its ``data[0].meta`` is the frame it shows).  ``window.__olearnPlayers[id]``
exposes counters for ``benchmarks/app_timing.py``.
"""

from __future__ import annotations

import json
import re

import streamlit as st

_HTML = """
<div class="olp">
  <div class="bar">
    <button class="rew" title="Rewind">|◀◀</button>
    <button class="back" title="Back">◀</button>
    <button class="play primary"></button>
    <button class="step" title="Step">▶</button>
    <input class="slider" type="range" min="0" value="0" step="1">
    <span class="tval"></span>
    <select class="speed"></select>
  </div>
  <div class="note"></div>
</div>
"""


def bar_css(root: str) -> str:
    """The look of a bar of controls under ``.<root>`` (shared with :mod:`olearn.app.stepper`):
    Streamlit's font and accent colour, 40 px buttons, a primary button, a stretching
    slider."""
    return f"""
.{root} {{ font-family: "Source Sans Pro", "Noto Sans JP", sans-serif; color: #111; }}
.{root} .bar {{ display: flex; align-items: center; gap: 6px; flex-wrap: wrap; }}
.{root} button {{ font-size: 18px; min-width: 44px; height: 40px; border-radius: 8px;
  border: 1px solid #bbb; background: #fff; cursor: pointer; padding: 0 10px; }}
.{root} button:hover:enabled {{ border-color: #ff4b4b; }}
.{root} button.primary {{ background: #ff4b4b; color: #fff; border-color: #ff4b4b;
  min-width: 100px; font-weight: 600; }}
.{root} button:disabled {{ opacity: 0.4; cursor: default; }}
.{root} .slider {{ flex: 1 1 140px; min-width: 100px; height: 28px; accent-color: #ff4b4b; }}
"""


_CSS = (
    bar_css("olp")
    + """
.olp .tval { font-size: 18px; font-variant-numeric: tabular-nums; min-width: 110px; }
.olp select { font-size: 16px; height: 36px; border-radius: 8px; }
.olp .note { font-size: 17px; line-height: 1.35; margin-top: 6px; min-height: 2.7em; }
"""
)

_JS = r"""
const SVG = 'http://www.w3.org/2000/svg';
const b64cache = new WeakMap();
function bytes(spec) {  // plotly typed-array spec {dtype: 'u1', bdata} -> Uint8Array
  if (Array.isArray(spec)) return spec;
  let out = b64cache.get(spec);
  if (!out) {
    const bin = atob(spec.bdata); out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    b64cache.set(spec, out);
  }
  return out;
}
function pathOf(xs, ys, xa, ya, close) {  // data -> pixel path; null gaps start a new subpath
  let d = '', start = true;
  for (let i = 0; i < xs.length; i++) {
    if (xs[i] === null || ys[i] === null) { if (close && !start) d += 'Z'; start = true; continue; }
    d += (start ? 'M' : 'L') + xa.c2p(xs[i]).toFixed(1) + ',' + ya.c2p(ys[i]).toFixed(1);
    start = false;
  }
  if (close && !start) d += 'Z';
  return d;
}
function overlay(g, cls, own, style) {  // our path in the trace group; plotly's own hidden
  let el = g.querySelector('path.' + cls);
  if (!el) {
    el = document.createElementNS(SVG, 'path'); el.setAttribute('class', cls);
    g.insertBefore(el, g.firstChild);
  }
  for (const [k, v] of Object.entries(style)) el.style.setProperty(k, v);
  g.querySelectorAll(own).forEach((o) => { o.style.display = 'none'; });
  return el;
}
// Move a chart to frame f by writing the SVG plotly drew (a few ms), not through
// Plotly.animate (which restyles every point of every trace: ~100 ms for 4 panels).
// Returns false when the chart's DOM is not what we expect (the caller then animates).
function fastApply(gd, f) {
  const fl = gd._fullLayout; if (!fl || !fl._plots) return false;
  const groups = {};
  gd.querySelectorAll('g.trace.scatter').forEach((g) => {
    const cd = g.__data__; const tr = cd && cd[0] && cd[0].trace;
    if (tr) groups[tr.index] = [g, tr];
  });
  for (let j = 0; j < f.traces.length; j++) {
    const hit = groups[f.traces[j]]; if (!hit) return false;
    const [g, tr] = hit; const u = f.data[j];
    const sp = fl._plots[(tr.xaxis || 'x') + (tr.yaxis || 'y')]; if (!sp) return false;
    const xa = sp.xaxis, ya = sp.yaxis;
    const mode = tr.mode || '';
    if (u.x && u.y && (tr.fill === 'toself' || mode.includes('lines'))) {
      if (tr.fill === 'toself') {
        overlay(g, 'olp-fill', 'path.js-fill', { fill: tr.fillcolor, stroke: 'none' })
          .setAttribute('d', pathOf(u.x, u.y, xa, ya, true));
      }
      if (mode.includes('lines') && tr.line && tr.line.width > 0) {
        const own = g.querySelector('path.js-line');
        const dash = own ? own.style.strokeDasharray : '';
        overlay(g, 'olp-line', 'path.js-line', { fill: 'none', stroke: tr.line.color,
          'stroke-width': tr.line.width + 'px', 'stroke-dasharray': dash || 'none' })
          .setAttribute('d', pathOf(u.x, u.y, xa, ya, false));
      }
    }
    if (u.x && u.y && mode.includes('markers')) {  // (lines+markers: both)
      const nodes = g.querySelectorAll('path.point');
      if (nodes.length < u.x.length) return false;
      nodes.forEach((nd, i) => {
        if (i < u.x.length) {
          nd.setAttribute('transform', 'translate(' + xa.c2p(u.x[i]) + ',' + ya.c2p(u.y[i]) + ')');
          nd.style.display = '';
          const c = u.marker && u.marker.color;
          if (typeof c === 'string') nd.style.fill = c;
        } else { nd.style.display = 'none'; }
      });
    }
    if (u.marker && u.marker.opacity !== undefined && typeof u.marker.opacity === 'object') {
      const op = bytes(u.marker.opacity); const nodes = g.querySelectorAll('path.point');
      if (nodes.length !== op.length) return false;
      for (let i = 0; i < op.length; i++) {
        const show = op[i] > 0; const nd = nodes[i];
        if (show) { if (nd.style.display === 'none' || nd.style.opacity !== '1') {
          nd.style.display = ''; nd.style.opacity = '1'; } }
        else if (nd.style.display !== 'none') { nd.style.display = 'none'; }
      }
    }
    if (u.text) {
      const el = g.querySelector('g.textpoint text'); if (!el) return false;
      el.textContent = u.text[0];
    }
  }
  gd.__olpShown = f.name;
  return true;
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const cfg = JSON.parse(data.config);
  const all = (window.__olearnPlayers = window.__olearnPlayers || {});
  let P = all[cfg.id];
  if (!P) {
    P = all[cfg.id] = { t: cfg.t, fps: cfg.fps, playing: false, sig: null, frames: null,
      rendered: 0, timer: null, report: null, latencies: [], fast: 0, slow: 0,
      sends: 0, resends: 0 };
  }
  if (P.sig !== cfg.sig) {  // new data: new frames, start from the page's t
    if (!data.frames) { setTriggerValue('pos', { need: cfg.sig }); return; }  // ask again
    P.sig = cfg.sig; P.frames = JSON.parse(data.frames); P.t = cfg.t; P.fps = cfg.fps;
    P.playing = false;
  }
  P.cfg = cfg; P.report = setTriggerValue;
  const root = parentElement.querySelector('.olp');
  const $ = (s) => root.querySelector(s);
  const slider = $('.slider'), tval = $('.tval'), note = $('.note'), play = $('.play');
  const speed = $('.speed');
  slider.max = String(cfg.n);
  $('.rew').title = cfg.labels.rewind; $('.back').title = cfg.labels.back;
  $('.step').title = cfg.labels.step;
  if (!speed.options.length) {
    for (const f of cfg.speeds) {
      const o = document.createElement('option'); o.value = f;
      o.textContent = f + ' ' + cfg.labels.fps; speed.appendChild(o);
    }
  }
  speed.value = String(P.fps);
  const key = (gd) => cfg.charts.find((k) => gd.closest('.st-key-' + k));
  const charts = () => cfg.charts.map((k) =>
    document.querySelector('.st-key-' + k + ' .js-plotly-plot')).filter(Boolean);
  const ready = (gd) => gd.layout && gd.layout.meta === P.sig && window.Plotly && gd._fullLayout;
  const shown = (gd) => (gd.__olpShown !== undefined ? +gd.__olpShown
    : gd.data && gd.data[0] ? gd.data[0].meta : undefined);
  function label() {
    slider.value = String(P.t);
    tval.textContent = 't = ' + P.t + ' / ' + cfg.n;
    note.innerHTML = cfg.notes[P.t] || '';
    play.textContent = P.playing ? '‖ ' + cfg.labels.pause : '▶ ' + cfg.labels.play;
  }
  const OPTS = { mode: 'immediate', frame: { duration: 0, redraw: false },
    transition: { duration: 0 } };
  function ensureFrames(gd) {
    const have = (gd._transitionData && gd._transitionData._frames) || [];
    const fr = P.frames[key(gd)];
    if (fr && have.length !== fr.length) window.Plotly.addFrames(gd, fr);
  }
  async function draw(gd, t) {
    const fr = P.frames[key(gd)]; if (!fr || !fr[t]) return;
    if (fastApply(gd, fr[t])) { P.fast += 1; return; }
    P.slow += 1; ensureFrames(gd);
    gd.__olpShown = undefined;
    await window.Plotly.animate(gd, [String(t)], OPTS);
  }
  async function show(t) {
    P.t = Math.max(0, Math.min(cfg.n, t));
    label();
    await Promise.all(charts().filter(ready).map((gd) => draw(gd, P.t)));
    P.rendered += 1;
    scheduleSync();
  }
  // once stopped, bring plotly's own data to the shown frame (hover, PNG export, resize)
  function scheduleSync() {
    clearTimeout(P.syncTimer);
    if (P.playing) return;
    P.syncTimer = setTimeout(async () => {
      const t = P.t;
      for (const gd of charts().filter(ready)) {
        if (P.playing || P.t !== t) return;
        if (gd.data[0] && gd.data[0].meta === t) continue;
        ensureFrames(gd);
        await window.Plotly.animate(gd, [String(t)], OPTS);
        const fr = P.frames[key(gd)];
        if (fr && fr[P.t]) fastApply(gd, fr[P.t]);
      }
    }, 700);
  }
  // Report the shown frame to Python (debounced), then confirm it arrived: the server writes
  // the value it adopted to the URL, so until the URL shows this frame, send it again (a
  // report can be lost: the rerun it asked for replaced by another), backing off 0.4, 0.8,
  // 1.6... s so a slow server is not interrupted forever.
  const urlValue = (t) => String(cfg.url.values ? cfg.url.values[t] : t);
  const inUrl = () => new URL(location.href).searchParams.get(cfg.url.name);
  function send(tries) {
    clearTimeout(P.confirmTimer);
    if (P.playing || !P.report) return;
    P.report('pos', { t: P.t, fps: P.fps });
    P.sends += 1;
    if (!cfg.url || tries >= 8) return;
    P.confirmTimer = setTimeout(() => {
      if (!P.playing && inUrl() !== urlValue(P.t)) { P.resends += 1; send(tries + 1); }
    }, 400 * 2 ** tries);
  }
  function report() {
    clearTimeout(P.reportTimer); clearTimeout(P.confirmTimer);
    P.reportTimer = setTimeout(() => send(0), 200);
  }
  async function loop() {
    if (!P.playing) return;
    const start = performance.now();
    if (P.t >= cfg.n) { P.playing = false; label(); report(); scheduleSync(); return; }
    await show(P.t + 1);
    const wait = Math.max(0, 1000 / P.fps - (performance.now() - start));
    P.timer = setTimeout(() => requestAnimationFrame(loop), wait);
  }
  function setPlaying(on) {
    P.playing = on; clearTimeout(P.timer); label();
    if (on) { if (P.t >= cfg.n) P.t = 0; loop(); } else { report(); scheduleSync(); }
  }
  async function jump(t) {
    const t0 = performance.now();
    if (P.playing) { P.playing = false; clearTimeout(P.timer); }
    await show(t);
    await new Promise((r) => requestAnimationFrame(() => r()));
    P.latencies.push(performance.now() - t0);
    report();
  }
  play.onclick = () => setPlaying(!P.playing);
  $('.step').onclick = () => jump(P.t + 1);
  $('.back').onclick = () => jump(P.t - 1);
  $('.rew').onclick = () => jump(0);
  slider.oninput = () => { P.playing = false; clearTimeout(P.timer); show(+slider.value); };
  slider.onchange = () => report();
  speed.onchange = () => { P.fps = +speed.value; if (!P.playing) report(); };
  if (P.keys) document.removeEventListener('keydown', P.keys);
  P.keys = (e) => {
    const tag = (e.target && e.target.tagName) || '';
    if (/INPUT|TEXTAREA|SELECT/.test(tag) || (e.target && e.target.isContentEditable)) return;
    if (!document.body.contains(root)) return;
    if (e.key === ' ') { e.preventDefault(); setPlaying(!P.playing); }
    else if (e.key === 'ArrowRight') { e.preventDefault(); jump(P.t + 1); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); jump(P.t - 1); }
  };
  document.addEventListener('keydown', P.keys);
  P.jump = jump; P.setPlaying = setPlaying; P.root = root;
  label();
  // wait for the charts of this signature, then (and after any redraw) show P.t
  let alive = true;
  const hooked = new WeakSet();
  function watch() {
    if (!alive) return;
    for (const gd of charts()) {
      if (!ready(gd)) continue;
      if (!hooked.has(gd)) {
        hooked.add(gd);
        gd.on('plotly_afterplot', () => { gd.__olpShown = undefined; });
      }
      if (!P.playing && shown(gd) !== P.t) { draw(gd, P.t); }
    }
    setTimeout(watch, 300);
  }
  watch();
  return () => { alive = false; clearTimeout(P.timer); P.playing = false;
    document.removeEventListener('keydown', P.keys); };
}
"""

_component = st.components.v2.component("olearn_player", html=_HTML, css=_CSS, js=_JS)


# The browser drew the player's current frame on every chart of its signature (page and
# benchmark wait on this).
PLAYER = "Object.values(window.__olearnPlayers || {})[0]"
READY_JS = (
    "() => { const P = " + PLAYER + "; if (!P) return false;"
    " const gds = [...document.querySelectorAll('.js-plotly-plot')]"
    ".filter(g => g.layout && g.layout.meta === P.sig);"
    " return gds.length >= 2 && gds.every(g => g.__olpShown !== undefined"
    " || (g.data[0] && g.data[0].meta === P.t)); }"
)


def send_once(sent_key: str, sig: str, parts: dict[str, str]) -> str:
    """The JSON object of ``parts`` (name -> JSON text) the first time this session sees
    ``sig``, else "" (the browser keeps what it was sent; a browser that lacks it asks, see
    :func:`report_of`)."""
    if st.session_state.get(sent_key) == sig:
        return ""
    st.session_state[sent_key] = sig
    return "{" + ",".join(f"{json.dumps(k)}:{v}" for k, v in parts.items()) + "}"


def report_of(result, sent_key: str):
    """The component's report (its ``pos`` trigger), after handling the browser's "I have no
    payload" (a reload): forget that it was sent and rerun, which sends it again."""
    pos = getattr(result, "pos", None)
    if isinstance(pos, dict) and pos.get("need"):
        st.session_state.pop(sent_key, None)
        st.rerun()
    return pos


def chart_key(name: str) -> str:
    """A chart key usable both by ``st.plotly_chart(key=...)`` and in the CSS class
    ``st-key-<key>`` the player looks for (letters, digits, ``_`` and ``-`` only).

    >>> chart_key("play.planes")
    'play-planes'
    """
    return re.sub(r"[^A-Za-z0-9_-]", "-", name)


def player(
    key: str,
    charts: dict[str, str],
    n: int,
    t: int,
    sig: str,
    notes: list[str],
    labels: dict[str, str],
    fps: int = 10,
    speeds: tuple[int, ...] = (2, 5, 10, 20, 30, 60),
    url: str | None = "t",
    url_values: list | None = None,
) -> dict | None:
    """Mount the player for ``charts`` (chart key -> that chart's frames as a JSON string).

    Returns ``{"t": ..., "fps": ...}`` on the rerun that follows a stop (Pause, Step, a
    slider release...), else None.  ``sig`` must change whenever the frames do.

    The frames (megabytes for n = 400) are sent once per signature and session: later
    reruns send none, and a browser that lacks them (a reload) asks, which resends them.

    ``url`` names the URL parameter where the page writes the reported frame (as
    ``url_values[t]`` when given, else ``t``): the browser sends its report again until the
    URL shows the frame on screen, so the last change is never lost (None: no check).
    """
    sent_key = f"_player.sent.{key}"
    frames = send_once(sent_key, sig, charts)
    config = dict(
        id=key,
        sig=sig,
        n=int(n),
        t=int(t),
        fps=int(fps),
        speeds=list(speeds),
        charts=list(charts),
        notes=notes,
        labels=labels,
        url=None if url is None else {"name": url, "values": url_values},
    )
    result = _component(
        key=key,
        data={"config": json.dumps(config), "frames": frames},
        on_pos_change=lambda: None,
    )
    pos = report_of(result, sent_key)
    if isinstance(pos, dict) and "t" in pos:
        return pos
    return None
