"""One SPA update as a sequence of sub-steps a lecturer can click through.

:func:`spa_walkthrough` runs the readable rules of :mod:`olearn.core` on one instance and
returns, for every sub-step (scores -> margins -> Q -> sorted -> the support test for each
k -> threshold and tau -> update -> new scores), a sentence with the numbers, a per-class
table and what the geometry should show.  Beside it: multiclass PA's step on the same
example, the same problem solved by quadprog, the seed's printed Table 2, and how the step
moves with C.  Everything a page needs is here; the page only renders.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from olearn.core.pa import check_variant, pa_step
from olearn.core.spa import SPATrace, spa_printed_step, spa_step
from olearn.teaching import instances as inst_mod
from olearn.teaching.hypers import algorithm_hyper
from olearn.teaching.instances import Instance
from olearn.teaching.qp import objective, qp_step
from olearn.teaching.strings import num, t

C_DEFAULT = algorithm_hyper("spa1", "C").default  # the registry's

SCENARIOS = (
    "pa-failure",
    "three-rivals",
    "printed-I",
    "printed-II",
    "passive",
    "random",
    "playground",
)


def scenario(name: str, seed: int = 0, K: int | None = None, C: float = C_DEFAULT) -> Instance:
    """The preset instance ``name`` (see :data:`SCENARIOS`; "playground" is built by
    :meth:`olearn.teaching.settings.HandOver.instance`).  ``K`` defaults to the smallest number of
    classes the scenario needs (3, or 4 for three rivals and the printed SPA-II test).

    >>> scenario("pa-failure").W.shape
    (3, 2)
    """
    if name == "pa-failure":
        return inst_mod.find_pa_failure(K=max(3, K or 3), seed=seed)
    if name == "three-rivals":
        return inst_mod.find_support_rejection(K=max(4, K or 4), seed=seed)
    if name in ("printed-I", "printed-II"):
        variant = name.split("-")[1]
        return inst_mod.find_printed_discrepancy(variant, K=max(4, K or 4), C=C, seed=seed)
    if name == "passive":
        return inst_mod.find_passive(K=max(3, K or 3), seed=seed)
    if name == "random":
        return inst_mod.random_instance(K=K or 4, seed=seed)
    raise ValueError(f"unknown scenario {name!r}; choose one of {SCENARIOS}")


@dataclass(frozen=True)
class SubStep:
    """One click of the step-through.

    Attributes
    ----------
    key : "scores", "margins", "passive", "Q", "sorted", "test", "cap" (SPA-I: the second
        search begins), "nocap" (SPA-I: the cap does not bind), "tau", "update", "after".
    title, text : what to print (in the requested language).
    table : per-class numbers at this point (only the columns known so far).
    stage : "before" or "after": which weights the plane shows ("update" shows both).
    highlight : classes to emphasise.
    k : the 1-based rank tested (test sub-steps), else 0.
    latex : formulas to set under the text (the rule, then this instance's numbers).
    phase : test sub-steps: "hard" (the first search) or "cap" (SPA-I's second search).
    """

    key: str
    title: str
    text: str
    table: pd.DataFrame
    stage: str
    highlight: tuple[int, ...]
    k: int = 0
    latex: tuple[str, ...] = ()
    phase: str = ""


@dataclass(frozen=True)
class Walkthrough:
    """Everything the SPA page shows for one instance and one rule."""

    instance: Instance
    variant: str | None
    C: float
    lang: str
    spa: SPATrace
    W_after: np.ndarray
    pa_W_after: np.ndarray
    pa_text: str
    pa_table: pd.DataFrame
    steps: tuple[SubStep, ...]
    qp_table: pd.DataFrame
    qp_max_diff: float
    qp_text: str
    printed_table: pd.DataFrame
    printed_differs: bool
    printed_text: str
    formulas: list[tuple[str, str, str]]
    cap_table: pd.DataFrame
    cap_text: str
    state_table: pd.DataFrame


def _label(u: int, y: int) -> str:
    return f"{u} (y)" if u == y else str(u)


HL = "#C00000"  # the colour of the term where the printed table and the derivation differ


def _hl(tex: str) -> str:
    return rf"\textcolor{{{HL}}}{{{tex}}}"


SUM_BEFORE = r"\sum_{j=1}^{k-1} Q_j"


def support_test_latex(variant: str | None, phase: str) -> str:
    """The derived support test as LaTeX: class k is admitted iff ``Q_k`` exceeds ``t_k``."""
    if phase == "cap":
        return rf"Q_k > t_k = \frac{{1}}{{k-1}}\Big({SUM_BEFORE} - C\Big)"
    if variant == "II":
        return (
            rf"Q_k > t_k = \frac{{n + \frac{{1}}{{2C}}}}{{k\,n + \frac{{k-1}}{{2C}}}}\,{SUM_BEFORE}"
        )
    return rf"Q_k > t_k = \frac{{1}}{{k}}\,{SUM_BEFORE}"


def _test_numbers(variant, phase: str, k: int, running: float, n: float, C: float) -> str:
    """``t_k`` of one test with this instance's numbers substituted (LaTeX)."""
    s = num(running)
    if phase == "cap":
        if k == 1:
            return r"t_1 = -\infty"
        value = (running - C) / (k - 1)
        return rf"t_{{{k}}} = \frac{{{s} - {num(C)}}}{{{k - 1}}} = {num(value)}"
    if variant == "II":
        h = 0.5 / C
        value = (n + h) * running / (k * n + (k - 1) * h)
        return (
            rf"t_{{{k}}} = \frac{{({num(n)} + {num(h)}) \times {s}}}{{{k} \times {num(n)} + "
            rf"{k - 1} \times {num(h)}}} = {num(value)}"
        )
    return rf"t_{{{k}}} = \frac{{{s}}}{{{k}}} = {num(running / k)}"


def _cases(*rows: tuple[str, str]) -> str:
    body = r" \\ ".join(f"{formula} & {condition}" for formula, condition in rows)
    return r"\begin{cases} " + body + r" \end{cases}"


def formulas(variant: str | None, lang: str = "en") -> list[tuple[str, str, str]]:
    """(what, printed, derived) LaTeX rows: the seed's Table 1/2 beside the derivation, with the
    differing term coloured.  Both are written as the table prints them (the stop test of the
    search: the search stops at the first k where the inequality holds).

    >>> [row[1] == row[2] for row in formulas("II")]   # the test differs, the step does not
    [False, True]
    """
    S = r"\sum_{u \in S} Q_u"
    if variant is None:
        test = rf"\frac{{1}}{{k}}\,{SUM_BEFORE} \ge Q_k"
        step = rf"\tau_v = Q_v - \frac{{1}}{{|S|+1}}\,{S}"
        return [(t("spa.f.test", lang), test, test), (t("spa.f.step", lang), step, step)]
    if variant == "II":
        a = r"n + \frac{1}{2C}"
        printed = (
            rf"\Big(\frac{{{a}}}{{k\,n + " + _hl(r"\frac{1}{2C}") + rf"}}\Big){SUM_BEFORE} \ge Q_k"
        )
        derived = (
            rf"\Big(\frac{{{a}}}{{k\,n + "
            + _hl(r"\frac{k-1}{2C}")
            + rf"}}\Big){SUM_BEFORE} \ge Q_k"
        )
        step = rf"\tau_v = Q_v - \frac{{{a}}}{{(|S|+1)\,n + \frac{{|S|}}{{2C}}}}\,{S}"
        return [
            (t("spa.f.test", lang), printed, derived),
            (t("spa.f.step", lang), step, step),
        ]
    case_a, case_b = r"\text{(a)}", r"\text{(b)}"  # explained in ``spa.f.cases``
    stop_b = rf"\frac{{1}}{{k-1}}{SUM_BEFORE} \ge Q_k "
    printed = stop_b + _hl(r"- \frac{C}{k}")
    derived = _cases(
        (rf"\frac{{1}}{{k}}{SUM_BEFORE} \ge Q_k", case_a),
        (stop_b + _hl(r"+ \frac{C}{k-1}"), case_b),
    )
    capped = rf"Q_v - \frac{{1}}{{|S|}}{S} + \frac{{C}}{{|S|}}"
    step_p = rf"\tau_v = {capped}"
    step_d = r"\tau_v = " + _cases(
        (_hl(rf"Q_v - \frac{{1}}{{|S|+1}}{S}"), case_a), (capped, case_b)
    )
    return [
        (t("spa.f.test", lang), printed, derived),
        (t("spa.f.step", lang), step_p, step_d),
    ]


def _theta_latex(variant: str | None, cap: bool, tr: SPATrace, C: float) -> str:
    J = len(tr.support)
    S = sum(float(tr.Q[u]) for u in tr.support)
    if cap:
        return (
            rf"\theta = \frac{{\sum_S Q - C}}{{|S|}} = \frac{{{num(S)} - {num(C)}}}{{{J}}}"
            rf" = {num(tr.theta)}"
        )
    if variant == "II":
        return (
            r"\theta = \frac{a\sum_S Q}{1 + a|S|},\ a = 1 + \frac{1}{2Cn} = "
            rf"{num(1 + 0.5 / (C * tr.sqnorm))}\ \Rightarrow\ \theta = {num(tr.theta)}"
        )
    return (
        rf"\theta = \frac{{\sum_S Q}}{{|S| + 1}} = \frac{{{num(S)}}}{{{J + 1}}} = {num(tr.theta)}"
    )


def _fmt_set(items) -> str:
    items = list(items)
    return "{" + ", ".join(str(i) for i in items) + "}" if items else "∅"


def _steps(tr: SPATrace, inst: Instance, variant, C: float, lang: str) -> tuple[SubStep, ...]:
    W, y = inst.W, inst.y
    K = W.shape[0]
    classes = [_label(u, y) for u in range(K)]
    scores = np.asarray(tr.scores_before)
    rival = int(np.argmax(np.where(np.arange(K) == y, -np.inf, scores)))
    base = pd.DataFrame({"class": classes, "s_u": scores})
    out: list[SubStep] = []
    number = [0]  # sub-steps numbered as a lecturer counts them: 5, 5.1, 5.2, 6, ...

    def add(
        key, table, stage="before", highlight=(), k=0, latex=(), *, title_key=None, phase="", **fmt
    ):
        title_key = title_key or f"spa.sub.{key}.title"
        if k:
            if k == 1 and out[-1].key != "cap":  # a search starts; the second one is "cap"'s
                number[0] += 1
            label = f"{number[0]}.{k}"
        else:
            number[0] += 1
            label = f"{number[0]}."
        title = f"{label} " + t(title_key, lang, **({"k": k} if k else {}))
        text = t(f"spa.sub.{key}.text", lang, k=k, **fmt)
        out.append(
            SubStep(key, title, text, table.copy(), stage, tuple(highlight), k, tuple(latex), phase)
        )

    add(
        "scores",
        base,
        highlight=(y, rival),
        y=y,
        sy=num(scores[y]),
        rival=rival,
        s_rival=num(scores[rival]),
    )
    margins = np.asarray(tr.margins)
    tab = base.assign(m_u=margins)
    n_viol = int(np.sum(np.nan_to_num(margins, nan=np.inf) < 1.0))
    add(
        "margins",
        tab,
        highlight=tuple(u for u in range(K) if u != y and margins[u] < 1),
        n_viol=n_viol,
        loss=num(tr.loss),
    )
    if tr.reason != "aggressive":
        add("passive", tab)
        return tuple(out)
    Q = np.asarray(tr.Q)
    tab = tab.assign(Q_u=Q)
    add(
        "Q",
        tab,
        highlight=tr.order,
        positive=_fmt_set(tr.order),
        n=num(tr.sqnorm),
        latex=(rf"Q_u = \frac{{1 - m_u}}{{n}},\quad n = \|x\|^2 = {num(tr.sqnorm)}",),
    )
    rank = np.full(K, np.nan)
    rank[list(tr.order)] = np.arange(1, len(tr.order) + 1)
    tab = tab.assign(rank=rank)
    order_txt = " > ".join(f"Q_{u} = {num(Q[u])}" for u in tr.order)
    add("sorted", tab.sort_values("rank", na_position="last"), highlight=tr.order, order=order_txt)
    admitted = np.zeros(K, dtype=bool)
    hard_done = False
    T_hard = tr.theta_hard  # SPA-I: the hard step's total, sum_S Q / (|S|+1) = theta_hard
    for row in tr.tests:
        if row.phase == "cap" and not hard_done:
            hard_done = True
            admitted[:] = False
            S_hard = [r.cls for r in tr.tests if r.phase == "hard" and r.admitted]
            add(
                "cap",
                tab.assign(admitted=""),
                highlight=tuple(S_hard),
                S=_fmt_set(S_hard),
                T_hard=num(T_hard),
                C=num(C),
                latex=(
                    rf"\textstyle\sum\tau = \theta_{{hard}} = {num(T_hard)} > C = {num(C)}",
                    support_test_latex(variant, "cap"),
                ),
            )
        admitted[row.cls] = row.admitted
        verdict = t("spa.sub.test.in" if row.admitted else "spa.sub.test.out", lang)
        thr = "−∞" if np.isinf(row.threshold) else num(row.threshold)
        tested = tab.assign(
            admitted=[
                ("✓" if a else "✗") if not np.isnan(r) and r <= row.k else ""
                for a, r in zip(admitted, rank)
            ]
        )
        cmp = ">" if row.admitted else r"\le"
        add(
            "test",
            tested.sort_values("rank", na_position="last"),
            highlight=(row.cls,),
            k=row.k,
            title_key="spa.sub.captest.title" if row.phase == "cap" else None,
            phase=row.phase,
            latex=(
                support_test_latex(variant, row.phase),
                _test_numbers(variant, row.phase, row.k, row.running_sum, tr.sqnorm, C),
                rf"Q_{{{row.k}}} = {num(row.Q)}\ {cmp}\ t_{{{row.k}}}",
            ),
            cls=row.cls,
            Q=num(row.Q),
            running=num(row.running_sum),
            threshold=thr,
            cmp=">" if row.admitted else "≤",
            verdict=verdict,
        )
    if variant == "I" and not tr.cap_binds:
        add(
            "nocap",
            tab,
            highlight=tr.support,
            T_hard=num(T_hard),
            C=num(C),
            latex=(rf"\textstyle\sum\tau = \theta_{{hard}} = {num(T_hard)} \le C = {num(C)}",),
        )
    tau = np.asarray(tr.tau)
    tab = tab.assign(tau_u=np.where(np.arange(K) == y, np.nan, tau))
    extra = ""
    if tr.cap_binds:
        extra = t("spa.sub.tau.capextra", lang, T_hard=num(T_hard), C=num(C), xi=num(tr.xi))
    elif variant == "II":
        extra = t("spa.sub.tau.iiextra", lang, xi=num(tr.xi))
    add(
        "tau",
        tab,
        highlight=tr.support,
        S=_fmt_set(tr.support),
        theta=num(tr.theta),
        T=num(tr.tau_sum),
        extra=extra,
        latex=(_theta_latex(variant, tr.cap_binds, tr, C), r"\tau_u = Q_u - \theta\ (u \in S)"),
    )
    tab = tab.assign(coef=np.asarray(tr.coef))
    add(
        "update",
        tab,
        stage="update",
        highlight=(y, *tr.support),
        T=num(tr.tau_sum),
        latex=(r"w_y \leftarrow w_y + T x,\quad w_u \leftarrow w_u - \tau_u x",),
    )
    after = np.asarray(tr.scores_after)
    tab = tab.assign(s_u_after=after, m_u_after=np.asarray(tr.margins_after))
    required = "1"
    if tr.cap_binds or variant == "II":
        required = f"1 − ξ = {num(1 - tr.xi)}"
    add(
        "after",
        tab,
        stage="after",
        highlight=(y,),
        y=y,
        sy=num(after[y]),
        min_margin=num(np.nanmin(np.asarray(tr.margins_after))),
        required=required,
        correct=t("ui.yes" if tr.correct_after else "ui.no", lang),
    )
    return tuple(out)


# internal column name -> UI string key (the tables shown are translated and formatted)
COLUMNS = {
    "class": "spa.col.class",
    "s_u": "spa.col.s",
    "m_u": "spa.col.m",
    "Q_u": "spa.col.Q",
    "rank": "spa.col.rank",
    "admitted": "spa.col.admitted",
    "tau_u": "spa.col.tau",
    "coef": "spa.col.coef",
    "s_u_after": "spa.col.s_after",
    "m_u_after": "spa.col.m_after",
    "PA: s_u after": "spa.col.pa_after",
    "SPA: s_u after": "spa.col.spa_after",
    "τ closed form": "spa.col.tau_cf",
    "τ quadprog": "spa.col.tau_qp",
    "|difference|": "spa.col.diff",
    "τ derived": "spa.col.tau_derived",
    "τ printed": "spa.col.tau_printed",
    "m_u after (derived)": "spa.col.m_derived",
    "m_u after (printed)": "spa.col.m_printed",
    "row": "spa.col.row",
    "bias": "spa.col.bias",
}


def shown(table: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """``table`` as the page shows it: numbers written as a lecturer would (``num``), cells
    with nothing to say blank (not "None"/"nan"), column headers in ``lang``.

    >>> shown(pd.DataFrame({"class": ["0"], "Q_u": [float("nan")], "rank": [1.0]}), "ja")
    ... # doctest: +NORMALIZE_WHITESPACE
      クラス Q_u 順位
    0   0         1
    """
    out = pd.DataFrame(index=table.index)
    for col in table.columns:
        values = table[col]
        if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
            cells = ["" if pd.isna(v) else num(v) for v in values]
        else:
            cells = [
                "" if v is None or (isinstance(v, float) and np.isnan(v)) else str(v)
                for v in values
            ]
        name = t(COLUMNS[col], lang) if col in COLUMNS else str(col)
        out[name] = cells
    return out.reset_index(drop=True)


def cap_table(inst: Instance, variant: str | None, C_values=None) -> pd.DataFrame:
    """``T = sum tau``, ``xi`` and each ``tau_u`` as C varies (SPA-I: the cap; SPA-II: the
    shrinkage), on a log grid; the hard SPA step's ``T`` is the column ``T_hard``."""
    if C_values is None:
        C_values = np.logspace(-3, 2, 61)
    T_hard = float(spa_step(inst.W, inst.x, inst.y)[1].tau_sum)
    rows = []
    for C in C_values:
        tr = spa_step(inst.W, inst.x, inst.y, variant, float(C))[1]
        row = {
            "C": float(C),
            "T": tr.tau_sum,
            "xi": tr.xi,
            "cap_binds": tr.cap_binds,
            "T_hard": T_hard,
        }
        row.update({f"tau_{u}": float(tr.tau[u]) for u in range(inst.W.shape[0]) if u != inst.y})
        rows.append(row)
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class SpaSolution:
    """What one SPA update computes, in no language: SPA's and PA's steps, the generic QP, the
    seed's printed step and the cap table.  :func:`narrate` puts it in words; a language switch
    reuses it (no QP solved again)."""

    instance: Instance
    variant: str | None
    C: float
    W_after: np.ndarray
    spa: SPATrace
    pa_W_after: np.ndarray
    pa: object
    qp: object
    obj_cf: float
    printed: object
    obj_p: float
    caps: pd.DataFrame
    T_hard: float


def spa_solve(inst: Instance, variant: str | None = None, C: float = C_DEFAULT) -> SpaSolution:
    """SPA's update of ``inst`` under ``variant`` and ``C``, with everything it is checked
    against."""
    variant = check_variant(variant)
    C = float(C)
    W, x, y = inst.W, inst.x, inst.y
    W_after, tr = spa_step(W, x, y, variant, C)
    pa_W, pa = pa_step(W, x, y, variant, C)
    qp = qp_step(W, x, y, variant, C)
    obj_cf, _ = objective(W, W_after - W, x, y, variant, C)
    printed_W, printed = spa_printed_step(W, x, y, variant, C)
    obj_p, _ = objective(W, printed_W - W, x, y, variant, C)
    caps = cap_table(inst, variant) if variant else pd.DataFrame()
    T_hard = float(spa_step(W, x, y)[1].tau_sum)
    return SpaSolution(
        inst,
        variant,
        C,
        W_after,
        tr,
        pa_W,
        pa,
        qp,
        float(obj_cf),
        printed,
        float(obj_p),
        caps,
        T_hard,
    )


def spa_walkthrough(
    inst: Instance, variant: str | None = None, C: float = C_DEFAULT, lang: str = "en"
) -> Walkthrough:
    """Everything the SPA page shows for ``inst`` under SPA / SPA-I / SPA-II.

    >>> from olearn.teaching.instances import find_pa_failure
    >>> w = spa_walkthrough(find_pa_failure(seed=0))
    >>> [s.key for s in w.steps][:4], w.steps[-1].key
    (['scores', 'margins', 'Q', 'sorted'], 'after')
    >>> w.qp_max_diff < 1e-8
    True
    """
    return narrate(spa_solve(inst, variant, C), lang)


def narrate(solution: SpaSolution, lang: str = "en") -> Walkthrough:
    """The walkthrough of a solved update in ``lang`` (words and tables; nothing solved)."""
    inst, variant, C = solution.instance, solution.variant, solution.C
    tr, pa, qp, printed = solution.spa, solution.pa, solution.qp, solution.printed
    obj_cf, obj_p, T_hard = solution.obj_cf, solution.obj_p, solution.T_hard
    W, y = inst.W, inst.y
    K = W.shape[0]
    classes = [_label(u, y) for u in range(K)]
    winner = int(np.argmax(pa.scores_after))
    verdict = (
        "spa.pa_ok"
        if pa.correct_after
        else "spa.pa_fail"
        if tr.correct_after
        else "spa.pa_fail_both"
    )
    pa_text = t(
        "spa.pa_text",
        lang,
        rival=pa.rival,
        tau=num(pa.tau),
        winner=winner,
        y=y,
        verdict=t(verdict, lang),
    )
    pa_table = pd.DataFrame(
        {
            "class": classes,
            "s_u": np.asarray(pa.scores_before),
            "PA: s_u after": np.asarray(pa.scores_after),
            "SPA: s_u after": np.asarray(tr.scores_after),
        }
    )
    # closed form vs quadprog
    qp_table = pd.DataFrame(
        {"class": classes, "τ closed form": np.asarray(tr.tau), "τ quadprog": qp.tau}
    )
    qp_table["|difference|"] = [
        f"{v:.1e}" for v in (qp_table["τ closed form"] - qp_table["τ quadprog"]).abs()
    ]
    qp_table = qp_table[[u != y for u in range(K)]].reset_index(drop=True)
    diff = float(np.max(np.abs(np.asarray(tr.tau) - qp.tau)))
    qp_text = t(
        "spa.qp_text", lang, diff=f"{diff:.1e}", obj_cf=num(obj_cf, 8), obj_qp=num(qp.objective, 8)
    )
    # the seed's printed table
    printed_table = pd.DataFrame(
        {
            "class": classes,
            "Q_u": np.asarray(tr.Q),
            "τ derived": np.asarray(tr.tau),
            "τ printed": np.asarray(printed.tau),
            "m_u after (derived)": np.asarray(tr.margins_after),
            "m_u after (printed)": np.asarray(printed.margins_after),
        }
    )
    differs = bool(
        np.max(np.abs(np.asarray(tr.tau) - np.asarray(printed.tau)))
        > 1e-9 * (1 + float(np.max(tr.tau)))
    )
    if variant is None:
        printed_text = t("spa.printed_hard", lang)
    elif differs:
        printed_text = t("spa.printed_differs", lang, obj_p=num(obj_p, 6), obj_d=num(obj_cf, 6))
    else:
        printed_text = t("spa.printed_same", lang)
    # C
    if variant == "I":
        cap_text = (
            t("spa.cap_binds", lang, C=num(C), T_hard=num(T_hard), xi=num(tr.xi))
            if tr.cap_binds
            else t("spa.cap_free", lang, C=num(C), T=num(tr.tau_sum))
        )
    elif variant == "II":
        cap_text = t("spa.cap_ii", lang, T=num(tr.tau_sum), T_hard=num(T_hard), xi=num(tr.xi))
    else:
        cap_text = ""
    return Walkthrough(
        instance=inst,
        variant=variant,
        C=C,
        lang=lang,
        spa=tr,
        W_after=solution.W_after,
        pa_W_after=solution.pa_W_after,
        pa_text=pa_text,
        pa_table=pa_table,
        steps=_steps(tr, inst, variant, C, lang),
        qp_table=qp_table,
        qp_max_diff=diff,
        qp_text=qp_text,
        printed_table=printed_table,
        printed_differs=differs,
        printed_text=printed_text,
        formulas=formulas(variant, lang),
        cap_table=solution.caps,
        cap_text=cap_text,
        state_table=state_table(inst),
    )


def state_table(inst: Instance) -> pd.DataFrame:
    """W row by row, then x, with the class of x marked: the instance as a lecturer writes it.

    >>> from olearn.teaching.instances import Instance
    >>> state_table(Instance(np.eye(2), np.array([1.0, 2.0]), 1))["row"].tolist()
    ['w_0', 'w_1 (y)', 'x']
    """
    d = inst.W.shape[1]
    names = [f"x_{j + 1}" for j in range(d)]
    if inst.bias:
        names[-1] = "bias"
    rows = [
        [f"w_{u}" + (" (y)" if u == inst.y else ""), *inst.W[u]] for u in range(inst.W.shape[0])
    ]
    rows.append(["x", *inst.x])
    return pd.DataFrame(rows, columns=["row", *names])
