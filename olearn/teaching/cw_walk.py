"""One confidence-weighted update (CW, AROW, SCW-I, SCW-II) on a 2-D binary state, and the
label-noise experiment of seed 001's claims on embedded data.

The state is a Gaussian ``N(mu, Sigma)`` over the weights; it is built by a few updates of the
same rule on a toy stream (so Sigma is already anisotropic), then the next example that
suffers a loss is the one shown.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from olearn.core.cw import CWState, CWTrace, arow_step, cw_init, cw_step, scw_step

RULES = ("cw", "arow", "scw1", "scw2")


def _step(rule: str, state, x, y, eta: float, r: float, C: float):
    if rule == "cw":
        return cw_step(state, x, y, eta=eta)
    if rule == "arow":
        return arow_step(state, x, y, r=r)
    if rule in ("scw1", "scw2"):
        return scw_step(state, x, y, variant="I" if rule == "scw1" else "II", C=C, eta=eta)
    raise ValueError(f"rule must be one of {RULES}, got {rule!r}")


@dataclass(frozen=True)
class CWWalk:
    """rule, the example (x, y = +-1), the state before, the trace of the step, a table of the
    numbers a lecturer points at."""

    rule: str
    x: np.ndarray
    y: int
    before: CWState
    trace: CWTrace
    table: pd.DataFrame


def cw_update(
    rule: str = "arow",
    eta: float = 0.75,
    r: float = 1.0,
    C: float = 1.0,
    warmup: int = 6,
    seed: int = 0,
) -> CWWalk:
    """The step of ``rule`` on the first example after ``warmup`` updates that has a loss.

    >>> w = cw_update("scw1", C=0.05, seed=1)
    >>> w.trace.alpha <= 0.05 + 1e-12, w.trace.reason
    (True, 'aggressive')
    """
    from olearn.datasets.toy import make_toy

    if not 0.5 < eta < 1.0:
        raise ValueError(f"eta must be in (0.5, 1), got {eta}")
    ds = make_toy("separable", n_samples=80, n_classes=2, margin=0.2, noise=0.05, random_state=seed)
    X, Y = np.asarray(ds.X, float) / 4.0, np.where(np.asarray(ds.y) == 1, 1, -1)
    state = cw_init(2, covariance="full")
    for i in range(int(warmup)):
        state, _ = _step(rule, state, X[i], int(Y[i]), eta, r, C)
    for i in range(int(warmup), len(Y)):
        new, tr = _step(rule, state, X[i], int(Y[i]), eta, r, C)
        if tr.reason == "aggressive":
            break
    rows = [
        ("margin m = y μ·x", tr.m),
        ("variance v = xᵀΣx", tr.v),
        ("loss", tr.loss),
        ("φ = Φ⁻¹(η)", tr.phi),
        ("α (mean step)", tr.alpha),
        ("β (covariance step)", tr.beta),
        ("m after", tr.m_after),
        ("v after", tr.v_after),
        ("Pr[y w·x ≥ 0] after", tr.prob_after),
        ("η", tr.eta),
    ]
    rows = [(q, "—" if not np.isfinite(v) else f"{v:.6g}") for q, v in rows]
    rows += [
        ("constraint holds", "—" if tr.constraint_holds is None else str(tr.constraint_holds)),
        ("α capped at C", str(tr.cap_binds)),
    ]
    table = pd.DataFrame(rows, columns=["quantity", "value"])
    return CWWalk(rule, X[i].copy(), int(Y[i]), state, tr, table)


def noise_experiment(
    noise: float = 0.2,
    passes: int = 3,
    seed: int = 0,
    algorithms=("perceptron", "pa1", "cw", "arow", "scw1", "scw2"),
    max_samples: int | None = 800,
) -> pd.DataFrame:
    """Seed 001's claims on digits: test error (%) after each pass with a fraction ``noise``
    of the training labels flipped (test labels clean); one row per (algorithm, pass).

    >>> tab = noise_experiment(0.1, passes=1, algorithms=("arow",), max_samples=200)
    >>> tab.columns.tolist()
    ['algorithm', 'pass', 'error %']
    """
    from olearn import registry
    from olearn.experiments.cw_claims import run_one

    if not 0.0 <= noise < 0.9:
        raise ValueError(f"noise must be a fraction in [0, 0.9), got {noise}")
    rows = []
    for key in algorithms:
        out = run_one("digits", key, {}, float(noise), int(seed), int(passes), max_samples)
        rows += [
            {"algorithm": registry.get(key).name, "pass": k + 1, "error %": e}
            for k, e in enumerate(out["errors"])
        ]
    return pd.DataFrame(rows)
