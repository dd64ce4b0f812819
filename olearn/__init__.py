"""olearn: online linear classification, exact and traced.

Every algorithm exists twice: a readable pure update rule in :mod:`olearn.core` that
returns a trace of its internals, and a numba kernel in :mod:`olearn.kernels` that runs
one epoch over CSR arrays and equals the rule.  scikit-learn estimators in
:mod:`olearn.estimators` sit on top; :mod:`olearn.registry` lists every algorithm once.
"""


def __getattr__(name: str) -> str:
    """``olearn.__version__``: one version, pyproject.toml's, read from the installed metadata
    when first asked for (``olearn --version`` prints it), so that ``import olearn`` (and
    ``olearn list``) need not import :mod:`importlib.metadata`."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        value = version("olearn")
    except PackageNotFoundError:  # a source tree on sys.path that was never installed
        value = "0+unknown"
    globals()["__version__"] = value
    return value
