"""Numerical constants shared by the readable rules and their kernels (kept in one place so the
two stay equal)."""

# Below this ||x||^2 the example is numerically the zero vector: a step of size l/||x||^2
# would overflow, so the rules stay passive.
TINY_SQNORM = 1e-290
