"""The app's lists and controls come from the registry (issue 20, item 4, app half): a new
registry entry appears on the family map, and its hyper-parameters get sliders, with no page
edit."""

from __future__ import annotations

from dataclasses import replace

import pytest

from olearn import registry
from olearn.app.hypers import hyper_options, takes, view_hypers
from olearn.teaching.home import family_map


def test_a_new_cw_rule_appears_on_the_family_map(monkeypatch):
    arow = registry.get("arow")
    extra = replace(arow, key="newcw", name="NEW-CW")
    monkeypatch.setattr(registry, "ALGORITHMS", [*registry.ALGORITHMS, extra])
    nodes, _ = family_map()
    row = nodes.set_index("key").loc["newcw"]
    assert row["name"] == "NEW-CW" and row["family"] == "cw"
    placed = nodes.set_index("key")[["x", "y"]].apply(tuple, axis=1)
    assert list(placed).count(placed["newcw"]) == 1  # a place of its own


def test_every_cw_page_slider_is_a_registry_hyper_parameter():
    sliders = view_hypers("cw")
    declared = {h.name for k in registry.keys(view="cw") for h in registry.get(k).hypers}
    assert set(sliders) == declared
    for key in registry.keys(view="cw"):
        for h in registry.get(key).hypers:
            assert takes(key, h.name)
            options = hyper_options(sliders[h.name])
            assert sliders[h.name].default in options  # the slider's default is offered
            assert set(sliders[h.name].grid) <= set(options)  # and the protocols' grid
            assert options == sorted(options) and len(set(options)) == len(options)
            low = h.low if h.low is not None else -float("inf")
            high = h.high if h.high is not None else float("inf")
            assert all(low <= v <= high for v in options if v not in h.grid)


@pytest.mark.parametrize("key", registry.keys(view="cw"))
def test_the_cw_walk_runs_every_rule_of_the_view_through_its_spec(key):
    from olearn.teaching.cw_walk import cw_update
    from olearn.teaching.settings import CwWalk

    walk = cw_update(CwWalk.of(key, seed=1), warmup=3)
    assert walk.rule == key and walk.trace.reason == "aggressive"


def test_a_hyper_parameter_outside_its_range_is_refused_clearly():
    from olearn.teaching.cw_walk import cw_update
    from olearn.teaching.settings import CwWalk

    with pytest.raises(ValueError, match="eta must be in"):
        cw_update(CwWalk.of("cw", eta=0.3))
    with pytest.raises(ValueError, match="rule must be one of"):
        cw_update(CwWalk.of("spa"))
