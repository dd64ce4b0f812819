"""The confidence-weighted family's engine: CW, AROW, SCW, NHERD, NAROW (:mod:`olearn.core.cw`).

Each class has a mean row (the linear layout of :class:`~.linear.LinearEngine`); one
covariance over the features is shared by the classes: ``S``, its diagonal, or for
``covariance="full"`` its square root ``A`` (``Sigma = A A'``, the form the kernel updates).

The family's numeric limits live here, beside the kernel they protect, and the estimators'
parameter constraints are built from them:

- ``2 a ||x||^2 <= MAX_VARIANCE`` for every row (the closed forms are cubic in the margin
  variance ``v <= 2 a ||x||^2``);
- AROW's ``r`` (and an example's ``r / s``) ``>= TINY_VARIANCE``: a step leaves the variance
  along x below r, and under TINY_VARIANCE the rules stay passive;
- NHERD's ``C`` (and ``s C``) in ``[TINY, NHERD_C_MAX]``: its precision step grows as
  ``(C v)^2`` and must stay finite for ``v`` up to MAX_VARIANCE;
- NAROW's ``b`` (and ``s b``) ``<= 1 / TINY_VARIANCE``: ``r_t`` tends to ``1/b``;
- the full covariance at most ``MAX_FULL_DIM`` features, at creation, ``widen`` and
  ``from_state`` alike.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from olearn._budget import model_bytes
from olearn._numerics import TINY_VARIANCE
from olearn.core._cw_closed_forms import MAX_VARIANCE
from olearn.core.cw import MAX_FULL_DIM, full_too_large
from olearn.estimators.engine.base import FLOAT_MAX
from olearn.estimators.engine.linear import TINY, LinearEngine, load_kernel, price_range

_NONE, _NONE_2D = np.zeros(0), np.zeros((0, 0))  # the kernel's unused outputs (never written)
NHERD_C_MAX = 1e50  # (C v)^2 finite for v <= MAX_VARIANCE (1e100)
NAROW_B_MAX = 1.0 / TINY_VARIANCE


class CWEngine(LinearEngine):
    """Means ``W`` (the linear layout) and the shared covariance ``S``: the diagonal (d [+1],)
    or the square root ``A`` (d [+1], d [+1]) of the full one.

    Structure: ``covariance`` ("diagonal" / "full") and the prior variance ``a`` (the
    covariance starts at ``a I``), besides the linear ones.  Steps (:meth:`tune`): ``rule``,
    the kernel's tuple ``(code, phi, r, C, lam, diagonal form code)``.
    """

    kernel = "olearn.kernels.cw:cw_epoch"

    def _setup_family(self, *, covariance: str = "diagonal", a: float = 1.0) -> None:
        self.covariance, self.a = covariance, float(a)

    @property
    def params(self) -> dict:
        # the covariance kind is the state's shape; ``a`` is the prior the stored covariance
        # started from, which no later value can change
        return {**super().params, "covariance": self.covariance, "a": self.a}

    def tune(self, *, rule: tuple) -> None:
        self.rule = rule

    def _check_width(self, n_features: int) -> None:
        super()._check_width(n_features)
        if self.covariance == "full" and n_features > MAX_FULL_DIM:
            raise ValueError(f"{self.owner}: {full_too_large(n_features)}")

    def state_bytes(self, n_features: int, n_classes: int) -> tuple[int, str]:
        rows = n_features + (1 if self.fit_intercept else 0)
        two = n_classes == 2  # the two-class pass interleaves (mean, variance) in a copy
        if self.covariance == "full":  # A (rows x rows); the kernel's g and w vectors
            nbytes = model_bytes(rows, rows) + model_bytes(n_classes + 2 + two, rows)
            kind = f"and a full {rows:,} x {rows:,} covariance"
        else:  # W, the diagonal
            nbytes = model_bytes(n_classes + 1 + 3 * two, rows)
            kind = "and a diagonal covariance"
        if self.average:  # the averaging sum U and the averaged means
            nbytes += model_bytes(2 * n_classes, rows)
        return nbytes, f"a model of {n_classes:,} classes x {rows:,} features (means) {kind}"

    def _check_norms(self, largest: float, rows: tuple) -> None:
        """The margin variance ``v = 2 x' Sigma x <= 2 a ||x||^2`` must stay within the closed
        forms' float64 range (``MAX_VARIANCE``, derived where it is defined)."""
        super()._check_norms(largest, rows)  # ||x||^2 itself finite
        v = 2.0 * self.a * largest
        if not v <= MAX_VARIANCE:
            raise ValueError(
                f"a={self.a:.3g} is too large for these rows: the margin variance 2 a ||x||^2 "
                f"reaches {v:.3g}, over {MAX_VARIANCE:.0e}, beyond which the closed-form steps "
                "overflow float64 (they are cubic in it).  The rule depends on a ||x||^2 only: "
                "use a smaller a, or scale the features down"
            )

    def _weight_range(self, largest: float) -> tuple[float, float, str]:
        from olearn.kernels.cw import AROW, NAROW, NHERD, SCW1, SCW2

        code, _, r, C, _, _ = self.rule
        if code == AROW:  # r_i = r / s in [TINY_VARIANCE, FLOAT_MAX]
            why = f"AROW's r_i = r / s must stay in [{TINY_VARIANCE:.0e}, {FLOAT_MAX:.3g}]"
            return r / FLOAT_MAX, r / TINY_VARIANCE, why
        if code == NAROW:  # r given as b: s b <= 1/TINY_VARIANCE
            return price_range(r, TINY, NAROW_B_MAX, "b")
        if code == NHERD:
            return price_range(C, TINY, NHERD_C_MAX, "C")
        if code in (SCW1, SCW2):
            return price_range(C, TINY, FLOAT_MAX, "C")
        return 0.0, math.inf, ""  # CW: any s > 0 is the constraint's presence

    def _weight_remedy(self) -> tuple[str, str]:
        from olearn.kernels.cw import RULE_TYPES

        rule = RULE_TYPES[self.rule[0]].rule_name
        return rule, "use AROW (r_i = r / w), SCW-I / SCW-II or NHERD (C_i = w C)"

    def _allocate(self) -> None:
        super()._allocate()
        rows = self.W.shape[0]
        a = self.a
        self.S = math.sqrt(a) * np.eye(rows) if self.covariance == "full" else np.full(rows, a)

    def _widen(self, n_features: int) -> None:
        d, new = self.n_features, n_features - self.n_features
        super()._widen(n_features)
        if self.S.ndim == 1:  # the prior a for the new columns, the intercept's entry last
            self.S = np.insert(self.S, d, np.full(new, self.a))
        else:  # Sigma = A A': a sqrt(a) I block for the new columns
            rows = self.S.shape[0] + new
            A = math.sqrt(self.a) * np.eye(rows)
            keep = np.r_[0:d, d + new : rows]  # old rows/columns: features, then intercept
            A[np.ix_(keep, keep)] = self.S
            self.S = A

    def covariance_matrix(self) -> np.ndarray:
        """The shared covariance: the diagonal vector, or the full matrix ``A A'``."""
        if self.S.ndim == 1:
            return self.S
        Sigma = self.S @ self.S.T
        return 0.5 * (Sigma + Sigma.T)

    def score_variance(self, X) -> np.ndarray:
        """``x' Sigma x`` per row of a checked X (the intercept column included)."""
        d, s, S = self.n_features, self.column_value(), self.S
        if S.ndim == 1:
            sq = X.multiply(X) if sp.issparse(X) else X * X
            var = np.asarray(sq @ S[:d]).ravel()
            return var + (s * s * S[d] if self.fit_intercept else 0.0)
        XA = np.asarray(X @ S[:d])  # rows: (A'x)' without the intercept column
        if self.fit_intercept:
            XA = XA + s * S[d]
        return (XA * XA).sum(axis=1)  # |A'x|^2

    def _epoch(self, rows, y_idx, order, mistakes, weights=None) -> int:
        full = self.S.ndim == 2
        return load_kernel(self.kernel)(
            rows,
            y_idx,
            order,
            self.W,
            _NONE if full else self.S,
            self.S if full else _NONE_2D,
            self.rule,
            _NONE,  # no alpha / beta recorded
            _NONE,
            mistakes,
            weights,
            self.U,
            self.avg,
        )

    def _state_spec(self, n_classes: int, n_features: int) -> dict:
        rows = n_features + (1 if self.fit_intercept else 0)
        if self.covariance == "full":  # the square root A the kernel updates: bit-exact
            return {
                **super()._state_spec(n_classes, n_features),
                "covariance_factor": ((rows, rows), "factor"),
            }
        return {**super()._state_spec(n_classes, n_features), "covariance": ((rows,), "positive")}

    def _state_arrays(self) -> dict:
        key = "covariance_factor" if self.S.ndim == 2 else "covariance"
        return {**super()._state_arrays(), key: self.S.copy()}

    def _load_arrays(self, arrays: dict) -> None:
        super()._load_arrays(arrays)
        self.S = arrays["covariance_factor" if self.covariance == "full" else "covariance"]
