"""numba kernels: one training epoch per call over raw CSR arrays, mirroring :mod:`olearn.core`.

Conventions: ``@jit`` (:func:`olearn._jit.jit`: ``numba.njit(cache=True)``, compiled without
the on-disk cache, with one warning, where that cache cannot be used), no ``fastmath`` or
``parallel`` (sequential updates must equal the readable rule), weights stored feature-major
``W[feature, class]`` so the K scores of one non-zero are contiguous (LIBLINEAR's layout).
With an intercept, ``W`` has one extra last row, the weight of a constant column whose value
is the estimator's ``intercept_scaling`` (:func:`olearn.kernels.sparse.csr_rows` appends it).
"""
