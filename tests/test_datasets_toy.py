"""The 2-D toy generators and digits: properties checked from the generating geometry."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from olearn import datasets
from olearn.datasets.toy import make_toy


def _units(k: int, angle: float = 0.0) -> np.ndarray:
    """The K generating directions, written out independently: angle + 2 pi k / K."""
    theta = angle + 2 * np.pi * np.arange(k) / k
    return np.column_stack([np.cos(theta), np.sin(theta)])


def _margins(x: np.ndarray, label: int, U: np.ndarray) -> np.ndarray:
    """Signed distances of x to the boundaries (u_y - u_k).x = 0, k != y."""
    return np.array(
        [
            (U[label] - U[k]) @ x / np.linalg.norm(U[label] - U[k])
            for k in range(len(U))
            if k != label
        ]
    )


@settings(max_examples=25, deadline=None)
@given(k=st.integers(2, 7), margin=st.floats(0.0, 1.0), seed=st.integers(0, 10**6))
def test_separable_margin_holds(k, margin, seed):
    ds = make_toy("separable", n_samples=80, n_classes=k, margin=margin, random_state=seed)
    U = _units(k)
    for x, label in zip(ds.X, ds.y):
        assert _margins(x, label, U).min() >= margin - 1e-12
    assert np.array_equal(np.argmax(ds.X @ U.T, axis=1), ds.y)  # W = U separates, no bias


def test_drift_margin_holds_at_each_time():
    n, k, margin = 150, 3, 0.4
    ds = make_toy("drift", n_samples=n, n_classes=k, margin=margin, random_state=3)
    for t, (x, label) in enumerate(zip(ds.X, ds.y)):
        assert _margins(x, label, _units(k, np.pi * t / n)).min() >= margin - 1e-12
    # the concept really moves: the final boundary mislabels many early points
    late = np.argmax(ds.X[: n // 4] @ _units(k, np.pi).T, axis=1)
    assert np.mean(late != ds.y[: n // 4]) > 0.3


@pytest.mark.parametrize("kind", ["blobs", "separable", "xor", "moons", "drift"])
@pytest.mark.parametrize("noise", [0.05, 0.1, 0.37])
def test_label_noise_fraction_is_exact(kind, noise):
    n = 200
    clean = make_toy(kind, n_samples=n, noise=0.0, random_state=7)
    noisy = make_toy(kind, n_samples=n, noise=noise, random_state=7)
    np.testing.assert_array_equal(clean.X, noisy.X)  # positions first, then the flips
    assert int((clean.y != noisy.y).sum()) == round(noise * n)


@pytest.mark.parametrize("kind", ["blobs", "separable", "xor", "moons", "drift"])
def test_deterministic_by_seed(kind):
    a = make_toy(kind, n_samples=60, noise=0.1, random_state=11)
    b = make_toy(kind, n_samples=60, noise=0.1, random_state=11)
    c = make_toy(kind, n_samples=60, noise=0.1, random_state=12)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.y, b.y)
    assert not np.array_equal(a.X, c.X)
    assert a.X.dtype == np.float64 and a.X.shape == (60, 2)


def test_xor_and_blobs_geometry():
    ds = make_toy("xor", n_samples=300, margin=0.6, random_state=0)
    np.testing.assert_array_equal(ds.y, (ds.X[:, 0] * ds.X[:, 1] < 0).astype(int))
    assert np.abs(ds.X).min() >= 0.3
    blobs = make_toy("blobs", n_samples=90, n_classes=3, random_state=0)
    assert np.bincount(blobs.y).tolist() == [30, 30, 30]
    moons = make_toy("moons", n_samples=50, n_classes=5)  # binary kinds ignore n_classes
    assert moons.meta["n_classes"] == 2


def test_bad_toy_arguments():
    with pytest.raises(ValueError, match="unknown toy"):
        make_toy("spiral")
    with pytest.raises(ValueError, match="n_samples"):
        make_toy("blobs", n_samples=1)
    with pytest.raises(ValueError, match="noise"):
        make_toy("blobs", noise=1.0)
    with pytest.raises(ValueError, match="margin"):
        make_toy("separable", margin=3.0)
    with pytest.raises(ValueError, match="n_classes"):
        make_toy("separable", n_classes=13)


def test_toys_and_digits_through_load():
    ds = datasets.load("toy-separable", n_samples=40, n_classes=4, margin=0.2, random_state=5)
    direct = make_toy("separable", n_samples=40, n_classes=4, margin=0.2, random_state=5)
    np.testing.assert_array_equal(ds.X, direct.X)
    assert ds.name == "toy-separable" and ds.meta["options"]["margin"] == 0.2
    with pytest.raises(ValueError, match="no option"):
        datasets.load("toy-blobs", centres=3)
    digits = datasets.load("digits")
    assert digits.X.shape == (1797, 64) and sorted(digits.meta["class_counts"]) == list(range(10))
    for name in datasets.names("toy"):
        card = datasets.card(name)
        assert card["n_features"] == 2 and card["url"] == "embedded"


@pytest.mark.parametrize("n, seed", [(1, 0), (2, 3), (7, 11), (200, 0), (401, 2**31 - 2)])
def test_the_moons_are_scikit_learns_make_moons_draw_for_draw(n, seed):
    """The toy draws its moons itself (a page drawing them first should not wait ~1 s for
    scikit-learn to import); scikit-learn's own generator is the reference."""
    from sklearn.datasets import make_moons

    from olearn.datasets.toy import _two_moons

    X, y = _two_moons(n, 0.1, seed)
    X_ref, y_ref = make_moons(n_samples=n, noise=0.1, random_state=seed)
    np.testing.assert_array_equal(X, X_ref)
    np.testing.assert_array_equal(y, y_ref)


@pytest.mark.parametrize("data", ["empty", "as-is"])
def test_the_first_views_of_the_pages_do_not_import_scikit_learn_or_scipy_stats(data, tmp_path):
    """A fresh server's first visit pays every import on its path (issue 17's 5 s budget):
    the toys, the CW walk and its figures (the CW page's first view) and the Home page's dataset
    cards need neither scikit-learn (~1 s) nor scipy.stats (~0.4 s).  Checked in a new process,
    with the data folder as it is (CI: every archive) and with an empty one and no cache (a new
    user: the cards' static part, whose modules imported scikit-learn at the top before)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    if data == "empty":
        (tmp_path / "data").mkdir()
        env.update(OLEARN_DATA=str(tmp_path / "data"), OLEARN_CACHE=str(tmp_path / "cache"))

    pytest.importorskip("plotly")  # the figures are the app's ([app]); the library's toys are not
    code = (
        "import sys\n"
        "from olearn.datasets.toy import make_toy\n"
        "from olearn.teaching.settings import default_cw\n"
        "from olearn.teaching.cw_walk import cw_update, update_indices\n"
        "from olearn.viz.walks import cw_figure, cw_input_figure\n"
        "for kind in ('blobs', 'separable', 'xor', 'moons', 'drift'):\n"
        "    make_toy(kind, n_samples=50, random_state=0)\n"
        "s = default_cw()\n"
        "w = cw_update(s, update_indices(s)[0])\n"
        "cw_figure(w, 'en'), cw_input_figure(w, 'en')\n"
        "from olearn.teaching.home import dataset_cards\n"
        "dataset_cards()\n"
        "print(sorted(m for m in ('sklearn', 'scipy.stats') if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
        env=env,
    )  # fmt: skip
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout + out.stderr


def test_digits_read_without_scikit_learn_are_scikit_learns_load_digits():
    from sklearn.datasets import load_digits

    from olearn.datasets.toy import _digits_arrays

    X, y = _digits_arrays()
    X_ref, y_ref = load_digits(return_X_y=True)
    assert X.dtype == X_ref.dtype and y.dtype == y_ref.dtype
    np.testing.assert_array_equal(X, X_ref)
    np.testing.assert_array_equal(y, y_ref)
