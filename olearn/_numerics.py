"""Numerical constants shared by the readable rules and their kernels (kept in one place so the
two stay equal)."""

# Below this ||x||^2 the example is numerically the zero vector: a step of size l/||x||^2
# would overflow, so the rules stay passive.
TINY_SQNORM = 1e-290

# Below this x'Sigma x the confidence-weighted rules stay passive: the Gaussian has collapsed
# along x (CW does this under label noise), and the closed forms' c ~ m^2 / v^2 would overflow.
TINY_VARIANCE = 1e-100
