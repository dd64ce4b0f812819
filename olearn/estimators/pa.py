"""scikit-learn classifiers for the multiclass Perceptron and the PA family (true multiclass,
not one-vs-rest: one weight row per class, one constraint against the best wrong class)."""

from __future__ import annotations

from sklearn.utils._param_validation import StrOptions

from olearn.estimators._fit_options import NO_PROBA_DOC, add_fit_doc
from olearn.estimators._linear import AdditiveLinearClassifier
from olearn.estimators._params import POSITIVE, store_params

__all__ = ["PerceptronClassifier", "PAClassifier"]

INTERCEPT_DOC = """fit_intercept : bool, default=False
        Append a constant feature of value ``intercept_scaling`` to every x (it then enters
        ``||x||^2`` like any feature); its weights times ``intercept_scaling`` are
        ``intercept_``.  Off by default: over 9 datasets and six learners
        (``python -m benchmarks.intercept``) no intercept was the best setting on average
        and never worse than the best by more than 1 point, where a constant 1 cost up to 4.4
        points (it weighs as much as a whole unit-norm document); only data offset from the
        origin (the 2-D toys) needs one.
    intercept_scaling : float, default=1.0
        The constant feature's value (> 0), as in LIBLINEAR; about the typical row norm is
        the safe choice (1 for rows scaled to unit length).
    class_weight : dict, "balanced" or None, default=None
        Multiplies each example's ``sample_weight`` by its class's (scikit-learn's meaning;
        "balanced" is ``n / (K bincount(y))`` of ``fit``'s y, refused by ``partial_fit``).
    average : bool or int, default=False
        Predict with the mean of the weights after each example, ``w_bar``: ``True`` over
        every example, an int a over the examples from the a-th on (scikit-learn's form);
        ``coef_`` / ``intercept_`` are then the average (see *Notes*)."""


WEIGHT_SCALES_DOC = """weight_scales : {"C", "step"}, default="C"
        What an example's weight s (``sample_weight`` x ``class_weight``) scales.  ``"C"``:
        the slack's price, ``C_i = s C`` (the weighted problem; the hard rule has no price,
        takes any s > 0 as the constraint's presence and warns once).  ``"step"``: the step,
        s times the unweighted one, as scikit-learn's weighted PassiveAggressiveClassifier
        (``update *= class_weight * sample_weight``): for two classes its weights bit for bit
        with ``C`` halved (docs/migrating-from-sklearn.md, *Weights*)."""

WEIGHT_SCALES_CONSTRAINT = [StrOptions({"C", "step"})]


STATE_DOC = """
    Notes
    -----
    *New classes.*  ``partial_fit`` / ``learn_stream`` learn labels never seen: a new class
    joins ``classes_`` (sorted; a label of another type is appended) with a zero row at its
    first sample, also inside a batch; a stream may start with one class.  See
    ``partial_fit``'s ``classes`` for how that differs from declaring the class up front.

    *Weights.*  An example's weight s (``sample_weight`` x ``class_weight``) {weights}
    A weight of 0 is the example's absence, bit for bit (also for ``t_``).

    *Averaging.*  With ``average``, ``w_bar_T = 1/(T - a + 1) sum_{{t=a..T}} w_t`` is kept in
    O(non-zeros) per example (``w_bar = w - U / n_avg``, :mod:`olearn.estimators._average`)
    and predicts; the state adds ``"average_sum"`` (K, d) [``"average_sum_intercept"``] and
    ``"average_counts"`` ``[t, n_avg, a]``.

    *State.*  ``get_state()`` -> dict with ``"version"``, ``"params"``, ``"classes"`` (K,),
    ``"n_features_in"``, ``"feature_names_in"``, ``"t"``, ``"n_updates"``, ``"n_iter"``, and
    ``"coef"`` (K, d) float64{family}{intercept_key}; ``set_state(state)`` checks
    and loads it (same parameters), after which the model continues bit for bit.  Pickles
    hold the weights once.
"""

INTERCEPT_KEY = """, ``"intercept_weight"`` (K,) with ``fit_intercept``
    (``intercept_ = intercept_scaling * intercept_weight``)"""


WEIGHTS_PA = """is the
    Perceptron's step ``+-s x`` (the weighted perceptron criterion's gradient step); PA-I and
    PA-II price its slack ``s C`` (their closed forms with ``C_i = s C``); hard PA, having no
    price, takes any s > 0 as the constraint's presence (the limit C -> inf of weighted
    PA-I).  With ``weight_scales="step"`` the PA rules step s times the unweighted step
    instead (scikit-learn's meaning).  Derivations and solver checks: :mod:`olearn.core.pa`,
    *Weights*."""


def state_doc(family: str = "", weights: str = WEIGHTS_PA) -> str:
    """The *Notes* section on weights, averaging, new classes and the state, with a family's
    extra keys and the meaning of an example's weight."""
    notes = STATE_DOC.replace("{family}", "").replace("{intercept_key}", INTERCEPT_KEY + family)
    return notes.replace("{weights}", weights).replace("{{", "{").replace("}}", "}")


class PerceptronClassifier(AdditiveLinearClassifier):
    """Multiclass Perceptron: on a mistake ``w_y += x`` and ``w_rival -= x``.

    Parameters
    ----------
    {intercept}
    epochs : int, default=5
        Passes over the data made by ``fit`` (``partial_fit`` always makes one).
    shuffle : bool, default=True
        Visit the samples of each ``fit`` epoch in a fresh random order.
    random_state : int, RandomState or None, default=None
        Seed of that order.

    Attributes
    ----------
    coef_ : ndarray of shape (n_classes, n_features), or (1, n_features) for two classes
        The weights; for two classes scikit-learn's ``w_1 - w_0`` (computed when read), so
        ``decision_function(X) == X @ coef_.T + intercept_`` for any number of classes.
        The per-class rows are ``get_state()["coef"]``.
    intercept_ : ndarray of shape (n_classes,), or (1,) for two classes
    classes_ : ndarray of shape (n_classes,)
    t_ : int
        Samples seen.
    n_updates_ : int
        Mistakes (updates) made.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from olearn.estimators import PerceptronClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> clf = PerceptronClassifier(random_state=0).fit(X, y)
    >>> clf.coef_.shape
    (3, 4)

    References
    ----------
    F. Rosenblatt, Psychological Review 65(6):386-408, 1958.
    """

    _rule = "perceptron"

    def __init__(
        self,
        *,
        fit_intercept=False,
        intercept_scaling=1.0,
        epochs=5,
        shuffle=True,
        random_state=None,
        tol=None,
        n_iter_no_change=5,
        early_stopping=False,
        validation_fraction=0.1,
        verbose=0,
        warm_start=False,
        class_weight=None,
        average=False,
    ):
        store_params(self, locals())


class PAClassifier(AdditiveLinearClassifier):
    """Multiclass Passive-Aggressive (PA, PA-I, PA-II): one constraint against the rival.

    The step solves ``min 1/2 sum ||w_v - w_v_old||^2 (+ C xi | + C xi^2)`` subject to a
    margin of 1 (minus the slack) over the highest-scoring wrong class only, so after an
    update the example can still be misclassified by a third class (see
    :class:`~olearn.estimators.SPAClassifier`, which fixes that).

    Parameters
    ----------
    variant : {None, "I", "II"}, default=None
        Hard PA, PA-I (``tau = min(C, l / 2||x||^2)``) or PA-II
        (``tau = l / (2||x||^2 + 1/2C)``).  The seed's printed C is twice this one.
    C : float, default=1.0
        Slack price (> 0); ignored by hard PA.
    mistakes_only : bool, default=False
        A diagnostic, not the paper's PA (hard variant only): step only when the prediction
        is wrong (rival = argmax over all classes), never on a correct prediction with
        margin < 1; see :func:`olearn.core.pa.pa_step`.
    {weight_scales}
    {intercept}
    epochs, shuffle, random_state
        As in :class:`PerceptronClassifier`.

    Attributes
    ----------
    coef_, intercept_, classes_, t_, n_updates_
        As in :class:`PerceptronClassifier`.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from olearn.estimators import PAClassifier
    >>> X, y = load_iris(return_X_y=True)
    >>> PAClassifier(variant="I", C=0.1, random_state=0).fit(X, y).score(X, y) > 0.7
    True

    References
    ----------
    K. Crammer, O. Dekel, J. Keshet, S. Shalev-Shwartz, Y. Singer, "Online
    Passive-Aggressive Algorithms", JMLR 7:551-585, 2006.
    """

    _parameter_constraints: dict = {
        **AdditiveLinearClassifier._parameter_constraints,
        "variant": [StrOptions({"I", "II"}), None],
        "C": [POSITIVE],
        "mistakes_only": ["boolean"],
        "weight_scales": WEIGHT_SCALES_CONSTRAINT,
    }

    def __init__(
        self,
        *,
        variant=None,
        C=1.0,
        mistakes_only=False,
        weight_scales="C",
        fit_intercept=False,
        intercept_scaling=1.0,
        epochs=5,
        shuffle=True,
        random_state=None,
        tol=None,
        n_iter_no_change=5,
        early_stopping=False,
        validation_fraction=0.1,
        verbose=0,
        warm_start=False,
        class_weight=None,
        average=False,
    ):
        store_params(self, locals())

    @property
    def _rule(self) -> str:
        return "pa-mistakes" if self.mistakes_only else "pa"

    def _slack_price(self) -> float:
        return float(self.C)


for _cls in (PerceptronClassifier, PAClassifier):
    _cls.__doc__ = _cls.__doc__.replace("{intercept}", INTERCEPT_DOC)
    _cls.__doc__ = _cls.__doc__.replace("{weight_scales}", WEIGHT_SCALES_DOC)
    _cls.__doc__ = _cls.__doc__.replace(
        "\n    Examples\n", state_doc() + NO_PROBA_DOC + "\n    Examples\n", 1
    )
    add_fit_doc(_cls)
