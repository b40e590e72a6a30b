"""Tests on classification outcomes of one test set (Raschka 2018, Sec. 4.2-4.7).

McNemar's test (chi-squared, Edwards-corrected and exact), the
difference-of-proportions z-test, Cochran's Q and Looney's F for several
classifiers, and the Bonferroni and Holm adjustments of p-values. All are
vectorized over leading axes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from .._results import TestResult, UnsignedResult, unwrap_scalar
from .._validation import (
    as_counts,
    as_float_array,
    as_numbers,
    check_alternative,
    check_bool,
    check_choice,
    check_nonempty,
    check_positive_int,
    check_same_shape,
)

__all__ = [
    "McNemarResult",
    "mcnemar_table",
    "mcnemar_test",
    "proportions_ztest",
    "cochran_q_test",
    "looney_ftest",
    "bonferroni",
    "holm",
]

_MCNEMAR_METHODS = ("chi2", "exact")


@dataclass(frozen=True, repr=False)
class McNemarResult(TestResult):
    """Result of :func:`mcnemar_test`.

    Attributes
    ----------
    difference : float or ndarray
        ``b - c``, the signed excess of cases only A got right; positive
        favours A. The chi-squared statistic is unsigned, so
        :func:`replicability.stats.decisions.decide` reads the direction from here.
    """

    difference: float | np.ndarray = 0.0


# --------------------------------------------------------------------------
# validation helpers (private to this module)
# --------------------------------------------------------------------------


def _as_finite(a, name):
    """Finite, non-empty float array of any shape (0-d allowed)."""
    arr = check_nonempty(as_numbers(a, name), name)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"`{name}` must contain only finite values; got NaN or infinity.")
    return arr


def _as_correct_matrix(correct, name="correct"):
    """(..., n_samples, M) 0/1 matrix with n_samples >= 1 and M >= 2."""
    arr = as_float_array(correct, name, min_last=2, ndim_min=2)
    if arr.shape[-2] < 1:
        raise ValueError(f"`{name}` must have at least one sample (row); got shape {arr.shape}.")
    if not np.all((arr == 0) | (arr == 1)):
        raise ValueError(f"`{name}` must contain only 0 and 1; got values {np.unique(arr)!r}.")
    return arr


# --------------------------------------------------------------------------
# McNemar
# --------------------------------------------------------------------------


def mcnemar_table(y, pred_a, pred_b):
    """The 2x2 table of McNemar's test from the labels and two classifiers' predictions on one test set.

    Rows: A right, A wrong; columns: B right, B wrong (the layout of statsmodels'
    ``mcnemar`` and mlxtend's ``mcnemar_table``, which :func:`mcnemar_test` takes):
    ``table[0, 1]`` counts the cases only A got right, ``table[1, 0]`` those only B
    got right.

    Parameters
    ----------
    y, pred_a, pred_b : array_like, shape (n_samples,)
        True labels and the predictions of A and B (any labels that compare with ``==``).

    Returns
    -------
    ndarray of int64, shape (2, 2)

    References
    ----------
    .. [1] McNemar, Q. (1947). Note on the sampling error of the difference between
       correlated proportions or percentages. Psychometrika 12(2), 153-157.
       https://doi.org/10.1007/BF02295996

    Examples
    --------
    >>> mcnemar_table([0, 1, 1, 0, 1], [0, 1, 0, 0, 0], [1, 1, 1, 0, 0])
    array([[2, 1],
           [1, 1]])
    >>> float(mcnemar_test(mcnemar_table([0, 1, 1, 0, 1], [0, 1, 0, 0, 0], [1, 1, 1, 0, 0])).pvalue)
    1.0
    """
    arrays = [np.asarray(v) for v in (y, pred_a, pred_b)]
    for arr, name in zip(arrays, ("y", "pred_a", "pred_b")):
        if arr.ndim != 1 or arr.size == 0:
            raise ValueError(f"`{name}` must be a non-empty 1-d array of labels; got shape {arr.shape}.")
    if not arrays[0].shape == arrays[1].shape == arrays[2].shape:
        raise ValueError(f"`y`, `pred_a` and `pred_b` must have the same length; got "
                         f"{', '.join(str(a.size) for a in arrays)}.")
    right_a, right_b = arrays[1] == arrays[0], arrays[2] == arrays[0]
    return np.array([[np.sum(right_a & right_b), np.sum(right_a & ~right_b)],
                     [np.sum(~right_a & right_b), np.sum(~right_a & ~right_b)]], dtype=np.int64)


def mcnemar_test(b, c=None, *, correction=False, method="chi2"):
    r"""McNemar's test on the discordant counts of two classifiers.

    The null hypothesis is that a test case that only one classifier gets
    right is equally likely to be one that only A gets right as one that only
    B gets right, ``p(b) = p(c)``: A and B have the same accuracy.

    With ``b`` cases right by A and wrong by B and ``c`` cases wrong by A and
    right by B (cells B and C of Raschka's Figure 19),

    .. math:: \chi^2 = \frac{(b - c)^2}{b + c}, \qquad
              \chi^2_{\mathrm{Edwards}} = \frac{(|b - c| - 1)^2}{b + c},

    compared with a chi-squared distribution with one degree of freedom.
    The exact test is a binomial test:
    ``p = min(1, 2 P(X >= max(b, c)))`` with ``X ~ Binomial(b + c, 1/2)``.
    ``b > c`` favours A; its sign is kept in ``difference = b - c``.

    Parameters
    ----------
    b, c : array_like of int
        Discordant counts (same shape, any number of dimensions). With ``c``
        omitted, ``b`` is the 2x2 contingency table (or tables, shape
        ``(..., 2, 2)``) of statsmodels' ``mcnemar`` and mlxtend's
        ``mcnemar_table``: rows A right / A wrong, columns B right / B wrong,
        so the discordant counts are ``table[..., 0, 1]`` and ``table[..., 1, 0]``.
        Counts given as strings or booleans are rejected.
    correction : bool, optional
        Apply Edwards' (1948) continuity correction to the statistic (and so
        to the chi-squared p-value).
    method : {"chi2", "exact"}, optional
        Where the p-value comes from.

    Returns
    -------
    McNemarResult
        ``statistic`` (the chi-squared statistic, corrected when
        ``correction``, whatever ``method``), ``pvalue``, ``df`` (1) and
        ``difference`` (``b - c``).

    Notes
    -----
    Edwards' correction is applied as printed, without clipping at zero, as
    statsmodels and mlxtend do: with ``b = c`` it gives ``1 / (b + c)``.
    The exact p-value uses the formula of ERRATA (Raschka 2018, Sec. 4.4);
    the printed sum from ``i = B`` holds only when ``B >= C``.

    *Degenerate data.* No discordant pairs (``b + c = 0``): statistic 0,
    ``p = 1``, for every method and correction.

    References
    ----------
    .. [1] McNemar, Q. (1947). Note on the sampling error of the difference
       between correlated proportions or percentages. Psychometrika, 12(2),
       153-157. https://doi.org/10.1007/BF02295996
    .. [2] Edwards, A. L. (1948). Note on the "correction for continuity" in
       testing the significance of the difference between correlated
       proportions. Psychometrika, 13(3), 185-187.
       https://doi.org/10.1007/BF02289261
    .. [3] Raschka, S. (2018). Model evaluation, model selection, and
       algorithm selection in machine learning. arXiv:1811.12808, Sec. 4.3-4.4.

    Examples
    --------
    Raschka (2018), Figure 20, panel A (b = 11, c = 1):

    >>> from replicability.stats.contingency import mcnemar_test
    >>> res = mcnemar_test(11, 1)
    >>> print(round(float(res.statistic), 4), round(float(res.pvalue), 4))
    8.3333 0.0039
    >>> print(round(float(mcnemar_test(11, 1, method="exact").pvalue), 4))
    0.0063

    The same from the 2x2 table (cell A = 9959 both right, D = 29 both wrong):

    >>> res = mcnemar_test([[9959, 11], [1, 29]])
    >>> print(round(float(res.statistic), 4), int(res.difference))
    8.3333 10
    """
    check_choice(method, "method", _MCNEMAR_METHODS)
    check_bool(correction, "correction")
    if c is None:
        table = as_counts(b, "b")
        if table.ndim < 2 or table.shape[-2:] != (2, 2):
            raise ValueError(
                "`b` must be a 2x2 contingency table (shape (..., 2, 2)) when `c` is omitted, "
                f"or pass the discordant counts as `b` and `c`; got shape {table.shape}."
            )
        b, c = table[..., 0, 1], table[..., 1, 0]
    else:
        b = check_nonempty(as_counts(b, "b"), "b")
        c = check_nonempty(as_counts(c, "c"), "c")
    check_same_shape(b, c, ("b", "c"))
    n = b + c
    empty = n == 0
    safe_n = np.where(empty, 1.0, n)
    num = np.abs(b - c) - 1.0 if correction else b - c
    statistic = np.where(empty, 0.0, num**2 / safe_n)
    if method == "chi2":
        p = special.chdtrc(1, statistic)  # what scipy.stats.chi2.sf(statistic, 1) evaluates
    else:
        # ERRATA, Raschka Sec. 4.4: P(X >= max(b, c)) = sf(max - 1).
        p = np.minimum(1.0, 2.0 * stats.binom.sf(np.maximum(b, c) - 1, n, 0.5))
    p = np.where(empty, 1.0, p)
    return McNemarResult(
        statistic=unwrap_scalar(statistic),
        pvalue=unwrap_scalar(p),
        df=1,
        difference=unwrap_scalar(b - c),
    )


# --------------------------------------------------------------------------
# difference of proportions
# --------------------------------------------------------------------------


def proportions_ztest(acc_a, acc_b, *, n_test, alternative="two-sided"):
    r"""Difference-of-proportions z-test for two accuracies (Raschka Sec. 4.2).

    The null hypothesis is that A and B have the same accuracy. Treating
    the two accuracies as independent proportions on ``n_test`` cases each,
    with the pooled accuracy ``p = (acc_a + acc_b) / 2``,

    .. math:: z = \frac{acc_A - acc_B}{\sqrt{2 p (1 - p) / n_{test}}},

    compared with the standard normal; positive ``z`` favours A.

    Parameters
    ----------
    acc_a, acc_b : array_like
        Accuracies in [0, 1] of A and B on the same test set (same shape).
    n_test : int
        Number of test cases.
    alternative : {"two-sided", "greater", "less"}, optional
        ``"greater"``: A is better.

    Returns
    -------
    TestResult
        ``statistic`` (``z``) and ``pvalue``.

    Notes
    -----
    Both accuracies come from the same test set, so the independence the
    test assumes does not hold (Raschka 2018; Dietterich 1998); McNemar's
    test is preferred. Equals ``statsmodels.stats.proportion.proportions_ztest``
    on the counts ``n_test * acc``.

    *Degenerate data.* When the pooled accuracy is 0 or 1 both accuracies
    are equal: ``z = 0``, ``p = 1``.

    References
    ----------
    .. [1] Raschka, S. (2018). Model evaluation, model selection, and
       algorithm selection in machine learning. arXiv:1811.12808, Sec. 4.2.
    .. [2] Dietterich, T. G. (1998). Approximate statistical tests for
       comparing supervised classification learning algorithms. Neural
       Computation, 10(7), 1895-1923. https://doi.org/10.1162/089976698300017197

    Examples
    --------
    >>> from replicability.stats.contingency import proportions_ztest
    >>> res = proportions_ztest(0.85, 0.80, n_test=200)
    >>> print(round(float(res.statistic), 4), round(float(res.pvalue), 4))
    1.3159 0.1882
    """
    alternative = check_alternative(alternative)
    n_test = check_positive_int(n_test, "n_test")
    a = _as_finite(acc_a, "acc_a")
    b = _as_finite(acc_b, "acc_b")
    check_same_shape(a, b, ("acc_a", "acc_b"))
    for arr, name, raw in ((a, "acc_a", acc_a), (b, "acc_b", acc_b)):
        if np.any((arr < 0) | (arr > 1)):
            raise ValueError(f"`{name}` must contain accuracies in [0, 1]; got {raw!r}.")
    pooled = (a + b) / 2.0
    var = 2.0 * pooled * (1.0 - pooled) / n_test
    degenerate = var == 0
    z = np.where(degenerate, 0.0, (a - b) / np.sqrt(np.where(degenerate, 1.0, var)))
    if alternative == "greater":
        p = stats.norm.sf(z)
    elif alternative == "less":
        p = stats.norm.cdf(z)
    else:
        p = np.minimum(1.0, 2.0 * stats.norm.sf(np.abs(z)))
    return TestResult(statistic=unwrap_scalar(z), pvalue=unwrap_scalar(p), alternative=alternative)


# --------------------------------------------------------------------------
# several classifiers: Cochran's Q and Looney's F
# --------------------------------------------------------------------------


def cochran_q_test(correct):
    r"""Cochran's Q test that M classifiers have the same accuracy.

    The null hypothesis is ``ACC_1 = ... = ACC_M`` on one test set. With
    ``G_j`` the number of cases classifier ``j`` gets right, ``M_i`` the
    number of classifiers that get case ``i`` right and ``T = sum G_j =
    sum M_i`` (ERRATA, Raschka Sec. 4.6),

    .. math:: Q = (M - 1) \frac{M \sum_j G_j^2 - T^2}{M T - \sum_i M_i^2},

    approximately chi-squared with ``M - 1`` degrees of freedom. ``Q`` is
    unsigned: it tells whether, not which, classifiers differ.

    Parameters
    ----------
    correct : array_like
        Shape ``(..., n_samples, M)``, entry 1 if classifier ``j`` got case
        ``i`` right and 0 otherwise (Raschka's n x M matrix). ``M >= 2``.

    Returns
    -------
    UnsignedResult
        ``statistic`` (``Q``), ``pvalue`` and ``df`` (``M - 1``). ``Q`` has no
        sign: :func:`~replicability.stats.decisions.decide` needs a direction.

    Notes
    -----
    The 0/1 matrix is the input rather than mlxtend's ``(y_true, *y_preds)``
    so that it serves any task (and batches): build it as
    ``np.stack([y_pred == y_true for y_pred in preds], axis=-1)``.
    On two columns ``Q`` equals the uncorrected McNemar statistic.

    *Degenerate data.* When every case is got right by all or by none of the
    classifiers the denominator is zero: ``Q = 0``, ``p = 1``.

    References
    ----------
    .. [1] Cochran, W. G. (1950). The comparison of percentages in matched
       samples. Biometrika, 37(3/4), 256-266. https://doi.org/10.2307/2332378
    .. [2] Raschka, S. (2018), arXiv:1811.12808, Sec. 4.6.

    Examples
    --------
    Raschka (2018), Table 2 (after Kuncheva 2004):

    >>> import numpy as np
    >>> from replicability.stats.contingency import cochran_q_test
    >>> patterns = [(1, 1, 1), (1, 1, 0), (1, 0, 1), (1, 0, 0),
    ...             (0, 1, 1), (0, 1, 0), (0, 0, 1), (0, 0, 0)]
    >>> counts = [80, 2, 0, 2, 9, 1, 3, 3]
    >>> correct = np.repeat(patterns, counts, axis=0)
    >>> res = cochran_q_test(correct)
    >>> print(round(float(res.statistic), 4), round(float(res.pvalue), 4))
    7.5294 0.0232
    """
    x = _as_correct_matrix(correct)
    m = x.shape[-1]
    g = x.sum(axis=-2)  # G_j, correct per classifier
    m_i = x.sum(axis=-1)  # M_i, classifiers right per case
    t = g.sum(axis=-1)
    num = (m - 1) * (m * np.sum(g**2, axis=-1) - t**2)
    den = m * t - np.sum(m_i**2, axis=-1)
    degenerate = den == 0
    q = np.where(degenerate, 0.0, num / np.where(degenerate, 1.0, den))
    p = np.where(degenerate, 1.0, stats.chi2.sf(q, m - 1))
    return UnsignedResult(statistic=unwrap_scalar(q), pvalue=unwrap_scalar(p), df=m - 1)


def looney_ftest(correct):
    r"""Looney's F-test that M classifiers have the same accuracy.

    The null hypothesis is ``ACC_1 = ... = ACC_M`` on one test set of ``n``
    cases. This is the two-way (classifier x case) ANOVA without replication
    on the 0/1 matrix. With ``ACC_j`` the accuracy of classifier ``j``,
    ``ACC_avg`` their mean and ``M_i`` the number of classifiers right on
    case ``i`` (Raschka 2018, Sec. 4.7, with the ERRATA fixes):

    .. math::

        SSA &= n \sum_j ACC_j^2 - n M ACC_{avg}^2, \\
        SSB &= \tfrac{1}{M} \sum_i M_i^2 - n M ACC_{avg}^2, \\
        SST &= n M ACC_{avg} (1 - ACC_{avg}), \qquad SSAB = SST - SSA - SSB, \\
        F &= \frac{SSA / (M - 1)}{SSAB / ((M - 1)(n - 1))},

    compared with an F distribution with ``M - 1`` and ``(M - 1)(n - 1)``
    degrees of freedom.

    Parameters
    ----------
    correct : array_like
        Shape ``(..., n_samples, M)`` 0/1 matrix as in :func:`cochran_q_test`;
        ``n_samples >= 2``.

    Returns
    -------
    UnsignedResult
        ``statistic`` (``F``), ``pvalue`` and ``df`` (the tuple
        ``(M - 1, (M - 1)(n - 1))``). ``F`` has no sign: :func:`~replicability.stats.decisions.decide`
        needs a direction.

    Notes
    -----
    Raschka prints ``SSA`` without the square on ``ACC_avg`` and the second
    degree of freedom as ``(M - 1) n``; ERRATA restores the square and uses
    ``(M - 1)(n - 1)``, the degrees of freedom of ``MSAB``. mlxtend's
    ``ftest`` (0.25) computes the same ``F`` but takes its p-value with
    ``(M - 1) n`` degrees of freedom, so its p-values are slightly smaller.
    Looney (1988) recommends an adjusted ``F+`` test, not implemented here.

    *Degenerate data.* ``SSAB = 0`` (no classifier-case interaction): if
    also ``SSA = 0`` then ``F = 0``, ``p = 1``; otherwise the classifiers
    differ without any noise and ``F = inf``, ``p = 0`` (Weka's convention
    for zero variance).

    References
    ----------
    .. [1] Looney, S. W. (1988). A statistical technique for comparing the
       accuracies of several classifiers. Pattern Recognition Letters, 8(1),
       5-9. https://doi.org/10.1016/0167-8655(88)90016-5
    .. [2] Raschka, S. (2018), arXiv:1811.12808, Sec. 4.7.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.stats.contingency import looney_ftest
    >>> patterns = [(1, 1, 1), (1, 1, 0), (1, 0, 1), (1, 0, 0),
    ...             (0, 1, 1), (0, 1, 0), (0, 0, 1), (0, 0, 0)]
    >>> correct = np.repeat(patterns, [80, 2, 0, 2, 9, 1, 3, 3], axis=0)
    >>> res = looney_ftest(correct)
    >>> print(round(float(res.statistic), 4), round(float(res.pvalue), 4))
    3.8729 0.0224
    """
    x = _as_correct_matrix(correct)
    n, m = x.shape[-2], x.shape[-1]
    if n < 2:
        raise ValueError(f"`correct` must have at least 2 samples (rows); got shape {x.shape}.")
    g = x.sum(axis=-2)
    m_i = x.sum(axis=-1)
    t = g.sum(axis=-1)
    # The sums of squares times n*M are integers (ACC_j = G_j / n,
    # ACC_avg = T / (n M)), so they are computed exactly and the degenerate
    # cases below are exact comparisons, not tolerances.
    ssa = m * np.sum(g**2, axis=-1) - t**2
    ssb = n * np.sum(m_i**2, axis=-1) - t**2
    sst = t * (n * m - t)
    ssab = sst - ssa - ssb
    df1, df2 = m - 1, (m - 1) * (n - 1)
    no_interaction = ssab == 0
    no_effect = ssa == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        f = (ssa / df1) / (np.where(no_interaction, 1.0, ssab) / df2)
    f = np.where(no_interaction, np.where(no_effect, 0.0, np.inf), f)
    p = np.where(no_interaction, np.where(no_effect, 1.0, 0.0), stats.f.sf(f, df1, df2))
    return UnsignedResult(statistic=unwrap_scalar(f), pvalue=unwrap_scalar(p), df=(df1, df2))


# --------------------------------------------------------------------------
# multiple testing
# --------------------------------------------------------------------------


def _as_pvalues(pvalues):
    p = as_float_array(pvalues, "pvalues")
    if np.any((p < 0) | (p > 1)):
        raise ValueError(f"`pvalues` must lie in [0, 1]; got {pvalues!r}.")
    return p


def bonferroni(pvalues):
    r"""Bonferroni-adjusted p-values along the last axis.

    Controls the family-wise error rate of the ``m`` hypotheses on the last
    axis: ``p_adj = min(1, m p)``. Rejecting where ``p_adj < alpha`` is
    the same as rejecting where ``p < alpha / m``.

    Parameters
    ----------
    pvalues : array_like
        P-values in [0, 1], one family per slice of the last axis.

    Returns
    -------
    ndarray
        Adjusted p-values, same shape.

    References
    ----------
    .. [1] Dunn, O. J. (1961). Multiple comparisons among means. JASA,
       56(293), 52-64. https://doi.org/10.1080/01621459.1961.10482090

    Examples
    --------
    >>> from replicability.stats.contingency import bonferroni
    >>> print(bonferroni([0.01, 0.02, 0.4]).round(4).tolist())
    [0.03, 0.06, 1.0]
    """
    p = _as_pvalues(pvalues)
    return np.minimum(1.0, p * p.shape[-1])


def holm(pvalues):
    r"""Holm's step-down adjusted p-values along the last axis.

    With the ``m`` p-values sorted, ``p_(1) <= ... <= p_(m)``, the adjusted
    value of ``p_(k)`` is ``max_{j <= k} min(1, (m - j + 1) p_(j))``. It
    controls the family-wise error rate like Bonferroni and is never less
    powerful.

    Parameters
    ----------
    pvalues : array_like
        P-values in [0, 1], one family per slice of the last axis.

    Returns
    -------
    ndarray
        Adjusted p-values, same shape, in the original order.

    References
    ----------
    .. [1] Holm, S. (1979). A simple sequentially rejective multiple test
       procedure. Scandinavian Journal of Statistics, 6(2), 65-70.

    Examples
    --------
    >>> from replicability.stats.contingency import holm
    >>> print(holm([0.01, 0.02, 0.4]).round(4).tolist())
    [0.03, 0.04, 0.4]
    """
    p = _as_pvalues(pvalues)
    m = p.shape[-1]
    order = np.argsort(p, axis=-1, kind="stable")
    sorted_p = np.take_along_axis(p, order, axis=-1)
    adjusted = np.maximum.accumulate(sorted_p * np.arange(m, 0, -1), axis=-1)
    adjusted = np.minimum(1.0, adjusted)
    out = np.empty_like(adjusted)
    np.put_along_axis(out, order, adjusted, axis=-1)
    return out
