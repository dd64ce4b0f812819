"""A step-through played in the browser: Previous / Next / a slider / the keys ← and →, with
no Python rerun per step.

The page renders every step once and the stepper shows one of them:

- the step's *blocks* (text, formulas, tables): the page writes each step's content into
  ``st.container(key=f"{prefix}-{id}")`` for every step id; the stepper shows the current
  step's container and hides the others with one CSS rule it owns (no element is re-rendered);
- the step's *figures*: for each chart key, one complete plotly figure per step (JSON); the
  page draws the current one with ``st.plotly_chart(key=...)`` and the stepper swaps the
  chart's figure with ``Plotly.react`` (Streamlit's theme template is carried over).

Steps have ids (e.g. the index of the example an update happens on), so a page may send a
*window* of its steps: when the browser moves to the window's last step and there are more
(``more=True``), it reports at once and the page's rerun sends the next window.

Python hears back only after the lecturer stops (350 ms without a move): the stepper reports
``{"id": ...}``, the page stores it in its state and the URL, and the rerun draws the same
step, so nothing on screen changes.  Before the component has mounted, a CSS rule the page
emits (:func:`initial_css`) shows only the server's current step, so there is no flash of
all steps.  ``window.__olearnSteppers[key]`` exposes the latencies for
``benchmarks/app_timing.py``.
"""

from __future__ import annotations

import hashlib
import json

import streamlit as st

from olearn.app.player import bar_css, report_of, send_once

_HTML = """
<div class="ols">
  <div class="bar">
    <button class="prev"></button>
    <button class="next primary"></button>
    <input class="slider" type="range" min="0" value="0" step="1">
    <span class="count"></span>
  </div>
</div>
"""

_CSS = (
    bar_css("ols")
    + """
.ols button { min-width: 110px; font-size: 17px; }
.ols .count { font-size: 17px; font-variant-numeric: tabular-nums; min-width: 90px; }
"""
)

_JS = r"""
function hideRule(prefix, id) {  // every step container of `prefix` but the one of `id`
  return 'html body div[data-testid="stLayoutWrapper"]:has(> [class*="st-key-' + prefix +
    '-"]):not(:has(> .st-key-' + prefix + '-' + id + ')) { display: none !important; }';
}
export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const cfg = JSON.parse(data.config);
  const all = (window.__olearnSteppers = window.__olearnSteppers || {});
  let S = all[cfg.key];
  if (!S) S = all[cfg.key] = { latencies: [], base: {}, seq: 0, ack: cfg.ack };
  if (S.family !== cfg.family) {  // other data: start where the page says
    S.family = cfg.family; S.id = cfg.current; S.server = cfg.current; S.ack = cfg.ack;
  } else if (cfg.ack !== S.ack) {  // the page took one of our reports: the browser leads
    S.ack = cfg.ack; S.server = cfg.current;
  } else if (cfg.current !== S.server) {  // the page moved by itself: follow it
    S.id = cfg.current; S.server = cfg.current;
  }
  if (cfg.sig !== S.sig) {
    if (!data.figures) { setTriggerValue('pos', { need: cfg.sig }); return; }  // ask again
    S.sig = cfg.sig; S.raw = JSON.parse(data.figures);
  }
  if (!cfg.ids.includes(S.id)) S.id = cfg.current;
  S.cfg = cfg; S.report = setTriggerValue;
  const root = parentElement.querySelector('.ols');
  const $ = (s) => root.querySelector(s);
  const prev = $('.prev'), next = $('.next'), slider = $('.slider'), count = $('.count');
  prev.textContent = cfg.labels.prev; next.textContent = cfg.labels.next;
  slider.max = String(cfg.ids.length - 1);
  slider.setAttribute('aria-label', cfg.labels.slider || '');
  const pos = () => cfg.ids.indexOf(S.id);
  // the page's own rule (shown before we mount) is switched off by this class
  document.body.classList.add('ols-' + cfg.key);
  let style = document.getElementById('ols-style-' + cfg.key);
  if (!style) {
    style = document.createElement('style'); style.id = 'ols-style-' + cfg.key;
    document.head.appendChild(style);
  }
  const charts = () => Object.keys(S.raw || {}).map((k) =>
    [k, document.querySelector('.st-key-' + k + ' .js-plotly-plot')]).filter((p) => p[1]);
  const tag = (id) => cfg.family + ':' + id;
  function figure(k, i) {
    return S.raw[k][i];
  }
  async function draw(k, gd) {
    const i = pos();
    if (!window.Plotly || !gd._fullLayout || i < 0 || !S.raw[k] || !S.raw[k][i]) return;
    if (gd.layout && gd.layout.meta === tag(S.id)) return;
    if (gd.layout && gd.layout.template && !S.base[k]) S.base[k] = gd.layout.template;
    const f = figure(k, i);
    const layout = Object.assign({}, f.layout, { meta: tag(S.id) });
    if (S.base[k]) layout.template = S.base[k];  // Streamlit's theme, as on the server's draw
    await window.Plotly.react(gd, f.data, layout);
  }
  function label() {
    const i = pos(), n = cfg.ids.length;
    slider.value = String(i);
    count.textContent = cfg.titles[i] || ((i + 1) + ' / ' + n);
    prev.disabled = i <= 0 && !cfg.more_before;
    next.disabled = i >= n - 1 && !cfg.more;
    style.textContent = cfg.blocks.map((p) => hideRule(p, S.id)).join('\n');
  }
  function report(now) {
    clearTimeout(S.timer);
    const send = () => { if (S.report) { S.seq += 1; S.report('pos', { id: S.id, seq: S.seq }); } };
    if (now) send(); else S.timer = setTimeout(send, 350);
  }
  async function go(i) {
    const t0 = performance.now();
    const n = cfg.ids.length;
    if (i >= n) { if (cfg.more) { S.id = cfg.next_id; report(true); } return; }
    if (i < 0) { if (cfg.more_before) { S.id = cfg.prev_id; report(true); } return; }
    S.id = cfg.ids[i];
    label();
    await Promise.all(charts().map(([k, gd]) => draw(k, gd)));
    await new Promise((r) => requestAnimationFrame(() => r()));
    S.latencies.push(performance.now() - t0);
    report(i === n - 1 && cfg.more);
  }
  prev.onclick = () => go(pos() - 1);
  next.onclick = () => go(pos() + 1);
  slider.oninput = () => go(+slider.value);
  if (S.keys) document.removeEventListener('keydown', S.keys);
  S.keys = (e) => {
    const t = (e.target && e.target.tagName) || '';
    if (/INPUT|TEXTAREA|SELECT/.test(t) || (e.target && e.target.isContentEditable)) return;
    if (!document.body.contains(root)) return;
    if (e.key === 'ArrowRight') { e.preventDefault(); go(pos() + 1); }
    else if (e.key === 'ArrowLeft') { e.preventDefault(); go(pos() - 1); }
  };
  document.addEventListener('keydown', S.keys);
  S.go = go; S.root = root;
  label();
  // keep every chart on the shown step (Streamlit redraws a chart with the server's figure)
  let alive = true;
  function watch() {
    if (!alive) return;
    for (const [k, gd] of charts()) draw(k, gd);
    setTimeout(watch, 250);
  }
  watch();
  return () => {
    alive = false; clearTimeout(S.timer);
    document.removeEventListener('keydown', S.keys);
    document.body.classList.remove('ols-' + cfg.key);
    style.remove();
  };
}
"""

_component = st.components.v2.component("olearn_stepper", html=_HTML, css=_CSS, js=_JS)


def digest(*parts) -> str:
    """A short name for the data a stepper shows (its ``family``)."""
    return hashlib.sha1(repr(parts).encode()).hexdigest()[:12]


def window(ids, current, size: int = 10, margin: int = 3) -> tuple[list, object, object]:
    """The steps to send around ``current`` from all ``ids``: the block of ``size`` holding it
    plus ``margin`` either side (blocks, so a report inside one sends nothing new), and the
    ids just past either end (None at the ends of ``ids``).

    >>> window(list(range(0, 50, 2)), 24)
    ([14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44], 12, 46)
    >>> window([3, 5], 3)
    ([3, 5], None, None)
    """
    ids = list(ids)
    start = ids.index(current) // size * size
    lo, hi = max(0, start - margin), min(len(ids), start + size + margin)
    return ids[lo:hi], (ids[lo - 1] if lo > 0 else None), (ids[hi] if hi < len(ids) else None)


def block_key(prefix: str, step_id: int) -> str:
    """The key of step ``step_id``'s container of ``prefix`` (``st.container(key=...)``)."""
    return f"{prefix}-{int(step_id)}"


def initial_css(key: str, blocks: tuple[str, ...], current: int) -> str:
    """The page's own rule: only the current step's containers show until the stepper has
    mounted (it then owns the rule; the body class switches this one off)."""
    rules = [
        f'body:not(.ols-{key}) div[data-testid="stLayoutWrapper"]:has(> [class*="st-key-{p}-"])'
        f":not(:has(> .st-key-{p}-{int(current)})) {{ display: none; }}"
        for p in blocks
    ]
    return "<style>" + "\n".join(rules) + "</style>"


def stepper(
    key: str,
    ids: list[int],
    current: int,
    family: str,
    figures: dict[str, list[str]],
    labels: dict[str, str],
    blocks: tuple[str, ...] = (),
    titles: list[str] | None = None,
    more: int | None = None,
    less: int | None = None,
) -> int | None:
    """Mount the stepper; returns the step id the browser reported (on the rerun after the
    lecturer stopped), else None.

    ``ids`` are the steps sent (in order), ``current`` the one the page shows; ``family``
    names the data (a change resets the browser to ``current``); ``figures`` maps a chart key
    to one figure JSON per id; ``blocks`` are the container prefixes of :func:`block_key`;
    ``more`` / ``less`` are the ids past either end of the window, when there are any.
    The page must also emit :func:`initial_css` (``st.html``) before the blocks.
    """
    sig = f"{family}|{ids[0]}-{ids[-1]}"
    sent_key = f"_stepper.sent.{key}"
    parts = {k: "[" + ",".join(v) + "]" for k, v in figures.items()}  # a list per chart
    payload = send_once(sent_key, sig, parts)
    ack_key = f"_stepper.ack.{key}"  # the last report the page took (the browser then leads)
    config = dict(
        key=key,
        ack=st.session_state.get(ack_key, 0),
        ids=[int(i) for i in ids],
        current=int(current),
        family=family,
        sig=sig,
        labels=labels,
        blocks=list(blocks),
        titles=titles or [],
        more=more is not None,
        next_id=more,
        more_before=less is not None,
        prev_id=less,
    )
    result = _component(
        key=f"stepper-{key}",
        data={"config": json.dumps(config), "figures": payload},
        on_pos_change=lambda: None,
    )
    pos = report_of(result, sent_key)
    if isinstance(pos, dict) and "id" in pos:
        try:
            step_id, seq = int(pos["id"]), int(pos.get("seq", 0))
        except (TypeError, ValueError):
            return None
        st.session_state[ack_key] = seq
        return step_id
    return None
