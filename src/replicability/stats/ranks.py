"""Many learners on many data sets: average ranks, the Friedman test and the Nemenyi test.

Demšar (2006) and García & Herrera (2008): score ``k`` learners on ``N`` data sets
(one score per data set and learner, e.g. the mean accuracy of a cross-validation),
rank the learners on every data set (1 = best, ties averaged), and compare the
average ranks. The Friedman test (with Iman & Davenport's F) asks whether any
learner differs; the Nemenyi test compares every pair through one critical
difference, and the groups of learners it does not separate. Tests of a control
learner against each other learner are in :mod:`replicability.stats.control`.

Scores are a table with data sets on axis -2 and learners on the last axis, shape
``(..., N, k)``; every function is vectorized over the leading axes (for instance one
table per randomization of the experiment).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from scipy import special, stats

from .._results import TestResult, UnsignedResult, unwrap_scalar
from .._validation import (
    as_float_array,
    as_numbers,
    check_alpha,
    check_bool,
    check_choice,
    check_not_text_or_bool,
    check_positive_int,
)

__all__ = [
    "FriedmanResult",
    "NemenyiResult",
    "average_ranks",
    "critical_difference",
    "critical_value",
    "friedman_test",
    "nemenyi_test",
    "rank_cliques",
    "rank_scores",
]

_BETTER = ("higher", "lower")
_POSTHOCS = ("nemenyi", "bonferroni-dunn")


@dataclass(frozen=True, repr=False)
class FriedmanResult(UnsignedResult):
    """Result of :func:`friedman_test`.

    ``statistic``, ``pvalue`` and ``df`` are Friedman's :math:`\\chi^2_F`, its
    chi-squared p-value and ``k - 1``.

    Attributes
    ----------
    iman_davenport : float or ndarray
        Iman & Davenport's :math:`F_F`, the statistic Demšar (2006) recommends.
    iman_davenport_pvalue : float or ndarray
        Its p-value from the F distribution.
    iman_davenport_df : tuple of int
        ``(k - 1, (k - 1)(N - 1))``.
    average_ranks : ndarray, shape (..., k)
        Average rank of each learner (1 = best).
    n_datasets, n_learners : int
        ``N`` and ``k``.
    tie_correction : bool
        Whether the statistics were divided by the tie correction.
    """

    iman_davenport: float | np.ndarray = 0.0
    iman_davenport_pvalue: float | np.ndarray = 1.0
    iman_davenport_df: tuple = (0, 0)
    average_ranks: np.ndarray | None = None
    n_datasets: int = 0
    n_learners: int = 0
    tie_correction: bool = False

    def to_frame(self):
        """One row per test: every field, the average ranks as columns ``average_rank_0``, ...."""
        frame = TestResult.to_frame(replace(self, average_ranks=None)).drop(columns="average_ranks")
        ranks = np.asarray(self.average_ranks).reshape(len(frame), -1)
        for j in range(ranks.shape[1]):
            frame[f"average_rank_{j}"] = ranks[:, j]
        return frame


@dataclass(frozen=True, repr=False)
class NemenyiResult(TestResult):
    """Result of :func:`nemenyi_test`: every pair of learners.

    ``statistic[..., i, j]`` is :math:`z_{ij} = (R_j - R_i)/\\sqrt{k(k+1)/(6N)}`,
    positive when learner ``i`` has the better (smaller) average rank;
    ``pvalue[..., i, j]`` its two-sided p-value from the studentized range
    distribution (1 on the diagonal).

    Attributes
    ----------
    average_ranks : ndarray, shape (..., k)
    critical_difference : float
        CD at ``alpha``: pairs whose average ranks differ by at least CD differ.
    critical_value : float
        :math:`q_\\alpha`, the studentized range quantile divided by :math:`\\sqrt 2`.
    alpha : float
    n_datasets : int
    """

    average_ranks: np.ndarray | None = None
    critical_difference: float = 0.0
    critical_value: float = 0.0
    alpha: float = 0.05
    n_datasets: int = 0

    @property
    def significant(self):
        """Boolean matrix: ``|R_i - R_j| >= CD`` (Demšar 2006: "differ by at least the critical difference")."""
        r = np.asarray(self.average_ranks)
        return np.abs(r[..., :, None] - r[..., None, :]) >= self.critical_difference

    def cliques(self):
        """Maximal groups of learners not significantly different: :func:`rank_cliques` of this result."""
        return rank_cliques(self.average_ranks, self.critical_difference)

    def to_frame(self):
        """One row per pair ``i < j`` (and test, for a batch): ranks, statistic, p-value, significance."""
        import pandas as pd

        ranks = np.asarray(self.average_ranks)
        z, p, sig = np.asarray(self.statistic), np.asarray(self.pvalue), self.significant
        first, second = np.triu_indices(ranks.shape[-1], 1)
        rows = [{**{f"dim_{d}": v for d, v in enumerate(at)}, "learner_i": int(i), "learner_j": int(j),
                 "average_rank_i": float(ranks[at + (i,)]), "average_rank_j": float(ranks[at + (j,)]),
                 "statistic": float(z[at + (i, j)]), "pvalue": float(p[at + (i, j)]),
                 "significant": bool(sig[at + (i, j)]), "critical_difference": self.critical_difference}
                for at in np.ndindex(ranks.shape[:-1]) for i, j in zip(first, second)]
        return pd.DataFrame(rows)


# --------------------------------------------------------------------------
# validation
# --------------------------------------------------------------------------


def _as_scores(scores, better):
    """``scores`` as a finite float array (..., N, k) with N >= 2 data sets and k >= 2 learners."""
    better = check_choice(better, "better", _BETTER)
    if not hasattr(scores, "dtype"):  # lists; arrays and DataFrames are checked by dtype below
        check_not_text_or_bool(scores, "scores")
    elif np.asarray(scores).dtype.kind in "bUSO":
        check_not_text_or_bool(np.asarray(scores), "scores")
    arr = as_float_array(scores, "scores", min_last=2, ndim_min=2)
    if arr.shape[-2] < 2:
        raise ValueError(
            f"`scores` must hold at least 2 data sets (rows, axis -2) and 2 learners (columns); got shape {arr.shape}."
        )
    return arr, better


def _check_k_n(n_learners, n_datasets):
    return check_positive_int(n_learners, "n_learners", minimum=2), check_positive_int(n_datasets, "n_datasets")


# --------------------------------------------------------------------------
# ranks
# --------------------------------------------------------------------------


def _ranks(scores, better):
    # Negating is exact, so equal scores stay tied.
    return stats.rankdata(-scores if better == "higher" else scores, axis=-1, method="average")


def rank_scores(scores, *, better="higher"):
    """Rank the learners on every data set: 1 for the best, ties get the average of their ranks.

    Parameters
    ----------
    scores : array_like, shape (..., N, k)
        One score per data set (axis -2) and learner (last axis).
    better : {"higher", "lower"}, optional
        ``"higher"`` for accuracy or AUC, ``"lower"`` for error rates or losses.

    Returns
    -------
    ndarray, shape (..., N, k)
        Ranks in ``1..k``, multiples of 1/2.

    Notes
    -----
    Scores tie only when they are equal as floating-point numbers; round them first if
    scores equal in exact arithmetic may differ in the last bits.

    Examples
    --------
    >>> from replicability.stats.ranks import rank_scores
    >>> rank_scores([[0.90, 0.85, 0.90], [0.70, 0.80, 0.75]]).tolist()
    [[1.5, 3.0, 1.5], [3.0, 1.0, 2.0]]
    >>> rank_scores([[0.10, 0.15, 0.10]], better="lower").tolist()  # error rates
    [[1.5, 3.0, 1.5]]
    """
    better = check_choice(better, "better", _BETTER)
    check_not_text_or_bool(np.asarray(scores) if hasattr(scores, "dtype") else scores, "scores")
    arr = as_float_array(scores, "scores", min_last=1, ndim_min=1)
    return _ranks(arr, better)


def average_ranks(scores, *, better="higher"):
    r"""Average rank of every learner over the data sets, :math:`R_j = \frac{1}{N}\sum_i r_i^j`.

    Parameters
    ----------
    scores : array_like, shape (..., N, k)
        One score per data set (axis -2) and learner (last axis).
    better : {"higher", "lower"}, optional
        Whether a higher or a lower score is better; the best learner of a data set
        gets rank 1, tied learners the average of their ranks.

    Returns
    -------
    ndarray, shape (..., k)
        Average ranks; they sum to ``k (k + 1) / 2``.

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple
       data sets. Journal of Machine Learning Research 7, 1-30, Sec. 3.2.2.
       https://jmlr.org/papers/v7/demsar06a.html

    Examples
    --------
    >>> from replicability.stats.ranks import average_ranks
    >>> average_ranks([[0.90, 0.85, 0.90], [0.70, 0.80, 0.75]]).tolist()
    [2.25, 2.0, 1.75]
    """
    arr, better = _as_scores(scores, better)
    return _ranks(arr, better).mean(axis=-2)


# --------------------------------------------------------------------------
# Friedman test
# --------------------------------------------------------------------------


def friedman_test(scores, *, better="higher", tie_correction=False):
    r"""Friedman's test that all learners perform alike, with Iman & Davenport's F.

    The null hypothesis is that the ``k`` learners are equivalent: on every data set
    each ranking of them is equally likely, so their average ranks :math:`R_j` differ
    only by chance. With ``N`` data sets,

    .. math::

        \chi^2_F = \frac{12 N}{k(k+1)} \Big[\sum_j R_j^2 - \frac{k(k+1)^2}{4}\Big],
        \qquad
        F_F = \frac{(N-1)\,\chi^2_F}{N(k-1) - \chi^2_F},

    :math:`\chi^2_F` against :math:`\chi^2_{k-1}` and :math:`F_F` against
    :math:`F_{k-1,\,(k-1)(N-1)}` (Demšar 2006, Sec. 3.2.2). Iman & Davenport (1980)
    found :math:`\chi^2_F` undesirably conservative; Demšar recommends :math:`F_F`.

    Parameters
    ----------
    scores : array_like, shape (..., N, k)
        One score per data set (axis -2) and learner (last axis); N, k >= 2.
    better : {"higher", "lower"}, optional
        Direction of the scores (it sets ``average_ranks``; the statistics do not
        depend on it).
    tie_correction : bool, optional
        Divide :math:`\chi^2_F` by :math:`C = 1 - \sum (t^3 - t) / (N k (k^2 - 1))`
        over the groups of ``t`` tied scores, as :func:`scipy.stats.friedmanchisquare`
        and R's ``friedman.test`` do. Default False: the formula as Demšar (2006) and
        García & Herrera (2008) print and apply it to average ranks with ties.

    Returns
    -------
    FriedmanResult
        ``statistic`` (:math:`\chi^2_F`), ``pvalue``, ``df`` (``k - 1``),
        ``iman_davenport`` (:math:`F_F`), ``iman_davenport_pvalue``,
        ``iman_davenport_df``, ``average_ranks``, ``n_datasets``, ``n_learners``.

    Notes
    -----
    Computed from the rank sums :math:`S_j = N R_j` in exact (integer) arithmetic as
    :math:`\chi^2_F = (k-1) A / D` and :math:`F_F = (N-1) A / (N D - A)` with
    :math:`A = 12 \sum_j (S_j - N(k+1)/2)^2` and :math:`D = 12 V`, where :math:`V`
    is the sum over data sets of the squared deviations of the ranks from
    :math:`(k+1)/2`: :math:`N k (k^2-1)/12` without ties (no correction), its actual
    value with the tie correction. With the correction, :math:`F_F` is the
    two-way analysis of variance F on the ranks.

    *Degenerate data.* When every data set ties all learners (:math:`D = 0`, only
    with the correction) or the rank sums are all equal: :math:`\chi^2_F = F_F = 0`
    and p = 1. When every data set ranks the learners the same way (:math:`N D = A`):
    :math:`\chi^2_F = N(k-1)`, :math:`F_F = \infty` and its p = 0.

    The chi-squared approximation needs, as a rule of thumb, N > 10 and k > 5
    (Demšar 2006); the F approximation is better for fewer.

    References
    ----------
    .. [1] Friedman, M. (1937). The use of ranks to avoid the assumption of
       normality implicit in the analysis of variance. JASA 32(200), 675-701.
       https://doi.org/10.1080/01621459.1937.10503522
    .. [2] Iman, R. L., & Davenport, J. M. (1980). Approximations of the critical
       region of the Friedman statistic. Communications in Statistics - Theory and
       Methods 9(6), 571-595. https://doi.org/10.1080/03610928008827904
    .. [3] Demšar, J. (2006). Statistical comparisons of classifiers over multiple
       data sets. Journal of Machine Learning Research 7, 1-30.
       https://jmlr.org/papers/v7/demsar06a.html
    .. [4] García, S., & Herrera, F. (2008). An extension on "Statistical comparisons
       of classifiers over multiple data sets" for all pairwise comparisons. Journal
       of Machine Learning Research 9, 2677-2694.
       https://jmlr.org/papers/v9/garcia08a.html

    Examples
    --------
    Demšar's (2006) example is computed from his Table 6 (``tests/stats/test_ranks.py``);
    here three learners on five data sets:

    >>> from replicability.stats.ranks import friedman_test
    >>> scores = [[0.81, 0.79, 0.75], [0.90, 0.91, 0.85], [0.66, 0.64, 0.60],
    ...           [0.72, 0.70, 0.71], [0.95, 0.93, 0.92]]
    >>> res = friedman_test(scores)
    >>> res.average_ranks.tolist()
    [1.2, 2.0, 2.8]
    >>> print(round(float(res.statistic), 3), round(float(res.pvalue), 4), res.df)
    6.4 0.0408 2
    >>> print(round(float(res.iman_davenport), 3), round(float(res.iman_davenport_pvalue), 4))
    7.111 0.0168
    """
    arr, better = _as_scores(scores, better)
    tie_correction = check_bool(tie_correction, "tie_correction")
    n, k = arr.shape[-2:]
    ranks = _ranks(arr, better)
    # Rank sums and rank deviations are multiples of 1/2: A and D are exact integers.
    sums = ranks.sum(axis=-2)
    a = 12.0 * np.sum((sums - n * (k + 1) / 2.0) ** 2, axis=-1)
    if tie_correction:
        d = 12.0 * np.sum((ranks - (k + 1) / 2.0) ** 2, axis=(-2, -1))
    else:
        d = np.full(a.shape, float(n * k * (k * k - 1)))
    with np.errstate(divide="ignore", invalid="ignore"):
        chi2 = np.where(d > 0, (k - 1) * a / np.where(d > 0, d, 1.0), 0.0)
        denom = n * d - a
        f = np.where(a == 0, 0.0, np.where(denom > 0, (n - 1) * a / np.where(denom > 0, denom, 1.0), np.inf))
    df1, df2 = k - 1, (k - 1) * (n - 1)
    p_chi2 = np.where(chi2 > 0, special.chdtrc(df1, chi2), 1.0)
    p_f = np.where(f > 0, np.where(np.isinf(f), 0.0, special.fdtrc(df1, df2, np.where(np.isinf(f), 0.0, f))), 1.0)
    return FriedmanResult(
        statistic=unwrap_scalar(chi2), pvalue=unwrap_scalar(p_chi2), df=df1,
        iman_davenport=unwrap_scalar(f), iman_davenport_pvalue=unwrap_scalar(p_f), iman_davenport_df=(df1, df2),
        average_ranks=sums / n, n_datasets=n, n_learners=k, tie_correction=bool(tie_correction),
    )


# --------------------------------------------------------------------------
# Nemenyi test and the critical difference
# --------------------------------------------------------------------------


def critical_value(n_learners, *, alpha=0.05, test="nemenyi"):
    r"""Critical value :math:`q_\alpha` of the post-hoc tests on average ranks (Demšar 2006, Table 5).

    ``"nemenyi"`` (all pairs): the upper ``alpha`` quantile of the studentized range
    of ``k`` means with infinite degrees of freedom, divided by :math:`\sqrt 2`.
    ``"bonferroni-dunn"`` (``k - 1`` comparisons with a control): the two-sided normal
    quantile at ``alpha / (k - 1)``, :math:`z_{1 - \alpha / (2(k-1))}`.

    Parameters
    ----------
    n_learners : int
        ``k``, at least 2 (the control included).
    alpha : float, optional
        Family-wise significance level.
    test : {"nemenyi", "bonferroni-dunn"}, optional

    Returns
    -------
    float

    References
    ----------
    .. [1] Nemenyi, P. (1963). Distribution-free multiple comparisons. PhD thesis,
       Princeton University.
    .. [2] Dunn, O. J. (1961). Multiple comparisons among means. JASA 56(293), 52-64.
       https://doi.org/10.1080/01621459.1961.10482090
    .. [3] Demšar, J. (2006). Statistical comparisons of classifiers over multiple
       data sets. JMLR 7, 1-30, Table 5. https://jmlr.org/papers/v7/demsar06a.html

    Examples
    --------
    >>> from replicability.stats.ranks import critical_value
    >>> print(round(critical_value(4), 3), round(critical_value(4, alpha=0.10), 3))
    2.569 2.291
    >>> print(round(critical_value(4, test="bonferroni-dunn"), 3))
    2.394
    """
    k = check_positive_int(n_learners, "n_learners", minimum=2)
    alpha = check_alpha(alpha)
    test = check_choice(test, "test", _POSTHOCS)
    if test == "bonferroni-dunn":
        return float(special.ndtri(1.0 - alpha / (2.0 * (k - 1))))
    return float(stats.studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0))


def critical_difference(n_learners, n_datasets, *, alpha=0.05, test="nemenyi"):
    r"""Critical difference of average ranks, :math:`CD = q_\alpha \sqrt{k(k+1)/(6N)}`.

    Two learners whose average ranks differ by at least CD are significantly different
    (Nemenyi: all pairs; Bonferroni-Dunn: each learner against a control).

    Parameters
    ----------
    n_learners : int
        ``k``, at least 2.
    n_datasets : int
        ``N``, at least 1.
    alpha : float, optional
        Family-wise significance level.
    test : {"nemenyi", "bonferroni-dunn"}, optional
        Which :func:`critical_value`.

    Returns
    -------
    float

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple
       data sets. JMLR 7, 1-30, Sec. 3.2.2. https://jmlr.org/papers/v7/demsar06a.html

    Examples
    --------
    Demšar's example, four learners on 14 data sets:

    >>> from replicability.stats.ranks import critical_difference
    >>> print(round(critical_difference(4, 14), 2), round(critical_difference(4, 14, alpha=0.10), 2))
    1.25 1.12
    >>> print(round(critical_difference(4, 14, test="bonferroni-dunn"), 3))  # Demšar prints 1.16
    1.168
    """
    k, n = _check_k_n(n_learners, n_datasets)
    return critical_value(k, alpha=alpha, test=test) * float(np.sqrt(k * (k + 1) / (6.0 * n)))


def nemenyi_test(scores, *, better="higher", alpha=0.05):
    r"""Nemenyi's post-hoc test: every pair of learners, through their average ranks.

    For each pair the null hypothesis is that learners ``i`` and ``j`` have the same
    expected average rank. With :math:`SE = \sqrt{k(k+1)/(6N)}`, the statistic is
    :math:`z_{ij} = (R_j - R_i)/SE` and the family of all :math:`k(k-1)/2` pairs is
    tested at level :math:`\alpha` through the studentized range distribution with
    infinite degrees of freedom: :math:`p_{ij} = P(Q_{k,\infty} \ge \sqrt 2 |z_{ij}|)`.
    Equivalently, the pair differs when :math:`|R_i - R_j| \ge CD = q_\alpha SE`
    (:func:`critical_difference`). Demšar (2006) recommends it after the Friedman
    test has rejected.

    Parameters
    ----------
    scores : array_like, shape (..., N, k)
        One score per data set (axis -2) and learner (last axis).
    better : {"higher", "lower"}, optional
    alpha : float, optional
        Family-wise level of ``critical_difference`` (the p-values do not depend on it).

    Returns
    -------
    NemenyiResult
        ``statistic`` and ``pvalue`` of shape (..., k, k), ``average_ranks``,
        ``critical_difference``, ``critical_value``, ``alpha``, ``n_datasets``;
        ``significant`` and ``cliques()``.

    Notes
    -----
    The p-values are those of ``scikit_posthocs.posthoc_nemenyi_friedman``. Like the
    Friedman statistic without tie correction, the standard error ignores ties.

    References
    ----------
    .. [1] Nemenyi, P. (1963). Distribution-free multiple comparisons. PhD thesis,
       Princeton University.
    .. [2] Demšar, J. (2006). Statistical comparisons of classifiers over multiple
       data sets. JMLR 7, 1-30, Sec. 3.2.2. https://jmlr.org/papers/v7/demsar06a.html

    Examples
    --------
    >>> from replicability.stats.ranks import nemenyi_test
    >>> scores = [[0.81, 0.79, 0.75], [0.90, 0.91, 0.85], [0.66, 0.64, 0.60],
    ...           [0.72, 0.70, 0.71], [0.95, 0.93, 0.92]]
    >>> res = nemenyi_test(scores)
    >>> print(round(res.critical_difference, 3), res.average_ranks.tolist())
    1.482 [1.2, 2.0, 2.8]
    >>> print(round(float(res.pvalue[0, 2]), 4), bool(res.significant[0, 2]))
    0.0307 True
    >>> res.cliques()
    [(0, 1), (1, 2)]
    """
    arr, better = _as_scores(scores, better)
    alpha = check_alpha(alpha)
    n, k = arr.shape[-2:]
    ranks = _ranks(arr, better).mean(axis=-2)
    se = np.sqrt(k * (k + 1) / (6.0 * n))
    z = (ranks[..., None, :] - ranks[..., :, None]) / se
    # The studentized range integral is slow: evaluate it once per distinct |z| (rank
    # differences take few values), and not at all on the diagonal and for ties.
    distinct, inverse = np.unique(np.abs(z), return_inverse=True)
    p_distinct = np.ones_like(distinct)
    positive = distinct > 0
    p_distinct[positive] = np.clip(stats.studentized_range.sf(np.sqrt(2.0) * distinct[positive], k, np.inf), 0.0, 1.0)
    p = p_distinct[inverse.reshape(z.shape)]
    q = critical_value(k, alpha=alpha)
    return NemenyiResult(
        statistic=unwrap_scalar(z), pvalue=unwrap_scalar(p), average_ranks=ranks,
        critical_difference=q * float(se), critical_value=q, alpha=alpha, n_datasets=n,
    )


def rank_cliques(average_ranks, critical_difference):
    r"""Maximal groups of learners whose average ranks span less than the critical difference.

    Demšar (2006) calls two learners significantly different when their average ranks
    "differ by at least the critical difference"; learners not significantly different
    from each other are joined by a bar in his CD diagram. A group qualifies when its
    rank range (largest minus smallest average rank) is strictly less than CD: then
    every pair in it is not significantly different, and conversely, because average
    ranks lie on a line, a set whose pairs are all within CD is such a group (the
    maximal groups are windows of consecutive ranks). Every learner belongs to at
    least one group; a learner significantly different from all others forms a
    group of one (not drawn as a bar).

    Parameters
    ----------
    average_ranks : array_like, shape (k,)
    critical_difference : float
        Positive.

    Returns
    -------
    list of tuple of int
        Each group as the learners' positions sorted by average rank (then position),
        the groups ordered by their best rank. No group contains another.

    Notes
    -----
    *Strict inequality.* A range equal to CD is significant (Demšar: "at least").
    In exact arithmetic this case does not arise: average ranks are multiples of
    :math:`1/(2N)` while :math:`q_\alpha`, a quantile of the studentized range, is
    not a rational multiple of :math:`\sqrt{6N / (k(k+1))}` in general; the choice
    only settles floating-point coincidences, in the same direction as
    :attr:`NemenyiResult.significant`.

    Examples
    --------
    Demšar's Figure 1(a) (his Table 6 at alpha = 0.10, CD = 1.12): C4.5 (rank 3.143)
    differs from C4.5+m (2.000) and C4.5+m+cf (1.964), C4.5+cf (2.893) from neither:

    >>> from replicability.stats.ranks import rank_cliques
    >>> rank_cliques([3.143, 2.000, 2.893, 1.964], 1.12)
    [(3, 1, 2), (2, 0)]
    >>> rank_cliques([1.0, 2.0, 3.0], 0.5)
    [(0,), (1,), (2,)]
    """
    r = as_float_array(average_ranks, "average_ranks")
    if r.ndim != 1:
        raise ValueError(f"`average_ranks` must be 1-d (one value per learner); got shape {r.shape}.")
    cd = as_numbers(critical_difference, "critical_difference")
    if cd.ndim != 0 or not (0 < float(cd) < np.inf):
        raise ValueError(f"`critical_difference` must be a positive finite number; got {critical_difference!r}.")
    cd = float(cd)
    order = np.lexsort((np.arange(r.size), r))
    groups = []
    for start in range(r.size):
        if start and r[order[start]] == r[order[start - 1]]:
            continue  # a window starts at the first of tied ranks
        members = tuple(int(i) for i in order[start:] if r[i] - r[order[start]] < cd)
        if not groups or not set(members) <= set(groups[-1]):
            groups.append(members)
    return groups
