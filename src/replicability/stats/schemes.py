"""Sampling schemes for tests on r runs of k-fold cross-validation.

Bouckaert (2003, Section 3 and Table 1) and Bouckaert (2004, Section 2.1) turn
the ``r x k`` matrix of accuracy differences ``d[..., j, i]`` (run j, fold i;
positive favours learner A) into one sample and test it:

* ``"all"``: the ``k r`` values themselves, df = k r - 1;
* ``"folds"``: the r run means ``x_.j`` (mean over folds), df = r - 1;
* ``"runs"``: the k fold means ``x_i.`` (mean over runs), df = k - 1;
* ``"sorted_runs"``: sort the k folds within each run, then the k means over
  runs of each sorted position, df = k - 1 (ERRATA.md).

Each scheme but ``"all"`` has two variants besides ``"plain"``:
``"averaged_var"`` replaces the sample variance by the average of the per-run
(``"folds"``) or per-fold (``"runs"``, ``"sorted_runs"``) variances, and
``"averaged_t"`` averages the t statistics of the single runs or folds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._results import TTestResult, unwrap_scalar
from .._validation import as_runs_folds, check_alternative, check_choice, check_positive
from . import nonparametric
from .scheme_grammar import SAMPLES, check_sample
from .ttests import _check_df, _mean_var, _t_from_moments, _t_pvalue, _var

__all__ = ["SCHEMES", "VARIANTS", "SchemeMoments", "scheme_moments", "scheme_sample", "scheme_test", "scheme_ttest",
           "scheme_ttest_from_moments"]

#: The samples of r x k cv (one grammar with the split schemes: :mod:`replicability.stats.scheme_grammar`).
SCHEMES = SAMPLES
VARIANTS = ("plain", "averaged_var", "averaged_t")
_TESTS = ("t", "sign", "signed_rank")


def _matrix(d, scheme):
    """The runs x folds matrix the scheme averages (sorted within runs for sorted_runs)."""
    # theta(i, j): an ordering of the folds of run j (Bouckaert 2003, Sec. 3).
    return np.sort(d, axis=-1) if scheme == "sorted_runs" else d


def scheme_sample(d, scheme):
    """Return the sample that a sampling scheme tests, on the last axis.

    Parameters
    ----------
    d : array_like, shape (..., r, k)
        Accuracy differences (A - B) of r runs of k-fold cross-validation.
    scheme : {"all", "folds", "runs", "sorted_runs"}
        ``"all"``: the k r values (run-major); ``"folds"``: the r run means;
        ``"runs"``: the k fold means; ``"sorted_runs"``: the k means over runs of
        the folds sorted within each run.

    Returns
    -------
    ndarray, shape (..., n)
        ``n`` is k r, r, k or k.

    References
    ----------
    .. [1] Bouckaert, R. R. (2003). Choosing between two learning algorithms
       based on calibrated tests. ICML 2003, 51-58. Figure 1.

    Examples
    --------
    Bouckaert (2003), Figure 1 (rows are runs):

    >>> import numpy as np
    >>> from replicability.stats.schemes import scheme_sample
    >>> d = np.array([[3.33, 10, -6.66], [6.66, 3.33, 0], [6.66, -10, -3.33]])
    >>> print(np.round(scheme_sample(d, "sorted_runs"), 2))
    [-5.55  1.11  7.77]
    """
    check_sample(scheme)
    d = as_runs_folds(d)
    if scheme == "all":
        return d.reshape(d.shape[:-2] + (-1,))
    if scheme == "folds":
        return d.mean(axis=-1)
    return _matrix(d, scheme).mean(axis=-2)


def _default_df(scheme, variant, r, k):
    # Table 1 of Bouckaert (2003); for averaged T the df is that of one run's
    # (k - 1) or one fold's (r - 1) t statistic.
    if variant == "averaged_t":
        return float(k - 1) if scheme == "folds" else float(r - 1)
    return {"all": k * r - 1, "folds": r - 1, "runs": k - 1, "sorted_runs": k - 1}[scheme] * 1.0


def scheme_ttest(d, *, scheme, variant="plain", df=None, alternative="two-sided"):
    """t-test on r runs of k-fold cv under one of Bouckaert's sampling schemes.

    Null hypothesis: the expected accuracy difference between learners A and B
    is zero.

    Following Bouckaert (2003), Table 1 (as corrected in ERRATA.md), the
    statistic is ``Z = m / sqrt(s^2 / (df + 1))`` referred to t(df), where ``m``
    is the mean of all k r differences (A - B) and ``s^2`` is

    * ``"plain"``: the unbiased variance of :func:`scheme_sample`;
    * ``"averaged_var"``: the mean over runs of the per-run variances over folds
      (``"folds"``, df = r - 1), or the mean over (sorted) folds of the per-fold
      variances over runs (``"runs"``, ``"sorted_runs"``, df = k - 1);

    and for ``"averaged_t"``, ``Z`` is the average of the per-run statistics
    ``x_.j / sqrt(s_.j^2 / (df + 1))`` with df = k - 1 (``"folds"``) or of the
    per-fold statistics ``x_i. / sqrt(s_i.^2 / (df + 1))`` with df = r - 1
    (``"runs"``, ``"sorted_runs"``).

    Parameters
    ----------
    d : array_like, shape (..., r, k)
        Accuracy differences of r runs (axis -2) of k-fold cv (axis -1).
    scheme : {"all", "folds", "runs", "sorted_runs"}
    variant : {"plain", "averaged_var", "averaged_t"}
        ``"all"`` only has ``"plain"``.
    df : float, optional
        Calibrated degrees of freedom, replacing the Table 1 default both in
        ``df + 1`` and in t(df).
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        ``estimate`` is the mean ``m`` of all k r differences and
        ``standard_error`` is ``sqrt(s^2 / (df + 1))``, so
        ``confidence_interval()`` excludes 0 exactly when the test rejects
        (for ``"averaged_t"``, which has no variance of its own, the implied
        ``|m / Z|``).

    Notes
    -----
    Zero variance follows Weka: p = 1 when ``m`` and the variance are zero,
    statistic +-inf and p = 0 when the variance is zero and ``m`` is not. For
    ``"averaged_t"`` the convention is applied to each averaged statistic; when
    the averaged statistics include both +inf and -inf, the statistic is 0.
    ``"all"`` with ``"plain"`` equals :func:`replicability.stats.ttests.paired_ttest`
    on the flattened differences.

    *The calibrated df depends on the learners*: Bouckaert's df = 10 holds for naive
    Bayes against C4.5 on his null data, not for other pairs (measured in the Notes of
    :func:`~replicability.stats.calibration.calibrate_df`); calibrate on null data like
    one's own, or use the corrected repeated cv t-test.

    References
    ----------
    .. [1] Bouckaert, R. R. (2003). Choosing between two learning algorithms
       based on calibrated tests. ICML 2003, 51-58.
    .. [2] Bouckaert, R. R. (2004). Estimating replicability of classifier
       learning experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338

    Examples
    --------
    The recommended test of Bouckaert (2003): "use all data" with df = 10,
    calibrated for naive Bayes against C4.5 (other pairs of learners calibrate
    to other df; see the Notes).

    >>> import numpy as np
    >>> from replicability.stats.schemes import scheme_ttest
    >>> d = np.array([[3.33, 10, -6.66], [6.66, 3.33, 0], [6.66, -10, -3.33]])
    >>> res = scheme_ttest(d, scheme="all", df=10)
    >>> print(round(float(res.statistic), 4), round(float(res.pvalue), 4))
    0.5525 0.5928
    """
    check_alternative(alternative)
    df_cal = _check_df(df)
    moments = scheme_moments(d, scheme=scheme, variant=variant)
    df = _default_df(scheme, variant, moments.n_runs, moments.n_folds) if df_cal is None else df_cal
    return scheme_ttest_from_moments(moments, df=df, alternative=alternative)


@dataclass(frozen=True)
class SchemeMoments:
    """The part of a scheme's t-test that does not depend on df (:func:`scheme_moments`).

    Attributes
    ----------
    variant : str
        ``"plain"``, ``"averaged_var"`` or ``"averaged_t"``.
    mean : ndarray
        ``m``, the mean of all k r differences.
    variance : ndarray or None
        ``s^2`` of the plain and averaged-variance variants (None for averaged t).
    group_means, group_variances : ndarray or None
        Per run (``"folds"``) or per (sorted) fold means and variances, on the last
        axis, for averaged t (None otherwise).
    n_runs, n_folds : int
        r and k of the differences.
    """

    variant: str
    mean: np.ndarray
    variance: np.ndarray | None
    group_means: np.ndarray | None
    group_variances: np.ndarray | None
    n_runs: int
    n_folds: int


def scheme_moments(d, *, scheme, variant="plain"):
    """The df-free moments of :func:`scheme_ttest`, to apply the test at many df at once.

    As :func:`scipy.stats.ttest_ind_from_stats` separates a t-test's statistics from
    its data, this separates what :func:`scheme_ttest` computes from the differences
    (the mean, the scheme's variance, the sorted runs) from what depends on df; a
    calibration grid computes them once and calls :func:`scheme_ttest_from_moments`
    at every df.

    Parameters
    ----------
    d : array_like, shape (..., r, k)
        Accuracy differences of r runs (axis -2) of k-fold cv (axis -1).
    scheme : {"all", "folds", "runs", "sorted_runs"}
    variant : {"plain", "averaged_var", "averaged_t"}

    Returns
    -------
    SchemeMoments

    Examples
    --------
    >>> import numpy as np
    >>> d = np.array([[3.33, 10, -6.66], [6.66, 3.33, 0], [6.66, -10, -3.33]])
    >>> moments = scheme_moments(d, scheme="all")
    >>> res = scheme_ttest_from_moments(moments, df=10)
    >>> float(res.pvalue) == float(scheme_ttest(d, scheme="all", df=10).pvalue)
    True
    """
    check_sample(scheme)
    check_choice(variant, "variant", VARIANTS)
    if scheme == "all" and variant != "plain":
        raise ValueError(f"`variant` must be 'plain' for scheme 'all'; got {variant!r}.")
    d = as_runs_folds(d)
    r, k = d.shape[-2:]
    m = d.mean(axis=(-2, -1))
    if variant == "plain":
        return SchemeMoments(variant, m, _var(scheme_sample(d, scheme)), None, None, r, k)
    # per-run groups (over folds, axis -1) for "folds"; per-fold groups (over runs).
    means, s2 = _mean_var(_matrix(d, scheme), axis=-1 if scheme == "folds" else -2)
    if variant == "averaged_t":
        return SchemeMoments(variant, m, None, means, s2, r, k)
    return SchemeMoments(variant, m, s2.mean(axis=-1), None, None, r, k)


def scheme_ttest_from_moments(moments, *, df, alternative="two-sided"):
    """:func:`scheme_ttest` from the moments of :func:`scheme_moments`, at ``df`` degrees of freedom.

    Parameters
    ----------
    moments : SchemeMoments
    df : float
        Degrees of freedom, both in ``df + 1`` and in t(df) (the Table 1 default or a
        calibrated value).
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        As :func:`scheme_ttest`.
    """
    if not isinstance(moments, SchemeMoments):
        raise TypeError(f"`moments` must be a SchemeMoments from scheme_moments; got {type(moments).__name__}.")
    check_alternative(alternative)
    df = check_positive(df, "df")
    if moments.variant == "averaged_t":
        return _averaged_t(moments.mean, moments.group_means, moments.group_variances, df, alternative)
    return _t_from_moments(moments.mean, moments.variance, 1.0 / (df + 1.0), df, alternative)


def _averaged_t(m, means, s2, df, alternative):
    """The "averaged t" variant: the mean of the groups' t statistics."""
    zero = s2 == 0
    all_zero = np.all(zero & (means == 0), axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t_each = means / np.sqrt(s2 / (df + 1.0))
    t_each = np.where(zero, np.where(means == 0, 0.0, np.copysign(np.inf, means)), t_each)
    with np.errstate(invalid="ignore"):
        z = t_each.mean(axis=-1)
    z = np.where(np.isnan(z), 0.0, z)
    p = np.where(all_zero, 1.0, _t_pvalue(z, df, alternative))
    # The averaged t has no variance of its own; its implied standard error
    # |m / z| keeps the interval consistent with the test (inf where z = 0).
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.where(z == 0, np.inf, np.abs(m / z))
    return TTestResult(
        unwrap_scalar(z), unwrap_scalar(p), df=float(df), alternative=alternative,
        estimate=unwrap_scalar(m), standard_error=unwrap_scalar(se),
    )


def scheme_test(d, *, scheme, test="t", alternative="two-sided", **options):
    """Apply the t, sign or signed-rank test to the sample of a sampling scheme.

    Null hypothesis: the differences (A - B) in :func:`scheme_sample` are
    centred on zero (mean zero for the t-test, median zero for the others).

    Parameters
    ----------
    d : array_like, shape (..., r, k)
        Accuracy differences of r runs of k-fold cv.
    scheme : {"all", "folds", "runs", "sorted_runs"}
    test : {"t", "sign", "signed_rank"}
        ``"t"``: :func:`scheme_ttest` (plain variant); ``"sign"`` and
        ``"signed_rank"``: :func:`replicability.stats.nonparametric.sign_test` and
        :func:`replicability.stats.nonparametric.signed_rank_test` on the sample.
    alternative : {"two-sided", "less", "greater"}
    **options
        Passed on: ``df`` for the t-test, ``method`` for the other two.

    Returns
    -------
    TestResult

    References
    ----------
    .. [1] Bouckaert, R. R. (2004). Estimating replicability of classifier
       learning experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.stats.schemes import scheme_test
    >>> d = np.array([[3.33, 10, -6.66], [6.66, 3.33, 0], [6.66, -10, -3.33]])
    >>> res = scheme_test(d, scheme="folds", test="t")
    >>> print(round(float(res.pvalue), 4))
    0.5802
    """
    check_choice(test, "test", _TESTS)
    if test == "t":
        return scheme_ttest(d, scheme=scheme, alternative=alternative, **options)
    sample = scheme_sample(d, scheme)
    fn = nonparametric.sign_test if test == "sign" else nonparametric.signed_rank_test
    return fn(sample, alternative=alternative, **options)
