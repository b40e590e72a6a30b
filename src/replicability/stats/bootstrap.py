"""Bootstrap estimates of accuracy and confidence intervals (Raschka 2018, Section 2).

Each bootstrap round draws ``n`` training indices with replacement, fits a clone
of the estimator on them and scores it on the out-of-bag instances (those not
drawn; about 36.8% of the data, ERRATA) and on the whole data set
(resubstitution). The .632 and .632+ estimates combine the two per round, as in
Raschka (2018, Eq. 34-37) and ``mlxtend.evaluate.bootstrap_point632_score``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats
from sklearn.base import clone

from .._results import ConfidenceInterval
from .._validation import (
    as_float_array,
    as_numbers_between,
    check_choice,
    check_fraction,
    check_not_text_or_bool,
    check_positive_int,
)

__all__ = [
    "BootstrapScores",
    "ConfidenceInterval",
    "bootstrap_oob_scores",
    "bootstrap_632",
    "bootstrap_632_plus",
    "no_information_rate",
    "percentile_interval",
    "standard_interval",
    "holdout_accuracy_interval",
]

_PLUS_VARIANTS = ("efron-tibshirani", "raschka")


@dataclass(frozen=True)
class BootstrapScores:
    """Per-round scores of the out-of-bag bootstrap.

    Attributes
    ----------
    oob : ndarray, shape (n_splits,)
        Score on the out-of-bag instances of each round.
    resubstitution : ndarray, shape (n_splits,)
        Score of the same fitted model on the whole data set.
    no_information : ndarray, shape (n_splits,)
        No-information error rate ``γ`` of the model's predictions on the whole
        data set (Raschka Eq. 39).
    """

    oob: np.ndarray
    resubstitution: np.ndarray
    no_information: np.ndarray


def _accuracy(y_true, y_pred):
    return float(np.mean(np.asarray(y_true) == np.asarray(y_pred)))


def _as_rng(rng):
    # A legacy RandomState is used as is so that the draws can match mlxtend's
    # BootstrapOutOfBag (RandomState(seed).choice(n, n)); everything else goes
    # through numpy's Generator.
    if isinstance(rng, np.random.RandomState):
        return rng
    return np.random.default_rng(rng)


def _check_xy(X, y):
    X = np.asarray(X)
    y = np.asarray(y)
    if X.ndim != 2:
        raise ValueError(f"`X` must be a 2-d array (instances x features); got shape {X.shape}.")
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(
            f"`y` must be 1-d with one label per row of `X` ({X.shape[0]}); got shape {y.shape}."
        )
    if X.shape[0] < 2:
        raise ValueError(f"`X` must have at least 2 instances; got {X.shape[0]}.")
    return X, y


def no_information_rate(y_true, y_pred):
    """No-information error rate ``γ = Σ_k p_k (1 − q_k)`` of a classifier.

    The error rate expected if labels and predictions were independent:
    ``p_k`` is the share of true labels equal to class ``k`` and ``q_k`` the
    share of predictions equal to ``k`` (Raschka 2018, Eq. 39; Efron &
    Tibshirani 1997, Eq. 27). It equals the 0-1 loss averaged over all ``n²``
    pairs ``(y_i, ŷ_j)`` (Raschka Eq. 38).

    Parameters
    ----------
    y_true, y_pred : array_like, shape (n,)
        True and predicted labels.

    Returns
    -------
    gamma : float

    References
    ----------
    B. Efron and R. Tibshirani (1997). Improvements on cross-validation: the
    .632+ bootstrap method. JASA 92(438), 548-560. doi:10.2307/2965703

    Examples
    --------
    >>> from replicability.stats.bootstrap import no_information_rate
    >>> round(no_information_rate([0, 0, 1, 1], [0, 0, 0, 1]), 4)
    0.5
    """
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)
    if y_true.ndim != 1 or y_true.shape != y_pred.shape or y_true.size == 0:
        raise ValueError(
            f"`y_true` and `y_pred` must be non-empty 1-d arrays of the same shape; "
            f"got {y_true.shape} and {y_pred.shape}."
        )
    classes = np.union1d(y_true, y_pred)
    p = (y_true[:, None] == classes).mean(axis=0)
    q = (y_pred[:, None] == classes).mean(axis=0)
    return float(np.sum(p * (1 - q)))


def bootstrap_oob_scores(estimator, X, y, *, n_splits=200, rng=None, scoring=None):
    """Out-of-bag ("leave-one-out") bootstrap: per-round out-of-bag and resubstitution scores.

    In each of ``n_splits`` rounds, ``n`` indices are drawn with replacement, a
    clone of ``estimator`` is fitted on them and scored on the instances never
    drawn (out-of-bag, Raschka 2018 Section 2.3) and on the whole data set
    (resubstitution, as in mlxtend and Efron 1983 Eq. 6.12).

    Parameters
    ----------
    estimator : scikit-learn estimator
        Cloned in every round; never fitted itself.
    X : array_like, shape (n, n_features)
    y : array_like, shape (n,)
    n_splits : int, default 200
        Number of bootstrap rounds.
    rng : None, int, numpy Generator or RandomState
        Source of the bootstrap draws. A ``RandomState(seed)`` reproduces the
        draws of mlxtend's ``random_seed=seed``.
    scoring : callable ``scoring(y_true, y_pred) -> float``, optional
        Higher is better; default accuracy.

    Returns
    -------
    BootstrapScores
        ``oob``, ``resubstitution`` and ``no_information`` arrays, one value per round.

    Notes
    -----
    A round whose bootstrap sample contains every instance has no out-of-bag
    instance (probability ``n!/n^n``); it is redrawn.

    References
    ----------
    S. Raschka (2018). Model evaluation, model selection, and algorithm
    selection in machine learning. arXiv:1811.12808

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from replicability.stats.bootstrap import bootstrap_oob_scores
    >>> X, y = load_iris(return_X_y=True)
    >>> res = bootstrap_oob_scores(DecisionTreeClassifier(random_state=0), X, y, n_splits=20, rng=1)
    >>> res.oob.shape
    (20,)
    >>> bool(0.85 < res.oob.mean() < 1.0)
    True
    """
    X, y = _check_xy(X, y)
    n_splits = check_positive_int(n_splits, "n_splits")
    if scoring is None:
        scoring = _accuracy
    elif not callable(scoring):
        raise ValueError(f"`scoring` must be a callable scoring(y_true, y_pred); got {scoring!r}.")
    gen = _as_rng(rng)
    n = X.shape[0]
    oob = np.empty(n_splits)
    resub = np.empty(n_splits)
    gamma = np.empty(n_splits)
    for b in range(n_splits):
        while True:
            train = gen.choice(n, size=n, replace=True)
            test = np.setdiff1d(np.arange(n), train)
            if test.size:
                break
        model = clone(estimator).fit(X[train], y[train])
        pred_all = model.predict(X)
        oob[b] = scoring(y[test], model.predict(X[test]))
        resub[b] = scoring(y, pred_all)
        gamma[b] = no_information_rate(y, pred_all)
    return BootstrapScores(oob=oob, resubstitution=resub, no_information=gamma)


def bootstrap_632(estimator, X, y, *, n_splits=200, rng=None, scoring=None):
    """.632 bootstrap accuracy, one estimate per round.

    ``ACC = 0.632 · ACC_oob + 0.368 · ACC_resub`` per round (Raschka 2018,
    Eq. 34; Efron 1983); average the result for the point estimate.

    Parameters
    ----------
    estimator, X, y, n_splits, rng, scoring
        As in :func:`bootstrap_oob_scores`.

    Returns
    -------
    scores : ndarray, shape (n_splits,)

    Notes
    -----
    The weight is ``0.632`` exactly, as printed and as mlxtend uses.

    References
    ----------
    B. Efron (1983). Estimating the error rate of a prediction rule:
    improvement on cross-validation. JASA 78(382), 316-331. doi:10.2307/2288636

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from replicability.stats.bootstrap import bootstrap_632
    >>> X, y = load_iris(return_X_y=True)
    >>> s = bootstrap_632(DecisionTreeClassifier(random_state=0), X, y, n_splits=20, rng=1)
    >>> bool(0.9 < s.mean() < 1.0)
    True
    """
    res = bootstrap_oob_scores(estimator, X, y, n_splits=n_splits, rng=rng, scoring=scoring)
    return 0.632 * res.oob + 0.368 * res.resubstitution


def _plus_weights(err_oob, err_resub, gamma, variant):
    if variant == "efron-tibshirani":
        # Efron & Tibshirani (1997) Eq. 32-33: cap the out-of-bag error at γ and
        # set R' = 0 when there is no overfitting to measure (err1 <= err_resub
        # or γ <= err_resub); R' then lies in [0, 1].
        err_oob = np.minimum(err_oob, gamma)
        ok = (err_oob > err_resub) & (gamma > err_resub)
        denom = np.where(ok, gamma - err_resub, 1.0)
        rate = np.where(ok, (err_oob - err_resub) / denom, 0.0)
        rate = np.clip(rate, 0.0, 1.0)
    else:
        # Raschka (2018) Eq. 37 as printed: γ − (1 − ACC_h) in the denominator,
        # no clipping (ERRATA); may divide by zero or leave [0, 1].
        with np.errstate(divide="ignore", invalid="ignore"):
            rate = (err_oob - err_resub) / (gamma - err_oob)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = 0.632 / (1 - 0.368 * rate)  # Eq. 36
    return w, err_oob


def bootstrap_632_plus(estimator, X, y, *, n_splits=200, rng=None, variant="efron-tibshirani"):
    """.632+ bootstrap accuracy, one estimate per round.

    Per round, with ``err_oob = 1 − ACC_oob``, ``err_resub = 1 − ACC_resub`` and
    the no-information rate ``γ`` of the fitted model (:func:`no_information_rate`),
    ``ACC = 1 − [w · err_oob + (1 − w) · err_resub]`` with
    ``w = 0.632 / (1 − 0.368 R)`` (Raschka 2018, Eq. 35-36). The relative
    overfitting rate ``R`` depends on ``variant``:

    * ``"efron-tibshirani"`` (default, Efron & Tibshirani 1997 Eq. 32-33):
      ``R = (err_oob' − err_resub)/(γ − err_resub)`` with
      ``err_oob' = min(err_oob, γ)`` (also used in the combination), and
      ``R = 0`` unless ``err_oob' > err_resub`` and ``γ > err_resub``; so
      ``R ∈ [0, 1]`` and ``w ∈ [0.632, 1]``.
    * ``"raschka"``: Raschka (2018) Eq. 37 as printed,
      ``R = (err_oob − err_resub)/(γ − err_oob)``, unclipped. Kept only to
      show the difference (ERRATA); it can leave ``[0, 1]`` or divide by zero.

    Parameters
    ----------
    estimator, X, y, n_splits, rng
        As in :func:`bootstrap_oob_scores`; the score is accuracy (γ is
        defined for the 0-1 loss).
    variant : {"efron-tibshirani", "raschka"}

    Returns
    -------
    scores : ndarray, shape (n_splits,)

    Notes
    -----
    mlxtend's ``method='.632+'`` uses the Efron-Tibshirani denominator but
    neither caps ``err_oob`` at ``γ`` nor clips ``R``; it agrees with the
    default variant whenever ``err_resub < err_oob <= γ``.

    The combination is per round, as Raschka (Eq. 35) and mlxtend do it, with
    the resubstitution error of the round's model on the whole data set and
    ``γ`` of that model's predictions. Efron & Tibshirani combine aggregate
    quantities instead (the leave-one-out bootstrap error over all rounds and
    the apparent error of the model fitted on all the data); averaging these
    per-round estimates is close to, not identical with, their estimator.

    References
    ----------
    B. Efron and R. Tibshirani (1997). Improvements on cross-validation: the
    .632+ bootstrap method. JASA 92(438), 548-560. doi:10.2307/2965703

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from replicability.stats.bootstrap import bootstrap_632_plus
    >>> X, y = load_iris(return_X_y=True)
    >>> s = bootstrap_632_plus(DecisionTreeClassifier(random_state=0), X, y, n_splits=20, rng=1)
    >>> bool(0.9 < s.mean() < 1.0)
    True
    """
    check_choice(variant, "variant", _PLUS_VARIANTS)
    res = bootstrap_oob_scores(estimator, X, y, n_splits=n_splits, rng=rng)
    err_oob = 1 - res.oob
    err_resub = 1 - res.resubstitution
    w, err_oob = _plus_weights(err_oob, err_resub, res.no_information, variant)
    return 1 - (w * err_oob + (1 - w) * err_resub)


def percentile_interval(scores, *, confidence_level=0.95):
    """Percentile bootstrap interval (Efron 1981; Raschka 2018 Section 2.3).

    The bounds are the ``(1 − level)/2`` and ``(1 + level)/2`` quantiles of the
    bootstrap scores (numpy's default linear interpolation, as
    ``np.percentile`` in Raschka's and mlxtend's examples).

    Parameters
    ----------
    scores : array_like
        Bootstrap replicates on the last axis (at least 2); leading axes are a batch.
    confidence_level : float, default 0.95

    Returns
    -------
    ConfidenceInterval

    Examples
    --------
    >>> from replicability.stats.bootstrap import percentile_interval
    >>> ci = percentile_interval(range(101), confidence_level=0.9)
    >>> round(float(ci.low), 4), round(float(ci.high), 4)
    (5.0, 95.0)
    """
    arr = as_float_array(scores, "scores", min_last=2)
    level = check_fraction(confidence_level, "confidence_level")
    tail = (1 - level) / 2
    low, high = np.quantile(arr, [tail, 1 - tail], axis=-1)
    return ConfidenceInterval(low=low[()], high=high[()])


def standard_interval(scores, *, confidence_level=0.95):
    """Standard bootstrap interval ``mean ± t · SE_boot`` (Raschka 2018, Eq. 29-31).

    ``SE_boot`` is the standard deviation (``ddof = 1``) of the ``b``
    bootstrap replicates (Eq. 30: the spread of the replicates *is* the
    standard error of the statistic) and ``t`` the two-sided quantile of
    Student's t with ``b − 1`` degrees of freedom, as in Raschka's Figure 8.

    Parameters
    ----------
    scores : array_like
        Bootstrap replicates on the last axis (at least 2); leading axes are a batch.
    confidence_level : float, default 0.95

    Returns
    -------
    ConfidenceInterval

    Notes
    -----
    Not the interval of the mean of the replicates: there is no division by
    ``√b``.

    Examples
    --------
    >>> from replicability.stats.bootstrap import standard_interval
    >>> ci = standard_interval([0.9, 0.92, 0.94, 0.96, 0.98])
    >>> round(float(ci.low), 4), round(float(ci.high), 4)
    (0.8522, 1.0278)
    """
    arr = as_float_array(scores, "scores", min_last=2)
    level = check_fraction(confidence_level, "confidence_level")
    b = arr.shape[-1]
    mean = arr.mean(axis=-1)
    se = arr.std(axis=-1, ddof=1)
    t = stats.t.ppf((1 + level) / 2, b - 1)
    return ConfidenceInterval(low=(mean - t * se)[()], high=(mean + t * se)[()])


def holdout_accuracy_interval(acc, *, n_test, confidence_level=0.95):
    """Normal-approximation interval for a holdout accuracy (Raschka 2018, Eq. 15-17).

    ``ACC ± z · sqrt(ACC (1 − ACC) / n_test)``, the binomial standard error of
    the proportion of correct predictions among ``n_test`` test instances, with
    ``z`` the standard normal quantile (1.96 at 95%).

    Parameters
    ----------
    acc : array_like
        Holdout accuracies in ``[0, 1]``.
    n_test : int
        Number of test instances.
    confidence_level : float, default 0.95

    Returns
    -------
    ConfidenceInterval
        Not clipped to ``[0, 1]``; the approximation needs ``n_test·ACC`` and
        ``n_test·(1 − ACC)`` reasonably large.

    Examples
    --------
    >>> from replicability.stats.bootstrap import holdout_accuracy_interval
    >>> ci = holdout_accuracy_interval(0.95, n_test=100)
    >>> round(float(ci.low), 4), round(float(ci.high), 4)
    (0.9073, 0.9927)
    """
    check_not_text_or_bool(acc, "acc")
    arr = as_numbers_between(acc, "acc", 0.0, 1.0)
    n_test = check_positive_int(n_test, "n_test")
    level = check_fraction(confidence_level, "confidence_level")
    z = stats.norm.ppf((1 + level) / 2)
    half = z * np.sqrt(arr * (1 - arr) / n_test)  # Eq. 16-17
    return ConfidenceInterval(low=(arr - half)[()], high=(arr + half)[()])
