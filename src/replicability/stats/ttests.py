"""t-type tests for comparing two learning algorithms on paired per-split scores.

Every test here is a one-sample t-test on the accuracy differences ``d = x - y``
(positive favours learner A) with a variance factor and degrees of freedom that
depend on how the splits were drawn:

=============================  =====================================  ==========
test                           variance factor c in m / sqrt(c s^2)   default df
=============================  =====================================  ==========
paired / resampled / k-fold    1 / (df + 1)                           n - 1
corrected resampled            1 / (df + 1) + n_test / n_train        n - 1
corrected repeated k-fold cv   1 / (df + 1) + n_test / n_train        k r - 1
=============================  =====================================  ==========

The keyword ``df`` replaces the default degrees of freedom by a *calibrated*
value (Bouckaert 2003, Section 4). Following ERRATA.md, ``df + 1`` is the
effective sample size: it replaces ``n`` in the variance factor and ``n - 1`` in
the t distribution. The 5x2cv tests of Dietterich (1998) and Alpaydin (1999) have
their own statistics and are at the end of the module.

Layout follows scipy.stats: validation, then maths along the last axis
(``_t_from_moments``), then thin public functions carrying the docstrings.
"""

from __future__ import annotations

import numpy as np
from scipy import special

from .._results import TTestResult, UnsignedResult, unwrap_scalar
from .._validation import (
    as_differences,
    as_numbers,
    check_alternative,
    check_not_text_or_bool,
    check_positive,
    check_positive_int,
)

__all__ = [
    "TTestResult",
    "UnsignedResult",
    "paired_ttest",
    "resampled_ttest",
    "corrected_resampled_ttest",
    "corrected_repeated_cv_ttest",
    "kfold_cv_ttest",
    "dietterich_5x2cv_ttest",
    "alpaydin_5x2cv_ftest",
]


# --------------------------------------------------------------------------
# validation helpers
# --------------------------------------------------------------------------
def _check_df(df):
    """Return ``df`` as a positive float, or None."""
    return None if df is None else check_positive(df, "df")


# --------------------------------------------------------------------------
# maths along the last axis
# --------------------------------------------------------------------------
def _mean_var(a, axis=-1):
    """Mean and unbiased variance along ``axis`` (variance exactly 0 if constant).

    The same numbers as ``np.mean(a, axis)`` and ``np.var(a, axis, ddof=1)``,
    bit for bit, with the mean computed once. ``np.var`` of a constant row can
    be a rounding residue like 1e-34; the exact zero is what triggers Weka's
    zero-variance convention downstream.
    """
    mean = np.mean(a, axis=axis, keepdims=True)
    v = np.var(a, axis=axis, ddof=1, mean=mean)
    mean = np.squeeze(mean, axis=axis)
    # A constant row c has |mean - c| <= n u |c| and so a residue of at most
    # about 2 n^2 u^2 mean^2 (u = 2**-53). Rows above 8 times that bound (plus
    # a margin for underflow) are certainly not constant; only the rows below
    # it are compared exactly with their first value.
    v = np.asarray(v)
    n = a.shape[axis]
    u = np.finfo(float).eps / 2
    with np.errstate(over="ignore"):
        bound = (4.0 * n * u * mean) ** 2 + 4.0 * np.finfo(float).tiny
    candidate = ~(v > bound)  # NaN (from overflow) is checked too
    if v.ndim == 0:
        if candidate and np.all(a == a[0]):
            v = np.zeros_like(v)
    elif candidate.any():
        index = np.nonzero(candidate)
        rows = np.moveaxis(a, axis, -1)[index]
        constant = np.all(rows == rows[:, :1], axis=-1)
        v[tuple(i[constant] for i in index)] = 0.0
    return mean, v


def _var(a, axis=-1):
    """Unbiased variance along ``axis``, exactly zero where all values are equal."""
    return _mean_var(a, axis=axis)[1]


def _t_pvalue(statistic, df, alternative):
    """p-value of a t statistic (same formulas as scipy.stats._get_pvalue).

    ``scipy.special.stdtr`` is what ``scipy.stats.t`` evaluates (``cdf`` is
    ``stdtr(df, x)``, ``sf`` is ``stdtr(df, -x)``, exact at +-inf); calling it
    directly skips the distribution machinery's extra passes and copies.
    """
    if alternative == "less":
        return special.stdtr(df, statistic)
    if alternative == "greater":
        return special.stdtr(df, -statistic)
    return 2 * special.stdtr(df, -np.abs(statistic))


def _degenerate_statistic(m, s2, stat):
    """Apply Weka's zero-variance convention: 0 if m == 0, else +-inf."""
    zero_var = s2 == 0
    return np.where(zero_var, np.where(m == 0, 0.0, np.copysign(np.inf, m)), stat)


def _t_from_moments(m, s2, factor, df, alternative):
    """TestResult of ``m / sqrt(factor * s2)`` against t(df), with Weka's convention.

    ``factor`` is the variance factor (1/(df+1) for a plain t-test, plus
    n_test/n_train for the Nadeau & Bengio correction).
    """
    se = np.sqrt(factor * s2)
    with np.errstate(divide="ignore", invalid="ignore"):
        stat = m / se
    stat = _degenerate_statistic(m, s2, stat)
    p = _t_pvalue(stat, df, alternative)
    # Weka: every difference zero -> p = 1 whatever the alternative.
    p = np.where((s2 == 0) & (m == 0), 1.0, p)
    return TTestResult(
        unwrap_scalar(stat), unwrap_scalar(p), df=float(df), alternative=alternative,
        estimate=unwrap_scalar(m), standard_error=unwrap_scalar(se),
    )


def _one_sample_t(d, *, df, alternative, ratio=0.0):
    """One-sample t-test of ``d`` on its last axis; ``ratio`` = n_test / n_train."""
    n = d.shape[-1]
    df = float(n - 1) if df is None else df
    # ERRATA (Bouckaert 2003, Sec. 2.1-2.2): m / sqrt(s^2 / (df+1)); with the
    # correction, m / sqrt((1/(df+1) + n_test/n_train) s^2) (Nadeau & Bengio 2003).
    factor = 1.0 / (df + 1.0) + ratio
    m, s2 = _mean_var(d)
    return _t_from_moments(m, s2, factor, df, alternative)


# --------------------------------------------------------------------------
# public tests
# --------------------------------------------------------------------------
def paired_ttest(x, y=None, *, df=None, alternative="two-sided"):
    """Paired t-test on per-split scores (one-sample t-test on the differences).

    Null hypothesis: the mean difference between the scores of learners A and B
    is zero.

    The statistic is ``t = m / sqrt(s^2 / (df + 1))`` with ``m`` the mean and
    ``s^2`` the unbiased variance of ``d = x - y`` (positive favours A), referred
    to Student's t with ``df`` degrees of freedom (default ``n - 1``).

    Parameters
    ----------
    x : array_like, shape (..., n)
        Scores of learner A, or the differences ``d`` when ``y`` is None.
    y : array_like, shape (..., n), optional
        Scores of learner B.
    df : float, optional
        Calibrated degrees of freedom; ``df + 1`` is used as the effective sample
        size in the denominator as well as in the t distribution (Bouckaert 2003).
    alternative : {"two-sided", "less", "greater"}
        ``"greater"``: A is better than B.

    Returns
    -------
    TTestResult
        ``statistic``, ``pvalue`` (one per batch element), ``df``, ``estimate``
        (the mean difference), ``standard_error`` and, as scipy's,
        ``confidence_interval(confidence_level=0.95)``.

    Notes
    -----
    With ``df=None`` this equals ``scipy.stats.ttest_rel(x, y, axis=-1)``.
    Zero variance follows Weka: p = 1 when every difference is zero; statistic
    +-inf (the sign of the mean) and p = 0 (for the matching alternative) when
    the differences are a non-zero constant.

    References
    ----------
    .. [1] Bouckaert, R. R. (2003). Choosing between two learning algorithms
       based on calibrated tests. ICML 2003, 51-58.

    Examples
    --------
    >>> from replicability.stats.ttests import paired_ttest
    >>> res = paired_ttest([0.81, 0.83, 0.80, 0.85], [0.78, 0.80, 0.81, 0.80])
    >>> print(round(float(res.statistic), 4), round(float(res.pvalue), 4), res.df)
    1.9868 0.1411 3.0
    """
    check_alternative(alternative)
    df = _check_df(df)
    d = as_differences(x, y, min_last=2)
    return _one_sample_t(d, df=df, alternative=alternative)


def resampled_ttest(x, y=None, *, df=None, alternative="two-sided"):
    """Resampled paired t-test (Dietterich 1998), uncorrected.

    Null hypothesis: the mean accuracy difference over ``n`` random train/test
    splits is zero.

    ``t = m / sqrt(s^2 / (df + 1))`` with t(df), default ``df = n - 1``; the same
    computation as :func:`paired_ttest`, on the ``n`` resampling runs. Its Type I
    error is known to be far too high because the runs overlap (Dietterich 1998).

    Parameters
    ----------
    x : array_like, shape (..., n)
        Accuracies of learner A per run, or the differences when ``y`` is None.
    y : array_like, shape (..., n), optional
        Accuracies of learner B per run.
    df : float, optional
        Calibrated degrees of freedom (effective sample size ``df + 1``).
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        With ``confidence_interval(confidence_level=0.95)`` (see :func:`paired_ttest`).

    Notes
    -----
    Zero variance follows Weka's convention (see :func:`paired_ttest`).

    References
    ----------
    .. [1] Dietterich, T. G. (1998). Approximate statistical tests for comparing
       supervised classification learning algorithms. Neural Computation 10(7),
       1895-1923. https://doi.org/10.1162/089976698300017197

    Examples
    --------
    >>> from replicability.stats.ttests import resampled_ttest
    >>> res = resampled_ttest([0.02, 0.01, 0.03, 0.00, 0.02])
    >>> print(round(float(res.statistic), 4), round(float(res.pvalue), 4))
    3.1379 0.0349
    """
    return paired_ttest(x, y, df=df, alternative=alternative)


def corrected_resampled_ttest(x, y=None, *, n_train, n_test, df=None, alternative="two-sided"):
    """Corrected resampled t-test of Nadeau & Bengio (2003).

    Null hypothesis: the expected accuracy difference between learners A and B,
    trained on ``n_train`` cases, is zero.

    ``t = m / sqrt((1/(df+1) + n_test/n_train) s^2)`` with t(df) and default
    ``df = n - 1``, i.e. the variance inflation ``1/n + n_test/n_train``.

    Parameters
    ----------
    x : array_like, shape (..., n)
        Accuracies of learner A per run, or the differences when ``y`` is None.
    y : array_like, shape (..., n), optional
        Accuracies of learner B per run.
    n_train, n_test : float or array_like
        Training and test set sizes (or fractions; only their ratio is used);
        arrays give one ratio per test and broadcast against the leading axes
        of ``x``.
    df : float, optional
        Calibrated degrees of freedom.
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        With ``confidence_interval(confidence_level=0.95)`` (see :func:`paired_ttest`).

    Notes
    -----
    With a calibrated ``df`` the factor ``1/n`` becomes ``1/(df + 1)``: an
    interpretation of Bouckaert (2003), Sec. 2.2 (ERRATA.md), which gives Nadeau
    & Bengio's test when ``df = n - 1``. Zero variance follows Weka's convention
    (see :func:`paired_ttest`).

    References
    ----------
    .. [1] Nadeau, C., & Bengio, Y. (2003). Inference for the generalization
       error. Machine Learning 52(3), 239-281.
       https://doi.org/10.1023/A:1024068626366

    Examples
    --------
    >>> from replicability.stats.ttests import corrected_resampled_ttest
    >>> d = [0.02, 0.01, 0.03, 0.00, 0.02]
    >>> res = corrected_resampled_ttest(d, n_train=90, n_test=10)
    >>> print(round(float(res.statistic), 4), round(float(res.pvalue), 4))
    2.5159 0.0656
    """
    check_alternative(alternative)
    df = _check_df(df)
    d = as_differences(x, y, min_last=2)
    ratio = _size_ratio(n_train, n_test, d.shape[:-1])
    return _one_sample_t(d, df=df, alternative=alternative, ratio=ratio)


def _size_ratio(n_train, n_test, batch):
    """``n_test / n_train`` as a float or an array broadcast to ``batch``, the shape of the tests.

    Each size is a positive finite number or an array of them (one per test),
    which must broadcast against the batch shape without enlarging it.
    """
    sizes = []
    for value, name in ((n_train, "n_train"), (n_test, "n_test")):
        check_not_text_or_bool(value, name)
        if np.ndim(value) == 0:
            sizes.append(check_positive(as_numbers(value, name)[()], name))
            continue
        arr = as_numbers(value, name)
        if not np.all((arr > 0) & np.isfinite(arr)):
            raise ValueError(f"`{name}` must hold positive finite numbers; got {value!r}.")
        try:
            fits = np.broadcast_shapes(arr.shape, batch) == batch
        except ValueError:
            fits = False
        if not fits:
            raise ValueError(
                f"`{name}` must be a number or an array with one value per test, broadcastable to the "
                f"shape of the tests {batch} (the shape of `x` without its sample axes); got shape {arr.shape}."
            )
        sizes.append(arr)
    ratio = sizes[1] / sizes[0]
    return ratio if np.ndim(ratio) == 0 else np.broadcast_to(ratio, batch)


def corrected_repeated_cv_ttest(x, y=None, *, n_train, n_test, n_folds=None, df=None, alternative="two-sided"):
    """Corrected repeated k-fold cross-validation t-test (Bouckaert & Frank 2004).

    Null hypothesis: the expected accuracy difference between learners A and B
    is zero.

    All ``k r`` differences of r runs of k-fold cv are used:
    ``t = m / sqrt((1/(k r) + n_test/n_train) s^2)`` with t(k r - 1). This is
    Weka's ``PairedCorrectedTTester``.

    Parameters
    ----------
    x : array_like, shape (..., r, k), (r k,) or (..., r k)
        Accuracies of learner A per run and fold, or the differences. Which
        shapes are read how:

        * without ``n_folds``: ``(..., r, k)``, runs on axis -2 and folds on
          axis -1; a 1-d array is the ``r k`` values of one experiment (the
          statistic uses only their number);
        * with ``n_folds=k``: the last axis holds the ``r k`` values of each
          experiment run by run (the order of ``rxk_cv_splits``), so a batch
          of flat experiments ``(..., r k)`` is read as ``(..., r, k)``.
    y : array_like, same shape as ``x``, optional
        Accuracies of learner B.
    n_train, n_test : float or array_like
        Training and test set sizes of one fold (``n_test / n_train = 1/(k-1)``
        for k-fold cv); or fractions, only the ratio is used. Arrays give one
        size per experiment and broadcast against the leading axes of ``x``
        (its shape without the run and fold axes), as in
        :func:`corrected_resampled_ttest`.
    n_folds : int, optional
        Number of folds k when the last axis of ``x`` holds all ``r k``
        values of an experiment; its length must be a multiple of ``n_folds``.
    df : float, optional
        Calibrated degrees of freedom; replaces ``k r - 1`` and ``k r`` = df + 1.
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        With ``confidence_interval(confidence_level=0.95)`` (see :func:`paired_ttest`).

    Notes
    -----
    Equal to :func:`corrected_resampled_ttest` on the flattened ``(..., r k)``
    array: a flat array of one experiment's values, ``(r k,)``, gives the same
    result as its ``(r, k)`` form. A 2-d array is always runs x folds; a batch
    of flat experiments needs ``n_folds``. Zero variance follows Weka's convention (see :func:`paired_ttest`).

    References
    ----------
    .. [1] Bouckaert, R. R., & Frank, E. (2004). Evaluating the replicability of
       significance tests for comparing learning algorithms. PAKDD 2004, LNCS
       3056, 3-12. https://doi.org/10.1007/978-3-540-24775-3_3

    Examples
    --------
    >>> from replicability.stats.ttests import corrected_repeated_cv_ttest
    >>> d = [[0.02, 0.01, 0.03], [0.00, 0.02, 0.01]]  # 2 runs x 3 folds
    >>> res = corrected_repeated_cv_ttest(d, n_train=200, n_test=100)
    >>> print(round(float(res.statistic), 4), round(float(res.pvalue), 4), res.df)
    1.7516 0.1402 5.0
    """
    check_alternative(alternative)
    df = _check_df(df)
    d = as_differences(x, y)
    if n_folds is not None:
        n_folds = check_positive_int(n_folds, "n_folds")
        if d.shape[-1] % n_folds:
            raise ValueError(
                f"`n_folds` must divide the length of the last axis of `x` (its r x k values); "
                f"got n_folds={n_folds} and shape {d.shape}."
            )
        d = d.reshape(d.shape[:-1] + (d.shape[-1] // n_folds, n_folds))
    elif d.ndim == 1:
        d = d[np.newaxis, :]  # one experiment: only the number of values matters
    if d.shape[-1] * d.shape[-2] < 2:
        raise ValueError(
            f"`x` must hold at least two values per experiment (runs x folds); got shape {d.shape}. "
            "Pass shape (..., r, k), or the r k values of each experiment on the last axis with `n_folds=k`."
        )
    ratio = _size_ratio(n_train, n_test, d.shape[:-2])
    d = d.reshape(d.shape[:-2] + (-1,))
    return _one_sample_t(d, df=df, alternative=alternative, ratio=ratio)


def kfold_cv_ttest(x, y=None, *, df=None, alternative="two-sided"):
    """k-fold cross-validation paired t-test on the k fold accuracies.

    Null hypothesis: the mean accuracy difference over the k folds is zero.

    ``t = m / sqrt(s^2 / (df + 1))`` with t(df), default ``df = k - 1``
    (Bouckaert 2003, Sec. 2.1, as corrected in ERRATA.md).

    Parameters
    ----------
    x : array_like, shape (..., k)
        Fold accuracies of learner A, or the differences when ``y`` is None.
    y : array_like, shape (..., k), optional
        Fold accuracies of learner B.
    df : float, optional
        Calibrated degrees of freedom (Bouckaert 2003 found about 2/3 of k - 1).
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        With ``confidence_interval(confidence_level=0.95)`` (see :func:`paired_ttest`).

    Notes
    -----
    Zero variance follows Weka's convention (see :func:`paired_ttest`).

    References
    ----------
    .. [1] Dietterich, T. G. (1998). Approximate statistical tests for comparing
       supervised classification learning algorithms. Neural Computation 10(7),
       1895-1923. https://doi.org/10.1162/089976698300017197
    .. [2] Bouckaert, R. R. (2003). Choosing between two learning algorithms
       based on calibrated tests. ICML 2003, 51-58.

    Examples
    --------
    >>> from replicability.stats.ttests import kfold_cv_ttest
    >>> d = [0.02, 0.01, 0.03, 0.00, 0.02, 0.01, 0.04, -0.01, 0.02, 0.01]
    >>> res = kfold_cv_ttest(d, df=6)
    >>> print(round(float(res.statistic), 4), round(float(res.pvalue), 4), res.df)
    2.7681 0.0325 6.0
    """
    return paired_ttest(x, y, df=df, alternative=alternative)


def _five_by_two(x, y):
    d = as_differences(x, y, min_last=2, ndim_min=2)
    if d.shape[-2:] != (5, 2):
        raise ValueError(f"`x` must have shape (..., 5, 2) for 5x2 cv; got shape {d.shape}.")
    # s_i^2 = sum_j (p_i^(j) - pbar_i)^2 (Dietterich 1998, eq. for s_i^2;
    # ERRATA: Raschka 2018 Sec. 4.11). Written out for the two folds: numpy's
    # reductions over an axis of length 2 cost far more per value, and these
    # are the same sums, (p1 + p2) / 2 and dev1^2 + dev2^2, bit for bit.
    p1, p2 = d[..., 0], d[..., 1]
    pbar = p1 + p2
    pbar /= 2
    dev = p1 - pbar
    s2 = np.square(dev, out=dev)
    dev = p2 - pbar
    s2 += np.square(dev, out=dev)
    s2[p1 == p2] = 0.0
    return d, s2


def dietterich_5x2cv_ttest(x, y=None, *, alternative="two-sided"):
    """Dietterich's 5x2cv paired t-test.

    Null hypothesis: learners A and B have the same expected accuracy.

    ``t = p_1^(1) / sqrt(sum_i s_i^2 / 5)`` with t(5), where ``p_i^(j)`` is the
    difference (A - B) on fold j of replication i and
    ``s_i^2 = (p_i^(1) - pbar_i)^2 + (p_i^(2) - pbar_i)^2``.

    Parameters
    ----------
    x : array_like, shape (..., 5, 2)
        Accuracies of learner A (5 replications x 2 folds), or the differences.
    y : array_like, shape (..., 5, 2), optional
        Accuracies of learner B.
    alternative : {"two-sided", "less", "greater"}

    Returns
    -------
    TTestResult
        With ``confidence_interval(confidence_level=0.95)`` (see :func:`paired_ttest`).
        ``df`` is 5.

    Notes
    -----
    Equals ``mlxtend.evaluate.paired_ttest_5x2cv`` given the same splits. The
    statistic has no effective-sample-size term, so no calibrated ``df`` is
    offered. When every ``s_i^2`` is zero, Weka's convention applies: statistic
    0 and p = 1 if ``p_1^(1) = 0``, else +-inf and p = 0.

    References
    ----------
    .. [1] Dietterich, T. G. (1998). Approximate statistical tests for comparing
       supervised classification learning algorithms. Neural Computation 10(7),
       1895-1923. https://doi.org/10.1162/089976698300017197
    .. [2] Raschka, S. (2018). Model evaluation, model selection, and algorithm
       selection in machine learning. arXiv:1811.12808, Sec. 4.11.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.stats.ttests import dietterich_5x2cv_ttest
    >>> d = np.array([[0.02, 0.01], [0.03, 0.00], [0.02, 0.01],
    ...               [0.04, -0.01], [0.02, 0.01]])
    >>> res = dietterich_5x2cv_ttest(d)
    >>> print(round(float(res.statistic), 4), round(float(res.pvalue), 4))
    1.0398 0.3461
    """
    check_alternative(alternative)
    d, s2 = _five_by_two(x, y)
    num = d[..., 0, 0]
    s2_mean = s2.mean(axis=-1)
    return _t_from_moments(num, s2_mean, 1.0, 5.0, alternative)


def alpaydin_5x2cv_ftest(x, y=None):
    """Alpaydin's combined 5x2cv F-test.

    Null hypothesis: learners A and B have the same expected accuracy.

    ``f = sum_i sum_j (p_i^(j))^2 / (2 sum_i s_i^2)``, referred to F(10, 5)
    (upper tail), with ``p_i^(j)`` and ``s_i^2`` as in
    :func:`dietterich_5x2cv_ttest`.

    Parameters
    ----------
    x : array_like, shape (..., 5, 2)
        Accuracies of learner A (5 replications x 2 folds), or the differences.
    y : array_like, shape (..., 5, 2), optional
        Accuracies of learner B.

    Returns
    -------
    UnsignedResult
        ``df`` is ``(10.0, 5.0)``, the degrees of freedom of the F distribution.

    Notes
    -----
    Equals ``mlxtend.evaluate.combined_ftest_5x2cv`` given the same splits. The
    test is two-sided in A versus B (``f`` grows with differences of either
    sign). When every ``s_i^2`` is zero, Weka's convention applies: statistic 0
    and p = 1 if all differences are zero, else +inf and p = 0.

    References
    ----------
    .. [1] Alpaydin, E. (1999). Combined 5x2 cv F test for comparing supervised
       classification learning algorithms. Neural Computation 11(8), 1885-1892.
       https://doi.org/10.1162/089976699300016007

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.stats.ttests import alpaydin_5x2cv_ftest
    >>> d = np.array([[0.02, 0.01], [0.03, 0.00], [0.02, 0.01],
    ...               [0.04, -0.01], [0.02, 0.01]])
    >>> res = alpaydin_5x2cv_ftest(d)
    >>> print(round(float(res.statistic), 4), round(float(res.pvalue), 4))
    1.1081 0.4842
    """
    d, s2 = _five_by_two(x, y)
    num = np.sum(d**2, axis=(-2, -1))
    den = 2.0 * np.sum(s2, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        f = num / den
    f = np.where(den == 0, np.where(num == 0, 0.0, np.inf), f)
    p = special.fdtrc(10, 5, f)  # what scipy.stats.f.sf(f, 10, 5) evaluates
    p = np.where((den == 0) & (num == 0), 1.0, p)
    return UnsignedResult(unwrap_scalar(f), unwrap_scalar(p), df=(10.0, 5.0), alternative="two-sided")
