// The stepper (olearn.app.components.stepper): Previous / Next / a slider / the keys (→, PageDown
// and space / ←, PageUp), the page's steps shown in the browser.  Its state is public on its root element (.ols): data-id (the
// step shown), data-moves and data-latency (the last move: ms from the click to the painted
// charts).

const steppers = componentStates('olearn.stepper'); // (component_base.js)

// every step container of `prefix` but the one of `id`
function hideRule(prefix, id) {
  return (
    `html body div[data-testid="stLayoutWrapper"]:has(> [class*="st-key-${prefix}-"])` +
    `:not(:has(> .st-key-${prefix}-${id})) { display: none !important; }`
  );
}

function adopt(S, cfg) {
  if (S.family !== cfg.family) {
    // other data: start where the page says
    S.family = cfg.family;
    S.id = cfg.current;
    S.server = cfg.current;
    S.ack = cfg.ack;
    S.revealed = cfg.predict ? cfg.predict.revealed : true;
  } else if (cfg.ack !== S.ack) {
    // the page took one of our reports: the browser leads
    S.ack = cfg.ack;
    S.server = cfg.current;
  } else if (cfg.current !== S.server) {
    // the page moved by itself: follow it
    S.id = cfg.current;
    S.server = cfg.current;
    S.revealed = cfg.predict ? cfg.predict.revealed : true;
  }
  if (!cfg.predict) S.revealed = true;
  else if (S.predicting !== true) S.revealed = cfg.predict.revealed; // (predict just turned on)
  S.predicting = Boolean(cfg.predict);
}

// every container of `prefix` (predict mode: the answers, before the reveal)
function hideAll(prefix) {
  return (
    `html body div[data-testid="stLayoutWrapper"]:has(> [class*="st-key-${prefix}-"])` +
    ' { display: none !important; }'
  );
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const cfg = JSON.parse(data.config);
  let S = steppers.get(cfg.key);
  if (!S) {
    S = { base: {}, seq: 0, ack: cfg.ack, moves: 0, latency: 0 };
    steppers.set(cfg.key, S);
  }
  adopt(S, cfg);
  if (cfg.sig !== S.sig) {
    if (!data.figures) {
      setTriggerValue('pos', { need: cfg.sig }); // a reload: ask for the figures again
      return;
    }
    S.sig = cfg.sig;
    S.raw = JSON.parse(data.figures);
  }
  if (!cfg.ids.includes(S.id)) S.id = cfg.current;
  S.report = setTriggerValue;
  const root = parentElement.querySelector('.ols');
  const $ = (s) => root.querySelector(s);
  const prev = $('.prev');
  const next = $('.next');
  const slider = $('.slider');
  const count = $('.count');
  prev.textContent = cfg.labels.prev;
  next.textContent = cfg.labels.next;
  slider.max = String(cfg.ids.length - 1);
  slider.setAttribute('aria-label', cfg.labels.slider || '');
  $('.keys').textContent = cfg.labels.keys || '';
  const pos = () => cfg.ids.indexOf(S.id);
  // the page's own rule (shown before we mount) is switched off by this class
  document.body.classList.add(`ols-${cfg.key}`);
  let style = document.getElementById(`ols-style-${cfg.key}`);
  if (!style) {
    style = document.createElement('style');
    style.id = `ols-style-${cfg.key}`;
    document.head.appendChild(style);
  }
  // the charts' keys ("?<key>": predict mode's question figures of chart <key>)
  const keys = () => Object.keys(S.raw || {}).filter((k) => !k.startsWith('?'));
  const charts = () =>
    keys()
      .map((k) => document.querySelector(`.st-key-${k} .js-plotly-plot`))
      .filter(Boolean);
  // predict mode: the current step asks a question whose answer is not shown yet
  const asks = (id) => Boolean(cfg.predict?.questions.includes(id));
  const hiding = () => asks(S.id) && !S.revealed;
  const tag = (id, question) => `${cfg.family}:${id}${question ? ':q' : ''}`;
  async function draw(gd) {
    const k = keys().find((key) => gd.closest(`.st-key-${key}`));
    const i = pos();
    if (!window.Plotly || !gd.layout || i < 0 || !S.raw[k]?.[i]) return;
    const question = hiding() ? S.raw[`?${k}`]?.[i] : null; // what comes after, left out
    if (gd.layout.meta === tag(S.id, question)) return;
    if (gd.layout.template && !S.base[k]) S.base[k] = gd.layout.template;
    const f = question || S.raw[k][i];
    const layout = Object.assign({}, f.layout, { meta: tag(S.id, question) });
    if (S.base[k]) layout.template = S.base[k]; // Streamlit's theme, as on the server's draw
    // and Streamlit's size (a chart stretched to the screen is not the figure's height)
    for (const side of ['width', 'height']) if (gd.layout[side]) layout[side] = gd.layout[side];
    await window.Plotly.react(gd, f.data, layout);
  }
  function publish() {
    Object.assign(root.dataset, {
      id: S.id,
      moves: S.moves,
      latency: S.latency.toFixed(1),
      revealed: S.revealed,
    });
  }
  function label() {
    const i = pos();
    const n = cfg.ids.length;
    slider.value = String(i);
    count.textContent = cfg.titles[i] || `${i + 1} / ${n}`;
    prev.disabled = i <= 0 && !cfg.more_before;
    next.disabled = i >= n - 1 && !cfg.more && !hiding();
    next.textContent = hiding() ? cfg.labels.reveal || cfg.labels.next : cfg.labels.next;
    const rules = cfg.blocks.map((p) => hideRule(p, S.id));
    for (const a of cfg.predict?.answers || []) {
      rules.push(hiding() ? hideAll(a) : hideRule(a, S.id));
    }
    style.textContent = rules.join('\n');
    publish();
  }
  // the step's value in the URL (the server writes it there once it took a report), and in
  // predict mode whether its answer shows (?reveal=1)
  const arrived =
    cfg.url &&
    (() =>
      urlParam(cfg.url.name) === String(S.id + cfg.url.offset) &&
      (!cfg.predict || urlParam('reveal') === (S.revealed ? '1' : '0')));
  function report(now) {
    clearTimeout(S.timer);
    clearTimeout(S.confirmTimer);
    const send = () => {
      if (!S.report) return false;
      S.seq += 1;
      S.report('pos', { id: S.id, seq: S.seq, revealed: S.revealed });
      return true;
    };
    const start = () => reportUntilArrived(S, send, arrived);
    if (now) start();
    else S.timer = setTimeout(start, 350);
  }
  async function go(i) {
    const t0 = performance.now();
    const n = cfg.ids.length;
    const here = pos();
    if (i === here + 1 && hiding()) {
      S.revealed = true; // predict mode: Next first reveals the answer, then moves on
    } else if (i >= n) {
      if (cfg.more) {
        S.id = cfg.next_id;
        S.revealed = !cfg.predict;
        report(true);
      }
      return;
    } else if (i < 0) {
      if (cfg.more_before) {
        S.id = cfg.prev_id;
        S.revealed = true;
        report(true);
      }
      return;
    } else {
      S.id = cfg.ids[i];
      S.revealed = !asks(S.id) || i < here; // a question ahead waits; one behind was seen
    }
    label();
    await Promise.all(charts().map(draw));
    await new Promise((r) => requestAnimationFrame(() => r()));
    S.latency = performance.now() - t0;
    S.moves += 1;
    publish();
    report(pos() === n - 1 && cfg.more && S.revealed);
  }
  prev.onclick = () => go(pos() - 1);
  next.onclick = () => go(pos() + 1);
  slider.oninput = () => go(+slider.value);
  const unbind = bindKeys(
    S,
    root,
    stepKeys({ next: () => go(pos() + 1), prev: () => go(pos() - 1) }),
  );
  const unhold = holdReportsOnPresses(S, root); // (component_base.js)
  label();
  // keep every chart on the shown step (Streamlit draws a chart with the server's figure)
  const stop = watchCharts(charts, draw);
  return () => {
    stop();
    unbind();
    unhold();
    clearTimeout(S.timer);
    clearTimeout(S.confirmTimer);
    document.body.classList.remove(`ols-${cfg.key}`);
    style.remove();
  };
}
