"""The lesson: a guided sequence a lecturer runs a class from.

Perceptron -> PA -> PA's failure on three rivals -> SPA fixes it -> SPA-I/II and C -> CW keeps
a confidence -> AROW/SCW under label noise -> side by side on real data.  Each
:class:`LessonStep` names the page and the state that show it (``params``: that page's URL
parameters), so the lesson page renders the view inline and links to the full page in the
same state with :func:`deep_link`.  The narratives are in ``olearn/teaching/strings/lesson.py``.

>>> [s.key for s in STEPS][:3]
['perceptron', 'pa', 'pa_fails']
>>> deep_link(STEPS[0], "ja").startswith("/playground?")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from urllib.parse import urlencode

from olearn.teaching.hypers import grid_label, quick_c_grid
from olearn.teaching.settings import PlaygroundRun, default_playground
from olearn.teaching.strings import t

C_GRID = quick_c_grid("compare")  # the compare view's C grid (the registry's, quick)


def playground_params(run: PlaygroundRun) -> dict:
    """The Playground's URL parameters that rebuild ``run`` (every setting of its stream and
    learners: the test share and the bias included), at its last example."""
    return {
        "kind": run.kind,
        "n": run.n,
        "K": run.K,
        "noise": run.noise,
        "test": run.test_fraction,
        "seed": run.seed,
        "C": run.C,
        "bias": int(run.bias),
        "t": run.length,
    }


def playground_run(params: dict) -> PlaygroundRun:
    """The run the Playground computes for URL ``params`` (:func:`playground_params` plus
    ``algos``); what the URL leaves out is the Playground's default."""
    return replace(
        default_playground(),
        keys=tuple(params["algos"].split(",")),
        kind=params["kind"],
        n=params["n"],
        K=params["K"],
        noise=params["noise"],
        test_fraction=params["test"],
        seed=params["seed"],
        C=params["C"],
        bias=bool(params["bias"]),
    )


STREAM = playground_params(default_playground())  # the Playground's stream on arrival
REAL = {  # the compare view: embedded handwritten digits, a small protocol
    "data": "digits",
    "algos": "perceptron,pa1,spa1,arow,scw1",
    "folds": 3,
    "epochs": 1,
    "max": 600,
    "seed": 0,
    "grid": grid_label(C_GRID),  # the Compare page's name for the C grid
    "scale": "none",
}


@dataclass(frozen=True)
class LessonStep:
    """One step: ``key`` names its strings (``lesson.<key>.title`` / ``.text``), ``page`` the
    page that shows it in full, ``params`` that page's URL state, ``view`` what the lesson page
    draws inline ("stream", "pa_beside", "spa_after", "cap", "cw", "noise", "compare")."""

    key: str
    page: str
    view: str
    params: dict = field(default_factory=dict)

    def title(self, lang: str) -> str:
        return t(f"lesson.{self.key}.title", lang)

    def text(self, lang: str) -> str:
        return t(f"lesson.{self.key}.text", lang)


STEPS: tuple[LessonStep, ...] = (
    LessonStep("perceptron", "playground", "stream", {**STREAM, "algos": "perceptron"}),
    LessonStep("pa", "playground", "stream", {**STREAM, "algos": "perceptron,pa"}),
    LessonStep("pa_fails", "spa", "pa_beside", {"scenario": "three-rivals", "rule": "SPA"}),
    LessonStep(
        "spa_fixes", "spa", "spa_after", {"scenario": "three-rivals", "rule": "SPA", "step": -1}
    ),
    LessonStep("slack", "spa", "cap", {"scenario": "three-rivals", "rule": "SPA-I", "C": 0.1}),
    LessonStep("cw", "cw", "cw", {"rule": "cw"}),
    LessonStep("noise", "cw", "noise", {"rule": "arow", "noise": 0.2, "passes": 3}),
    LessonStep("real", "compare", "compare", {**REAL, "source": "registered", "run": 1}),
)


def deep_link(step: LessonStep, lang: str, n_substeps: int | None = None) -> str:
    """The URL (path and query, same origin) of the page and state that show ``step``, with
    its controls hidden (``hide=all``).  A negative sub-step counts from the end, so
    ``n_substeps`` (the walkthrough's length) resolves it.

    >>> deep_link(STEPS[3], "en", n_substeps=12)
    '/spa?scenario=three-rivals&rule=SPA&step=11&lang=en&hide=all'
    """
    params = dict(step.params)
    if isinstance(params.get("step"), int) and params["step"] < 0 and n_substeps:
        params["step"] = n_substeps + params["step"]
    params.update(lang=lang, hide="all")
    return f"/{step.page}?{urlencode(params)}"
