"""Covariance ellipses: what the confidence-weighted pages draw of a Gaussian over 2-D weights."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from olearn.trace import frozen_array


@dataclass(frozen=True, slots=True)
class Ellipse:
    """The 1-sigma ellipse of a 2-D covariance: semi-axes and the angle of the major one.

    center : (2,);  semi_major >= semi_minor : sqrt of the eigenvalues (times n_std);
    angle : radians from the first axis to the major axis, in (-pi/2, pi/2].
    """

    center: np.ndarray
    semi_major: float
    semi_minor: float
    angle: float


def covariance_ellipse(
    Sigma: np.ndarray, center=(0.0, 0.0), dims: tuple[int, int] = (0, 1), n_std: float = 1.0
) -> Ellipse:
    """Ellipse parameters of the 2 x 2 block ``dims`` of a diagonal or full covariance.

    >>> e = covariance_ellipse(np.array([[4.0, 0.0], [0.0, 1.0]]))
    >>> e.semi_major, e.semi_minor, e.angle
    (2.0, 1.0, 0.0)
    """
    Sigma = np.asarray(Sigma, dtype=float)
    i, j = dims
    if Sigma.ndim == 1:
        block = np.diag([Sigma[i], Sigma[j]])
    else:
        block = Sigma[np.ix_([i, j], [i, j])]
    block = 0.5 * (block + block.T)
    values, vectors = np.linalg.eigh(block)  # ascending
    major = vectors[:, 1]
    angle = math.atan2(major[1], major[0])
    if angle <= -math.pi / 2:
        angle += math.pi
    elif angle > math.pi / 2:
        angle -= math.pi
    return Ellipse(
        center=frozen_array(center),
        semi_major=float(n_std * math.sqrt(max(values[1], 0.0))),
        semi_minor=float(n_std * math.sqrt(max(values[0], 0.0))),
        angle=float(angle) + 0.0,
    )


def ellipse_points(ellipse: Ellipse, n: int = 100) -> np.ndarray:
    """(n, 2) points on the ellipse boundary, ready to plot.

    >>> ellipse_points(covariance_ellipse(np.diag([4.0, 1.0])), 5).round(6).tolist()[:2]
    [[2.0, 0.0], [0.0, 1.0]]
    """
    t = np.linspace(0.0, 2.0 * np.pi, n)
    c, s = math.cos(ellipse.angle), math.sin(ellipse.angle)
    a, b = ellipse.semi_major * np.cos(t), ellipse.semi_minor * np.sin(t)
    return np.column_stack([ellipse.center[0] + c * a - s * b, ellipse.center[1] + s * a + c * b])
