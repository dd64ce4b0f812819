"""olearn: online linear classification, exact and traced.

Every algorithm exists twice: a readable pure update rule in :mod:`olearn.core` that
returns a trace of its internals, and a numba kernel in :mod:`olearn.kernels` that runs
one epoch over CSR arrays and equals the rule.  scikit-learn estimators in
:mod:`olearn.estimators` sit on top; :mod:`olearn.registry` lists every algorithm once.
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _version

try:  # one version: pyproject.toml's, as installed (``olearn --version`` prints it)
    __version__ = _version("olearn")
except PackageNotFoundError:  # a source tree on sys.path that was never installed
    __version__ = "0+unknown"
