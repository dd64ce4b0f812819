"""The weights section of ``docs/migrating-from-sklearn.md``: what an example's weight scales in
scikit-learn's PA (the step) and in olearn's (the price C, or the step with
``weight_scales="step"``), computed, never typed.

1. A worked example: one update from zero weights on ``x = (1, 1)`` (``||x||^2 = 2``), label
   ``+1`` (loss 1), ``C_sklearn = 1`` (olearn ``C = 0.5``), weights 0.2, 1 and 2, PA-I and PA-II:
   ``coef_[0]`` of scikit-learn's ``SGDClassifier(learning_rate="pa1"|"pa2")`` and of
   olearn's ``PAClassifier`` in both meanings, each fitted by ``partial_fit``.
2. One pass over a seeded binary set (300 x 20, weights drawn from {0.3, 1, 1.9}): the largest
   difference of ``coef_`` from scikit-learn's, per meaning.

    python -m benchmarks.migration_weights                       # print the block
    python -m benchmarks.migration_weights --write docs/migrating-from-sklearn.md
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import sklearn
from sklearn.linear_model import SGDClassifier

from olearn.estimators import PAClassifier

BEGIN = "<!-- weights:begin (benchmarks/migration_weights.py) -->"
END = "<!-- weights:end -->"
LR = {"I": "pa1", "II": "pa2"}


def sklearn_pa(variant: str, C: float, epochs: int = 1) -> SGDClassifier:
    return SGDClassifier(loss="hinge", penalty=None, learning_rate=LR[variant], eta0=C,
                         fit_intercept=False, shuffle=False, tol=None, max_iter=epochs)  # fmt: skip


def olearn_pa(variant: str, C: float, scales: str, epochs: int = 1) -> PAClassifier:
    return PAClassifier(variant=variant, C=C / 2, weight_scales=scales, epochs=epochs,
                        shuffle=False)  # fmt: skip


def one_update(est, s: float) -> float:
    """``coef_[0]`` after one update on x = (1, 1), label +1, weight s, from zero weights."""
    est.partial_fit(np.ones((1, 2)), [1], classes=[-1, 1], sample_weight=[s])
    return float(est.coef_[0, 0])


def worked_rows() -> list[str]:
    rows = []
    for variant in ("I", "II"):
        for s in (0.2, 1.0, 2.0):
            ref = one_update(sklearn_pa(variant, 1.0), s)
            price = one_update(olearn_pa(variant, 1.0, "C"), s)
            step = one_update(olearn_pa(variant, 1.0, "step"), s)
            rows.append(f"| PA-{variant} | {s:g} | {ref:.6g} | {price:.6g} | {step:.6g} |")
    return rows


def pass_rows() -> list[str]:
    rng = np.random.default_rng(0)
    n, d = 300, 20
    X = rng.normal(size=(n, d))
    y = np.where(X @ rng.normal(size=d) + 0.5 * rng.normal(size=n) > 0, 1, -1)
    w = rng.choice([0.3, 1.0, 1.9], size=n)
    rows = []
    for variant in ("I", "II"):
        ref = sklearn_pa(variant, 1.0).fit(X, y, sample_weight=w).coef_
        diff = {}
        for scales in ("C", "step"):
            ours = olearn_pa(variant, 1.0, scales).fit(X, y, sample_weight=w).coef_
            diff[scales] = float(np.abs(ours - ref).max())
        scale = float(np.abs(ref).max())
        rows.append(f"| PA-{variant} | {scale:.3g} | {diff['C']:.2g} | {diff['step']:.1e} |")
    return rows


def report() -> str:
    head = (
        f"Computed with scikit-learn {sklearn.__version__} by "
        "`python -m benchmarks.migration_weights`.\n\n"
        "**One update** from zero weights, x = (1, 1), label +1, `C_sklearn = 1` "
        "(olearn `C = 0.5`): `coef_[0]`.\n\n"
        '| rule | weight | scikit-learn | olearn `weight_scales="C"` (default) '
        '| olearn `weight_scales="step"` |\n|---|---|---|---|---|'
    )
    second = (
        "\n\n**One pass** over 300 seeded binary examples (20 features, weights in "
        "{0.3, 1, 1.9}), `C_sklearn = 1`: largest difference of `coef_` from scikit-learn's.\n\n"
        '| rule | largest abs(coef_), scikit-learn | olearn `"C"` | olearn `"step"` |\n'
        "|---|---|---|---|"
    )
    return head + "\n" + "\n".join(worked_rows()) + second + "\n" + "\n".join(pass_rows())


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", type=Path, help="replace the generated block of this page")
    args = parser.parse_args(argv)
    block = report()
    if args.write:
        from benchmarks.migration import write

        write(args.write, block, BEGIN, END)
    print(block)


if __name__ == "__main__":
    main()
