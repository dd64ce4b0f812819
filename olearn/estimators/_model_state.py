"""Where parameters meet fitted state: the checks every olearn estimator shares.

- a family declares the parameters its stored state was built for (the model's shape, or what
  its numbers mean, e.g. ``fit_intercept`` or the covariance kind); changing one with
  ``set_params`` and then calling ``partial_fit``, ``predict`` ... is refused with a ValueError
  naming it (as scikit-learn refuses a changed feature count); the others (step sizes such as
  ``C``, ``eta``, ``r``, a variant) apply from the next step.  Both directions count: a
  parameter the state was built without (``average`` switched on later) is a change too;
- a family declares its state's size, checked against the memory budget
  (:func:`olearn._budget.require`) before anything is allocated;
- failures: a ``fit`` that fails leaves the estimator unfitted (never half-fitted); a
  ``partial_fit`` (or anything else) refused at validation leaves the model as it was.
"""

from __future__ import annotations

import functools

from olearn._budget import require

# scikit-learn's own private settings: not state (``_forget`` keeps them)
_SKLEARN_SETTINGS = frozenset({"_metadata_request", "_sklearn_output_config"})


def changed_params(built: dict, now: dict) -> list[str]:
    """The names whose values differ between the two dicts, a name missing on one side
    included (sorted)."""
    return sorted(name for name in built.keys() | now.keys() if built.get(name) != now.get(name))


def refuse_changed(owner: str, action: str, built: dict, now: dict) -> None:
    """Raise ValueError if a parameter the state was built for changed (:func:`changed_params`)."""
    changed = changed_params(built, now)
    if changed:
        what = ", ".join(f"{n}={built.get(n)!r} (now {now.get(n)!r})" for n in changed)
        raise ValueError(
            f"{owner}: cannot {action}: the fitted model was built for {what}, and "
            f"{'that parameter' if len(changed) == 1 else 'those parameters'} fixes the shape "
            "or the meaning of its state.  Set it back with set_params, or call fit to learn "
            "a new model from scratch with the new value."
        )


class ModelState:
    """Hooks (a family overrides them): ``_state_params() -> dict``, the parameters the state
    was built for; ``_state_bytes(n_samples, n_features, n_classes) -> (nbytes, what)``;
    ``_check_params()``, cross-parameter checks beyond ``_parameter_constraints``."""

    @property
    def _name(self) -> str:
        return type(self).__name__

    def check_params(self):
        """Validate the parameters now (``fit`` does it too); returns self."""
        from olearn.estimators._params import validate_params

        validate_params(self)
        self._check_params()
        return self

    def _check_params(self) -> None:
        """Cross-parameter checks beyond ``_parameter_constraints`` (ValueError)."""

    def _state_params(self) -> dict:
        return {}

    def _state_bytes(self, n_samples: int, n_features: int, n_classes: int) -> tuple[int, str]:
        return 0, "the model"

    def _require_budget(self, n_samples: int, n_features: int, n_classes: int) -> None:
        nbytes, what = self._state_bytes(int(n_samples), int(n_features), int(n_classes))
        require(nbytes, f"{type(self).__name__}: {what}")

    def _remember_state_params(self) -> None:
        """Record the parameters the state is being built for (called with the state)."""
        self._built_for = self._state_params()

    def _check_state_params(self, action: str) -> None:
        built = getattr(self, "_built_for", None)
        if built is not None:
            refuse_changed(type(self).__name__, action, built, self._state_params())

    def _forget(self) -> None:
        """Drop every fitted attribute (``name_``) and private state (``_name``)."""
        for name in list(vars(self)):
            if name.startswith("__") or name in _SKLEARN_SETTINGS:
                continue
            if name.endswith("_") or name.startswith("_"):
                delattr(self, name)


def unfitted_on_failure(fit):
    """Decorate a ``fit``: if it raises, the estimator is left unfitted (``_forget``), never
    with a half-replaced model (the previous fit's attributes beside the failed one's)."""

    @functools.wraps(fit)
    def wrapper(self, *args, **kwargs):
        try:
            return fit(self, *args, **kwargs)
        except Exception:
            self._forget()
            raise

    return wrapper
