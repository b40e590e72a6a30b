"""Replicability of a test's outcome across randomizations of the same data.

An *outcome* is the decision of one significance test on one randomization of
a data set: ``-1`` (B better), ``0`` (no difference) or ``+1`` (A better), or a
two-valued coding such as ``0`` (accept) / ``1`` (reject). The ``n``
repetitions (randomizations) lie on the last axis; any leading axes are a
batch (data sets, learner pairs, tests).

Measures
--------
* R̂1 and R̂2, Bouckaert (2004): estimators of the replicability ``r``, the
  probability that two runs of the experiment on the same data agree.
* Consistency and almost consistency, Bouckaert & Frank (2004): all ``n``
  outcomes agree / all but at most one agree.
* Normalized replicability ``2r - 1`` and the Type I replicability bound
  ``1 - 2α + 2α²`` (Bouckaert 2005).
"""

from __future__ import annotations

import numpy as np

from .._results import unwrap_scalar
from .._validation import (
    as_counts,
    as_numbers,
    as_numbers_between,
    check_alpha,
    check_positive_int,
)

__all__ = [
    "OUTCOME_VALUES",
    "outcome_counts",
    "replicability_r1",
    "replicability_r2",
    "replicability_r2_from_counts",
    "r1_variance",
    "r2_variance",
    "replicability_from_probabilities",
    "consistency",
    "consistency_from_counts",
    "almost_consistency",
    "almost_consistency_from_counts",
    "normalized_replicability",
    "type1_replicability_bound",
]

#: The outcome values accepted: B better, no difference, A better. The
#: two-valued coding {0, 1} (accept / reject) is a subset.
OUTCOME_VALUES = (-1, 0, 1)


# --------------------------------------------------------------------------- #
# validation (private)
# --------------------------------------------------------------------------- #
def _as_outcomes(outcomes, name="outcomes", *, min_last=2):
    arr = as_numbers(outcomes, name)
    if arr.ndim < 1 or arr.shape[-1] < min_last:
        raise ValueError(
            f"`{name}` must have at least {min_last} outcomes on its last axis; "
            f"got shape {arr.shape}."
        )
    bad = ~np.isin(arr, OUTCOME_VALUES)
    if np.any(bad):
        raise ValueError(
            f"`{name}` must contain only the values -1, 0 and 1; got {float(arr[bad].flat[0])!r}."
        )
    return arr.astype(np.int8)


def _as_outcome_counts(counts, name="counts"):
    arr = as_counts(counts, name)
    if arr.ndim < 1:
        raise ValueError(f"`{name}` must have at least 1 dimension(s); got shape {arr.shape}.")
    if np.any(arr.sum(axis=-1) < 2):
        raise ValueError(
            f"`{name}` must sum to at least 2 outcomes on its last axis; "
            f"got totals {arr.sum(axis=-1).ravel()[:6]!r}."
        )
    return arr


def _as_probabilities(p, name="p"):
    arr = as_numbers(p, name)
    if arr.ndim < 1 or arr.shape[-1] < 2:
        raise ValueError(
            f"`{name}` must hold the probabilities of at least 2 outcome values on its "
            f"last axis; got shape {arr.shape}."
        )
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
        raise ValueError(f"`{name}` must contain probabilities in [0, 1]; got {arr.ravel()[:6]!r}.")
    if not np.allclose(arr.sum(axis=-1), 1.0, rtol=0, atol=1e-9):
        raise ValueError(
            f"`{name}` must sum to 1 on its last axis; got sums {arr.sum(axis=-1).ravel()[:6]!r}."
        )
    return arr


def _as_replicability(r, name="r"):
    return as_numbers_between(r, name, 0, 1)


def _power_sums(p):
    # r = F(p, 2) = Σ_c p_c² and F(p, 3) = Σ_c p_c³ (Theorem 3.1's F, summed over values)
    return (p**2).sum(axis=-1), (p**3).sum(axis=-1)


# --------------------------------------------------------------------------- #
# counts
# --------------------------------------------------------------------------- #
def outcome_counts(outcomes):
    """Count how often each outcome value occurs among the repetitions.

    Parameters
    ----------
    outcomes : array_like of int
        Values in ``{-1, 0, 1}``, repetitions on the last axis.

    Returns
    -------
    counts : ndarray of int
        Shape ``outcomes.shape[:-1] + (3,)``; the last axis counts the values
        ``-1, 0, 1`` in that order.

    Examples
    --------
    >>> from replicability.stats.measures import outcome_counts
    >>> outcome_counts([1, 1, 0, -1, 1]).tolist()
    [1, 1, 3]
    """
    arr = _as_outcomes(outcomes, min_last=1)
    return np.stack([(arr == v).sum(axis=-1) for v in OUTCOME_VALUES], axis=-1)


# --------------------------------------------------------------------------- #
# estimators of replicability
# --------------------------------------------------------------------------- #
def replicability_r1(outcomes):
    """Simple replicability estimator R̂1: agreement of consecutive disjoint pairs.

    Estimates the replicability ``r``, the probability that two runs of an
    experiment on the same data set (different randomizations) give the same
    outcome. Outcomes are paired as ``(e1, e2), (e3, e4), ...`` and R̂1 is the
    share of equal pairs (Bouckaert 2004, Section 3.1):

    .. math:: \\hat R_1(e) = \\frac{1}{n/2} \\sum_{i=1}^{n/2} I(e_{2i} = e_{2i-1})

    Parameters
    ----------
    outcomes : array_like of int
        Values in ``{-1, 0, 1}``; an even number ``n >= 2`` of repetitions on
        the last axis.

    Returns
    -------
    r1 : float or ndarray
        One estimate per leading index.

    Notes
    -----
    R̂1 is unbiased with variance ``(r - r²)/(n/2)`` (Lemma 3.1; see
    :func:`r1_variance`). It depends on the order of the outcomes, so it has
    no form in terms of counts. The lemma holds for any number of outcome
    values, since each pair is a Bernoulli trial with success probability ``r``.

    References
    ----------
    R. R. Bouckaert (2004). Estimating replicability of classifier learning
    experiments. ICML 2004. doi:10.1145/1015330.1015338

    Examples
    --------
    >>> from replicability.stats.measures import replicability_r1
    >>> float(replicability_r1([1, 1, 0, 1, 0, 0, 1, 1]))
    0.75
    """
    arr = _as_outcomes(outcomes)
    if arr.shape[-1] % 2:
        raise ValueError(
            f"`outcomes` must have an even number of repetitions on its last axis for R̂1; "
            f"got {arr.shape[-1]}."
        )
    return unwrap_scalar(np.mean(arr[..., 0::2] == arr[..., 1::2], axis=-1))


def _r2_counts(counts):
    # Σ_c C(n_c, 2) / C(n, 2): share of the C(n, 2) pairs with equal outcomes
    # (Bouckaert 2004, Lemma 3.2; three-valued form from ERRATA).
    n = counts.sum(axis=-1)
    return (counts * (counts - 1)).sum(axis=-1) / (n * (n - 1))


def replicability_r2(outcomes):
    """Advanced replicability estimator R̂2: share of equal pairs among all pairs.

    Estimates the replicability ``r`` (probability that two runs on the same
    data set agree) from all ``C(n, 2)`` pairs of repetitions (Bouckaert 2004,
    Eq. 1 and Lemma 3.2):

    .. math:: \\hat R_2(e) = \\frac{\\sum_{i<j} I(e_i = e_j)}{n(n-1)/2}
              = \\frac{\\sum_c n_c (n_c - 1)}{n (n - 1)}

    where ``n_c`` counts the repetitions with outcome ``c``.

    Parameters
    ----------
    outcomes : array_like of int
        Values in ``{-1, 0, 1}``; ``n >= 2`` repetitions on the last axis.

    Returns
    -------
    r2 : float or ndarray
        One estimate per leading index.

    Notes
    -----
    R̂2 is unbiased and has the least variance among unbiased estimators that
    are linear in the pair indicators (Theorem 3.1 and 3.2); see
    :func:`r2_variance`. Averaged over data sets it is the measure ``R`` of
    Bouckaert & Frank (2004). The paper treats two outcomes (accept/reject);
    with three (B better, no difference, A better) the share of equal pairs is
    used, as in ERRATA.

    References
    ----------
    R. R. Bouckaert (2004). Estimating replicability of classifier learning
    experiments. ICML 2004. doi:10.1145/1015330.1015338

    Examples
    --------
    >>> from replicability.stats.measures import replicability_r2
    >>> round(float(replicability_r2([1, 1, 1, 0, 0])), 4)
    0.4
    """
    return unwrap_scalar(_r2_counts(outcome_counts(_as_outcomes(outcomes))))


def replicability_r2_from_counts(counts):
    """R̂2 from the number of repetitions per outcome value.

    Same estimator as :func:`replicability_r2`,
    ``Σ_c n_c (n_c - 1) / (n (n - 1))`` with ``n = Σ_c n_c``; for two values,
    ``counts = [i, n - i]`` gives ``R̂2(i, n)`` of Lemma 3.2 and ``R(k, n)`` of
    Bouckaert & Frank (2004).

    Parameters
    ----------
    counts : array_like of int
        Non-negative counts per outcome value on the last axis, summing to at
        least 2.

    Returns
    -------
    r2 : float or ndarray

    References
    ----------
    R. R. Bouckaert (2004). Estimating replicability of classifier learning
    experiments. ICML 2004. doi:10.1145/1015330.1015338

    Examples
    --------
    >>> from replicability.stats.measures import replicability_r2_from_counts
    >>> round(float(replicability_r2_from_counts([3, 7])), 4)
    0.5333
    """
    return unwrap_scalar(_r2_counts(_as_outcome_counts(counts)))


# --------------------------------------------------------------------------- #
# variances (closed forms)
# --------------------------------------------------------------------------- #
def replicability_from_probabilities(p):
    """Replicability ``r = Σ_c p_c²`` of outcomes with probabilities ``p``.

    Two independent runs agree with probability ``F(p, 2) = Σ_c p_c²``.

    Parameters
    ----------
    p : array_like
        Probabilities of the outcome values on the last axis (summing to 1).

    Returns
    -------
    r : float or ndarray

    Examples
    --------
    >>> from replicability.stats.measures import replicability_from_probabilities
    >>> round(float(replicability_from_probabilities([0.9, 0.1])), 4)
    0.82
    """
    arr = _as_probabilities(p)
    return unwrap_scalar((arr**2).sum(axis=-1))


def r1_variance(r, n):
    """Variance of R̂1 for replicability ``r`` and ``n`` repetitions.

    .. math:: \\operatorname{var}(\\hat R_1) = \\frac{r - r^2}{n/2}

    (Bouckaert 2004, Lemma 3.1): the ``n/2`` pair indicators are independent
    Bernoulli(``r``) trials, whatever the number of outcome values.

    Parameters
    ----------
    r : array_like
        Replicability in ``[0, 1]``.
    n : int
        Number of repetitions; even and at least 2.

    Returns
    -------
    var : float or ndarray

    References
    ----------
    R. R. Bouckaert (2004). Estimating replicability of classifier learning
    experiments. ICML 2004. doi:10.1145/1015330.1015338

    Examples
    --------
    >>> from replicability.stats.measures import r1_variance
    >>> round(float(r1_variance(0.8, 10)), 4)
    0.032
    """
    r = _as_replicability(r)
    n = check_positive_int(n, "n", minimum=2)
    if n % 2:
        raise ValueError(f"`n` must be even for R̂1; got {n}.")
    return unwrap_scalar((r - r**2) / (n / 2))


def r2_variance(p, n):
    """Variance of R̂2 for outcome probabilities ``p`` and ``n`` repetitions.

    With ``F(p, k) = Σ_c p_c^k`` and ``r = F(p, 2)``,

    .. math:: \\operatorname{var}(\\hat R_2) =
              \\frac{r + 2(n-2) F(p,3) + \\binom{n-2}{2} r^2}{\\binom{n}{2}} - r^2

    Of the ``C(n,2)²`` ordered pairs of pairs, ``C(n,2)`` are identical (both
    agree with probability ``r``), ``C(n,2)·2(n-2)`` share one repetition (all
    three agree: ``F(p,3)``) and ``C(n,2)·C(n-2,2)`` are disjoint (``r²``).

    Parameters
    ----------
    p : array_like
        Probabilities of the outcome values on the last axis (two values for
        the paper's accept/reject, three for B better / none / A better).
    n : int
        Number of repetitions, at least 2.

    Returns
    -------
    var : float or ndarray

    Notes
    -----
    Theorem 3.1 of Bouckaert (2004) is garbled in print; ERRATA reads it as
    ``[2(n−2)(n−3)F(p,4) + (4 − 2(n−3))(n−2)F(p,3) + ((n−2)(n−3)+2)F(p,2)] /
    (n(n−1)) − r²`` for two values. With two values ``F(p,3)`` and ``F(p,4)``
    are functions of ``r`` (``p(1−p) = (1−r)/2``) and the two forms agree; with
    three values only the form above is right. Both are checked against exact
    enumeration in the tests. For two values the paper
    parameterises by ``r`` through ``p = 1/2 + √(2r − 1)/2``.

    References
    ----------
    R. R. Bouckaert (2004). Estimating replicability of classifier learning
    experiments. ICML 2004. doi:10.1145/1015330.1015338

    Examples
    --------
    >>> from replicability.stats.measures import r2_variance
    >>> round(float(r2_variance([0.9, 0.1], 10)), 5)
    0.02376
    """
    arr = _as_probabilities(p)
    n = check_positive_int(n, "n", minimum=2)
    r, f3 = _power_sums(arr)
    n_pairs = n * (n - 1) / 2
    disjoint = (n - 2) * (n - 3) / 2
    return unwrap_scalar((r + 2 * (n - 2) * f3 + disjoint * r**2) / n_pairs - r**2)


# --------------------------------------------------------------------------- #
# consistency (Bouckaert & Frank 2004)
# --------------------------------------------------------------------------- #
def _check_slack(counts, n_disagree):
    n = counts.sum(axis=-1)
    return counts.max(axis=-1) >= n - n_disagree


def consistency(outcomes):
    """Whether all repetitions give the same outcome ("consistent").

    Bouckaert & Frank (2004, Section 2) call a test *consistent* on a data set
    when its outcome is the same for every one of the ``n`` randomizations.
    Count (``.sum()``) or average (``.mean()``) over data sets to get the
    paper's "consistent" row, or the "replicability" of Bouckaert (2005)'s
    figures (ERRATA).

    Parameters
    ----------
    outcomes : array_like of int
        Values in ``{-1, 0, 1}``; ``n >= 2`` repetitions on the last axis.

    Returns
    -------
    consistent : bool or ndarray of bool

    References
    ----------
    R. R. Bouckaert and E. Frank (2004). Evaluating the replicability of
    significance tests for comparing learning algorithms. PAKDD 2004, LNCS
    3056, 3-12. doi:10.1007/978-3-540-24775-3_3

    Examples
    --------
    >>> from replicability.stats.measures import consistency
    >>> consistency([[1, 1, 1], [1, 0, 1]]).tolist()
    [True, False]
    """
    return unwrap_scalar(_check_slack(outcome_counts(_as_outcomes(outcomes)), 0))


def almost_consistency(outcomes):
    """Whether all but at most one repetition agree ("almost consistent").

    Bouckaert & Frank (2004) call a test *almost consistent* on a data set when
    its outcome differs at most once among the ``n`` randomizations; for ten
    two-valued outcomes, 0, 1, 9 or 10 rejections. Consistent implies almost
    consistent.

    Parameters
    ----------
    outcomes : array_like of int
        Values in ``{-1, 0, 1}``; ``n >= 2`` repetitions on the last axis.

    Returns
    -------
    almost : bool or ndarray of bool

    Notes
    -----
    With three outcome values, "differs at most once" means that the most
    frequent value occurs at least ``n - 1`` times. With ``n = 2`` every
    outcome vector is almost consistent.

    References
    ----------
    R. R. Bouckaert and E. Frank (2004). Evaluating the replicability of
    significance tests for comparing learning algorithms. PAKDD 2004, LNCS
    3056, 3-12. doi:10.1007/978-3-540-24775-3_3

    Examples
    --------
    >>> from replicability.stats.measures import almost_consistency
    >>> almost_consistency([[1, 0, 1, 1], [1, 0, 0, 1]]).tolist()
    [True, False]
    """
    return unwrap_scalar(_check_slack(outcome_counts(_as_outcomes(outcomes)), 1))


def consistency_from_counts(counts):
    """:func:`consistency` from the number of repetitions per outcome value.

    Parameters
    ----------
    counts : array_like of int
        Counts per outcome value on the last axis (e.g. ``[k, n - k]``).

    Returns
    -------
    consistent : bool or ndarray of bool

    Examples
    --------
    >>> from replicability.stats.measures import consistency_from_counts
    >>> consistency_from_counts([[0, 10], [1, 9]]).tolist()
    [True, False]
    """
    return unwrap_scalar(_check_slack(_as_outcome_counts(counts), 0))


def almost_consistency_from_counts(counts):
    """:func:`almost_consistency` from the number of repetitions per outcome value.

    Parameters
    ----------
    counts : array_like of int
        Counts per outcome value on the last axis (e.g. ``[k, n - k]``).

    Returns
    -------
    almost : bool or ndarray of bool

    Examples
    --------
    >>> from replicability.stats.measures import almost_consistency_from_counts
    >>> almost_consistency_from_counts([[1, 9], [2, 8]]).tolist()
    [True, False]
    """
    return unwrap_scalar(_check_slack(_as_outcome_counts(counts), 1))


# --------------------------------------------------------------------------- #
# derived quantities
# --------------------------------------------------------------------------- #
def normalized_replicability(r):
    """Replicability rescaled linearly from ``[1/2, 1]`` to ``[0, 1]``: ``2(r − 1/2)``.

    Bouckaert (2004, Section 3): with two outcome values replicability is at
    least 1/2, and normalized replicability is ``2(r − 1/2) = 2r − 1``.

    Parameters
    ----------
    r : array_like
        Replicability (or an estimate of it) in ``[0, 1]``.

    Returns
    -------
    float or ndarray

    Notes
    -----
    An estimate below 1/2 (possible for a single data set, or with three
    outcome values) maps to a negative value; it is not clipped.

    References
    ----------
    R. R. Bouckaert (2004). Estimating replicability of classifier learning
    experiments. ICML 2004. doi:10.1145/1015330.1015338

    Examples
    --------
    >>> from replicability.stats.measures import normalized_replicability
    >>> round(float(normalized_replicability(0.9)), 4)
    0.8
    """
    return unwrap_scalar(2 * _as_replicability(r) - 1)


def type1_replicability_bound(alpha):
    """Lower bound ``1 − 2α + 2α²`` on replicability when the null hypothesis holds.

    If two runs of a test at level ``α`` are independent under the null, both
    accept with probability ``(1−α)²`` and both reject with ``α²``, so they
    agree with probability ``(1−α)² + α² = 1 − 2α + 2α²`` (Bouckaert 2005,
    Section 3; the printed ``(1−α)(α−1)`` is a misprint, ERRATA). At
    ``α = 0.05`` this is 90.5%.

    Parameters
    ----------
    alpha : float
        Significance level in ``(0, 1)``.

    Returns
    -------
    float

    References
    ----------
    R. R. Bouckaert (2005). Low replicability of machine learning experiments
    is not a small data set phenomenon. ICML 2005 Workshop on Meta-Learning.

    Examples
    --------
    >>> from replicability.stats.measures import type1_replicability_bound
    >>> round(type1_replicability_bound(0.05), 4)
    0.905
    """
    alpha = check_alpha(alpha)
    return 1 - 2 * alpha + 2 * alpha**2
