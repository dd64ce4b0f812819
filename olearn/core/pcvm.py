r"""Probabilistic Classification Vector Machine (PCVM) with a learned noise precision gamma.

References
----------
- H. Chen, P. Tino, X. Yao, "Probabilistic Classification Vector Machines", IEEE Trans. Neural
  Networks 20(6):901-914, 2009 (the PCVM; gamma = 1).
- H. Ikegami, T. Obata, M. Kobayashi, Y. Sakashita, "Probabilistic Classification Vector
  Machines considered variance of noise" (seed 002; the gamma / lambda extension, Eqs. 1-21).
- M. Figueiredo, "Adaptive sparseness for supervised learning", IEEE TPAMI 25(9), 2003 (the
  Jeffreys hyper-prior and the scaled M-step used here).

The model (seed Eqs. 1-13)
--------------------------
``y(x) = w^T phi(x) + b`` (Eq. 1); a hidden ``h_i = y(x_i) + eps_i`` with ``eps_i ~ N(0, 1/gamma)``
(Eq. 2) and ``t_i = sign(h_i)`` (Eq. 3), so ``P(t = 1 | x) = psi(y(x)) = Phi(sqrt(gamma) y(x))``
(Eqs. 5-6; ``Phi`` the standard normal CDF).  Priors: ``w_i ~ 2 N(0, 1/alpha_i)`` restricted to
``t_i w_i >= 0`` (Eq. 11: the weight of a basis function centred on a class-t point votes for
class t), ``b ~ N(0, 1/beta)`` (Eq. 12), ``gamma ~ 2 N(0, 1/lambda)`` on ``gamma > 0`` (Eq. 13).
Hyper-priors (Chen et al.): ``alpha_i ~ Gamma(c, d)``, ``beta ~ Gamma(e, f)``.

The EM (hidden: H, alpha, beta; parameters: w, b, gamma)
---------------------------------------------------------
``Q = E[2 log P(w, b, gamma, H, A, beta | t, lambda)]`` over the hidden variables given the old
parameters (the seed's Eq. 15 up to the correction below).

E-step.  Each ``h_i`` given ``t_i`` is ``N(y_i, 1/gamma)`` truncated to the side of ``t_i``.
With ``z_i = t_i sqrt(gamma) y_i`` and the inverse Mills ratio ``r_i = phi(z_i) / Phi(z_i)``::

    hbar_i = E[h_i | t_i]   = y_i + t_i r_i / sqrt(gamma)
                            = y_i + t_i N(y_i | 0, 1/gamma) / (gamma psi(t_i y_i))     (16-17)
    var_i  = Var[h_i | t_i] = (1 - z_i r_i - r_i^2) / gamma

Posterior of ``alpha_i`` given ``w_i``: ``Gamma(c + 1/2, d + w_i^2/2)`` (the truncation only
changes the constant 2), so ``alphabar_i = (2c + 1) / (w_i^2 + 2d)``; likewise
``betabar = (2e + 1) / (b^2 + 2f)``.  Default ``c = d = 0`` is the Jeffreys hyper-prior
(``alphabar_i = 1 / w_i^2``, Figueiredo 2003); ``e = f = 1e-5`` keeps ``betabar`` finite at b = 0.
(Chen's published MATLAB code uses half of both: ``1/(2 w^2)`` is ``c = -1/4``, pass that to
reproduce its weight prior; its ``betabar`` is also halved.)

M-step (each block maximises Q given the others, a generalised EM)::

    w    = argmax_{t_i w_i >= 0} 2 gamma w^T Phi^T (hbar - b 1) - gamma w^T Phi^T Phi w
                                 - w^T Abar w                                           (18)
         = (Abar + gamma Phi^T Phi)^-1 gamma Phi^T (hbar - b 1)       when its signs are right
    b    = gamma 1^T (hbar - Phi w) / (betabar + gamma N)                                 (19)
    gamma = 2N / (S + sqrt(S^2 + 8 lambda N)),  S = E||H - Phi w - b 1||^2
                                            = sum_i var_i + ||hbar - y||^2                (20)

(18) is solved in the scaled variable ``u = Abar^{1/2} w`` (``D = Abar^{-1/2}``, so
``(I + gamma D Phi^T Phi D) u = gamma D Phi^T r`` has eigenvalues >= 1 and a weight with
``w_i = 0`` drops out: Figueiredo's form).  If the unconstrained solution breaks a sign
(``t_i w_i < 0``) the constrained maximiser is found exactly by non-negative least squares on
the Cholesky factor, so every M-step really increases Q and the EM objective (the log posterior
below) never decreases between prunes.  Chen et al. instead set wrong-signed weights to 0
(the two coincide whenever no sign breaks; on overlapping classes signs break often).

Scale step (ours; PX-EM, Liu, Rubin and Wu, Biometrika 1998).  The likelihood depends on
``sqrt(gamma) y`` only, so ``(s w, s b, gamma / s^2)`` changes L through the priors alone and
plain EM creeps along that direction for thousands of iterations.  With learned gamma (derived
rule) each iteration ends with the exact maximiser over s (:func:`optimal_scale`; a 1-D concave
problem), so L still never decreases and the fixed points are the same.  At a fixed point
``dL/ds = 0`` gives, for c = d = 0 and k active weights::

    2 lambda gamma^2 = k + (e + 1/2) b^2 / (f + b^2 / 2)        (~ k when |b| >> sqrt(f))

so the learned gamma is ``sqrt(k / 2 lambda)``: it measures the model's size, not a noise
level, and lambda acts as an extra price per relevance vector (the profile of L over gamma
adds ``(k/4) log(k / 2 lambda e)``): larger lambda, smaller gamma, fewer weights.  Plain EM
(``rescale=False``) converges to the same identity, slowly (tested).

Objective (what EM increases): the log posterior with the hyper-parameters integrated out::

    L = sum_i log Phi(t_i sqrt(gamma) y_i) - (c + 1/2) sum_{j active} log(d + w_j^2 / 2)
        - (e + 1/2) log(f + b^2 / 2) - lambda gamma^2 / 2                               (+ const)

Pruning: weights with ``|w_j| <= prune_tol * max |w|`` (or whose largest effect on
``sqrt(gamma) y`` is below ``NEGLIGIBLE``, as when every weight collapses) leave the active set, so
``Phi`` loses a column and each iteration gets cheaper.  With the Jeffreys prior a weight that
shrinks towards 0 never comes back (``alphabar = 1/w^2`` is infinite at 0), so pruning only
anticipates the limit.  ``L`` counts active weights only: it rises between prunes.

Misprints in seed 002 (printed vs derived)
------------------------------------------
:func:`normal_density_printed`, :func:`estep_printed` and :func:`gamma_update_printed` evaluate
the printed forms.

- Eq. (4): ``N(z|mu, s^2) = exp(-(z-mu)^2 / 2s^2) / sqrt(2 pi s)``; the density needs
  ``sqrt(2 pi) s``.  The printed one does not integrate to 1 unless ``s = 1``.
- Eqs. (16)-(17): printed ``y psi(y) + N(y|0,1/gamma)/gamma`` (and
  ``y psi(-y) - N(y|0,1/gamma)/gamma``) is ``E[h 1{t}]``, the *partial* expectation; the
  conditional mean divides by ``P(t | y) = psi(t y)``.  The printed form equals
  ``psi(t y) * hbar``; it shrinks every hbar of a doubtful point towards 0 (and, at gamma = 1,
  disagrees with Chen et al.'s own E-step).
- Eq. (18): ``(hbar - b I^T)`` has a stray transpose; it is the column ``hbar - b 1``.
- Eqs. (14), (15) and (20): ``-gamma ||H - y||^2`` was expanded and ``-gamma H^T H`` dropped
  as a constant, but it multiplies gamma, the very parameter being estimated.  The printed
  ``C = 2 y^T hbar - ||y||^2`` must be ``C - E[H^T H] = -S``, i.e. minus the expected squared
  residual, always <= 0.  The printed root ``(C + sqrt(C^2 + 8 lambda N)) / (4 lambda)``
  grows like ``C / (2 lambda)`` when the fit is good; the derived one never exceeds
  ``sqrt(N / (2 lambda))`` (0.14 for N = 400, lambda = 10^4: the seed's Table 2 reports 0.95
  there, which only the printed rule can produce).
- Eq. (14) is ``2 log P`` up to constants, not "proportional to" ``log P``.

Weighted examples (``weights``: scikit-learn's ``sample_weight``; not in the papers)
------------------------------------------------------------------------------------
Example i's log-likelihood term is multiplied by its weight ``s_i >= 0``::

    L_s = sum_i s_i log Phi(t_i sqrt(gamma) y_i) + (the priors, unchanged)

EM still applies term by term: for any density q_i of h_i, ``log P(t_i | y_i) >=
E_q[log p(t_i, h_i | y_i)] + H(q_i)``, with equality at the posterior
``q_i = p(h_i | t_i, y_i^old)``; multiplying each bound by ``s_i >= 0`` keeps it a bound of
``L_s`` that touches it at the old parameters.  So:

- E-step: unchanged per example (``hbar_i``, ``var_i`` do not depend on s_i);
- M-step: every sum over examples is weighted (``S = diag(s)``)::

      w     = argmax 2 gamma w^T Phi^T S (hbar - b 1) - gamma w^T Phi^T S Phi w - w^T Abar w  (18)
      b     = gamma s^T (hbar - Phi w) / (betabar + gamma sum_i s_i)                           (19)
      gamma = 2 N_s / (S_s + sqrt(S_s^2 + 8 lambda N_s)),   N_s = sum_i s_i,
              S_s = sum_i s_i (var_i + (hbar_i - y_i)^2)                                       (20)

  ((18) is the unweighted solve on the rows ``sqrt(s_i) phi(x_i)`` and ``sqrt(s_i) (hbar_i -
  b)``; the N of (19)-(20), the count of ``log gamma`` terms, becomes ``N_s``);
- the scale step is unchanged (the likelihood still depends on ``sqrt(gamma) y`` only), and so
  ``L_s`` never decreases between prunes, as L does.

So an integer weight k is exactly k copies of the example's likelihood term (the same EM as
on the repeated rows with the basis unchanged: ``basis_t`` below).  The basis is not weighted:
each example keeps one basis function (a weight says how much a point's label counts, not how
many kernels sit on it; repeating a training row would also add a basis function, with its own
weight and prior, which a weight does not).  A weight of 0 is the example's absence: the
estimator drops the row and its basis function before the EM.

Basis apart from examples (``basis_t``): ``Phi`` may be (n, m), n examples by m basis
functions whose signs (Eq. 11) are ``basis_t`` (m,); by default the basis is the examples
themselves (``m = n``, ``basis_t = t``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from scipy.linalg import cho_factor, cho_solve, cholesky, solve_triangular
from scipy.optimize import brentq, nnls
from scipy.special import log_ndtr
from threadpoolctl import threadpool_limits

from olearn.trace import frozen_array

# Default hyper-prior of the bias (Chen et al.'s ``pmin``): keeps betabar finite at b = 0.
BIAS_PRIOR = 1e-5
GAMMA_RULES = ("derived", "printed")
# A weight whose largest contribution to sqrt(gamma) y(x_i) is below this is pruned outright.
NEGLIGIBLE = 1e-12
_LOG_SQRT_2PI = 0.5 * np.log(2.0 * np.pi)


# The seed's misprints, for the app's "printed vs derived" panel (module docstring has the why).
MISPRINTS: tuple[dict[str, str], ...] = (
    {
        "equation": "4",
        "printed": "exp(-(z-mu)^2 / 2 s^2) / sqrt(2 pi s)",
        "derived": "exp(-(z-mu)^2 / 2 s^2) / (sqrt(2 pi) s)",
        "evaluate": "normal_density_printed vs normal_density",
    },
    {
        "equation": "16-17",
        "printed": "y psi(t y) + t N(y|0,1/gamma) / gamma",
        "derived": "y + t N(y|0,1/gamma) / (gamma psi(t y))",
        "evaluate": "estep_printed vs truncated_moments",
    },
    {
        "equation": "18",
        "printed": "(Abar + gamma Phi^T Phi)^-1 gamma Phi^T (Hbar - b I^T)",
        "derived": "(Abar + gamma Phi^T Phi)^-1 gamma Phi^T (Hbar - b 1), signs kept by NNLS",
        "evaluate": "m_step_w",
    },
    {
        "equation": "14, 15, 20",
        "printed": "gamma = (C + sqrt(C^2 + 8 lam N)) / (4 lam), C = 2 y^T Hbar - ||y||^2",
        "derived": "gamma = 2N / (S + sqrt(S^2 + 8 lam N)), S = E||H - y||^2 = E[H^T H] - C",
        "evaluate": "gamma_update_printed vs gamma_update",
    },
)


# --- densities and the E-step -------------------------------------------------------------


def normal_density(z, mu=0.0, sigma2=1.0):
    """``N(z | mu, sigma^2)`` (seed Eq. 4, corrected): ``exp(-(z-mu)^2/2s^2) / (sqrt(2 pi) s)``.

    >>> round(float(normal_density(0.0, 0.0, 4.0)), 6)
    0.199471
    """
    sigma = np.sqrt(sigma2)
    return np.exp(-((np.asarray(z) - mu) ** 2) / (2.0 * sigma2)) / (np.sqrt(2.0 * np.pi) * sigma)


def normal_density_printed(z, mu=0.0, sigma2=1.0):
    """Seed Eq. (4) as printed: ``sqrt(2 pi sigma)`` in the denominator (wrong unless s = 1).

    >>> round(float(normal_density_printed(0.0, 0.0, 4.0)), 6)
    0.282095
    """
    sigma = np.sqrt(sigma2)
    return np.exp(-((np.asarray(z) - mu) ** 2) / (2.0 * sigma2)) / np.sqrt(2.0 * np.pi * sigma)


def psi(y, gamma: float):
    """The probit link with noise precision gamma (Eq. 5): ``Phi(sqrt(gamma) y)``."""
    return np.exp(log_ndtr(np.sqrt(gamma) * np.asarray(y, dtype=float)))


def truncated_moments(y, t, gamma: float) -> tuple[np.ndarray, np.ndarray]:
    """E-step (Eqs. 16-17, derived): mean and variance of ``h ~ N(y, 1/gamma)`` given its sign t.

    Returns ``(hbar, var)``.  Stable for large ``|y|`` (the Mills ratio is formed in logs).

    >>> hbar, var = truncated_moments(np.array([0.0]), np.array([1.0]), 1.0)
    >>> round(float(hbar[0]), 6), round(float(var[0]), 6)   # half-normal: sqrt(2/pi), 1 - 2/pi
    (0.797885, 0.36338)
    """
    y = np.asarray(y, dtype=float)
    t = np.asarray(t, dtype=float)
    root = np.sqrt(gamma)
    z = t * root * y
    mills = np.exp(-0.5 * z * z - _LOG_SQRT_2PI - log_ndtr(z))  # phi(z) / Phi(z)
    hbar = y + t * mills / root
    var = np.maximum(1.0 - z * mills - mills * mills, 0.0) / gamma
    return hbar, var


def estep_printed(y, t, gamma: float) -> np.ndarray:
    """Eqs. (16)-(17) as printed: ``y psi(t y) + t N(y|0,1/gamma)/gamma`` (the partial mean
    ``E[h 1{sign h = t}]``, not ``E[h | t]``)."""
    y = np.asarray(y, dtype=float)
    t = np.asarray(t, dtype=float)
    return y * psi(t * y, gamma) + t * normal_density(y, 0.0, 1.0 / gamma) / gamma


def hyper_expectations(
    w_active, b: float, c: float = 0.0, d: float = 0.0, e: float = BIAS_PRIOR, f: float = BIAS_PRIOR
) -> tuple[np.ndarray, float]:
    """``(alphabar, betabar)``: posterior means of the Gamma hyper-priors given w and b.

    ``alphabar_i = (2c + 1) / (w_i^2 + 2d)`` and ``betabar = (2e + 1) / (b^2 + 2f)``.
    """
    w_active = np.asarray(w_active, dtype=float)
    return (2 * c + 1) / (w_active**2 + 2 * d), (2 * e + 1) / (b * b + 2 * f)


# --- the M-step ----------------------------------------------------------------------------


def m_step_w(Phi_active, r, scale, gamma: float, t_active) -> tuple[np.ndarray, bool]:
    """Eq. (18) with the sign constraint, in the scaled variable ``u`` (``w = scale * u``).

    ``scale = Abar^{-1/2}``; ``r = hbar - b 1``.  Returns ``(w, constrained)`` where
    ``constrained`` says whether the unconstrained solution broke a sign and NNLS was used.
    """
    if scale.size == 0:
        return np.zeros(0), False
    PD = Phi_active * scale  # Phi D
    M = gamma * (PD.T @ PD)
    M[np.diag_indices_from(M)] += 1.0  # I + gamma D Phi^T Phi D
    g = gamma * (PD.T @ r)  # gamma D Phi^T (hbar - b 1)
    u = cho_solve(cho_factor(M, lower=True), g)
    if np.all(t_active * u >= 0.0):
        return scale * u, False
    # Constrained: min ||L^T u - L^-1 g||^2 over t_i u_i >= 0, with v = t u >= 0.
    L = cholesky(M, lower=True)
    v, _ = nnls(L.T * t_active, solve_triangular(L, g, lower=True), maxiter=50 * M.shape[0])
    return scale * (t_active * v), True


def m_step_b(hbar, fitted_without_b, betabar: float, gamma: float, weights=None) -> float:
    """Eq. (19): ``b = gamma 1^T (hbar - Phi w) / (betabar + gamma N)``; with ``weights`` s,
    ``gamma s^T (hbar - Phi w) / (betabar + gamma sum_i s_i)`` (module docstring)."""
    if weights is None:
        return float(gamma * np.sum(hbar - fitted_without_b) / (betabar + gamma * hbar.shape[0]))
    total = float(np.sum(weights * (hbar - fitted_without_b)))
    return float(gamma * total / (betabar + gamma * float(np.sum(weights))))


def gamma_update(S: float, lam: float, N: int) -> float:
    """Eq. (20), derived: the positive root of ``2 lam gamma^2 + S gamma - N = 0``.

    ``S = E||H - y||^2 >= 0``.  Written as ``2N / (S + sqrt(S^2 + 8 lam N))`` (no cancellation).
    """
    return 2.0 * N / (S + np.sqrt(S * S + 8.0 * lam * N))


def gamma_update_printed(C: float, lam: float, N: int) -> float:
    """Eq. (20) as printed: ``(C + sqrt(C^2 + 8 lam N)) / (4 lam)``, C = 2 y^T hbar - ||y||^2."""
    return (C + np.sqrt(C * C + 8.0 * lam * N)) / (4.0 * lam)


def optimal_scale(w_active, b: float, gamma: float, cfg) -> float:
    """The exact maximiser s of L along ``(s w, s b, gamma / s^2)`` (a PX-EM step).

    The likelihood depends on ``sqrt(gamma) y`` only, so along that curve L changes through the
    priors alone: with ``u = log s``, ``dL/du = 2 lam gamma^2 / s^4
    - (c + 1/2) sum_j s^2 w_j^2 / (d + s^2 w_j^2 / 2) - (e + 1/2) s^2 b^2 / (f + s^2 b^2 / 2)``,
    decreasing in u (L is concave in u), so the root is unique.  At a maximum of L it is s = 1,
    hence ``2 lam gamma^2 = k`` (+ the bias term) with c = d = 0: k the active weights.
    """
    w2, b2, lam = np.asarray(w_active) ** 2, b * b, cfg.lam
    w2 = w2[w2 > 0]  # an exact zero (sign bound) does not scale

    def slope(u):
        s2 = np.exp(2.0 * u)
        prior = (cfg.c + 0.5) * np.sum(s2 * w2 / (cfg.d + 0.5 * s2 * w2))
        prior += (cfg.e + 0.5) * s2 * b2 / (cfg.f + 0.5 * s2 * b2)
        return 2.0 * lam * gamma * gamma / (s2 * s2) - prior

    lo, hi = -1.0, 1.0
    while slope(lo) < 0:
        lo *= 2.0
    while slope(hi) > 0:
        hi *= 2.0
    return float(np.exp(brentq(slope, lo, hi, xtol=1e-14, rtol=1e-14)))


def log_posterior(
    y,
    t,
    w_active,
    b: float,
    gamma: float,
    lam: float | None,
    *,
    c: float = 0.0,
    d: float = 0.0,
    e: float = BIAS_PRIOR,
    f: float = BIAS_PRIOR,
    weights=None,
) -> float:
    """The EM objective L (module docstring) up to a constant; ``lam=None``: gamma fixed;
    ``weights``: each example's term times its weight (``L_s``)."""
    w_active = np.asarray(w_active, dtype=float)
    terms = log_ndtr(t * np.sqrt(gamma) * y)  # log psi(t_i y_i)
    value = float(np.sum(terms if weights is None else weights * terms))
    value -= (c + 0.5) * float(np.sum(np.log(d + 0.5 * w_active**2)))
    value -= (e + 0.5) * float(np.log(f + 0.5 * b * b))
    if lam is not None:
        value -= 0.5 * lam * gamma * gamma  # Eq. (13)
    return value


# --- state, trace and one EM iteration -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class PCVMState:
    """The parameters: ``w`` (N,) dual weights over the training points (0 = pruned), ``b``,
    ``gamma``, and ``active`` (indices of the weights still in the model)."""

    w: np.ndarray
    b: float
    gamma: float
    active: np.ndarray


@dataclass(frozen=True, slots=True)
class PCVMTrace:
    """What one EM iteration did (arrays are read-only copies).

    Attributes
    ----------
    iteration : 1-based.  gamma_old, gamma : precision before / after (equal when fixed).
    b : bias after.  w : (N,) weights after (0 for pruned).
    hbar, hvar : (N,) E-step mean and variance of the hidden h (Eqs. 16-17, derived).
    alphabar : (N,) hyper-expectations used in this M-step (inf for inactive weights).
    betabar : float.  residual : ``S = E||H - y||^2`` at the new w, b (Eq. 20's input).
    objective : L after the iteration (log posterior, module docstring).
    n_nonzero : active weights after pruning.  pruned : indices pruned in this iteration.
    constrained : the unconstrained Eq. (18) broke a sign and NNLS gave the M-step.
    scale : the scale step's s (1.0 when gamma is fixed, printed, or ``rescale`` is off).
    train_error : fraction of training points on the wrong side of ``y = 0``.
    """

    iteration: int
    gamma_old: float
    gamma: float
    b: float
    w: np.ndarray
    hbar: np.ndarray
    hvar: np.ndarray
    alphabar: np.ndarray
    betabar: float
    residual: float
    objective: float
    n_nonzero: int
    pruned: np.ndarray
    constrained: bool
    scale: float
    train_error: float


@dataclass(frozen=True, slots=True)
class PCVMConfig:
    """Hyper-parameters of one fit (the seed's symbols).

    Attributes
    ----------
    lam : lambda of Eq. (13), or None to keep gamma fixed at its initial value (1: Chen's PCVM).
    c, d, e, f : Gamma hyper-priors of alpha and beta.  prune_tol : relative pruning threshold.
    gamma_rule : "derived" (default) or "printed" (Eq. 20 as printed, for comparison).
    rescale : after each M-step of a learned gamma (derived rule), take the exact step along
        the scale direction ``(s w, s b, gamma / s^2)`` (:func:`optimal_scale`).
    """

    lam: float | None = None
    c: float = 0.0
    d: float = 0.0
    e: float = BIAS_PRIOR
    f: float = BIAS_PRIOR
    prune_tol: float = 1e-3
    gamma_rule: str = "derived"
    rescale: bool = True


def initial_state(t, gamma: float = 1.0, random_state=None) -> PCVMState:
    """Chen et al.'s start: ``t_i w_i ~ U(0.2, 1.2)``, all weights active; here ``b = 0``."""
    rng = np.random.default_rng(random_state)
    t = np.asarray(t, dtype=float)
    w = t * (0.2 + rng.random(t.shape[0]))
    return PCVMState(w=w, b=0.0, gamma=float(gamma), active=np.arange(t.shape[0]))


class PCVMData(NamedTuple):
    """What the EM fits: ``Phi`` (n, m), the examples' labels ``t`` (n,), their ``weights``
    (n,) or None (every weight 1), the basis functions' signs ``basis_t`` (m,)."""

    Phi: np.ndarray
    t: np.ndarray
    weights: np.ndarray | None
    basis_t: np.ndarray

    def total(self, values: np.ndarray) -> float:
        """``sum_i s_i values_i`` (the plain sum without weights)."""
        return float(np.sum(values if self.weights is None else self.weights * values))

    def count(self) -> float:
        """``N_s = sum_i s_i`` (N without weights)."""
        return float(self.t.shape[0] if self.weights is None else np.sum(self.weights))


def _iterate(data: PCVMData, state: PCVMState, cfg: PCVMConfig):
    """One EM iteration; returns the new state and the quantities a trace shows."""
    Phi, t, s = data.Phi, data.t, data.weights
    N = data.count()  # N, or N_s = sum_i s_i with weights
    S = state.active
    Phi_S, t_S, w_S = Phi[:, S], data.basis_t[S], state.w[S]
    gamma = state.gamma
    # E-step at the old parameters (per example: weights do not enter)
    y = Phi_S @ w_S + state.b  # Eq. (1)
    hbar, hvar = truncated_moments(y, t, gamma)  # Eqs. (16)-(17), derived
    alphabar, betabar = hyper_expectations(w_S, state.b, cfg.c, cfg.d, cfg.e, cfg.f)
    # M-step: w (Eq. 18), then b (Eq. 19), then gamma (Eq. 20); weighted: the rows sqrt(s_i)
    root = None if s is None else np.sqrt(s)
    rows, r = (
        (Phi_S, hbar - state.b) if s is None else (Phi_S * root[:, None], root * (hbar - state.b))
    )
    w_S, constrained = m_step_w(rows, r, 1.0 / np.sqrt(alphabar), gamma, t_S)
    fitted = Phi_S @ w_S
    b = m_step_b(hbar, fitted, betabar, gamma, s)
    y_new = fitted + b
    if s is None:
        residual = float(np.sum(hvar) + np.sum((hbar - y_new) ** 2))  # S = E||H - y||^2
    else:
        residual = data.total(hvar + (hbar - y_new) ** 2)  # S_s = sum_i s_i E(h_i - y_i)^2
    scale = 1.0
    if cfg.lam is not None:
        if cfg.gamma_rule == "printed":
            if s is None:
                C = float(2.0 * y_new @ hbar - y_new @ y_new)  # the printed C
            else:
                C = 2.0 * data.total(y_new * hbar) - data.total(y_new * y_new)
            gamma = float(gamma_update_printed(C, cfg.lam, N))
        else:
            gamma = float(gamma_update(residual, cfg.lam, N))
            if cfg.rescale and w_S.size:
                scale = optimal_scale(w_S, b, gamma, cfg)  # parameter-expanded step
                w_S, b, gamma = scale * w_S, scale * b, gamma / scale**2
    # Pruning: the active set shrinks
    big = np.abs(w_S).max() if w_S.size else 0.0
    # a weight also goes when its largest effect on sqrt(gamma) y is below NEGLIGIBLE
    reach = np.abs(w_S) * np.abs(Phi_S).max(axis=0, initial=0.0) * np.sqrt(gamma)
    keep = (np.abs(w_S) > cfg.prune_tol * big) & (reach > NEGLIGIBLE)
    if cfg.prune_tol == 0.0 and cfg.d > 0.0:
        keep[:] = True  # proper hyper-prior, no pruning: a weight at 0 may come back
    w = np.zeros(Phi.shape[1])
    w[S[keep]] = w_S[keep]
    new = PCVMState(w=w, b=b, gamma=gamma, active=S[keep])
    alpha_full = np.full(Phi.shape[1], np.inf)
    alpha_full[S] = alphabar
    info = dict(
        hbar=hbar,
        hvar=hvar,
        alphabar=alpha_full,
        betabar=float(betabar),
        residual=residual,
        pruned=S[~keep],
        constrained=constrained,
        scale=float(scale),
    )
    return new, info


def _check(Phi, t, state: PCVMState, cfg: PCVMConfig, weights=None, basis_t=None) -> PCVMData:
    Phi = np.asarray(Phi, dtype=float)
    t = np.asarray(t, dtype=float)
    basis_t = t if basis_t is None else np.asarray(basis_t, dtype=float)
    if Phi.ndim != 2 or Phi.shape != (t.shape[0], basis_t.shape[0]):
        raise ValueError(
            f"Phi must be (N, M) with N = len(t) and M = len(basis_t) (square by default); "
            f"got {Phi.shape}, {t.shape}, {basis_t.shape}"
        )
    if not (np.all(np.isin(t, (-1.0, 1.0))) and np.all(np.isin(basis_t, (-1.0, 1.0)))):
        raise ValueError("t must hold labels -1 / +1")
    if state.w.shape != basis_t.shape:
        raise ValueError(
            f"the state has {state.w.shape[0]} weights for {basis_t.shape[0]} basis functions"
        )
    if weights is not None:
        weights = np.asarray(weights, dtype=float)
        if weights.shape != t.shape or not np.all(np.isfinite(weights)) or np.any(weights < 0):
            raise ValueError(f"weights must be {t.shape[0]} finite numbers >= 0")
    if not (np.all(np.isfinite(Phi)) and np.isfinite(state.gamma) and state.gamma > 0):
        raise ValueError("Phi must be finite and gamma positive")
    if cfg.lam is not None and not (np.isfinite(cfg.lam) and cfg.lam > 0):
        raise ValueError(f"lam must be a positive finite number or None, got {cfg.lam}")
    if not (cfg.c > -0.5 and cfg.d >= 0 and cfg.e > -0.5 and cfg.f >= 0 and cfg.prune_tol >= 0):
        raise ValueError("need c, e > -1/2 and d, f, prune_tol >= 0")
    if cfg.gamma_rule not in GAMMA_RULES:
        raise ValueError(f"gamma_rule must be one of {GAMMA_RULES}, got {cfg.gamma_rule!r}")
    return PCVMData(Phi, t, weights, basis_t)


def _objective(data: PCVMData, state: PCVMState, cfg: PCVMConfig) -> tuple[float, float]:
    """``(L, train_error)`` at ``state`` (the weighted ``L_s`` and error with weights)."""
    y = data.Phi[:, state.active] @ state.w[state.active] + state.b
    objective = log_posterior(
        y, data.t, state.w[state.active], state.b, state.gamma, cfg.lam,
        c=cfg.c, d=cfg.d, e=cfg.e, f=cfg.f, weights=data.weights,
    )  # fmt: skip
    wrong = data.t * y <= 0
    error = np.mean(wrong) if data.weights is None else data.total(wrong) / data.count()
    return objective, float(error)


def em_step(
    state: PCVMState,
    Phi,
    t,
    cfg: PCVMConfig = PCVMConfig(),
    iteration: int = 1,
    *,
    weights=None,
    basis_t=None,
) -> tuple[PCVMState, PCVMTrace]:
    """One traced EM iteration: E-step, M-step (w, b, gamma), pruning.

    Parameters
    ----------
    state : the current parameters (never modified).
    Phi : (N, N) basis on the training points, ``Phi[i, j] = phi_j(x_i)``.
    t : (N,) labels in {-1, +1}.
    cfg : hyper-parameters.
    weights : (N,) example weights >= 0, or None (module docstring, *Weighted examples*).
    basis_t : (M,) signs of the basis functions when Phi is (N, M) (default: t, M = N).

    Examples
    --------
    >>> import numpy as np
    >>> from olearn.core._pcvm_basis import basis
    >>> X = np.array([[0.0, 1.0], [0.1, 1.0], [1.0, 0.0], [1.0, 0.1]])
    >>> t = np.array([1.0, 1.0, -1.0, -1.0])
    >>> Phi = basis(X, X, "cosine")
    >>> state = initial_state(t, random_state=0)
    >>> state, trace = em_step(state, Phi, t, PCVMConfig(lam=100.0))
    >>> trace.train_error, trace.gamma < 1.0
    (0.0, True)
    """
    data = _check(Phi, t, state, cfg, weights, basis_t)
    new, info = _iterate(data, state, cfg)
    objective, train_error = _objective(data, new, cfg)
    trace = PCVMTrace(
        iteration=iteration,
        gamma_old=state.gamma,
        gamma=new.gamma,
        b=new.b,
        w=frozen_array(new.w),
        hbar=frozen_array(info["hbar"]),
        hvar=frozen_array(info["hvar"]),
        alphabar=frozen_array(info["alphabar"]),
        betabar=info["betabar"],
        residual=info["residual"],
        objective=objective,
        n_nonzero=int(new.active.size),
        pruned=frozen_array(info["pruned"], dtype=np.int64),
        constrained=info["constrained"],
        scale=info["scale"],
        train_error=train_error,
    )
    return new, trace


def converged(old: PCVMState, new: PCVMState, tol: float) -> bool:
    """Relative change of w (max norm) and of gamma below ``tol``."""
    scale = max(np.abs(new.w).max(initial=0.0), 1e-12)
    dw = np.abs(new.w - old.w).max(initial=0.0) / scale
    return dw <= tol and abs(new.gamma - old.gamma) <= tol * old.gamma


def pcvm_fit(
    Phi,
    t,
    cfg: PCVMConfig = PCVMConfig(),
    *,
    gamma0: float = 1.0,
    max_iter: int = 500,
    tol: float = 1e-3,
    random_state=None,
    trace: bool = False,
    weights=None,
    basis_t=None,
):
    """Run the EM to convergence (``weights``, ``basis_t``: as in :func:`em_step`).

    Returns ``(state, history, n_iter)``: ``history`` is a list of :class:`PCVMTrace` when
    ``trace`` is true, else a list of per-iteration dicts of scalars (gamma, b, objective,
    n_nonzero, train_error, constrained) - cheap enough for estimators to keep.

    >>> import numpy as np
    >>> from olearn.core._pcvm_basis import basis
    >>> X = np.array([[0.0, 1.0], [0.1, 1.0], [1.0, 0.0], [1.0, 0.1]])
    >>> t = np.array([1.0, 1.0, -1.0, -1.0])
    >>> state, history, n_iter = pcvm_fit(basis(X, X), t, random_state=0)
    >>> bool(np.all(np.sign(state.w[state.active]) == t[state.active]))
    True
    """
    state = initial_state(t if basis_t is None else basis_t, gamma0, random_state)
    data = _check(Phi, t, state, cfg, weights, basis_t)
    # Many small factorisations: BLAS threads cost more than they give (10x on a busy machine).
    with threadpool_limits(limits=1, user_api="blas"):
        return _loop(data, state, cfg, max_iter, tol, trace)


def _loop(data: PCVMData, state: PCVMState, cfg: PCVMConfig, max_iter: int, tol: float, trace):
    history: list = []
    n_iter = 0
    for n_iter in range(1, max_iter + 1):
        if trace:
            new, tr = em_step(
                state, data.Phi, data.t, cfg, n_iter, weights=data.weights, basis_t=data.basis_t
            )
            history.append(tr)
        else:
            new, info = _iterate(data, state, cfg)
            objective, train_error = _objective(data, new, cfg)
            history.append(
                dict(
                    iteration=n_iter,
                    gamma=new.gamma,
                    b=new.b,
                    n_nonzero=int(new.active.size),
                    objective=objective,
                    train_error=train_error,
                    constrained=info["constrained"],
                )
            )
        done = converged(state, new, tol) or new.active.size == 0
        state = new
        if done:
            break
    return state, history, n_iter
