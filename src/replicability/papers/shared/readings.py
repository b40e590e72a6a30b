"""Sampling schemes, outcomes and summaries of the synthetic replicability studies.

Bouckaert (2004, Section 4 and Table 1) and Bouckaert & Frank (2004, Section 4.4
and Table 5) run two learners ten times (ten randomizations, the *repeats*) on
each of 1000 synthetic data sets and judge an experiment (a sampling scheme
plus a hypothesis test) by three numbers: its rejection rate (the Type I error
when the learners do not differ, the power when they do), its replicability
(R̂2 of Bouckaert 2004, normalized to ``2 R̂2 - 1``) and its consistency (the
share of data sets on which all ten outcomes agree, Bouckaert & Frank 2004).

The papers: Bouckaert, R. R. (2004), ICML 2004, https://doi.org/10.1145/1015330.1015338;
Bouckaert, R. R., & Frank, E. (2004), PAKDD 2004, LNAI 3056, 3-12,
https://doi.org/10.1007/978-3-540-24775-3_3.

This module holds the pieces the notebooks need beyond glue:

* :func:`experiment_sample` extends :func:`~replicability.stats.schemes.scheme_sample`
  with the two schemes of Bouckaert (2004, Section 2.1) that use part of an
  ``r x k`` cross-validation: *resampling* (the first fold of every run, i.e.
  ``r`` random train/test splits) and *k-fold cv* (the first run);
* :func:`experiment_outcomes` applies the t, sign or signed-rank test to such a
  sample and decides (-1 B better, 0 no difference, +1 A better);
* :func:`outcome_summary` turns outcomes of shape ``(..., n_datasets,
  n_repeats)`` into the measures of the tables with 95% intervals;
* :func:`interval_of_mean` and :func:`monotone_within` are the small
  statistics behind the intervals and the trend verdicts of the sweep.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from ..._results import unwrap_scalar
from ..._validation import as_runs_folds, check_alpha, check_choice, check_fraction
from ...stats.decisions import decide
from ...stats.measures import (
    almost_consistency,
    consistency,
    normalized_replicability,
    replicability_r2,
)
from ...stats.nonparametric import sign_test, signed_rank_test
from ...stats.scheme_grammar import parse_scheme
from ...stats.schemes import scheme_sample
from ...stats.ttests import paired_ttest

__all__ = [
    "EXPERIMENT_PARTS",
    "EXPERIMENT_SCHEMES",
    "EXPERIMENT_TESTS",
    "experiment_outcomes",
    "experiment_sample",
    "interval_of_mean",
    "monotone_within",
    "outcome_summary",
]

#: Sampling schemes of Bouckaert (2004, Section 2.1) in the one scheme grammar
#: (:mod:`replicability.stats.scheme_grammar`): each name, the tables', is the split scheme its
#: values come from within the experiments' r x k cv and the sample a test takes of them.
EXPERIMENT_PARTS = {
    "resampling": ("resampling", "all"),  # r random splits: the first fold of every run
    "cv": ("kfold_cv", "all"),  # one k-fold cv: the first run
    "all": ("rxk_cv", "all"),
    "folds": ("rxk_cv", "folds"),
    "runs": ("rxk_cv", "runs"),
    "sorted_runs": ("rxk_cv", "sorted_runs"),
}
#: The names of the sampling schemes, in the order of Bouckaert (2004, Table 1).
EXPERIMENT_SCHEMES = tuple(EXPERIMENT_PARTS)
#: Hypothesis tests of Bouckaert (2004, Section 2.2).
EXPERIMENT_TESTS = ("t", "sign", "signed_rank")


def _as_outcome_array(outcomes):
    o = np.asarray(outcomes)
    if o.ndim < 2 or o.shape[-1] < 2 or o.shape[-2] < 1 or not np.all(np.isin(o, (-1, 0, 1))):
        raise ValueError(
            "`outcomes` must have shape (..., n_datasets, n_repeats) with n_repeats >= 2 and values "
            f"in {{-1, 0, 1}}; got shape {o.shape}."
        )
    return o


def experiment_sample(d, scheme):
    """The sample a sampling scheme of Bouckaert (2004) takes from r x k cv differences.

    Parameters
    ----------
    d : array_like, shape (..., r, k)
        Accuracy differences (A - B) of ``r`` runs (axis -2) of ``k``-fold
        cross-validation (axis -1), every run on a new randomization.
    scheme : {"resampling", "cv", "all", "folds", "runs", "sorted_runs"}
        ``"resampling"``: the first fold of every run, ``r`` values, each from
        a random split with a ``1/k`` test fraction (Section 2.1: "for
        resampling, essentially only the first column is required");
        ``"cv"``: the ``k`` folds of the first run; ``"all"``, ``"folds"``,
        ``"runs"``, ``"sorted_runs"``: as
        :func:`~replicability.stats.schemes.scheme_sample` ("use all data",
        "average over folds", "average over runs", "average over sorted runs").
        Each is a split scheme and a sample of the one scheme grammar
        (:data:`EXPERIMENT_PARTS`): ``"resampling"`` is the grammar's
        ``"resampling"`` with ``r`` splits, ``"cv"`` its ``"kfold_cv"``, the others
        ``"rxk_cv"`` with that sample.

    Returns
    -------
    ndarray, shape (..., n)
        ``n`` is ``r``, ``k``, ``r k``, ``r``, ``k`` or ``k``.

    Examples
    --------
    Bouckaert (2003), Figure 1 (rows are runs):

    >>> import numpy as np
    >>> from replicability.papers.shared.readings import experiment_sample
    >>> d = np.array([[3.33, 10, -6.66], [6.66, 3.33, 0], [6.66, -10, -3.33]])
    >>> experiment_sample(d, "resampling").tolist()
    [3.33, 6.66, 6.66]
    >>> experiment_sample(d, "cv").tolist()
    [3.33, 10.0, -6.66]
    """
    split, sample = EXPERIMENT_PARTS[check_choice(scheme, "scheme", EXPERIMENT_SCHEMES)]
    d = as_runs_folds(d)
    splits = parse_scheme(split, n_runs=d.shape[-2], n_folds=d.shape[-1])
    if splits.kind == "resampling":  # all values of r random splits, each a run's first fold
        return d[..., :, 0]
    if splits.n_runs < d.shape[-2]:  # all values of one k-fold cv, the first run
        return d[..., 0, :]
    return scheme_sample(d, sample)


def experiment_outcomes(d, *, scheme, test, alpha):
    """Outcome of a sampling scheme and a test on r x k cv differences.

    Null hypothesis of every test: learners A and B perform equally well (the
    sample of :func:`experiment_sample` is centred on zero).

    The tests are those of Bouckaert (2004, Section 2.2, as corrected in
    ERRATA.md), applied to the sample ``x_1..x_n`` of the scheme:

    * ``"t"``: paired t-test, ``Z = m / (s / sqrt(n))`` against t(n - 1);
    * ``"sign"``: exact binomial sign test on the number of pluses, a zero
      counting half a plus (:func:`~replicability.stats.nonparametric.sign_test`
      with ``method="exact"``);
    * ``"signed_rank"``: the paper's "rank sum test", the Wilcoxon signed-rank
      test with zeros removed and the normal approximation
      (:func:`~replicability.stats.nonparametric.signed_rank_test`).

    Parameters
    ----------
    d : array_like, shape (..., r, k)
        Accuracy differences (A - B; positive favours A).
    scheme : str
        One of ``EXPERIMENT_SCHEMES``.
    test : {"t", "sign", "signed_rank"}
    alpha : float
        Significance level of the two-sided test.

    Returns
    -------
    ndarray of int8, shape (...)
        -1 (B better), 0 (no difference) or +1 (A better), as
        :func:`~replicability.stats.decisions.decide`.

    Notes
    -----
    The paper accepts when ``α/2 < P(Z) < 1 - α/2``, i.e. a two-sided test at
    level α; the direction of a rejection is the sign of the statistic.
    Degenerate samples follow the tests' conventions (t-test: p = 1 for all
    zeros, p = 0 for a non-zero constant; sign test: half-integer counts get
    the mean of the neighbouring exact p-values).

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.papers.shared.readings import experiment_outcomes
    >>> rng = np.random.default_rng(0)
    >>> d = rng.normal(0.03, 0.05, size=(4, 10, 10))  # 4 data sets, 10 x 10 cv
    >>> experiment_outcomes(d, scheme="all", test="signed_rank", alpha=0.05).tolist()
    [1, 1, 1, 1]
    >>> experiment_outcomes(d, scheme="resampling", test="t", alpha=0.05).tolist()
    [0, 0, 0, 0]
    """
    check_choice(scheme, "scheme", EXPERIMENT_SCHEMES)
    check_choice(test, "test", EXPERIMENT_TESTS)
    alpha = check_alpha(alpha)
    sample = experiment_sample(d, scheme)
    if test == "t":
        result = paired_ttest(sample)
    elif test == "sign":
        result = sign_test(sample, method="exact")
    else:
        result = signed_rank_test(sample, method="normal")
    return np.asarray(decide(result, alpha=alpha), dtype=np.int8)


def interval_of_mean(values, *, axis=-1, confidence_level=0.95):
    """Mean and half-width of the Student t confidence interval of the mean.

    ``mean ± t_{(1+c)/2}(n - 1) · s / sqrt(n)`` over ``n`` values on ``axis``,
    with ``s`` the unbiased standard deviation.

    Parameters
    ----------
    values : array_like
    axis : int, keyword-only
        Axis holding the ``n >= 2`` values.
    confidence_level : float, keyword-only
        Confidence level in (0, 1).

    Returns
    -------
    mean, halfwidth : ndarray
        The input shape without ``axis``.

    Examples
    --------
    >>> from replicability.papers.shared.readings import interval_of_mean
    >>> mean, half = interval_of_mean([1.0, 2.0, 3.0])
    >>> print(float(mean), round(float(half), 4))
    2.0 2.4841
    """
    confidence_level = check_fraction(confidence_level, "confidence_level")
    v = np.asarray(values, dtype=float)
    if v.ndim < 1 or v.shape[axis] < 2:
        raise ValueError(f"`values` must hold at least 2 values on axis {axis}; got shape {v.shape}.")
    n = v.shape[axis]
    quantile = stats.t.ppf(0.5 + confidence_level / 2, n - 1)
    return v.mean(axis=axis), quantile * v.std(axis=axis, ddof=1) / np.sqrt(n)


def outcome_summary(outcomes, *, confidence_level=0.95):
    """Rejection rate, replicability and consistency of repeated experiments.

    Parameters
    ----------
    outcomes : array_like of int, shape (..., n_datasets, n_repeats)
        Outcomes (-1, 0, +1) of ``n_repeats >= 2`` randomizations of an
        experiment on each data set.
    confidence_level : float, keyword-only
        Level of the intervals.

    Returns
    -------
    dict of ndarray, each of shape (...)
        ``"rejection"``: share of experiments that reject (the Type I error
        when A and B do not differ, the power when they do), with
        ``"rejection_halfwidth"``; ``"a_better"``, ``"b_better"``: share
        deciding for A or B; ``"normalized_r2"``: mean over data sets of the
        normalized replicability ``2 R̂2 - 1`` (Bouckaert 2004), with
        ``"normalized_r2_halfwidth"``; ``"r2"``: mean R̂2; ``"consistency"``
        and ``"almost_consistency"``: share of data sets on which all
        repetitions, or all but one, agree (Bouckaert & Frank 2004).

    Notes
    -----
    The papers print 95% intervals without saying how they were computed. Here
    the rejection rate's interval is the t interval over the ``n_repeats``
    per-repeat rates (each a mean over the data sets): the repeats share the
    data sets, so it measures the randomization noise of the experiment, not
    the sampling of data sets. The replicability interval is the t interval
    over the per-data-set values of ``2 R̂2 - 1``. R̂2 uses three outcome
    values (ERRATA.md); normalized replicability is not clipped.

    Examples
    --------
    >>> from replicability.papers.shared.readings import outcome_summary
    >>> s = outcome_summary([[0, 0, 0, 0], [1, 1, 0, 1], [0, 0, 0, 0]])
    >>> print(round(float(s["rejection"]), 4), round(float(s["consistency"]), 4))
    0.25 0.6667
    >>> print(round(float(s["normalized_r2"]), 4))
    0.6667
    """
    confidence_level = check_fraction(confidence_level, "confidence_level")
    o = _as_outcome_array(outcomes)
    if o.shape[-2] < 2:
        raise ValueError(f"`outcomes` must hold at least 2 data sets (axis -2); got shape {o.shape}.")
    reject = (o != 0).astype(float)
    rate, rate_half = interval_of_mean(reject.mean(axis=-2), axis=-1, confidence_level=confidence_level)
    r2 = np.asarray(replicability_r2(o), dtype=float)
    nr2 = np.asarray(normalized_replicability(r2), dtype=float)
    nr2_mean, nr2_half = interval_of_mean(nr2, axis=-1, confidence_level=confidence_level)
    return {
        "rejection": rate,
        "rejection_halfwidth": rate_half,
        "a_better": (o == 1).mean(axis=(-2, -1)),
        "b_better": (o == -1).mean(axis=(-2, -1)),
        "r2": r2.mean(axis=-1),
        "normalized_r2": nr2_mean,
        "normalized_r2_halfwidth": nr2_half,
        "consistency": np.asarray(consistency(o), dtype=float).mean(axis=-1),
        "almost_consistency": np.asarray(almost_consistency(o), dtype=float).mean(axis=-1),
    }


def monotone_within(values, halfwidths=None, *, increasing=True):
    """Whether a sequence rises (or falls) step by step, up to its interval widths.

    Each step may go the wrong way by at most the sum of the two half-widths
    (the two intervals overlap); with no half-widths the sequence must be
    monotone (ties allowed).

    Parameters
    ----------
    values : array_like, shape (..., n)
        The sequence on the last axis, ``n >= 2``.
    halfwidths : array_like, shape (..., n), optional
        Half-widths of the values' intervals (non-negative).
    increasing : bool, keyword-only
        ``False`` checks a falling sequence.

    Returns
    -------
    bool or ndarray of bool

    Examples
    --------
    >>> from replicability.papers.shared.readings import monotone_within
    >>> bool(monotone_within([0.5, 0.6, 0.58, 0.7]))
    False
    >>> bool(monotone_within([0.5, 0.6, 0.58, 0.7], [0.02, 0.02, 0.02, 0.02]))
    True
    """
    v = np.asarray(values, dtype=float)
    if v.ndim < 1 or v.shape[-1] < 2 or np.any(np.isnan(v)):
        raise ValueError(f"`values` must hold at least 2 numbers (no NaN) on its last axis; got {v!r}.")
    h = np.zeros_like(v) if halfwidths is None else np.broadcast_to(np.asarray(halfwidths, dtype=float), v.shape)
    if np.any(np.isnan(h)) or np.any(h < 0):
        raise ValueError(f"`halfwidths` must be non-negative numbers; got {halfwidths!r}.")
    step = np.diff(v, axis=-1) if increasing else -np.diff(v, axis=-1)
    ok = np.all(step >= -(h[..., 1:] + h[..., :-1]), axis=-1)
    return unwrap_scalar(ok)
