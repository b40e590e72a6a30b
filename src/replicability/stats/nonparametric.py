"""Sign test and Wilcoxon signed-rank test on paired differences.

Both tests follow Bouckaert (2004), who uses them on the per-split accuracy
differences ``x - y`` of learners A and B: the sign test counts a zero
difference as half a plus, and the "rank sum test" of that paper is the
Wilcoxon signed-rank test with zeros removed and a normal approximation.

Each test has three layers (STYLE.md): validation, the maths along the last
axis, and a thin public function with the docstring. Everything is vectorized
over leading axes.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from .._results import TestResult, unwrap_scalar
from .._validation import as_differences, as_float_array, check_alternative, check_choice

__all__ = ["SignTestResult", "SignedRankResult", "sign_test", "signed_rank_test"]

_METHODS = ("normal", "exact")
# The exact signed-rank table has n (n + 1) / 2 columns per row; beyond this
# size it costs more memory than it is worth and the normal method is accurate.
_EXACT_MAX_N = 200
# Absolute differences closer than this share of the sample's scale are tied
# (and as close to zero, zero): far above the rounding error of x - y or of a
# mean of differences (a few units in the last place), far below the
# resolution of any accuracy (1 / n_test).
_TIE_RTOL = 1e-9


@dataclass(frozen=True, repr=False)
class SignTestResult(TestResult):
    """Result of :func:`sign_test`.

    Attributes
    ----------
    n_plus : float or ndarray
        Number of positive differences plus half the number of zero
        differences (Bouckaert 2004); a multiple of 1/2.
    n : int or ndarray
        Number of differences (zeros included).
    """

    n_plus: float | np.ndarray = 0.0
    n: int | np.ndarray = 0


@dataclass(frozen=True, repr=False)
class SignedRankResult(TestResult):
    """Result of :func:`signed_rank_test`.

    Attributes
    ----------
    r_plus : float or ndarray
        Sum of the (average) ranks of the positive differences, zeros removed.
    n_nonzero : int or ndarray
        Number of non-zero differences, ``n'`` in Bouckaert (2004).
    """

    r_plus: float | np.ndarray = 0.0
    n_nonzero: int | np.ndarray = 0


# --------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------


def _validate(x, y, alternative, method):
    """The checks both tests make: ``(d, alternative, method, scale)``.

    ``scale`` (one per sample) is what rounding errors are relative to: the
    largest ``|x|`` or ``|y|`` when both are given (the error of ``x - y`` is
    relative to the scores), else the largest ``|d|``.
    """
    alternative = check_alternative(alternative)
    method = check_choice(method, "method", _METHODS)
    d = as_differences(x, y)
    if y is not None:
        scores = np.abs(np.stack(np.broadcast_arrays(as_float_array(x, "x"), as_float_array(y, "y"))))
        scale = np.max(scores, axis=(0, -1))
    else:
        scale = np.max(np.abs(d), axis=-1)
    return d, alternative, method, scale


def _exact_zeros(d, scale):
    """``d`` with values within ``_TIE_RTOL * scale`` of zero set to zero (zero up to rounding)."""
    return np.where(np.abs(d) <= _TIE_RTOL * np.asarray(scale)[..., None], 0.0, d)


def _normal_pvalue(z, alternative):
    # special.ndtr is what scipy.stats.norm evaluates (cdf = ndtr(z),
    # sf = ndtr(-z)), without the distribution machinery's extra passes.
    if alternative == "greater":
        return special.ndtr(-z)
    if alternative == "less":
        return special.ndtr(z)
    return np.minimum(1.0, 2.0 * special.ndtr(-np.abs(z)))


# --------------------------------------------------------------------------
# sign test
# --------------------------------------------------------------------------


def _binom_pvalue(k, n, alternative):
    """Binomial(n, 1/2) p-value of an integer count ``k`` of pluses."""
    upper = stats.binom.sf(k - 1, n, 0.5)  # P(X >= k)
    lower = stats.binom.cdf(k, n, 0.5)  # P(X <= k)
    if alternative == "greater":
        return upper
    if alternative == "less":
        return lower
    # Bin(n, 1/2) is symmetric, so scipy.stats.binomtest's two-sided p-value
    # (sum of outcomes no more likely than k) is twice the smaller tail.
    return np.minimum(1.0, 2.0 * np.minimum(upper, lower))


def _sign_test(d, alternative, method, scale=None):
    if scale is None:
        scale = np.max(np.abs(d), axis=-1)
    # A mean of differences that is zero in exact arithmetic can come out as
    # +-1e-18; it is a zero (half a plus), not a plus or a minus.
    d = _exact_zeros(d, scale)
    n = d.shape[-1]
    n_pos = np.count_nonzero(d > 0, axis=-1)
    n_neg = np.count_nonzero(d < 0, axis=-1)
    n_zero = n - n_pos - n_neg
    n_plus = n_pos + 0.5 * n_zero
    # Z = (#+ - #-)/sqrt(n) (Bouckaert 2005, Sec. 3, ERRATA); with zeros
    # counting half to each side, #+ - #- = n_pos - n_neg.
    z = (n_pos - n_neg) / np.sqrt(n)
    if method == "normal":
        p = _normal_pvalue(z, alternative)
    else:
        # A half-integer count m + 1/2 (odd number of zeros) gets the mean of
        # the exact p-values at its two integer neighbours m and m + 1.
        lo = np.floor(n_plus)
        hi = np.ceil(n_plus)
        p = 0.5 * (_binom_pvalue(lo, n, alternative) + _binom_pvalue(hi, n, alternative))
    return SignTestResult(
        statistic=unwrap_scalar(z),
        pvalue=unwrap_scalar(np.clip(p, 0.0, 1.0)),
        alternative=alternative,
        n_plus=unwrap_scalar(n_plus),
        n=n,
    )


def sign_test(x, y=None, *, alternative="two-sided", method="normal"):
    r"""Sign test on paired differences, zeros counting half a plus.

    The null hypothesis is that a difference ``x - y`` is as likely to be
    positive as negative (median difference zero): learners A and B perform
    equally well.

    With ``n`` differences, of which ``n_pos`` are positive, ``n_neg``
    negative and ``n_zero`` zero, the count of pluses is
    ``n_plus = n_pos + n_zero / 2`` (Bouckaert 2004) and the statistic is

    .. math:: Z = \frac{\#_+ - \#_-}{\sqrt{n}} = \frac{n_{pos} - n_{neg}}{\sqrt{n}},

    the standardized count of Bouckaert (2005, Sec. 3). Positive ``Z`` favours
    A (more differences ``x - y > 0``).

    Parameters
    ----------
    x : array_like
        Scores of learner A, sample on the last axis; or the differences
        ``d`` themselves when ``y`` is None.
    y : array_like, optional
        Scores of learner B, same shape as ``x``.
    alternative : {"two-sided", "greater", "less"}, optional
        ``"greater"``: A is better (differences tend to be positive).
    method : {"normal", "exact"}, optional
        ``"normal"``: ``Z`` against the standard normal, no continuity
        correction (Bouckaert 2005). ``"exact"``: binomial test with
        ``p = 1/2`` on the count ``n_plus``.

    Returns
    -------
    SignTestResult
        ``statistic`` (``Z``), ``pvalue``, ``alternative``, ``n_plus`` and
        ``n``. Arrays have the input shape without its last axis.

    Notes
    -----
    *Turning a non-integer count into a p-value.* With an odd number of zeros
    ``n_plus`` is a half-integer. The normal method needs no special care:
    ``Z`` is evaluated at the half-integer count. The exact method splits the
    zeros evenly and, when one zero is left over, averages the exact binomial
    p-values of the two neighbouring integer counts ``floor(n_plus)`` and
    ``ceil(n_plus)``: the leftover zero is a plus or a minus with probability
    1/2 each, so the average is the expected p-value of that randomization,
    without drawing random numbers. Dropping the zeros instead would
    ignore the paper's "half a plus" rule. With integer counts (in particular
    without zeros) the exact p-value is that of :func:`scipy.stats.binomtest`.

    *Zeros are found on the exact values.* A difference within ``1e-9``
    times the sample's scale of zero is a zero (the scale is the largest
    ``|x|`` or ``|y|``, or the largest ``|d|`` when only differences are
    given): a mean of fold differences that is zero in exact arithmetic can
    come out as ``1e-18`` in floating point, and would otherwise count as a
    plus or a minus (see :func:`signed_rank_test`).

    *Degenerate data.* When every difference is zero, ``Z = 0`` and
    ``p = 1``. Differences that are a non-zero constant are not degenerate
    for this test: the exact p-value is ``2**(1 - n)`` (two-sided), not the
    ``p = 0`` of the t-tests' Weka convention.

    References
    ----------
    .. [1] Bouckaert, R. R. (2004). Estimating replicability of classifier
       learning experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338
    .. [2] Bouckaert, R. R. (2005). Low replicability of machine learning
       experiments is not a small data set phenomenon. ICML 2005 Workshop
       on Meta-Learning.

    Examples
    --------
    >>> from replicability.stats.nonparametric import sign_test
    >>> d = [0.02, 0.01, 0.0, 0.03, -0.01, 0.02, 0.04, 0.01, 0.0, 0.02]
    >>> res = sign_test(d)
    >>> print(round(float(res.statistic), 4), float(res.n_plus))
    1.8974 8.0
    >>> print(round(float(res.pvalue), 4))
    0.0578
    >>> print(round(float(sign_test(d, method="exact").pvalue), 4))
    0.1094
    """
    d, alternative, method, scale = _validate(x, y, alternative, method)
    return _sign_test(d, alternative, method, scale)


# --------------------------------------------------------------------------
# Wilcoxon signed-rank test
# --------------------------------------------------------------------------


def _signed_rank_sf_cdf(n_max):
    """Tables ``P(W_n >= w)`` and ``P(W_n <= w)`` of the untied null of W+.

    Row ``n`` holds the distribution for ``n`` non-zero differences; built by
    the recursion ``P_n(w) = (P_{n-1}(w) + P_{n-1}(w - n)) / 2``.
    """
    w_max = n_max * (n_max + 1) // 2
    pmf = np.zeros((n_max + 1, w_max + 1))
    pmf[0, 0] = 1.0
    for n in range(1, n_max + 1):
        pmf[n] = 0.5 * pmf[n - 1]
        pmf[n, n:] += 0.5 * pmf[n - 1, : w_max + 1 - n]
    cdf = np.cumsum(pmf, axis=1)
    sf = np.cumsum(pmf[:, ::-1], axis=1)[:, ::-1]
    return sf, cdf


def _rank_sums(d):
    """Sum of the average ranks of ``|d|`` over the positive ``d``, zeros removed.

    Returns ``(r_plus, n_nonzero)``. One sort per row and no argsort. The bits
    of a non-negative double order like the double itself, so
    ``bits(d) << 1`` (the shift drops the sign bit) sorts like ``|d|``; the
    freed lowest bit holds ``d > 0``, which puts the positives last within each
    tie group. Zeros (key 0, as a zero is never positive) sort first and take
    ranks 1..n_zero, so every other rank is shifted down by n_zero. A tie group
    of size ``t`` starting at 0-based position ``s`` holding ``p`` positives
    adds ``p (2 s + t + 1) / 2`` (``p`` times its average rank). Everything is
    integer until the final halving, so the result is exact: the same as
    summing ``scipy.stats.rankdata`` ranks.
    """
    n = d.shape[-1]
    batch = d.shape[:-1]
    positive = d > 0
    n_pos = np.count_nonzero(positive, axis=-1)
    if d.size == 0:
        return np.zeros(batch), np.count_nonzero(d, axis=-1)
    key = np.ascontiguousarray(d).view(np.uint64) << np.uint64(1)
    key |= positive
    key.sort(axis=-1)
    positive = key & np.uint64(1)
    key ^= positive  # back to the bits of |d| (shifted), for the tie groups
    new_group = np.empty(key.shape, dtype=bool)
    new_group[..., 0] = True  # groups never span two rows
    np.not_equal(key[..., 1:], key[..., :-1], out=new_group[..., 1:])
    # Groups of the flattened array: global start, size and count of positives.
    start = np.flatnonzero(new_group)
    per_group = np.add.reduceat(positive.view(np.int64).ravel(), start)
    size = np.diff(start, append=new_group.size)
    n_groups = np.count_nonzero(new_group, axis=-1).ravel()
    first_group = np.cumsum(n_groups) - n_groups
    # The zeros, if any, are the first group of their row.
    n_zero = np.where(key[..., 0] == 0, size[first_group].reshape(batch), 0)
    size += 1
    size += 2 * start  # 2 s + t + 1, with s still global (row * n + s)
    per_group *= size
    total = np.add.reduceat(per_group, first_group).reshape(batch)
    # Undo the global offset 2 * row * n of every positive's start.
    total -= (2 * n) * np.arange(total.size).reshape(batch) * n_pos
    return total / 2 - n_zero * n_pos, n - n_zero


def _snap_ties(d, scale):
    """``d`` with near-zero values set to 0 and near-tied ``|d|`` set equal (signs kept).

    Floating point breaks ties: ``25/30 - 24/30`` and ``29/30 - 28/30`` differ
    in the last bit, and the mean of differences depends on their order. Values
    of ``|d|`` are grouped in sorted order, a new group starting where the gap
    to the previous value exceeds ``_TIE_RTOL * scale``; each member takes the
    group's smallest value, and a group starting within that tolerance of zero
    becomes zero. With data on a grid (accuracies are multiples of 1/n_test)
    the groups are exactly the ties of the exact values.
    """
    a = np.abs(d)
    tol = _TIE_RTOL * np.broadcast_to(np.asarray(scale), d.shape[:-1])[..., None]
    # Only rows with a near-tie or a near-zero that is not exact need the
    # grouping below (the argsort is most of the cost); the others pass as they are.
    s = np.sort(a, axis=-1)
    gap = np.diff(s, axis=-1)
    need = np.any((gap > 0) & (gap <= tol), axis=-1) | np.any((s > 0) & (s <= tol), axis=-1)
    if not need.any():
        return d
    if need.ndim and not need.all():
        out = d.copy()
        out[need] = _snap_rows(d[need], a[need], tol[need])
        return out
    return _snap_rows(d, a, tol)


def _snap_rows(d, a, tol):
    """:func:`_snap_ties` on rows that need it (``a = |d|``, ``tol`` with a trailing axis of 1)."""
    order = np.argsort(a, axis=-1, kind="stable")
    s = np.take_along_axis(a, order, axis=-1)
    new_group = np.empty(s.shape, dtype=bool)
    new_group[..., 0] = True
    np.greater(np.diff(s, axis=-1), tol, out=new_group[..., 1:])
    # Group starts increase along the sorted axis, so the running maximum of
    # the starts is each value's own group start.
    start = np.where(new_group, s, -np.inf)
    rep = np.maximum.accumulate(start, axis=-1)
    rep = np.where(rep <= tol, 0.0, rep)
    snapped = np.empty_like(a)
    np.put_along_axis(snapped, order, rep, axis=-1)
    return np.where(d < 0, -snapped, snapped) + 0.0  # + 0.0 turns -0.0 into 0.0


def _signed_rank_test(d, alternative, method, scale=None):
    if scale is None:
        scale = np.max(np.abs(d), axis=-1) if d.shape[-1] else np.zeros(d.shape[:-1])
    d = _snap_ties(d, scale)
    r_plus, n_nz = _rank_sums(d)
    # Mean n'(n'+1)/4 and variance n'(n'+1)(2n'+1)/24 (Bouckaert 2004, Sec. 2),
    # no tie correction and no continuity correction, as in the paper.
    mean = n_nz * (n_nz + 1) / 4.0
    sd = np.sqrt(n_nz * (n_nz + 1) * (2 * n_nz + 1) / 24.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = np.where(n_nz > 0, (r_plus - mean) / np.where(n_nz > 0, sd, 1.0), 0.0)
    if method == "normal":
        p = _normal_pvalue(z, alternative)
    else:
        sf, cdf = _signed_rank_sf_cdf(int(d.shape[-1]))
        w_max = sf.shape[1] - 1
        # W+ is integer-valued under the untied null: P(W >= r) = P(W >= ceil r).
        up = sf[n_nz, np.clip(np.ceil(r_plus).astype(int), 0, w_max)]
        down = cdf[n_nz, np.clip(np.floor(r_plus).astype(int), 0, w_max)]
        if alternative == "greater":
            p = up
        elif alternative == "less":
            p = down
        else:
            p = np.minimum(1.0, 2.0 * np.minimum(up, down))
    p = np.where(n_nz > 0, p, 1.0)
    return SignedRankResult(
        statistic=unwrap_scalar(z),
        pvalue=unwrap_scalar(np.clip(p, 0.0, 1.0)),
        alternative=alternative,
        r_plus=unwrap_scalar(r_plus),
        n_nonzero=unwrap_scalar(n_nz),
    )


def signed_rank_test(x, y=None, *, alternative="two-sided", method="normal"):
    r"""Wilcoxon signed-rank test on paired differences, zeros removed.

    This is the "rank sum test" of Bouckaert (2004) (see ERRATA). The null
    hypothesis is that the differences ``x - y`` are symmetric about zero:
    learners A and B perform equally well.

    Zero differences are removed, leaving ``n'`` values; the absolute values
    are ranked (average ranks for ties) and ``r`` is the sum of the ranks of
    the positive differences. The statistic is

    .. math:: Z = \frac{r - n'(n'+1)/4}{\sqrt{n'(n'+1)(2n'+1)/24}},

    positive when A is better (positive differences carry the larger ranks).

    Parameters
    ----------
    x : array_like
        Scores of learner A, sample on the last axis; or the differences
        ``d`` when ``y`` is None.
    y : array_like, optional
        Scores of learner B, same shape as ``x``.
    alternative : {"two-sided", "greater", "less"}, optional
        ``"greater"``: A is better.
    method : {"normal", "exact"}, optional
        ``"normal"``: ``Z`` against the standard normal (the paper's
        approximation). ``"exact"``: the exact null distribution of ``r``
        for ``n'`` untied ranks; at most 200 differences per sample.

    Returns
    -------
    SignedRankResult
        ``statistic`` (``Z``), ``pvalue``, ``alternative``, ``r_plus`` and
        ``n_nonzero``.

    Notes
    -----
    *Ties are found on the exact values, not on their floating-point
    images.* ``x - y`` and means of differences carry rounding errors, so
    differences that are equal in exact arithmetic (``25/30 - 24/30`` and
    ``29/30 - 28/30``) can differ in the last bit and would otherwise rank
    apart. Here absolute differences within ``1e-9`` times the sample's scale
    of each other are tied, and within that of zero are zeros; the scale is
    the largest ``|x|`` or ``|y|`` of the sample, or the largest ``|d|`` when
    only differences are given. Scores on a grid coarser than that
    (accuracies are multiples of ``1/n_test``) get exactly the ties of exact
    arithmetic; distinct values closer than the tolerance are tied too.

    Bouckaert (2004) uses neither a continuity correction nor a tie
    correction, and neither does this function. On tie-free data the normal
    method equals ``scipy.stats.wilcoxon(..., zero_method="wilcox",
    correction=False, method="approx")``. With tied absolute differences
    scipy shrinks the variance by ``sum(t**3 - t)/48`` over the tie groups;
    here the paper's untied variance is kept, so p-values are slightly larger
    than scipy's. The exact method uses the untied null distribution of
    ``r`` (a sum of a random subset of ``1..n'``); with ties ``r`` may be a
    half-integer and is compared with that distribution as it is, so prefer
    the normal method for tied data.

    *Degenerate data.* All differences zero (``n' = 0``): ``Z = 0``,
    ``p = 1``. Non-zero constant differences are not degenerate here:
    every rank is positive (or negative) and the p-value is that of the
    extreme rank sum.

    References
    ----------
    .. [1] Bouckaert, R. R. (2004). Estimating replicability of classifier
       learning experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338
    .. [2] Wilcoxon, F. (1945). Individual comparisons by ranking methods.
       Biometrics Bulletin, 1(6), 80-83. https://doi.org/10.2307/3001968

    Examples
    --------
    >>> from replicability.stats.nonparametric import signed_rank_test
    >>> d = [0.021, 0.013, 0.0, 0.034, -0.012, 0.025, 0.047, 0.011, -0.002]
    >>> res = signed_rank_test(d)
    >>> print(round(float(res.statistic), 4), float(res.r_plus), int(res.n_nonzero))
    1.9604 32.0 8
    >>> print(round(float(res.pvalue), 4))
    0.0499
    >>> print(round(float(signed_rank_test(d, method="exact").pvalue), 4))
    0.0547
    """
    d, alternative, method, scale = _validate(x, y, alternative, method)
    if method == "exact" and d.shape[-1] > _EXACT_MAX_N:
        raise ValueError(
            f"`method` 'exact' supports at most {_EXACT_MAX_N} differences per sample; "
            f"got {d.shape[-1]}. Use method='normal'."
        )
    return _signed_rank_test(d, alternative, method, scale)
