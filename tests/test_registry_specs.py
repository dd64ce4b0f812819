"""The registry's entries drive behaviour: every hyper-parameter's slider range is valid for
its estimator, a rule is called through its spec, and the kernel a spec names is the one its
estimator runs.  Parametrised from ``olearn.registry``."""

import inspect

import numpy as np
import pytest
from sklearn.base import is_classifier, is_regressor

from olearn import registry
from olearn.registry import AlgorithmSpec, Hyper

HYPERS = [(a.key, h.name) for a in registry.specs(task=None) for h in a.hypers]


@pytest.mark.parametrize(("key", "name"), HYPERS)
def test_every_slider_value_is_a_valid_parameter(key, name):
    """low, high, the default, the grid and every value the slider offers pass the
    estimator's own constraint (scikit-learn's validation, not a copy of it)."""
    spec = registry.get(key)
    h = spec.hyper(name)
    values = h.slider_values()
    assert values[0] == h.low and values[-1] == h.high
    assert h.default in values and set(h.grid) <= set(values)
    for value in values:
        spec.make(**{name: value}).check_params()


def test_hyper_refuses_an_incomplete_or_inconsistent_range():
    with pytest.raises(ValueError, match="range"):
        Hyper("C", 1.0)
    with pytest.raises(ValueError, match="low <= default"):
        Hyper("C", 1.0, low=2.0, high=3.0)
    with pytest.raises(ValueError, match="grid"):
        Hyper("C", 1.0, (1.0, 50.0), low=0.1, high=10.0)
    with pytest.raises(ValueError, match="log"):
        Hyper("eta", 0.5, low=0.0, high=1.0)


def test_entries_are_keyword_only():
    with pytest.raises(TypeError):
        AlgorithmSpec("X", "x", "pa", "olearn.core.pa:pa_step", "PAClassifier", "ref", "000")


@pytest.mark.parametrize("key", registry.keys(online=True, task=None))
def test_apply_is_the_rule_with_the_specs_arguments(key):
    """``spec.apply`` = the rule called by hand with the fixed arguments and the defaults,
    and it takes only the hyper-parameters the rule has."""
    spec = registry.get(key)
    learner = spec.readable(covariance="diagonal")
    x, y = np.array([0.5, -1.0, 2.0]), 1
    state = learner.init(3, 3)
    by_hand = spec.step(state, x, y, **spec.fixed, **spec.defaults)
    through_spec = spec.apply(state, x, y, not_a_hyper_parameter=1.0)
    np.testing.assert_array_equal(learner.weights(by_hand[0]), learner.weights(through_spec[0]))
    assert set(spec.hyper_names) <= set(spec.rule_kwargs())


@pytest.mark.parametrize("key", [k for k in registry.keys(task=None) if registry.get(k).kernel])
def test_the_named_kernel_is_the_one_the_estimator_runs(key):
    """The spec reads the estimator's engine's ``kernel`` (a batch estimator's
    ``numba_kernel``); pointing it elsewhere breaks ``fit``, so the declared kernel really
    runs."""
    spec = registry.get(key)
    assert spec.kernel.startswith("olearn.kernels.") and callable(spec.kernel_function)
    nope = "olearn.kernels.sparse:nope"
    engine = getattr(spec.estimator_class, "engine_class", None)
    if engine is not None:
        elsewhere = {"engine_class": type("Elsewhere", (engine,), {"kernel": nope})}
    else:
        elsewhere = {"numba_kernel": nope}
    cls = type("Elsewhere", (spec.estimator_class,), elsewhere)
    X, y = np.random.default_rng(0).normal(size=(12, 3)), np.arange(12) % 3
    params = spec.make().get_params()
    with pytest.raises(AttributeError, match="nope"):
        cls(**params).fit(X, y)


def _defaults(function) -> dict:
    return {
        name: p.default
        for name, p in inspect.signature(function).parameters.items()
        if p.default is not inspect.Parameter.empty
    }


@pytest.mark.parametrize("key", registry.keys(averaged=True, task=None))
def test_every_default_has_one_source_the_registry(key):
    """Each hyper-parameter's default is the registry's ``Hyper.default``, in the estimator
    and in the readable rule alike; and every other argument the two share has one default
    (unless the entry fixes it).  CW's eta once drifted: 0.7 in the registry and the
    estimator, 0.75 in ``cw_step``."""
    spec = registry.get(key)
    estimator, rule = _defaults(spec.estimator_class.__init__), _defaults(spec.step)
    for h in spec.hypers:
        assert estimator[h.name] == h.default, (key, h.name, "estimator")
        if h.name in inspect.signature(spec.step).parameters:
            assert rule[h.name] == h.default, (key, h.name, "rule")
    for name in (set(estimator) & set(rule)) - set(spec.fixed):
        assert estimator[name] == rule[name], (key, name)


def test_cw_eta_is_the_published_implementations_default():
    """0.7, i.e. phi = Phi^{-1}(0.7) = 0.5244, SOL's default (REFERENCES.md); the papers fix
    none (module docstring of olearn.core.cw.cw_step)."""
    from statistics import NormalDist

    eta = registry.get("cw").hyper("eta").default
    assert round(NormalDist().inv_cdf(eta), 4) == 0.5244


@pytest.mark.parametrize("key", registry.keys(family="cw"))
def test_the_cw_walk_dispatches_every_rule_through_its_spec(key):
    from olearn.teaching.cw_walk import cw_update
    from olearn.teaching.settings import CwWalk

    walk = cw_update(CwWalk.of(key, seed=0), warmup=0)
    assert walk.trace.rule == registry.get(key).make()._rule_name()
    with pytest.raises(ValueError, match="rule must be one of"):
        cw_update(CwWalk.of("spa"), warmup=0)


def test_estimators_package_exports_every_registered_class_from_its_module():
    import olearn.estimators as estimators

    names = {spec.estimator for spec in registry.specs(task=None)}
    assert names <= set(estimators.__all__) and names <= set(dir(estimators))
    for name in names:
        cls = getattr(estimators, name)
        assert cls.__name__ == name and cls.__module__.startswith("olearn.estimators.")
    with pytest.raises(AttributeError, match="no attribute 'NoSuchClassifier'"):
        estimators.NoSuchClassifier  # noqa: B018


def test_the_base_module_imports_first_in_a_fresh_interpreter():
    """``olearn.estimators``' lazy class lookup must not turn a submodule import into a cycle
    (``base`` imports ``olearn.estimators._fit_options``; ``olearn.river`` imports ``base``
    first)."""
    import subprocess
    import sys

    code = "import olearn.estimators.base, olearn.estimators as e; e.NHERDClassifier"
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_the_tasks_keep_classifiers_and_regressors_apart():
    """Classifier-only consumers (the default task) never receive a regressor, and
    ``get`` finds both."""
    classifiers, regressors = registry.keys(), registry.keys(task="regression")
    assert regressors and not set(classifiers) & set(regressors)
    assert set(registry.keys(task=None)) == set(classifiers) | set(regressors)
    assert {a.key for a in registry.ALGORITHMS} == set(classifiers)
    for key in regressors:
        spec = registry.get(key)
        assert spec.task == "regression" and is_regressor(spec.make())
    for key in registry.keys(averaged=True):
        assert is_classifier(registry.get(key).make())
    assert [type(e).__name__ for e in registry.check_instances("regression")] == ["PARegressor"] * 3
    with pytest.raises(ValueError, match="task"):
        registry.keys(task="ranking")
