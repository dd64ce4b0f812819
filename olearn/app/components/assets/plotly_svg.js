// The player's fast path: move a plotly chart to a frame by rewriting the SVG plotly drew
// (a few ms), where Plotly.animate restyles every point of every trace (~100 ms for four
// panels).  It reads plotly.js internals (gd._fullLayout._plots, an axis's c2p, a trace
// group's __data__, the DOM classes path.js-fill, path.js-line, path.point, g.textpoint):
// every such read is in this file, and each returns false when what it reads is not there,
// so the player falls back to Plotly.animate.  tests/test_browser_player.py checks that
// they are there in the plotly.js the app ships.
// (Placed before player.js in the component's module: these are its helpers.)

const SVG = 'http://www.w3.org/2000/svg';
const b64cache = new WeakMap();

// plotly typed-array spec {dtype: 'u1', bdata} -> Uint8Array (an array as it is)
function bytes(spec) {
  if (Array.isArray(spec) || ArrayBuffer.isView(spec)) return spec;
  let out = b64cache.get(spec);
  if (!out) {
    const bin = atob(spec.bdata);
    out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    b64cache.set(spec, out);
  }
  return out;
}

// data -> pixel path; a null starts a new subpath
function pathOf(xs, ys, xa, ya, close) {
  let d = '';
  let start = true;
  for (let i = 0; i < xs.length; i++) {
    if (xs[i] === null || ys[i] === null) {
      if (close && !start) d += 'Z';
      start = true;
      continue;
    }
    d += `${start ? 'M' : 'L'}${xa.c2p(xs[i]).toFixed(1)},${ya.c2p(ys[i]).toFixed(1)}`;
    start = false;
  }
  if (close && !start) d += 'Z';
  return d;
}

// our path in the trace group, plotly's own hidden
function overlay(g, cls, own, style) {
  let el = g.querySelector(`path.${cls}`);
  if (!el) {
    el = document.createElementNS(SVG, 'path');
    el.setAttribute('class', cls);
    g.insertBefore(el, g.firstChild);
  }
  for (const [k, v] of Object.entries(style)) el.style.setProperty(k, v);
  for (const o of g.querySelectorAll(own)) o.style.display = 'none';
  return el;
}

// the scatter trace groups by trace index: [group, full trace]
function traceGroups(gd) {
  const groups = {};
  for (const g of gd.querySelectorAll('g.trace.scatter')) {
    const cd = g.__data__;
    const tr = cd?.[0]?.trace;
    if (tr) groups[tr.index] = [g, tr];
  }
  return groups;
}

function drawLines(g, tr, u, xa, ya) {
  const mode = tr.mode || '';
  if (tr.fill === 'toself') {
    overlay(g, 'olp-fill', 'path.js-fill', { fill: tr.fillcolor, stroke: 'none' }).setAttribute(
      'd',
      pathOf(u.x, u.y, xa, ya, true),
    );
  }
  if (mode.includes('lines') && tr.line && tr.line.width > 0) {
    const own = g.querySelector('path.js-line');
    const dash = own ? own.style.strokeDasharray : '';
    const style = {
      fill: 'none',
      stroke: tr.line.color,
      'stroke-width': `${tr.line.width}px`,
      'stroke-dasharray': dash || 'none',
    };
    overlay(g, 'olp-line', 'path.js-line', style).setAttribute(
      'd',
      pathOf(u.x, u.y, xa, ya, false),
    );
  }
}

function drawMarkers(g, u, xa, ya) {
  const nodes = g.querySelectorAll('path.point');
  if (nodes.length < u.x.length) return false;
  const c = u.marker?.color;
  nodes.forEach((nd, i) => {
    if (i < u.x.length) {
      nd.setAttribute('transform', `translate(${xa.c2p(u.x[i])},${ya.c2p(u.y[i])})`);
      nd.style.display = '';
      if (typeof c === 'string') nd.style.fill = c;
    } else {
      nd.style.display = 'none';
    }
  });
  return true;
}

function drawOpacity(g, spec) {
  const op = bytes(spec);
  const nodes = g.querySelectorAll('path.point');
  if (nodes.length !== op.length) return false;
  for (let i = 0; i < op.length; i++) {
    const nd = nodes[i];
    if (op[i] > 0) {
      if (nd.style.display === 'none' || nd.style.opacity !== '1') {
        nd.style.display = '';
        nd.style.opacity = '1';
      }
    } else if (nd.style.display !== 'none') {
      nd.style.display = 'none';
    }
  }
  return true;
}

// Move chart gd to frame f ({traces, data} as plotly's frames); false when the chart's DOM
// is not what this expects (the caller then animates).
function svgFrame(gd, f) {
  const fl = gd._fullLayout;
  if (!fl || !fl._plots) return false;
  const groups = traceGroups(gd);
  for (let j = 0; j < f.traces.length; j++) {
    const hit = groups[f.traces[j]];
    if (!hit) return false;
    const [g, tr] = hit;
    const u = f.data[j];
    const sp = fl._plots[(tr.xaxis || 'x') + (tr.yaxis || 'y')];
    if (!sp) return false;
    const mode = tr.mode || '';
    if (u.x && u.y && (tr.fill === 'toself' || mode.includes('lines'))) {
      drawLines(g, tr, u, sp.xaxis, sp.yaxis);
    }
    if (u.x && u.y && mode.includes('markers') && !drawMarkers(g, u, sp.xaxis, sp.yaxis)) {
      return false;
    }
    if (typeof u.marker?.opacity === 'object' && !drawOpacity(g, u.marker.opacity)) {
      return false;
    }
    if (u.text) {
      const el = g.querySelector('g.textpoint text');
      if (!el) return false;
      // (the text node's data: no childList mutation for the player's observer)
      if (el.firstChild) el.firstChild.data = u.text[0];
      else el.textContent = u.text[0];
    }
  }
  return true;
}

// how many frames plotly holds for gd (Plotly.addFrames adds; none public reads them back)
function framesHeld(gd) {
  return gd._transitionData?._frames?.length ?? 0;
}
