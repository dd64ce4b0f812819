// Geometry the player draws in the browser from what the server sends (placed before
// player.js in the component's module).  tests/test_browser_player.py checks it against the
// Python it mirrors.

// n points on an ellipse [cx, cy, semi-major, semi-minor, angle, n] as
// olearn.core.cw_geometry.ellipse_points computes them: t = linspace(0, 2 pi, n),
// center + R(angle) (a cos t, b sin t).
function ellipsePoints([cx, cy, a, b, angle, n]) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const step = n > 1 ? (2 * Math.PI) / (n - 1) : 0;
  const x = new Array(n);
  const y = new Array(n);
  for (let i = 0; i < n; i++) {
    const t = i === n - 1 && n > 1 ? 2 * Math.PI : i * step;
    const u = a * Math.cos(t);
    const v = b * Math.sin(t);
    x[i] = cx + c * u - s * v;
    y[i] = cy + s * u + c * v;
  }
  return [x, y];
}
