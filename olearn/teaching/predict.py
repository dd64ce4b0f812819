"""Predict, then reveal: the questions a lecturer asks before showing an update, and their
answers, read from the computed traces (never written by hand).

Students who predict the outcome of a demonstration before seeing it learn more from it than
those who only watch (Crouch, Fagen, Callan & Mazur, "Classroom demonstrations: Learning tools
or entertainment?", American Journal of Physics 72(6), 835-838, 2004).  The app's predict mode
(``?predict=1``) poses these questions and keeps the answer, and what comes after it, hidden
until the lecturer reveals it:

- :func:`spa_questions`: on the SPA step-through, which classes enter the support set (asked
  once the Q values are sorted) and the sign of each tau (asked before theta and the steps);
- :func:`stream_questions`: on the Playground, whether each learner gets the next example
  right, and where its boundary goes;
- :func:`cw_question`: on the CW step, whether the ellipse shrinks along x or across it.

>>> from olearn.teaching.settings import SpaScenario
>>> from olearn.teaching.spa_walk import narrate, spa_solve
>>> s = SpaScenario("three-rivals")
>>> walk = narrate(spa_solve(s.instance(), s.variant, s.C), "en")
>>> asked = spa_questions(walk, "en")
>>> [walk.steps[i].key for i in sorted(asked)]
['sorted', 'test']
>>> print(asked[3][1])
The support set is S = {1, 3}: classes 1, 3 enter it; not in it: 2.
"""

from __future__ import annotations

import numpy as np

from olearn.teaching.stream import learner_verdicts
from olearn.teaching.strings import num
from olearn.teaching.strings import t as tt


def _classes(items) -> str:
    return ", ".join(str(int(u)) for u in items)


def spa_questions(walk, lang: str = "en") -> dict[int, tuple[str, str]]:
    """The SPA walk's questions by sub-step index: ``{index: (question, answer)}``.

    The support set is asked at the sub-step where the Q values are sorted (before the first
    support test); the signs of the steps tau at the sub-step just before theta and the taus
    are shown.  Both answers are read from the update's trace."""
    trace, keys = walk.spa, [s.key for s in walk.steps]
    y = int(walk.instance.y)
    rivals = [u for u in range(len(trace.tau)) if u != y]
    support = [int(u) for u in trace.support]
    out = [u for u in rivals if u not in support]
    asked: dict[int, tuple[str, str]] = {}
    if "sorted" in keys and support:
        answer = tt("predict.spa.support.a", lang, S=_classes(support), inside=_classes(support))
        if out:
            answer += tt("predict.spa.support.out", lang, outside=_classes(out))
        asked[keys.index("sorted")] = (
            tt("predict.spa.support.q", lang),
            answer + tt("predict.end", lang),
        )
    if "tau" in keys and keys.index("tau") > 0:
        tau = np.asarray(trace.tau, dtype=float)
        positive = [u for u in range(len(tau)) if u != y and tau[u] > 0]
        zero = [u for u in range(len(tau)) if u != y and tau[u] <= 0]
        values = ", ".join(f"τ_{u} = {num(tau[u], 4)}" for u in positive)
        answer = tt("predict.spa.tau.a", lang, pos=_classes(positive), values=values)
        if zero:
            answer += tt("predict.spa.tau.zero", lang, zero=_classes(zero))
        answer += tt("predict.spa.tau.y", lang, y=y, T=num(float(tau[positive].sum()), 4))
        asked[keys.index("tau") - 1] = (tt("predict.spa.tau.q", lang), answer)
    return asked


def stream_questions(run, lang: str = "en") -> tuple[list[str], list[str]]:
    """The Playground's question before each example and the answer after it, for every t:
    ``questions[t]`` asks about example t (the next one), ``answers[t]`` says what happened
    at example t - 1 (``answers[0]`` is empty).  Light markdown, as the player's notes."""
    questions, answers = [], [""]
    for t in range(run.n + 1):
        if t == run.n:
            questions.append(tt("predict.play.end", lang, t=t, n=run.n))
            continue
        x, c = run.X[t], int(run.y[t])
        questions.append(
            tt("predict.play.q", lang, t=t, n=run.n, x1=num(x[0], 3), x2=num(x[1], 3), c=c)
        )
        verdicts = learner_verdicts(run, t, lang, "predict.play")
        answers.append(
            tt(
                "predict.play.a",
                lang,
                t=t + 1,
                n=run.n,
                x1=num(x[0], 3),
                x2=num(x[1], 3),
                c=c,
                verdicts="; ".join(verdicts),
            )
        )
    return questions, answers


def shrink(Sigma_before, Sigma_after, direction) -> tuple[float, float, float]:
    """The variance of the weights along the unit vector of ``direction`` before and after an
    update, and its relative shrink: ``(d' S d, d' S' d, 1 - d' S' d / d' S d)``.

    >>> shrink(np.eye(2), np.diag([0.5, 1.0]), [2.0, 0.0])
    (1.0, 0.5, 0.5)
    """
    d = np.asarray(direction, dtype=float)
    d = d / np.linalg.norm(d)
    before = float(d @ np.asarray(Sigma_before) @ d)
    after = float(d @ np.asarray(Sigma_after) @ d)
    return before, after, 1.0 - after / before


def cw_question(walk, lang: str = "en") -> tuple[str, str]:
    """The CW step's question and its answer: the variance of the weights along x and across
    it (x turned by 90 degrees), before and after the update, from the trace's covariances."""
    x = np.asarray(walk.x, dtype=float)
    trace = walk.trace
    along = shrink(trace.Sigma_before, trace.Sigma_after, x)
    across = shrink(trace.Sigma_before, trace.Sigma_after, [-x[1], x[0]])
    where = "along" if along[2] >= across[2] else "across"
    answer = tt(
        "predict.cw.a",
        lang,
        a0=num(along[0], 3),
        a1=num(along[1], 3),
        a=num(100 * along[2], 3),
        c0=num(across[0], 3),
        c1=num(across[1], 3),
        c=num(100 * across[2], 3),
        where=tt(f"predict.cw.{where}", lang),
    )
    return tt("predict.cw.q", lang), answer
