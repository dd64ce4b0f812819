"""Exact decision regions of a linear multiclass model in 2-D, as convex polygons.

The model predicts ``argmax_u s_u(x)`` with ``s_u(x) = w_u . x + b_u``.  Class u wins where
``s_u(x) >= s_v(x)`` for every v: an intersection of half-planes, hence a convex polygon once
clipped to the view box.  Each polygon is the box clipped by one half-plane after another
(Sutherland-Hodgman against a single edge, repeated), so the figures get straight edges, not
a pixel grid's staircase.

- :func:`argmax_regions`: one polygon per class (empty where a class never wins); together
  they tile the box (ties go to the lower class index, as ``numpy.argmax`` does).
- :func:`margin_bands`: for each pair (u, v), where u and v are the two best classes and
  ``|s_u - s_v| < width``: the margin band (``width = 1``), also convex.
- :func:`boundaries`: for each pair, the segment where ``s_u = s_v`` and both beat every
  other class: the drawn decision boundaries.

Polygons are ``(m, 2)`` arrays of vertices in order (``m = 0`` for an empty region).

>>> W = np.array([[1.0, 0.0], [-1.0, 0.0]])  # class 0 right of x = 0, class 1 left
>>> right, left = argmax_regions(W, None, (-1, 1, -1, 1))
>>> float(polygon_area(right)), float(polygon_area(left))
(2.0, 2.0)
>>> [s.round(6).tolist() for s in boundaries(W, None, (-1, 1, -1, 1)).values()]
[[[0.0, -1.0], [0.0, 1.0]]]
"""

from __future__ import annotations

import numpy as np

EPS = 1e-12


def box_polygon(box: tuple[float, float, float, float]) -> np.ndarray:
    """The view box ``(x0, x1, y0, y1)`` as a counter-clockwise polygon."""
    x0, x1, y0, y1 = map(float, box)
    return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])


def clip_halfplane(poly: np.ndarray, a: float, b: float, c: float) -> np.ndarray:
    """Sutherland-Hodgman against one edge: the part of convex ``poly`` where
    ``a x + b y + c >= 0``.

    >>> sq = box_polygon((0, 2, 0, 2))
    >>> clip_halfplane(sq, -1.0, 0.0, 1.0).tolist()  # x <= 1
    [[0.0, 0.0], [1.0, 0.0], [1.0, 2.0], [0.0, 2.0]]
    """
    if len(poly) == 0:
        return poly
    side = poly @ np.array([a, b]) + c  # signed (scaled) distance of each vertex
    out = []
    m = len(poly)
    for i in range(m):
        p, q = poly[i], poly[(i + 1) % m]
        sp, sq = side[i], side[(i + 1) % m]
        if sp >= 0:
            out.append(p)
        if (sp >= 0) != (sq >= 0):  # the edge crosses the line: add the crossing point
            out.append(p + (q - p) * (sp / (sp - sq)))
    if len(out) < 3:
        return np.empty((0, 2))
    return _dedupe(np.asarray(out))


def _dedupe(poly: np.ndarray, tol: float = 1e-12) -> np.ndarray:
    """Drop consecutive repeated vertices (a clip through a vertex adds it twice)."""
    keep = [0]
    for i in range(1, len(poly)):
        if np.max(np.abs(poly[i] - poly[keep[-1]])) > tol:
            keep.append(i)
    if len(keep) > 1 and np.max(np.abs(poly[keep[-1]] - poly[keep[0]])) <= tol:
        keep.pop()
    return poly[keep] if len(keep) >= 3 else np.empty((0, 2))


def polygon_area(poly: np.ndarray) -> float:
    """The area of a simple polygon (shoelace formula)."""
    if len(poly) < 3:
        return 0.0
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * abs(float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def _scores(W: np.ndarray, b: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    W = np.asarray(W, dtype=float)[:, :2]
    b = np.zeros(W.shape[0]) if b is None else np.asarray(b, dtype=float)
    return W, b


def _keep(poly: np.ndarray, normal: np.ndarray, c: float, strict: bool) -> np.ndarray:
    """Clip by ``normal . x + c >= 0`` (``> 0`` when ``strict``); a zero normal keeps all or
    nothing, by the sign of ``c``."""
    n0, n1, c = float(normal[0]), float(normal[1]), float(c)  # floats: a 2-vector is cheaper
    if max(abs(n0), abs(n1)) <= EPS * max(1.0, abs(c)):
        return poly if (c > EPS or (c >= -EPS and not strict)) else np.empty((0, 2))
    return clip_halfplane(poly, n0, n1, c)


def argmax_regions(W: np.ndarray, b: np.ndarray | None, box: tuple) -> list[np.ndarray]:
    """Where each class wins: ``box ∩ {s_u >= s_v for all v}``, one polygon per class.

    ``W`` is (K, 2) (extra columns are ignored), ``b`` the (K,) biases or None.  A class
    whose score equals a lower class's everywhere gets nothing (numpy's argmax tie rule).
    """
    W, b = _scores(W, b)
    K = W.shape[0]
    regions = []
    for u in range(K):
        poly = box_polygon(box)
        for v in range(K):
            if v != u and len(poly):
                # s_u - s_v = (w_u - w_v) . x + (b_u - b_v) >= 0 ; strict against lower v
                poly = _keep(poly, W[u] - W[v], b[u] - b[v], strict=v < u)
        regions.append(poly)
    return regions


def margin_bands(
    W: np.ndarray, b: np.ndarray | None, box: tuple, width: float = 1.0
) -> dict[tuple[int, int], np.ndarray]:
    """For each pair u < v: the polygon where u and v are the two best classes and
    ``|s_u - s_v| <= width`` (the margin band around their boundary); empty pairs omitted."""
    W, b = _scores(W, b)
    K = W.shape[0]
    bands = {}
    for u in range(K):
        for v in range(u + 1, K):
            d, e = W[u] - W[v], b[u] - b[v]
            poly = _keep(box_polygon(box), -d, width - e, strict=False)  # s_u - s_v <= width
            poly = _keep(poly, d, width + e, strict=False)  # s_v - s_u <= width
            for w in range(K):
                if w in (u, v) or not len(poly):
                    continue
                poly = _keep(poly, W[u] - W[w], b[u] - b[w], strict=False)  # s_u >= s_w
                poly = _keep(poly, W[v] - W[w], b[v] - b[w], strict=False)  # s_v >= s_w
            if len(poly):
                bands[(u, v)] = poly
    return bands


def boundaries(
    W: np.ndarray, b: np.ndarray | None, box: tuple
) -> dict[tuple[int, int], np.ndarray]:
    """For each pair u < v: the segment (2, 2) of the line ``s_u = s_v`` inside the box where
    both beat every other class (Liang-Barsky clipping of the line); empty pairs omitted."""
    W, b = _scores(W, b)
    K = W.shape[0]
    x0, x1, y0, y1 = map(float, box)
    out = {}
    for u in range(K):
        for v in range(u + 1, K):
            n, c = W[u] - W[v], b[u] - b[v]
            nn = float(n @ n)
            if nn <= EPS:
                continue  # parallel scores: no boundary (or everywhere tied)
            p0 = -c * n / nn  # a point on n . x + c = 0
            d = np.array([-n[1], n[0]]) / np.sqrt(nn)  # its direction
            span = max(x1 - x0, y1 - y0)
            lo, hi = -4.0 * span - float(np.abs(p0).sum()), 4.0 * span + float(np.abs(p0).sum())
            # constraints g . (p0 + s d) + h >= 0  <=>  (g . d) s >= -(g . p0 + h)
            cons = [
                (np.array([1.0, 0.0]), -x0),
                (np.array([-1.0, 0.0]), x1),
                (np.array([0.0, 1.0]), -y0),
                (np.array([0.0, -1.0]), y1),
            ]
            cons += [(W[u] - W[w], b[u] - b[w]) for w in range(K) if w not in (u, v)]
            for g, h in cons:
                slope, value = float(g @ d), float(g @ p0 + h)
                if abs(slope) <= EPS:
                    if value < -EPS:
                        lo, hi = 1.0, 0.0  # the whole line is outside
                        break
                elif slope > 0:
                    lo = max(lo, -value / slope)
                else:
                    hi = min(hi, -value / slope)
            if hi - lo > 1e-9 * span:
                out[(u, v)] = np.array([p0 + lo * d, p0 + hi * d])
    return out


def contains(poly: np.ndarray, points: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """Whether each point lies in convex ``poly`` (boundary included, up to ``tol``)."""
    points = np.atleast_2d(points)
    if len(poly) < 3:
        return np.zeros(len(points), dtype=bool)
    edges = np.roll(poly, -1, axis=0) - poly  # (m, 2)
    rel = points[:, None, :] - poly[None, :, :]  # (n, m, 2)
    cross = edges[None, :, 0] * rel[..., 1] - edges[None, :, 1] * rel[..., 0]
    sign = 1.0 if _orientation(poly) > 0 else -1.0
    scale = tol * max(1.0, float(np.abs(poly).max()))
    return np.all(sign * cross >= -scale, axis=1)


def _orientation(poly: np.ndarray) -> float:
    x, y = poly[:, 0], poly[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
