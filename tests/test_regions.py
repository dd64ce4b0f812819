"""Exact argmax regions, margin bands and boundaries against an independent check: the argmax
of the scores at sampled points (numpy), and the box's area."""

from __future__ import annotations

import numpy as np
import pytest

from olearn.teaching.regions import (
    argmax_regions,
    boundaries,
    box_polygon,
    clip_halfplane,
    contains,
    margin_bands,
    polygon_area,
)

BOX = (-3.0, 4.0, -2.0, 2.5)


def scores(W, b, P):
    return P @ W[:, :2].T + (0.0 if b is None else b)


def models():
    rng = np.random.default_rng(11)
    for K in (2, 3, 4, 6):
        for _ in range(6):
            yield rng.normal(size=(K, 2)) * rng.choice([0.2, 1.0, 5.0]), rng.normal(size=K)
    yield np.zeros((3, 2)), None  # t = 0: every score equal, class 0 wins everywhere
    yield np.array([[1.0, 0.0], [1.0, 0.0], [-1.0, 0.0]]), np.zeros(3)  # a duplicated class
    yield np.array([[1.0, 2.0], [0.0, 0.0]]), np.array([0.0, 50.0])  # one class never wins


@pytest.mark.parametrize("model", list(models()), ids=lambda m: f"K{len(m[0])}")
def test_regions_tile_the_box_and_hold_the_sampled_argmax(model):
    W, b = model
    regions = argmax_regions(W, b, BOX)
    total = (BOX[1] - BOX[0]) * (BOX[3] - BOX[2])
    assert sum(polygon_area(r) for r in regions) == pytest.approx(total, rel=1e-9)
    rng = np.random.default_rng(0)
    P = np.column_stack([rng.uniform(*BOX[:2], 4000), rng.uniform(*BOX[2:], 4000)])
    S = scores(W, b, P)
    top = np.argmax(S, axis=1)
    srt = np.sort(S, axis=1)
    clear = srt[:, -1] - srt[:, -2] > 1e-7 if len(W) > 1 else np.ones(len(P), bool)
    for u, poly in enumerate(regions):
        inside = contains(poly, P)
        assert np.all(inside[(top == u) & clear]), u  # every sampled winner of u is inside
        assert not np.any(inside[(top != u) & clear]), u  # no clear winner of another class


@pytest.mark.parametrize("model", list(models())[:24], ids=lambda m: f"K{len(m[0])}")
def test_margin_bands_are_where_the_best_two_are_within_one(model):
    W, b = model
    bands = margin_bands(W, b, BOX)
    rng = np.random.default_rng(1)
    P = np.column_stack([rng.uniform(*BOX[:2], 4000), rng.uniform(*BOX[2:], 4000)])
    srt = np.sort(scores(W, b, P), axis=1)
    gap = srt[:, -1] - srt[:, -2]
    in_band = np.zeros(len(P), bool)
    for poly in bands.values():
        in_band |= contains(poly, P)
    away = np.abs(gap - 1.0) > 1e-7
    np.testing.assert_array_equal(in_band[away], (gap < 1.0)[away])


@pytest.mark.parametrize("model", list(models())[:24], ids=lambda m: f"K{len(m[0])}")
def test_boundary_segments_are_ties_of_the_two_best(model):
    W, b = model
    regions = argmax_regions(W, b, BOX)
    for (u, v), seg in boundaries(W, b, BOX).items():
        for p in np.linspace(seg[0], seg[1], 7):
            s = scores(W, b, p[None])[0]
            assert s[u] == pytest.approx(s[v], abs=1e-9 * (1 + np.abs(s).max()))
            assert s[u] >= s.max() - 1e-9 * (1 + np.abs(s).max())
            assert BOX[0] - 1e-9 <= p[0] <= BOX[1] + 1e-9 and BOX[2] - 1e-9 <= p[1] <= BOX[3] + 1e-9
        mid = seg.mean(axis=0)
        assert contains(regions[u], mid[None], tol=1e-7)[0] or contains(regions[v], mid[None])[0]


def test_clip_keeps_the_right_side_and_empties_cleanly():
    sq = box_polygon((0, 1, 0, 1))
    half = clip_halfplane(sq, 1.0, 1.0, -1.0)  # x + y >= 1: the upper-right triangle
    assert polygon_area(half) == pytest.approx(0.5)
    assert len(clip_halfplane(sq, 1.0, 0.0, -2.0)) == 0  # x >= 2: nothing
    assert polygon_area(clip_halfplane(sq, 0.0, 1.0, 5.0)) == pytest.approx(1.0)  # all
