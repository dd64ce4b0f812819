"""Matsushima et al. (SDM 2010)'s Table 4 protocol on embedded data: scikit-learn's digits.

A lecture hall may have neither the paper's corpora (20 Newsgroups, USPS, Reuters-21578,
fetched into ``$OLEARN_DATA``) nor the internet.  This reproduction runs the same protocol,
learners, diagnostics, paired tests and claims as :mod:`olearn.experiments.table4` on
scikit-learn's 8x8 handwritten digits (1,797 images of 64 pixels, 10 classes), which ship
inside scikit-learn: nothing to download, nothing read from ``$OLEARN_DATA``.

Digits is **not the paper's data**.  The closest of the paper's sets is USPS (7,291
handwritten digits of 16x16 pixels); the paper prints no number for digits, so the paper
column stays empty and the paper's claims (SPA below PA, the Perceptron near PA, ...) are
checked on digits instead.  The summary says so first.
"""

from __future__ import annotations

from olearn.experiments import table4
from olearn.experiments.reproduction import Progress, ReproResult

ID = "matsushima-digits"
TITLE = (
    "Matsushima et al. 2010, Table 4's protocol on scikit-learn's digits (embedded, not the "
    "paper's data): error rates (%) under 10-fold CV, C tuned on one random fold"
)
SEED = table4.SEED
DATASETS = ("digits",)
CLOSE = table4.CLOSE
NOTE = (
    "Digits is not the paper's data: scikit-learn's 8x8 handwritten digits (1,797 x 64, "
    "10 classes) ship with scikit-learn, so this runs offline; the paper's nearest set is "
    "USPS (7,291 x 256). The paper prints no number for digits: the paper column is empty "
    "and its claims are checked on digits."
)


def run(
    *, quick: bool = False, jobs: int = 1, progress: Progress | None = None, **options
) -> ReproResult:
    """:func:`olearn.experiments.table4.run` on :data:`DATASETS` (other ``options`` as there;
    ``datasets`` may name other embedded sets).

    >>> result = run(quick=True, algorithms=("perceptron", "spa"), curves=False, folds=2,
    ...              max_samples=100, epochs=1)
    >>> result.id, result.table["dataset"].unique().tolist(), result.table["paper"].isna().all()
    ('matsushima-digits', ['digits'], np.True_)
    """
    options.setdefault("datasets", DATASETS)
    result = table4.run(quick=quick, jobs=jobs, progress=progress, **options)
    lines = [line for line in result.summary.splitlines()[1:] if not line.startswith("Paper ")]
    summary = "\n".join([TITLE, NOTE, *lines])  # the paper's title and reference replaced
    details = {**result.details, "reference": "none: digits is not in the paper's Table 4"}
    return ReproResult(ID, TITLE, result.table, summary, details, result.tables)
