"""What every online estimator's scikit-learn face does the same way over its engine, the
classifiers' (:class:`olearn.estimators.base.OnlineClassifier`) and the regressor's
(:class:`olearn.estimators.PARegressor`): whether it is fitted, the refusal of a changed
structural parameter, and scikit-learn's checks of X (the engine's door checks the values).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.utils.validation import check_is_fitted, validate_data

from olearn.estimators._model_state import refuse_changed
from olearn.kernels.sparse import check_sparse_structure


class EngineFace:
    """Needs ``engine_class``, ``_structure()`` and ``_name`` (the estimator's)."""

    def _fitted(self) -> bool:
        return "engine_" in self.__dict__

    def _check_structure(self, action: str) -> None:
        """Refuse a parameter that fixes the state's shape or meaning changed since it was built
        (both ways: one switched on later counts too)."""
        built = self.engine_.params
        now = self.engine_class(owner=self._name, **self._structure()).params
        refuse_changed(self._name, action, built, now)

    def _checked_Xy(self, X, y, reset: bool, *, y_numeric: bool):
        """scikit-learn's checks of X and y; returns ``(X, y, feature names)`` (the names
        ``validate_data`` set aside for this fit's engine)."""
        if not (sp.issparse(X) and X.format == "csr"):
            check_sparse_structure(X)  # before scipy converts a CSC / BSR input
        try:
            X, y = validate_data(self, X, y, accept_sparse="csr", dtype=np.float64, reset=reset,
                                 y_numeric=y_numeric, ensure_all_finite=False)  # fmt: skip
            return X, y, self.__dict__.get("_seen_names")
        finally:
            self.__dict__.pop("_seen_width", None)
            self.__dict__.pop("_seen_names", None)

    def _validate_X(self, X):
        check_is_fitted(self, "engine_")
        self._check_structure("predict")
        if not (sp.issparse(X) and X.format == "csr"):
            check_sparse_structure(X)
        return validate_data(self, X, accept_sparse="csr", dtype=np.float64, reset=False,
                             ensure_all_finite=False)  # fmt: skip
