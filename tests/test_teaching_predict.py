"""Predict, then reveal (:mod:`olearn.teaching.predict`, issue 31 item 5): every answer is read
from the computed update and agrees with an independent computation of it: the support set
and the signs of tau with a generic QP solver's step, the Playground's verdicts with the
learners' own predictions, the CW answer with the rule's margin variances."""

from __future__ import annotations

import re

import numpy as np
import pytest

from olearn.teaching.predict import cw_question, shrink, spa_questions, stream_questions
from olearn.teaching.qp import qp_step
from olearn.teaching.settings import PlaygroundRun, SpaScenario, default_cw
from olearn.teaching.spa_walk import SCENARIOS, narrate, spa_solve

CASES = [(name, rule, 0.3) for name in SCENARIOS if name not in ("playground", "random")
         for rule in (None, "I", "II")]  # fmt: skip


def _numbers(text: str) -> list[int]:
    return [int(v) for v in re.findall(r"\d+", text)]


@pytest.mark.parametrize(("name", "rule", "C"), CASES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_spa_answers_are_the_qp_solvers(name, rule, C, lang):
    scenario = SpaScenario(name, rule, C)
    inst = scenario.instance()
    walk = narrate(spa_solve(inst, scenario.variant, scenario.C), lang)
    asked = spa_questions(walk, lang)
    keys = [s.key for s in walk.steps]
    qp = qp_step(inst.W, inst.x, inst.y, scenario.variant, scenario.C)
    positive = {u for u in range(len(qp.tau)) if u != inst.y and qp.tau[u] > 1e-9}
    if not positive:  # no update: nothing to ask
        assert not asked
        return
    assert keys[min(asked)] == "sorted" and keys[max(asked) + 1] == "tau"
    support_answer = asked[keys.index("sorted")][1]
    inside = re.split(r"[;。]", support_answer.split(":")[1])[0]  # "classes 1, 3 enter it"
    assert set(_numbers(inside)) == positive  # the classes said to enter S
    tau_answer = asked[keys.index("tau") - 1][1]
    said = _numbers(tau_answer.split("(")[0].replace("τ > 0", ""))  # "... classes 1, 3 ("
    assert set(said) == positive
    for u in positive:  # each value as the solver has it, to the 4 digits shown
        shown = re.search(rf"τ_{u} = ([-\d.e]+)", tau_answer).group(1)
        assert float(shown) == pytest.approx(qp.tau[u], rel=1e-3, abs=1e-4)


def test_the_playground_verdicts_are_the_learners_predictions():
    run = PlaygroundRun(("perceptron", "pa", "arow"), "blobs", 60, 3, 0.1, seed=2).stream()
    questions, answers = stream_questions(run, "en")
    assert len(questions) == len(answers) == run.n + 1 and answers[0] == ""
    mistakes = 0
    for t in range(run.n):
        assert "predicted" not in questions[t]  # a question only
        for k, name in zip(run.keys, run.names):
            p, c = int(run.predicted[k][t]), int(run.y[t])
            verdict = f"{name} predicted {p}: " + ("right" if p == c else "**wrong**")
            assert verdict in answers[t + 1], (t, answers[t + 1])
            mistakes += p != c
    assert mistakes == sum(int(run.mistakes[k].sum()) for k in run.keys)


@pytest.mark.parametrize("rule", ["cw", "arow", "scw1", "scw2"])
def test_the_cw_answer_is_the_rules_margin_variance(rule):
    from olearn.teaching.cw_walk import cw_update

    walk = cw_update(default_cw(rule), 6)
    x, trace = np.asarray(walk.x, dtype=float), walk.trace
    before, after, _ = shrink(trace.Sigma_before, trace.Sigma_after, x)
    # along x: the rule's own variance of the margin, v = x' Sigma x, per unit of ||x||^2
    assert before * (x @ x) == pytest.approx(trace.v, rel=1e-9)
    assert after * (x @ x) == pytest.approx(trace.v_after, rel=1e-9)
    _, answer = cw_question(walk, "en")
    assert "along x" in answer
