"""scikit-learn compatible estimators over the numba kernels."""

from olearn.estimators.pa import PAClassifier, PerceptronClassifier
from olearn.estimators.spa import SPAClassifier

__all__ = ["PAClassifier", "PerceptronClassifier", "SPAClassifier"]
