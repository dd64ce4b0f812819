"""The Reproduce page's summary in the page's language, computed from a result's data.

Each reproduction prints an English summary (the CLI's text, shown verbatim on the page).
:func:`summary_lines` says the key facts again in either language, from the result's
structured data only: what ran (its table's datasets and the setup in ``details``), how close
the numbers are to the paper's (the table's ``paper`` and ``ours`` columns), and each claim's
verdict (a claims table of one shape, built per reproduction from what it returns).  Every
number is read from the result; the sentences are ``rep.sum.*`` strings.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from olearn.experiments.reproduction import ReproResult, reproduction
from olearn.teaching import strings
from olearn.teaching.reproduce import cell
from olearn.teaching.strings import t

CLAIM_COLUMNS = ["dataset", "claim", "verdict", "evidence"]


def _join(items, lang: str) -> str:
    return t("rep.sum.list_sep", lang).join(str(i) for i in items)


def _num(v: float) -> str:
    return f"{float(v):.2f}"


def _counted(k: int, n: int) -> str:
    """The verdict of a finding counted over ``n`` datasets or pairs (as cw-family-claims
    judges its claims): on every one, on some, on none."""
    return "holds" if k == n else ("mixed" if k else "does not hold")


# --- what ran ---------------------------------------------------------------------------------


def _setup_table4(result: ReproResult, lang: str) -> list[str]:
    config = result.details.get("config")
    if not config:
        return []
    samples = (
        t("rep.sum.samples", lang, n=config["max_samples"])
        if config.get("max_samples")
        else t("rep.sum.samples_all", lang)
    )
    tuning = (
        t("rep.sum.tuning_nested", lang)
        if config.get("tuning") == "nested"
        else t("rep.sum.tuning_fold", lang, fold=config.get("tuning_fold"))
    )
    epochs = config["epochs"]
    epochs = [epochs] if isinstance(epochs, int) else list(epochs)
    lines = [
        t(
            "rep.sum.setup.matsushima-table4",
            lang,
            folds=config["folds"],
            samples=samples,
            epochs=_join(epochs, lang),
            tuning=tuning,
        )
    ]
    sizes, paper = result.details.get("sizes", {}), result.details.get("paper_sizes", {})
    if sizes:
        items = [
            t(
                "rep.sum.size",
                lang,
                dataset=name,
                n=f"{size['n_samples']:,}",
                paper=f"{paper[name]['n_samples']:,}" if name in paper else "-",
            )
            for name, size in sizes.items()
        ]
        lines.append(t("rep.sum.sizes", lang, sizes=_join(items, lang)))
    return lines


def _setup_cw(result: ReproResult, lang: str) -> list[str]:
    setup = result.details.get("setup")
    if not setup:
        return []
    samples = (
        t("rep.sum.train_samples", lang, n=setup["max_samples"])
        if setup.get("max_samples")
        else t("rep.sum.samples_all", lang)
    )
    noise = _join([f"{100 * p:.0f}%" for p in setup["noise"]], lang)
    line = t(
        "rep.sum.setup.cw-family-claims",
        lang,
        noise=noise,
        passes=setup["passes"],
        seeds=setup["seeds"],
        samples=samples,
    )
    return [line]


def _setup_pcvm(result: ReproResult, lang: str) -> list[str]:
    d = result.details
    if "lambdas" not in d:
        return []
    lambdas = _join([f"{lam:g}" for lam in d["lambdas"]], lang)
    return [t("rep.sum.setup.pcvm-lambda", lang, lambdas=lambdas, C=f"{d['svm_C']:g}")]


def _setup_sgd(result: ReproResult, lang: str) -> list[str]:
    runs, curves = result.details.get("runs"), result.details.get("curves")
    if not runs:
        return []
    frame = pd.DataFrame(runs)
    epochs = max(p[0] for c in curves for p in c["points"]) if curves else float("nan")
    line = t(
        "rep.sum.setup.ono-sgd-figure1",
        lang,
        shuffles=frame["seed"].nunique(),
        n_train=_join([f"{n:,}" for n in dict.fromkeys(frame["n_train"])], lang),
        epochs=f"{epochs:g}",
    )
    return [line]


# --- the claims, one shape: dataset ("" for all), claim, verdict, evidence ----------------------


def _claims_table4(result: ReproResult, lang: str) -> tuple[pd.DataFrame, list[str]]:
    claims = result.tables.get("claims", pd.DataFrame())
    rows = [
        {
            "dataset": r.dataset,
            "claim": r.claim,
            "verdict": r.verdict,
            "evidence": t(
                "rep.sum.ev.paper_ours", lang, paper=cell(r.paper, lang), ours=cell(r.ours, lang)
            ),
        }
        for r in claims.itertuples()
    ]
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS), []


def _claims_cw(result: ReproResult, lang: str) -> tuple[pd.DataFrame, list[str]]:
    rows = [
        {
            "dataset": "",
            "claim": v["claim"],
            "verdict": v["verdict"],
            "evidence": t("rep.sum.ev.datasets", lang, k=v["holds_on"], n=v["of"]),
        }
        for v in result.details.get("verdicts", [])
    ]
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS), []


# pcvm_lambda.findings() counts -> the sentence of that finding
_PCVM_FINDINGS = {
    "gamma falls": "rep.sum.pcvm.gamma",
    "fewer weights": "rep.sum.pcvm.weights",
    "within": "rep.sum.pcvm.within",
    "sparser": "rep.sum.pcvm.sparser",
}


def _claims_pcvm(result: ReproResult, lang: str) -> tuple[pd.DataFrame, list[str]]:
    from olearn.experiments import pcvm_lambda as m

    if not result.details.get("runs"):
        return pd.DataFrame(columns=CLAIM_COLUMNS), []
    rows, notes = [], []
    for found in m.findings(result.details["runs"], result.details["lambdas"]):
        rule = t(f"rep.sum.rule.{found['rule'].split()[0]}", lang)  # "derived" / "printed"
        n = found["pairs"]
        for count, key in _PCVM_FINDINGS.items():
            claim = t(key, lang, rule=rule, spread=f"{m.ACCURACY_SPREAD:g}", factor=m.SPARSER)
            rows.append(
                {
                    "dataset": "",
                    "claim": claim,
                    "verdict": _counted(found[count], n),
                    "evidence": t("rep.sum.ev.pairs", lang, k=found[count], n=n),
                }
            )
        lo, hi = found["svm_gap"]
        plo, phi = m.SEED_SVM_GAP
        notes.append(
            t("rep.sum.pcvm.gap", lang, rule=rule, lo=f"{lo:.1f}", hi=f"{hi:.1f}", plo=plo, phi=phi)
        )
        if "ratio" in found:
            lo, hi = found["ratio"]
            notes.append(t("rep.sum.pcvm.ratio", lang, rule=rule, lo=f"{lo:.3f}", hi=f"{hi:.3f}"))
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS), notes


def _claims_sgd(result: ReproResult, lang: str) -> tuple[pd.DataFrame, list[str]]:
    from olearn.experiments import sgd_figure1 as m

    runs = pd.DataFrame(result.details.get("runs", []))
    rows = []
    if len(runs) and set(m.SEED_ROWS) <= set(runs["algorithm"]):
        for dataset in dict.fromkeys(runs["dataset"]):
            found = m.check(dataset, runs[runs["dataset"] == dataset])
            mean = f"{found['mean']:+.2f}"
            evidence = (
                t("rep.sum.sgd.one", lang, mean=mean)
                if found["significant"] is None
                else t(
                    "rep.sum.sgd.many", lang, mean=mean, se=_num(found["se"]), n=found["shuffles"]
                )
            )
            rows.append(
                {
                    "dataset": dataset,
                    "claim": m.PAPER_CLAIMS.get(dataset, ""),
                    "verdict": "holds" if found["holds"] else "does not hold",
                    "evidence": evidence,
                }
            )
    return pd.DataFrame(rows, columns=CLAIM_COLUMNS), []


Part = Callable[[ReproResult, str], list[str]]
Claims = Callable[[ReproResult, str], tuple[pd.DataFrame, list[str]]]
# the per-reproduction parts: its setup, its claims
SETUPS: dict[str, Part] = {
    "matsushima-table4": _setup_table4,
    "matsushima-digits": _setup_table4,
    "cw-family-claims": _setup_cw,
    "pcvm-lambda": _setup_pcvm,
    "ono-sgd-figure1": _setup_sgd,
}
CLAIMS: dict[str, Claims] = {
    "matsushima-table4": _claims_table4,
    "matsushima-digits": _claims_table4,
    "cw-family-claims": _claims_cw,
    "pcvm-lambda": _claims_pcvm,
    "ono-sgd-figure1": _claims_sgd,
}


# --- generic ------------------------------------------------------------------------------------


def closeness(table: pd.DataFrame, lang: str, tol: float | None = None) -> list[str]:
    """How close ``ours`` is to ``paper``: per epochs (or measure) when the table has them,
    the cells with a paper value, the mean absolute difference, and with ``tol`` how many
    are within it.

    >>> tab = pd.DataFrame({"epochs": [1, 1, 2], "paper": [5.0, 7.0, 5.0],
    ...                     "ours": [5.5, 9.0, 5.2]})
    >>> print(closeness(tab, "en", tol=1.0)[0].replace("; ", ";\\n"))
    after 1 epoch(s): 1 of 2 cells within 1 point(s) of the paper;
    mean |ours − paper| 1.25 points.
    >>> closeness(tab.assign(paper=float("nan")), "ja")[0]
    '論文にはこれらのセルの数値がありません (論文の列は空): 代わりに論文の主張を検証します。'
    """
    tab = table.assign(
        paper=pd.to_numeric(table["paper"], errors="coerce"),
        ours=pd.to_numeric(table["ours"], errors="coerce"),
    ).dropna(subset=["paper", "ours"])
    if tab.empty:
        return [t("rep.sum.no_numbers", lang)]
    by = next((c for c in ("epochs", "measure") if c in tab), None)
    groups = tab.groupby(by, sort=False) if by else [(None, tab)]
    lines = []
    for value, part in groups:
        if by == "epochs":
            group = t("rep.sum.after_epochs", lang, n=value)
        elif by == "measure":
            group = cell(value, lang)
        else:
            group = t("rep.sum.all_cells", lang)
        gap = (part["ours"] - part["paper"]).abs()
        if tol is None:
            lines.append(t("rep.sum.gap", lang, group=group, n=len(part), mean=_num(gap.mean())))
        else:
            close = int((gap <= tol).sum())
            lines.append(
                t(
                    "rep.sum.close",
                    lang,
                    group=group,
                    close=close,
                    n=len(part),
                    tol=f"{tol:g}",
                    mean=_num(gap.mean()),
                )
            )
    return lines


def claim_lines(claims: pd.DataFrame, lang: str) -> list[str]:
    """A claims table (dataset, claim, verdict, evidence) as sentences: the count of each
    verdict, then one line per claim.

    >>> claims = pd.DataFrame({"dataset": ["usps", ""], "claim": ["SPA below PA", "x"],
    ...                        "verdict": ["reproduces", "mixed"], "evidence": ["e", "f"]})
    >>> for line in claim_lines(claims, "ja"):
    ...     print(line)
    検証した主張 2 件: 再現する 1 件、データセットにより異なる 1 件。
    usps: SPA の誤り率が PA より低い → 再現する (e)。
    x → データセットにより異なる (f)。
    """
    if claims.empty:
        return []
    counts = claims["verdict"].value_counts(sort=False)
    items = [t("rep.sum.count", lang, verdict=cell(v, lang), n=n) for v, n in counts.items()]
    lines = [t("rep.sum.claims", lang, n=len(claims), counts=_join(items, lang))]
    for r in claims.itertuples():
        fields = {"claim": cell(r.claim, lang), "verdict": cell(r.verdict, lang)}
        if r.dataset:
            lines.append(t("rep.sum.claim", lang, dataset=r.dataset, evidence=r.evidence, **fields))
        else:
            lines.append(t("rep.sum.claim_all", lang, evidence=r.evidence, **fields))
    return lines


def summary_lines(result: ReproResult, lang: str = "en", mode: str | None = None) -> list[str]:
    """The key facts of ``result`` in ``lang``, one sentence each: the run (``mode``: "quick"
    or "full", when known) and its datasets, its setup, how close it is to the paper, each
    claim's verdict.

    >>> from olearn.experiments.reproduction import ReproResult
    >>> table = pd.DataFrame({"dataset": ["a", "b"], "algorithm": ["PA", "PA"],
    ...                       "paper": [float("nan")] * 2, "ours": [1.0, 2.0]})
    >>> for line in summary_lines(ReproResult("some-id", "T", table), "ja", "quick"):
    ...     print(line)
    クイック 実行、データセット 2 個: a、b。
    論文にはこれらのセルの数値がありません (論文の列は空): 代わりに論文の主張を検証します。
    """
    datasets = list(dict.fromkeys(result.table["dataset"])) if "dataset" in result.table else []
    fields = {"n": len(datasets), "datasets": _join(datasets, lang)}
    if mode:
        lines = [t("rep.sum.ran", lang, mode=t(f"rep.mode.{mode}", lang), **fields)]
    else:
        lines = [t("rep.sum.datasets", lang, **fields)]
    if result.id in SETUPS:
        lines += SETUPS[result.id](result, lang)
    tol = getattr(reproduction(result.id), "CLOSE", None) if result.id in SETUPS else None
    lines += closeness(result.table, lang, tol)
    note = f"rep.sum.note.{result.id}"
    if note in strings.STRINGS:
        lines.append(t(note, lang))
    if result.id in CLAIMS:
        claims, notes = CLAIMS[result.id](result, lang)
        lines += claim_lines(claims, lang) + notes
    return lines
