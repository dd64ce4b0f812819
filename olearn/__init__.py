"""olearn: online linear classification, exact and traced.

Every algorithm exists twice: a readable pure update rule in :mod:`olearn.core` that
returns a trace of its internals, and a numba kernel in :mod:`olearn.kernels` that runs
one epoch over CSR arrays and equals the rule.  scikit-learn estimators in
:mod:`olearn.estimators` sit on top; :mod:`olearn.registry` lists every algorithm once.
"""

__version__ = "0.1.0"
