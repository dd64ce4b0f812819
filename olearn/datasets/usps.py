"""USPS handwritten digits (seed 000 Table 3: 10 classes, 7,291 training images, 256 features).

Source: LIBSVM's multiclass files ``usps.bz2`` (7,291 training rows) and ``usps.t.bz2``
(2,007 test rows): a label ``1..10`` (digit + 1) and up to 256 ``index:value`` pairs per line
(16 x 16 grey levels in [-1, 1], exact zeros omitted).  We return the digit (label - 1) so
classes are ``0..9``, a dense float64 matrix with exactly 256 columns, and the official test
file as ``X_test`` / ``y_test``.  Rows keep the file order.

Caveat (card ``notes``): the offline copy in the course data folder is *converted from the
Elements of Statistical Learning "ZIP code" files* (same samples, same order), whose pixel
preprocessing (deslanted, 3-4 decimals, many exact -1) differs from LIBSVM's (smooth, 6
decimals).  Error rates on it are close to, not identical with, those published on LIBSVM's
files, which seed 000 used.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from olearn.citations import cite
from olearn.datasets._archive import corrupt, read_compressed
from olearn.datasets._base import Dataset, make_dataset

TRAIN, TEST = "usps.bz2", "usps.t.bz2"
N_FEATURES = 16 * 16
PAPER_TABLE = {
    "source": f"{cite('000')}, Table 3",
    "n_classes": 10,
    "n_samples": 7291,
    "n_features": 256,
}


def read_usps_file(path: Path) -> tuple[np.ndarray, np.ndarray]:
    """``(X, digits)`` of one LIBSVM-format USPS file: dense (n, 256) float64, int64 0..9.

    The file is decompressed completely first (bz2 CRC checked, ~14 MB), so a damaged
    archive never reaches the parser half-read.

    Raises
    ------
    ArchiveCorrupt
        (a ValueError and an OSError) if the file is damaged, empty, not LIBSVM text, or a
        label is outside 1..10 or a feature index outside 1..256.
    """
    from sklearn.datasets import load_svmlight_file  # (not at import: the cards need none)

    text = read_compressed(path)
    try:
        X, labels = load_svmlight_file(io.BytesIO(text), n_features=N_FEATURES, zero_based=False)
    except (ValueError, IndexError, TypeError, OverflowError, RuntimeError) as exc:
        raise corrupt(path, f"not LIBSVM 'label index:value ...' text: {exc}") from None
    if labels.size == 0:
        raise corrupt(path, "it holds no samples")
    if not np.all(np.isin(labels, np.arange(1, 11))):
        raise corrupt(path, "labels must be 1..10 (digit + 1)")
    return X.toarray(), labels.astype(np.int64) - 1  # label 1..10 -> digit 0..9


def build_usps(paths: dict[str, Path]) -> Dataset:
    """USPS with the official test split (module docstring); labels are the digits 0..9."""
    X, y = read_usps_file(paths[TRAIN])
    X_test, y_test = read_usps_file(paths[TEST])
    return make_dataset("usps", X, y, static_card(), X_test, y_test)


def static_card() -> dict:
    """The card fields known without the archive."""
    from olearn.datasets._urls import URLS  # the same dict, without the network stack

    return {
        "title": "USPS handwritten digits (16x16, LIBSVM format)",
        "source": (
            "J. J. Hull, A database for handwritten text recognition research, IEEE PAMI 16(5), "
            "1994; LIBSVM multiclass datasets (usps, usps.t)"
        ),
        "url": URLS[TRAIN],
        "licence": "No licence stated; ESL credits the neural network group at AT&T Research "
        "Labs (Y. LeCun). Research use.",
        "notes": (
            "7,291 training and 2,007 official test images (X_test), 256 grey levels in [-1, 1], "
            "labels = LIBSVM label - 1 = digit 0..9, file order kept. CAUTION: the offline copy "
            "in the shared data folder is converted from the Elements of Statistical Learning "
            "'ZIP code' files (same samples in the same order), whose pixel preprocessing "
            "(deslanted images, many exact -1, 3-4 decimals) is ESL's, not LIBSVM's (smooth, 6 "
            "decimals). Error rates on it are close to, not identical with, numbers published on "
            f"LIBSVM's usps files (as {cite('000')}'s)."
        ),
        "paper_table": PAPER_TABLE,
    }
