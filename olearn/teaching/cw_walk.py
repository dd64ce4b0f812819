"""Confidence-weighted updates (CW, AROW, SCW-I, SCW-II) on a 2-D binary stream, one at a
time, and the label-noise experiment of seed 001's claims on embedded data.

The state is a Gaussian ``N(mu, Sigma)`` over the weights.  :func:`cw_update` replays the rule
on a toy stream and stops at the first example from index ``t`` on that suffers a loss (an
update that moves something); a lecturer's "Next update" asks for ``t = index + 1``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from olearn import registry
from olearn.core.cw import CWState, CWTrace
from olearn.teaching.settings import CwWalk
from olearn.teaching.strings import num, t

RULES = tuple(registry.keys(view="cw"))  # the registry's CW-page learners
STREAM_LENGTH = 80


def _learner(setting: CwWalk):
    """The rule of ``setting`` through its registry spec (full covariance, binary), with the
    setting's hyper-parameters (each checked against the spec's range)."""
    if setting.rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}, got {setting.rule!r}")
    spec = registry.get(setting.rule)
    for name, value in setting.hypers:
        h = spec.hyper(name)
        if (h.low is not None and value < h.low) or (h.high is not None and value > h.high):
            raise ValueError(f"{name} must be in [{h.low}, {h.high}], got {value}")
    learner = spec.readable("full", **setting.values)
    return learner.init(2, None), learner.step


@dataclass(frozen=True)
class CWWalk:
    """One update of a stream.

    rule; x, y (= +-1) the example shown, ``index`` its position in the stream (0-based) and
    ``n`` the stream's length; before: the state before it; trace: the step; X, Y: the whole
    stream; path: (index + 2, 2) the mean before every example up to this one, then after it
    (the mean's trajectory); updates: how many earlier examples moved the state;
    exhausted: no example from the asked ``t`` on had a loss (trace is then the last,
    passive, step).
    """

    rule: str
    x: np.ndarray
    y: int
    index: int
    n: int
    before: CWState
    trace: CWTrace
    X: np.ndarray
    Y: np.ndarray
    path: np.ndarray
    updates: int
    exhausted: bool
    next_index: int | None  # the next example with a loss after this one (None: no more)

    @property
    def next_t(self) -> int:
        """The ``t`` of the next update (what the Next button asks for)."""
        return self.next_index if self.next_index is not None else self.n - 1


def _stream(seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The page's 2-D binary stream (labels +-1)."""
    from olearn.datasets.toy import make_toy

    ds = make_toy(
        "separable",
        n_samples=STREAM_LENGTH,
        n_classes=2,
        margin=0.2,
        noise=0.05,
        random_state=seed,
    )
    return np.asarray(ds.X, float) / 4.0, np.where(np.asarray(ds.y) == 1, 1, -1)


def update_indices(setting: CwWalk) -> tuple[int, ...]:
    """The positions of the stream's examples that move the state (the steps "Next update"
    visits), from one replay of the rule.

    >>> ids = update_indices(CwWalk.of("scw1", seed=1, C=0.05))
    >>> w = cw_update(CwWalk.of("scw1", seed=1, C=0.05), warmup=6)
    >>> w.index == min(i for i in ids if i >= 6), w.next_index in ids
    (True, True)
    """
    X, Y = _stream(setting.seed)
    (state, step), out = _learner(setting), []
    for i in range(len(Y)):
        state, tr = step(state, X[i], int(Y[i]))
        if tr.reason == "aggressive":
            out.append(i)
    return tuple(out)


def cw_update(setting: CwWalk | None = None, warmup: int = 6) -> CWWalk:
    """The step of the setting's rule on the first example at index ``>= warmup`` that has a
    loss (the examples before it are learned as usual, passive or not).

    >>> w = cw_update(CwWalk.of("scw1", seed=1, C=0.05))
    >>> w.trace.alpha <= 0.05 + 1e-12, w.trace.reason, w.index >= 6
    (True, 'aggressive', True)
    >>> arow = CwWalk.of("arow", seed=1)
    >>> cw_update(arow, warmup=w.next_t).index > cw_update(arow).index
    True
    """
    setting = setting or CwWalk()
    rule = setting.rule
    X, Y = _stream(setting.seed)
    start = int(np.clip(warmup, 0, len(Y) - 1))
    state, step = _learner(setting)
    path, updates = [np.asarray(state[0], float).copy()], 0
    for i in range(len(Y)):
        new, tr = step(state, X[i], int(Y[i]))
        moved = tr.reason == "aggressive"
        if i >= start and (moved or i == len(Y) - 1):
            path.append(np.asarray(new[0], float).copy())
            break
        updates += moved
        state = new
        path.append(np.asarray(state[0], float).copy())
    next_index, state_after = None, new
    for j in range(i + 1, len(Y)):  # look ahead: Next lands exactly on the next update
        state_after, later = step(state_after, X[j], int(Y[j]))
        if later.reason == "aggressive":
            next_index = j
            break
    return CWWalk(
        rule=rule,
        x=X[i].copy(),
        y=int(Y[i]),
        index=i,
        n=len(Y),
        before=state,
        trace=tr,
        X=X,
        Y=Y,
        path=np.array(path),
        updates=updates,
        exhausted=not moved,
        next_index=next_index,
    )


def cw_table(walk: CWWalk, lang: str = "en") -> pd.DataFrame:
    """The numbers a lecturer points at, labelled in ``lang`` (blank where a rule has no
    such number)."""
    tr = walk.trace
    rows = [
        ("cw.q.m", tr.m),
        ("cw.q.v", tr.v),
        ("cw.q.loss", tr.loss),
        ("cw.q.phi", tr.phi),
        ("cw.q.alpha", tr.alpha),
        ("cw.q.beta", tr.beta),
        ("cw.q.m_after", tr.m_after),
        ("cw.q.v_after", tr.v_after),
        ("cw.q.prob", tr.prob_after),
        ("cw.q.eta", tr.eta),
    ]
    yes_no = {True: t("cw.yes", lang), False: t("cw.no", lang), None: ""}
    out = [(t(k, lang), num(v, 6) if np.isfinite(v) else "") for k, v in rows]
    out += [
        (t("cw.q.holds", lang), yes_no[tr.constraint_holds]),
        (t("cw.q.capped", lang), yes_no[bool(tr.cap_binds)] if walk.rule == "scw1" else ""),
    ]
    return pd.DataFrame(out, columns=[t("cw.col.quantity", lang), t("cw.col.value", lang)])


def noise_experiment(
    noise: float = 0.2,
    passes: int = 3,
    seed: int = 0,
    algorithms=None,
    max_samples: int | None = 800,
) -> pd.DataFrame:
    """Seed 001's claims on digits: test error (%) after each pass with a fraction ``noise``
    of the training labels flipped (test labels clean); one row per (algorithm, pass).
    ``algorithms``: the registry's noise view by default.

    >>> tab = noise_experiment(0.1, passes=1, algorithms=("arow",), max_samples=200)
    >>> tab.columns.tolist()
    ['key', 'algorithm', 'pass', 'error %']
    """
    from olearn import registry
    from olearn.experiments.cw_claims import run_one

    if not 0.0 <= noise < 0.9:
        raise ValueError(f"noise must be a fraction in [0, 0.9), got {noise}")
    rows = []
    for key in algorithms or registry.keys(view="noise"):
        out = run_one(
            "digits", key, {}, float(noise), int(seed), int(passes), max_samples=max_samples
        )
        rows += [
            {"key": key, "algorithm": registry.get(key).name, "pass": k + 1, "error %": e}
            for k, e in enumerate(out["errors"])
        ]
    return pd.DataFrame(rows)
