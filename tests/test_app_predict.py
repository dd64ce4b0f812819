"""Predict mode on the server (AppTest): the pages render the questions, hide their answers in
the CSS they send before the stepper mounts (unless the link says ``reveal=1``), take the
browser's report of a reveal into the URL, and leave the answers out of the rest of the page.
The browser's side is ``tests/test_browser_predict.py``."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("streamlit")

import olearn.app.components.stepper as stepper_module  # noqa: E402
from tests.test_app_pages import assert_clean, open_page  # noqa: E402


def css(at) -> str:
    return "\n".join(el.proto.body for el in at.get("html"))


def url(at) -> dict:
    return {k: at.query_params[k] for k in at.query_params}


@pytest.mark.parametrize(("reveal", "hidden"), [("0", True), ("1", False)])
def test_the_spa_answer_is_hidden_until_the_link_reveals_it(reveal, hidden):
    at = open_page(
        "pages/spa.py",
        {"scenario": "three-rivals", "predict": "1", "step": "3", "reveal": reveal},
    )
    rule = ':has(> [class*="st-key-spaans-"]) { display: none; }'
    assert (rule in css(at)) is hidden
    assert any("Predict" in m.value for m in at.markdown)
    assert url(at).get("reveal") in (reveal, [reveal])
    assert not any("QP" in tab.label for tab in at.tabs)  # the QP's steps tau: the answer


def test_without_predict_nothing_is_asked_and_no_reveal_in_the_url():
    at = open_page("pages/spa.py", {"scenario": "three-rivals", "step": "3"})
    assert not any("Predict" in m.value for m in at.markdown)
    assert "reveal" not in url(at)


def test_the_browsers_reveal_reaches_the_url(monkeypatch):
    at = open_page("pages/cw.py", {"rule": "arow", "predict": "1", "t": "1"})
    assert url(at).get("reveal") in ("0", ["0"])
    from olearn.teaching.cw_walk import update_indices
    from olearn.teaching.settings import default_cw

    first = update_indices(default_cw("arow"))[0]  # the update the page shows first
    real = stepper_module._component
    calls = {"n": 0}

    def fake(**kw):
        real(**kw)
        calls["n"] += 1
        pos = {"id": first, "seq": 1, "revealed": True} if calls["n"] == 1 else None
        return SimpleNamespace(pos=pos)

    monkeypatch.setattr(stepper_module, "_component", fake)
    at.run()
    assert_clean(at)
    assert url(at).get("reveal") in ("1", ["1"])
