"""Mixing rules: several models' states (``get_state`` dicts) into one, per family.

Iterative parameter mixing (McDonald, Hall & Mann, NAACL 2010) trains one copy of the model
per shard for an epoch, all from the same state, then replaces every copy by a mix.  What
"mix" should mean depends on what the state's numbers are:

- **Perceptron, PA, SPA** (``coef`` and ``intercept_weight``): a point estimate with no
  confidence attached.  ``"uniform"``: ``w = (1/S) sum_i w_i``, the IPM paper's uniform
  mixture (its Theorem 3: the mistake bound of the sequential Perceptron holds for the mix).
  ``"mistakes"``: ``w = sum_i mu_i w_i`` with ``mu_i = k_i / sum_j k_j``, ``k_i`` the updates
  shard i made in the epoch (the paper's error-weighted mixture, section 3: for the
  Perceptron its mistakes; for PA / SPA its steps with a positive loss); uniform when no
  shard updated.
- **CW, AROW, SCW with a diagonal covariance** (``coef`` = the means ``mu``, ``covariance``
  = ``Sigma``, one variance per feature shared by the classes): each shard's model is a
  Gaussian ``N(mu_i, Sigma_i)`` over the weights.  ``"precision"`` (the default) is their
  logarithmic opinion pool with equal weights, the normalised geometric mean
  ``prod_i N(mu_i, Sigma_i)^(1/S)``, again a Gaussian with, per feature j,

      ``P_j = (1/S) sum_i P_ij``  (``P = 1/Sigma``: the mean precision),
      ``mu_j = sum_i P_ij mu_ij / sum_i P_ij``  (the precision-weighted mean).

  A shard that has seen feature j often (a small variance) dominates its weight, as in
  VW's AllReduce (Agarwal et al., JMLR 2014, weights by the adaptive statistic).  The
  precisions are averaged, not added: after the first epoch the shards' models share their
  start, so adding their precisions would count it S times and shrink the variances (the
  step sizes) S times faster than sequential training.  The mean keeps the covariance a
  mixture of identical states leaves unchanged.  ``"uniform"``: plain means of ``mu`` and of
  ``Sigma`` (for comparison).
- **SGD-SVM** (``v``, ``scale``, ``bias``, ``steps``, ``counts``, ``last``): each shard's weights
  ``w_i = scale_i v_i`` (its pending lazy shrinks applied) are mixed per feature by the
  number of examples in which the feature was non-zero, ``counts``:
  ``w_j = sum_i c_ij w_ij / sum_i c_ij`` (uniform where no shard saw it): the per-feature
  rates ``1 / (lam (c_j + t0))`` say the same, a feature seen more often has a settled weight.
  The bias is weighted by each shard's ``steps``; the clocks (``counts``, ``steps``) are the
  shards' means (rounded down), so each shard continues its schedule at its own pace, as in
  parallel SGD (Zinkevich et al., NIPS 2010); ``v = w``, ``scale = 1``, ``last = steps``
  (every shrink applied).

**Averaged models** (``average=True`` or an int, Perceptron / PA / SPA / CW family): the raw
weights are mixed by the family's rule above (they are what the next epoch starts from); the
average is the mean of *every iterate any shard visited*, over all epochs: each shard's sum of
its averaged iterates is ``S_i = n_i w_i - U_i`` (the lazy identity ``w_bar = w - U / n``
of :mod:`olearn.estimators._average`, ``n`` the averaged examples), so the mixed state has
``S = S_0 + sum_i (S_i - S_0)``, ``n = n_0 + sum_i (n_i - n_0)`` (``_0``: the state every
shard started from) and ``U = n w - S`` for the mixed raw weights ``w``.  One shard is the
sequential averaged model exactly; the mix of identical states keeps their average.  (Mixing
the averages instead would start the next epoch from a mean of averages, not from weights any
shard reached, and lose the iterate count.)  Each shard counts the examples from the start
state's ``t``, so an integer ``average=a`` starts averaging where that count passes ``a``.

Refused with a ValueError: a full covariance (a mix of ``S`` d x d factors has no closed form
that keeps the exact square root the kernel updates), SGD-SVM with ``average`` (its sums run
over the lazily scaled ``v`` with per-coordinate catch-ups whose clocks the count rule
rewrites; not derived here), and the batch models.

The counters: ``t`` and ``n_updates`` are the base state's plus every shard's increments
(the examples and steps of the whole epoch); ``n_iter`` the largest.  One state mixes to
itself, bit for bit.

>>> import numpy as np
>>> from olearn.estimators import AROWClassifier
>>> X, y = np.eye(4), [0, 1, 0, 1]
>>> a = AROWClassifier().partial_fit(X[:2], y[:2], classes=[0, 1]).get_state()
>>> b = AROWClassifier().partial_fit(X[2:], y[2:], classes=[0, 1]).get_state()
>>> a["covariance"].round(3).tolist()  # shard a saw features 0 and 1: precision 1 + 2 = 3
[0.333, 0.333, 1.0, 1.0]
>>> a["coef"][1].round(3).tolist(), b["coef"][1].round(3).tolist()
([-0.333, 0.333, 0.0, 0.0], [0.0, 0.0, -0.333, 0.333])
>>> mixed = mix_states(AROWClassifier(), [a, b])
>>> mixed["covariance"].tolist()  # mean precision (3 + 1) / 2 = 2 on every feature
[0.5, 0.5, 0.5, 0.5]
>>> mixed["coef"][1].tolist()  # (3 * -1/3 + 1 * 0) / 4: the shard that saw it weighs 3x
[-0.25, 0.25, -0.25, 0.25]
"""

from __future__ import annotations

import numpy as np

MIXINGS = ("auto", "uniform", "mistakes", "precision", "counts")
_ALLOWED = {
    "additive": ("uniform", "mistakes"),
    "cw": ("precision", "uniform"),
    "sgd": ("counts", "uniform"),
}


def family(estimator) -> str:
    """``"additive"``, ``"cw"`` or ``"sgd"``; ValueError for a model that cannot be mixed."""
    from olearn.estimators._linear import AdditiveLinearClassifier
    from olearn.estimators.base import OnlineClassifier
    from olearn.estimators.cw import ConfidenceWeightedClassifier
    from olearn.estimators.sgd_svm import SGDSVMClassifier

    name = type(estimator).__name__
    if not isinstance(estimator, OnlineClassifier):
        raise ValueError(
            f"{name} cannot be mixed: parameter mixing needs an online olearn estimator (a "
            "state, partial_fit); a batch model's solution is not a mean of shard solutions"
        )
    if isinstance(estimator, SGDSVMClassifier):
        if getattr(estimator, "average", False):
            raise ValueError(
                f"{name}(average={estimator.average!r}) cannot be mixed: its averaged sums "
                "follow the lazy scale and per-feature clocks that mixing rewrites (no rule "
                "derived); mix the plain model (average=False)"
            )
        return "sgd"
    if isinstance(estimator, ConfidenceWeightedClassifier):
        if estimator.covariance != "diagonal":
            raise ValueError(
                f"{name}(covariance={estimator.covariance!r}) cannot be mixed: a full "
                "covariance has no mixing rule here; use covariance='diagonal'"
            )
        return "cw"
    if isinstance(estimator, AdditiveLinearClassifier):
        return "additive"
    raise ValueError(f"{name} has no mixing rule")  # pragma: no cover - every family above


def resolve(estimator, mixing: str) -> tuple[str, str]:
    """``(family, rule)`` for ``mixing`` ("auto": the family's first rule), checked."""
    kind = family(estimator)
    if mixing not in MIXINGS:
        raise ValueError(f"mixing must be one of {MIXINGS}, got {mixing!r}")
    rule = _ALLOWED[kind][0] if mixing == "auto" else mixing
    if rule not in _ALLOWED[kind]:
        raise ValueError(
            f"mixing={mixing!r} does not apply to {type(estimator).__name__}; its rules: "
            f"{_ALLOWED[kind]}"
        )
    return kind, rule


def _weighted(arrays: list, weights) -> np.ndarray:
    """``sum_i weights_i arrays_i / sum_i weights_i`` (weights broadcast against arrays),
    computed as ``a_0 + sum_i weights_i (a_i - a_0) / sum_i weights_i``: the same number up to
    rounding, and exactly ``a_0`` when every array equals it (a mix of identical states)."""
    weights = [np.asarray(w, dtype=np.float64) for w in weights]
    total = np.sum(weights, axis=0)
    base = arrays[0]
    return base + np.sum([w * (a - base) for w, a in zip(weights, arrays)], axis=0) / total


def _mean(arrays: list) -> np.ndarray:
    return _weighted(arrays, np.ones(len(arrays)))


def mix_states(
    estimator, states: list, mixing: str = "auto", updates=None, base: dict | None = None
) -> dict:
    """One state from ``states`` (``get_state`` dicts of models like ``estimator``, all with
    the same classes and width), by the family's rule (module docstring).

    ``updates[i]``: the steps shard i made since ``base`` (for ``mixing="mistakes"``);
    ``base``: the state every shard started from (None: a fresh model), for the counters.
    """
    kind, rule = resolve(estimator, mixing)
    states = list(states)
    if not states:
        raise ValueError("mix_states needs at least one state")
    first = states[0]
    for s in states[1:]:
        if not np.array_equal(s["classes"], first["classes"]) or s["params"] != first["params"]:
            raise ValueError("mix_states: the states differ in classes or parameters")
    if len(states) == 1:
        return {k: (v.copy() if isinstance(v, np.ndarray) else v) for k, v in first.items()}
    mixed = dict(first)
    if kind == "sgd":
        mixed.update(_mix_sgd(estimator, states, rule))
    else:
        keys = ["coef", *(["intercept_weight"] if "intercept_weight" in first else [])]
        if kind == "cw" and rule == "precision":
            mixed.update(_mix_precision(states, keys))
        elif rule == "mistakes":
            k = np.asarray(updates, dtype=np.float64)
            if k.shape != (len(states),) or np.any(k < 0):
                raise ValueError("mixing='mistakes' needs one update count >= 0 per state")
            weights = k if k.sum() > 0 else np.ones(len(states))
            mixed.update({key: _weighted([s[key] for s in states], weights) for key in keys})
        else:
            more = ["covariance"] if kind == "cw" else []
            mixed.update({key: _mean([s[key] for s in states]) for key in keys + more})
    for key in ("t", "n_updates"):
        start = 0 if base is None else int(base[key])
        mixed[key] = start + sum(int(s[key]) - start for s in states)
    mixed["n_iter"] = max(int(s["n_iter"]) for s in states)
    if "average_sum" in first and kind != "sgd":
        mixed.update(_mix_average(states, mixed, base))
    return mixed


def _mix_average(states: list, mixed: dict, base: dict | None) -> dict:
    """The averaging state of the mix (module docstring): every shard's sum of averaged
    iterates ``S_i = n_i w_i - U_i`` added up, and ``U = n w - S`` for the mixed ``w``."""
    n = [int(s["average_counts"][1]) for s in states]
    n0 = 0 if base is None else int(base["average_counts"][1])
    total = n0 + sum(k - n0 for k in n)
    out = {}
    pairs = [("coef", "average_sum"), ("intercept_weight", "average_sum_intercept")]
    for w_key, u_key in pairs:
        if u_key not in mixed:
            continue
        sums = [k * s[w_key] - s[u_key] for k, s in zip(n, states)]
        start = 0.0 if base is None else n0 * base[w_key] - base[u_key]
        S = start + np.sum([x - start for x in sums], axis=0)
        out[u_key] = total * mixed[w_key] - S
    counts = states[0]["average_counts"].copy()
    counts[0], counts[1] = mixed["t"], total
    out["average_counts"] = counts
    return out


def _mix_precision(states: list, keys: list) -> dict:
    """The CW family's logarithmic pool (module docstring): mean precision, and means
    weighted by precision, feature by feature (the intercept's row last)."""
    # precisions relative to the first state's, P_i / P_0 = Sigma_0 / Sigma_i: the same
    # weights, and exactly 1 for a state equal to the first (identical states mix to
    # themselves, bit for bit); mean precision P = P_0 (1 + mean_i (P_i / P_0 - 1))
    Sigma_0 = states[0]["covariance"]
    P = np.stack([Sigma_0 / s["covariance"] for s in states])  # (S, rows)
    d = states[0]["coef"].shape[1]
    out = {"covariance": Sigma_0 / (1.0 + np.mean(P - 1.0, axis=0))}
    out["coef"] = _weighted([s["coef"] for s in states], P[:, None, :d])
    if "intercept_weight" in keys:
        out["intercept_weight"] = _weighted([s["intercept_weight"] for s in states], P[:, d:])
    return out


def _mix_sgd(estimator, states: list, rule: str) -> dict:
    """SGD-SVM: count-weighted weights per feature, step-weighted bias, mean clocks."""
    from sklearn.base import clone

    W = []
    for s in states:  # the weights each state stands for (pending lazy shrinks applied)
        W.append(clone(estimator).set_state(s).coef_.copy())
    counts = np.stack([s["counts"] for s in states]).astype(np.float64)
    steps = np.stack([s["steps"] for s in states]).astype(np.float64)
    S = len(states)
    if rule == "counts":
        seen = counts.sum(axis=0) > 0
        weights = np.where(seen, counts, 1.0)  # a feature no shard saw: the plain mean
        w = _weighted(W, weights)
        b_weights = np.where(steps.sum(axis=0) > 0, steps, 1.0)
        bias = _weighted([s["bias"] for s in states], b_weights)
    else:
        w, bias = _mean(W), _mean([s["bias"] for s in states])
    mean_steps = np.stack([s["steps"] for s in states]).sum(axis=0) // S
    return {
        "v": w,
        "scale": np.ones_like(states[0]["scale"]),
        "bias": bias,
        "steps": mean_steps,
        "counts": np.stack([s["counts"] for s in states]).sum(axis=0) // S,
        "last": np.repeat(mean_steps[:, None], w.shape[1], axis=1),
    }
