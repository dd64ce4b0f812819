"""The numbers of ``docs/migrating-from-sklearn.md``: scikit-learn's PassiveAggressiveClassifier
(and its recommended replacement, ``SGDClassifier(loss="hinge", penalty=None,
learning_rate="pa1", eta0=C)``) against olearn's PAClassifier.

1. Binary: the same weights under ``C_olearn = C_sklearn / 2`` (the largest difference of
   ``coef_``, one epoch and five, no shuffling, no intercept).
2. Multiclass: scikit-learn is one-vs-rest (K binary PAs, each seeing every example), olearn
   is the true multiclass PA (one constraint against the best wrong class): test accuracy
   after 1 and 5 epochs on digits and 20news-8, over stratified splits.  Every learner sees
   the same training order (the split's), no shuffling between epochs, no intercept,
   ``tol=None``.

    python -m benchmarks.migration                 # print the tables
    python -m benchmarks.migration --write docs/migrating-from-sklearn.md
                                                   # replace the page's generated block
    python -m benchmarks.migration --quick         # digits only (seconds)
"""

from __future__ import annotations

import argparse
import re
import warnings
from pathlib import Path

import numpy as np
import sklearn
from sklearn.linear_model import SGDClassifier

from olearn import datasets
from olearn.estimators import PAClassifier, SPAClassifier

BEGIN, END = "<!-- migration:begin (benchmarks/migration.py) -->", "<!-- migration:end -->"
C_SKLEARN = 1.0  # scikit-learn's default C


def sklearn_pa(C: float, variant: str, epochs: int):
    """scikit-learn's PA (deprecated in 1.8; its FutureWarning silenced), or None without it."""
    from sklearn import linear_model

    if not hasattr(linear_model, "PassiveAggressiveClassifier"):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return linear_model.PassiveAggressiveClassifier(
            C=C,
            loss="hinge" if variant == "I" else "squared_hinge",
            fit_intercept=False,
            max_iter=epochs,
            shuffle=False,
            tol=None,
        )


def sgd_pa(C: float, variant: str, epochs: int):
    """scikit-learn's recommended replacement, with the same settings."""
    return SGDClassifier(
        loss="hinge",
        penalty=None,
        learning_rate="pa1" if variant == "I" else "pa2",
        eta0=C,
        fit_intercept=False,
        max_iter=epochs,
        shuffle=False,
        tol=None,
    )


def olearn_pa(C: float, variant: str, epochs: int, cls=PAClassifier):
    return cls(variant=variant, C=C / 2, epochs=epochs, shuffle=False)  # C_olearn = C_sk / 2


def olearn_spa(C: float, variant: str, epochs: int):
    return olearn_pa(C, variant, epochs, SPAClassifier)


def fitted(estimator, X, y):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        return estimator.fit(X, y)


def binary_rows(X, y) -> list[str]:
    rows = []
    for variant in ("I", "II"):
        for C in (0.1, 1.0):
            for epochs in (1, 5):
                ours = fitted(olearn_pa(C, variant, epochs), X, y).coef_
                refs = (("PassiveAggressiveClassifier", sklearn_pa), ("SGDClassifier", sgd_pa))
                for name, make in refs:
                    if make(C, variant, epochs) is None:
                        continue
                    ref = fitted(make(C, variant, epochs), X, y).coef_
                    diff = float(np.abs(ours - ref).max())
                    rows.append(
                        f"| {name} | PA-{variant} | {C:g} | {C / 2:g} | {epochs} | "
                        f"{diff:.1e} | {'yes' if np.array_equal(ours, ref) else 'no'} |"
                    )
    return rows


SPLITS = 5


def multiclass_rows(name, X, y) -> list[str]:
    """Mean (std) test accuracy over ``SPLITS`` stratified 70/30 splits; in each, every
    learner sees the training rows in the same (the split's random) order."""
    from sklearn.model_selection import StratifiedShuffleSplit

    learners = [
        ("scikit-learn PassiveAggressiveClassifier (one-vs-rest)", sklearn_pa),
        ('scikit-learn SGDClassifier(learning_rate="pa1") (one-vs-rest)', sgd_pa),
        ("olearn PAClassifier (multiclass)", olearn_pa),
        (
            "olearn SPAClassifier (multiclass, all violated classes)",
            lambda C, v, e: olearn_pa(C, v, e, SPAClassifier),
        ),  # fmt: skip
    ]
    splits = list(StratifiedShuffleSplit(SPLITS, test_size=0.3, random_state=0).split(X, y))
    rows = []
    for label, make in learners:
        if make(C_SKLEARN, "I", 1) is None:
            continue
        cells = []
        for epochs in (1, 5):
            acc = [
                fitted(make(C_SKLEARN, "I", epochs), X[tr], y[tr]).score(X[te], y[te])
                for tr, te in splits
            ]
            cells.append(f"{np.mean(acc):.4f} ({np.std(acc):.4f})")
        rows.append(f"| {name} | {label} | {cells[0]} | {cells[1]} |")
    return rows


def data(name: str):
    if name == "digits":
        from sklearn.datasets import load_digits

        return load_digits(return_X_y=True)
    ds = datasets.load(name)
    return ds.X, ds.y


def report(quick: bool = False) -> str:
    pair = datasets.load("pair-20news-space-med")
    lines = [
        f"Computed with scikit-learn {sklearn.__version__} by `python -m benchmarks.migration`.",
        "",
        "**Binary** (pair-20news-space-med, "
        f"{pair.X.shape[0]} documents x {pair.X.shape[1]} features, no intercept, no "
        "shuffling): largest difference between scikit-learn's `coef_` and olearn's.",
        "",
        "| scikit-learn class | rule | C (scikit-learn) | C (olearn) | epochs | max abs "
        "difference | bit for bit |",
        "|---|---|---|---|---|---|---|",
        *binary_rows(pair.X, pair.y),
        "",
        f"**Multiclass**: test accuracy, mean (std) over {SPLITS} stratified 70/30 splits, "
        f"PA-I with scikit-learn's default C = {C_SKLEARN:g} (olearn C = {C_SKLEARN / 2:g}), "
        "no intercept, every learner given the same order, no shuffling between epochs.",
        "",
        "| data | learner | 1 epoch | 5 epochs |",
        "|---|---|---|---|",
    ]
    for name in ("digits",) if quick else ("digits", "20news-8"):
        lines += multiclass_rows(name, *data(name))
    return "\n".join(lines)


def write(page: Path, block: str, begin: str = BEGIN, end: str = END) -> None:
    """Replace the page's generated block between the markers ``begin`` and ``end``."""
    text = page.read_text()
    pattern = re.compile(re.escape(begin) + ".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{page}: no block {begin} ... {end} to replace")
    page.write_text(pattern.sub(lambda _: f"{begin}\n{block}\n{end}", text))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="replace the generated block of this page")
    parser.add_argument("--quick", action="store_true", help="digits only for the multiclass part")
    args = parser.parse_args(argv)
    block = report(quick=args.quick)
    if args.write:
        write(args.write, block)
    print(block)


if __name__ == "__main__":
    main()
