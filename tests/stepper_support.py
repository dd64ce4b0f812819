"""AppTest helpers for pages stepped in the browser (:mod:`olearn.app.components.stepper`).

AppTest cannot click a component's buttons; these read what the server sent (which step's
containers its CSS shows, which step its figures are tagged with) and stand in for the
browser's report after a stop (the component's trigger value), so the page's side of the
protocol is exercised.  Clicking itself is tested in Chromium (``tests/test_browser*.py``).
"""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

import olearn.app.components.stepper as stepper_module


def shown_step(at, prefix: str) -> int:
    """The step whose ``prefix`` containers the page's CSS leaves visible."""
    for el in at.get("html"):
        found = re.search(rf":not\(:has\(> \.st-key-{prefix}-(\d+)\)\)", el.proto.body)
        if found:
            return int(found.group(1))
    raise AssertionError(f"no stepper CSS for {prefix!r}")


def figure_step(at, index: int = 0) -> int:
    """The step the ``index``-th plotly chart is tagged with (``layout.meta``)."""
    spec = json.loads(at.get("plotly_chart")[index].proto.spec)
    return int(str(spec["layout"]["meta"]).rsplit(":", 1)[1])


def report(monkeypatch, at, step_id: int, seq: int = 1) -> None:
    """Run ``at`` once as the rerun that follows the browser's report of ``step_id``."""
    real = stepper_module._component
    calls = {"n": 0}

    def fake(**kw):
        real(**kw)
        calls["n"] += 1
        return SimpleNamespace(pos={"id": step_id, "seq": seq} if calls["n"] == 1 else None)

    monkeypatch.setattr(stepper_module, "_component", fake)
    try:
        at.run()
    finally:
        monkeypatch.setattr(stepper_module, "_component", real)
