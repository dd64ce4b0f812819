// The frame player (olearn.app.components.player): Play / Pause / Step / Back / Rewind, a time
// slider, a speed, the keys (space plays and pauses; →, PageDown / ←, PageUp step), every chart
// of the page moved to the same frame in the browser.  Its state is public on its root element
// (.olp): data-t, data-n, data-sig, data-url (the frame's name in the URL), data-playing,
// data-ready (every chart shows data-t), data-rendered (frames drawn), data-fast / data-slow
// (drawn by svgFrame / by Plotly.animate), data-jumps and data-latency (the last Step/Back/key:
// ms from the click to the next paint), data-sends / data-resends (reports to the server),
// data-owed (a report waits for the run a press elsewhere on the page asked for:
// holdReportsOnPresses).

const players = componentStates('olearn.player'); // (component_base.js)
const OPTS = {
  mode: 'immediate',
  frame: { duration: 0, redraw: false },
  transition: { duration: 0 },
};

// A chart's frames as plotly takes them, from what the page sent: a list of frames as it
// is, or packed frames (olearn.viz.stream: {frames, shapes, masks, n}) unpacked: a region
// trace's {shape: i} becomes the shared x, y of shapes[i], an {ellipse: [...]} its points
// (geometry.js); an opacity {upto: t[, mask: m]} the n bytes that are 1 before t (where
// mask m is 1).
function unpack(sent) {
  if (Array.isArray(sent)) return sent;
  const masks = sent.masks.map(bytes);
  const opacity = (spec) => {
    const out = new Uint8Array(sent.n);
    const mask = spec.mask === undefined ? null : masks[spec.mask];
    for (let i = 0; i < spec.upto; i++) out[i] = mask ? mask[i] : 1;
    return out;
  };
  const trace = (u) => {
    let out = u;
    if (u.shape !== undefined) {
      const { shape, ...rest } = u;
      out = { x: sent.shapes[shape][0], y: sent.shapes[shape][1], ...rest };
    }
    if (u.ellipse !== undefined) {
      const { ellipse, ...rest } = u;
      const [x, y] = ellipsePoints(ellipse);
      out = { x, y, ...rest };
    }
    if (u.marker?.opacity?.upto !== undefined) {
      out = { ...out, marker: { ...u.marker, opacity: opacity(u.marker.opacity) } };
    }
    return out;
  };
  return sent.frames.map((f) => ({ ...f, data: f.data.map(trace) }));
}

function newPlayer(cfg) {
  return {
    t: cfg.t,
    fps: cfg.fps,
    playing: false,
    sig: null,
    frames: null,
    rendered: 0,
    fast: 0,
    slow: 0,
    jumps: 0,
    latency: 0,
    sends: 0,
    resends: 0,
  };
}

export default function (component) {
  const { data, setTriggerValue, parentElement } = component;
  const cfg = JSON.parse(data.config);
  let P = players.get(cfg.id);
  if (!P) {
    P = newPlayer(cfg);
    players.set(cfg.id, P);
  }
  if (P.sig !== cfg.sig) {
    // new data: new frames, start from the page's t
    if (!data.frames) {
      setTriggerValue('pos', { need: cfg.sig }); // a reload: ask for the frames again
      return;
    }
    P.sig = cfg.sig;
    P.frames = {};
    for (const [k, sent] of Object.entries(JSON.parse(data.frames))) P.frames[k] = unpack(sent);
    P.t = cfg.t;
    P.fps = cfg.fps;
    P.playing = false;
    P.revealed = Boolean(cfg.revealed);
  }
  if (Boolean(cfg.predict) !== Boolean(P.predicting)) P.revealed = Boolean(cfg.revealed);
  P.predicting = Boolean(cfg.predict);
  const ask = cfg.predict; // predict mode: {questions, answers} per t, else null
  P.cfg = cfg;
  P.report = setTriggerValue;
  const root = parentElement.querySelector('.olp');
  const $ = (s) => root.querySelector(s);
  const slider = $('.slider');
  const tval = $('.tval');
  const note = $('.note');
  const play = $('.play');
  const speed = $('.speed');
  slider.max = String(cfg.n);
  $('.rew').title = cfg.labels.rewind;
  $('.back').title = cfg.labels.back;
  $('.step').title = cfg.labels.step;
  $('.keys').textContent = cfg.labels.keys || '';
  if (!speed.options.length) {
    for (const f of cfg.speeds) {
      const o = document.createElement('option');
      o.value = f;
      o.textContent = `${f} ${cfg.labels.fps}`;
      speed.appendChild(o);
    }
  }
  speed.value = String(P.fps);
  const shownOn = new WeakMap(); // chart -> the frame svgFrame drew on it
  const key = (gd) => cfg.charts.find((k) => gd.closest(`.st-key-${k}`));
  const charts = () =>
    cfg.charts.map((k) => document.querySelector(`.st-key-${k} .js-plotly-plot`)).filter(Boolean);
  // (P.cfg, not this mount's cfg: a timer an earlier mount left may still publish)
  const ready = (gd) => gd.layout && gd.layout.meta === P.cfg.meta && window.Plotly && gd.data;
  const shown = (gd) => (shownOn.has(gd) ? shownOn.get(gd) : gd.data?.[0]?.meta);

  // the frame's name in the URL (the server writes it there once it took a report)
  const urlValue = (t) => String(cfg.url.values ? cfg.url.values[t] : t);
  const inUrl = () => urlParam(cfg.url.name);
  function publish() {
    const gds = charts();
    const drawn = gds.length > 0 && gds.every((gd) => ready(gd) && shown(gd) === P.t);
    Object.assign(root.dataset, {
      t: P.t,
      n: cfg.n,
      sig: P.sig,
      url: cfg.url ? urlValue(P.t) : '',
      playing: P.playing,
      ready: drawn,
      rendered: P.rendered,
      fast: P.fast,
      slow: P.slow,
      jumps: P.jumps,
      latency: P.latency.toFixed(1),
      sends: P.sends,
      resends: P.resends,
      owed: Boolean(P.owed),
      revealed: Boolean(P.revealed),
    });
  }
  function label() {
    slider.value = String(P.t);
    tval.textContent = `t = ${P.t} / ${cfg.n}`;
    // predict mode: the question about the next example, or (revealed) what example t did
    const answer = ask && P.revealed ? ask.answers[P.t] : '';
    note.innerHTML = ask ? answer || ask.questions[P.t] || '' : cfg.notes[P.t] || '';
    play.textContent = P.playing ? `‖ ${cfg.labels.pause}` : `▶ ${cfg.labels.play}`;
    play.disabled = Boolean(ask); // (one example at a time)
    $('.step').textContent = ask && !P.revealed ? cfg.labels.reveal || '▶' : '▶';
    publish();
  }
  function ensureFrames(gd) {
    const fr = P.frames[key(gd)];
    if (fr && framesHeld(gd) !== fr.length) window.Plotly.addFrames(gd, fr);
  }
  // predict mode: what comes after t hides behind the chart's curtain (a shape the page
  // names olearn-curtain), its left edge at t
  function curtain(gd, t) {
    const shapes = gd.layout?.shapes || [];
    const i = shapes.findIndex((sh) => sh.name === 'olearn-curtain');
    if (i < 0 || shapes[i].x0 === t + 0.5) return;
    window.Plotly.relayout(gd, { [`shapes[${i}].x0`]: t + 0.5 });
  }
  async function draw(gd, t) {
    const fr = P.frames[key(gd)];
    if (!fr?.[t]) return;
    curtain(gd, t);
    if (svgFrame(gd, fr[t])) {
      shownOn.set(gd, t);
      P.fast += 1;
      return;
    }
    P.slow += 1;
    ensureFrames(gd);
    shownOn.delete(gd);
    await window.Plotly.animate(gd, [String(t)], OPTS);
  }
  async function show(t) {
    P.t = Math.max(0, Math.min(cfg.n, t));
    label();
    await Promise.all(
      charts()
        .filter(ready)
        .map((gd) => draw(gd, P.t)),
    );
    P.rendered += 1;
    publish();
    settleData();
  }
  // once stopped, bring plotly's own data to the shown frame (hover, PNG export, resize)
  function settleData() {
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
        if (fr?.[P.t] && svgFrame(gd, fr[P.t])) shownOn.set(gd, P.t);
      }
      publish();
    }, 700);
  }
  // Report the shown frame to Python (debounced), then confirm it arrived: the server writes
  // the value it adopted to the URL, so until the URL shows this frame, send it again (a
  // report can be lost: the rerun it asked for replaced by another), backing off 0.4, 0.8,
  // 1.6... s so a slow server is not interrupted forever.
  function send() {
    if (P.playing || !P.report) return false;
    P.report('pos', { t: P.t, fps: P.fps, revealed: P.revealed });
    P.sends += 1;
    publish();
    return true;
  }
  const arrived = () =>
    P.playing ||
    (inUrl() === urlValue(P.t) && (!ask || urlParam('reveal') === (P.revealed ? '1' : '0')));
  function report() {
    clearTimeout(P.reportTimer);
    clearTimeout(P.confirmTimer);
    P.reportTimer = setTimeout(() => {
      reportUntilArrived(P, send, cfg.url && arrived);
      publish();
    }, 200);
  }
  async function loop() {
    if (!P.playing) return;
    const start = performance.now();
    if (P.t >= cfg.n) {
      P.playing = false;
      label();
      report();
      settleData();
      return;
    }
    await show(P.t + 1);
    const wait = Math.max(0, 1000 / P.fps - (performance.now() - start));
    P.timer = setTimeout(() => requestAnimationFrame(loop), wait);
  }
  function setPlaying(on) {
    P.playing = on;
    clearTimeout(P.timer);
    label();
    if (on) {
      if (P.t >= cfg.n) P.t = 0;
      loop();
    } else {
      report();
      settleData();
    }
  }
  async function jump(t, revealed = true) {
    const t0 = performance.now();
    P.revealed = revealed;
    if (P.playing) {
      P.playing = false;
      clearTimeout(P.timer);
    }
    await show(t);
    await new Promise((r) => requestAnimationFrame(() => r()));
    P.latency = performance.now() - t0;
    P.jumps += 1;
    publish();
    report();
  }
  // predict mode's step: reveal the next example (the frame after it, and what it did), or,
  // once revealed, ask about the one after (the frame stays)
  function forward() {
    if (!ask) return jump(P.t + 1);
    if (!P.revealed && P.t < cfg.n) return jump(P.t + 1, true);
    if (P.revealed) {
      P.revealed = false;
      label();
      report();
    }
  }
  play.onclick = () => setPlaying(!P.playing);
  $('.step').onclick = forward;
  $('.back').onclick = () => jump(P.t - 1);
  $('.rew').onclick = () => jump(0, !ask);
  slider.oninput = () => {
    P.playing = false;
    P.revealed = true;
    clearTimeout(P.timer);
    show(+slider.value);
  };
  slider.onchange = () => report();
  speed.onchange = () => {
    P.fps = +speed.value;
    if (!P.playing) report();
  };
  const unbind = bindKeys(
    P,
    root,
    stepKeys({
      next: forward,
      prev: () => jump(P.t - 1),
      space: () => (ask ? forward() : setPlaying(!P.playing)),
    }),
  );
  const unhold = holdReportsOnPresses(P, root);
  label();
  // Show P.t on every chart of this signature once it is drawn, and again whenever plotly
  // draws it anew (Streamlit re-renders a chart, a resize).
  const stop = watchCharts(
    () => charts().filter(ready),
    (gd) => {
      if (!P.playing && shown(gd) !== P.t) draw(gd, P.t).then(publish);
    },
    { redrawn: (gd) => shownOn.delete(gd), done: publish },
  );
  return () => {
    stop();
    unbind();
    unhold();
    clearTimeout(P.timer);
    P.playing = false;
  };
}
