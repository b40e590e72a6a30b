"""Many learners on data sets where some scores are missing: the Skillings–Mack and Durbin tests.

Real benchmark tables have gaps: a learner fails or times out on some data sets.
Friedman's test (:mod:`replicability.stats.ranks`) needs every cell; these tests rank
the learners present on each data set (a *block*) and ask the same question, whether
any learner differs, from incomplete blocks:

* :func:`skillings_mack_test` (Skillings & Mack 1981) for any pattern of missing
  cells that still links every learner to every other one through shared data sets;
* :func:`durbin_test` (Durbin 1951, with Conover's tie correction and F form) for a
  balanced incomplete block design, where it equals Skillings–Mack without ties.

Scores are a table ``(..., N, k)`` as in :mod:`~replicability.stats.ranks`, with NaN
for a missing cell; the leading axes are looped over, as each slice may miss other
cells.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import special, stats

from .._results import UnsignedResult, unwrap_scalar
from .._validation import check_choice, check_not_text_or_bool

__all__ = ["IncompleteBlockResult", "durbin_test", "is_balanced_incomplete", "skillings_mack_test"]

_BETTER = ("higher", "lower")


@dataclass(frozen=True, repr=False)
class IncompleteBlockResult(UnsignedResult):
    """Result of :func:`skillings_mack_test` and :func:`durbin_test`.

    ``statistic``, ``pvalue`` and ``df`` are the chi-squared form of the test.

    Attributes
    ----------
    f_statistic, f_pvalue : float or ndarray
        Durbin's F form (Conover's :math:`T_2`) and its p-value; NaN for Skillings–Mack,
        which has no F form.
    f_df : tuple of int
        ``(k - 1, b k' - b - k + 1)`` for Durbin; ``(0, 0)`` for Skillings–Mack.
    average_ranks : ndarray, shape (..., k)
        Mean over the data sets where a learner is present of its rank among the
        learners present there (1 = best); ranks from blocks of different sizes are
        not on one scale, so these describe, the test decides.
    n_blocks : int or ndarray
        Data sets used (those with at least two scores).
    n_missing : int or ndarray
        Missing cells in the table.
    method : str
        ``"skillings-mack"`` or ``"durbin"``.
    """

    f_statistic: float | np.ndarray = np.nan
    f_pvalue: float | np.ndarray = np.nan
    f_df: tuple = (0, 0)
    average_ranks: np.ndarray | None = None
    n_blocks: int | np.ndarray = 0
    n_missing: int | np.ndarray = 0
    method: str = "skillings-mack"


def _as_table(scores, better):
    """``scores`` as a float array (..., N, k) whose NaN are missing cells; other non-finite values refused."""
    better = check_choice(better, "better", _BETTER)
    check_not_text_or_bool(np.asarray(scores) if hasattr(scores, "dtype") else scores, "scores")
    try:
        arr = np.asarray(scores, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"`scores` must hold numbers (NaN for a missing cell); got {scores!r}.") from None
    if arr.ndim < 2 or arr.shape[-1] < 2 or arr.shape[-2] < 2:
        raise ValueError(f"`scores` must have shape (..., N, k) with N >= 2 data sets and k >= 2 learners; "
                         f"got shape {arr.shape}.")
    if np.any(np.isinf(arr)):
        raise ValueError("`scores` must be finite or NaN (a missing cell); got an infinite value.")
    return arr, better


def _block_ranks(table, better):
    """Ranks among the present learners of each row (1 = best, ties averaged), NaN where missing."""
    values = -table if better == "higher" else table
    return stats.rankdata(values, axis=-1, method="average", nan_policy="omit")


def _connected(present):
    """Whether the learners form one group when linked by every data set where two of them are present."""
    k = present.shape[1]
    seen, stack = {0}, [0]
    while stack:
        j = stack.pop()
        linked = np.flatnonzero(np.any(present[present[:, j]], axis=0))
        for other in linked:
            if other not in seen:
                seen.add(int(other))
                stack.append(int(other))
    return len(seen) == k


def _usable(table, name):
    """Rows with at least two scores; refuses a table where no rank test can compare every learner."""
    present = ~np.isnan(table)
    used = present.sum(axis=1) >= 2
    if used.sum() < 2:
        raise ValueError(f"`{name}` must have at least 2 data sets with 2 or more scores; got {int(used.sum())}.")
    present = present[used]
    never = np.flatnonzero(~present.any(axis=0))
    if never.size:
        raise ValueError(f"`{name}`: learners {never.tolist()} have no score on a data set shared with another "
                         "learner; no rank test can place them.")
    if not _connected(present):
        raise ValueError(f"`{name}`: the learners split into groups that never meet on a data set; no rank "
                         "test can compare the groups.")
    return table[used], present


def _skillings_mack_1d(table, better):
    table, present = _usable(table, "scores")
    ranks = _block_ranks(table, better)
    k_i = present.sum(axis=1, keepdims=True)
    # Skillings & Mack (1981), eq. (2.1): centred ranks scaled by sqrt(12 / (k_i + 1)); 0 where missing.
    adjusted = np.where(present, np.sqrt(12.0 / (k_i + 1.0)) * (ranks - (k_i + 1.0) / 2.0), 0.0)
    a = adjusted.sum(axis=0)
    # Their covariance matrix: -lambda_jl off the diagonal (data sets where j and l are both present),
    # rows summing to zero.
    both = present.T.astype(float) @ present.astype(float)
    sigma = -both
    np.fill_diagonal(sigma, 0.0)
    np.fill_diagonal(sigma, -sigma.sum(axis=1))
    statistic = float(a @ np.linalg.pinv(sigma, hermitian=True) @ a)
    df = int(np.linalg.matrix_rank(sigma, hermitian=True))
    average = np.nanmean(ranks, axis=0)
    return max(statistic, 0.0), df, average, table.shape[0]


def skillings_mack_test(scores, *, better="higher"):
    r"""Skillings & Mack's test that all learners perform alike, for a table with missing cells.

    The null hypothesis is Friedman's: on every data set, each ranking of the learners
    present is equally likely. Rank the :math:`k_i` learners present on data set
    :math:`i` (ties averaged), centre and scale the ranks,
    :math:`a_{ij} = \sqrt{12/(k_i+1)}\,(r_{ij} - (k_i+1)/2)` (0 for a missing cell),
    and sum them per learner, :math:`A_j = \sum_i a_{ij}`. With :math:`\Sigma` the
    covariance of :math:`A` under the null, :math:`\sigma_{jl} = -\lambda_{jl}` (the
    number of data sets where ``j`` and ``l`` are both present) and rows summing to
    zero,

    .. math:: SM = A^\top \Sigma^{-} A \;\sim\; \chi^2_{k-1}

    with :math:`\Sigma^{-}` a generalized inverse (Skillings & Mack 1981).

    Parameters
    ----------
    scores : array_like, shape (..., N, k)
        One score per data set (axis -2) and learner (last axis), NaN where missing.
    better : {"higher", "lower"}, optional
        Direction of the scores (it sets ``average_ranks``; the statistic does not
        depend on it).

    Returns
    -------
    IncompleteBlockResult
        ``statistic`` (SM), ``pvalue``, ``df`` (the rank of :math:`\Sigma`, ``k - 1``),
        ``average_ranks``, ``n_blocks``, ``n_missing``; ``method`` ``"skillings-mack"``.

    Raises
    ------
    ValueError
        When fewer than two data sets have two scores, when a learner shares no data
        set with another, or when the learners fall into groups that never meet on a
        data set (then no rank test can compare them).

    Notes
    -----
    Data sets with fewer than two scores carry no ranking and are dropped (they add
    nothing to :math:`A` or :math:`\Sigma`). Without missing cells and ties, SM is
    Friedman's :math:`\chi^2_F`; on a balanced incomplete block design without ties
    it is Durbin's statistic (Chatfield & Mander 2009). Ties are averaged and not
    corrected for, as in the R packages ``Skillings.Mack`` and ``PMCMRplus``; the
    chi-squared p-value is then conservative. The leading axes are looped over.

    References
    ----------
    .. [1] Skillings, J. H., & Mack, G. A. (1981). On the use of a Friedman-type
       statistic in balanced and unbalanced block designs. Technometrics 23(2),
       171-177. https://doi.org/10.1080/00401706.1981.10486261
    .. [2] Chatfield, M., & Mander, A. (2009). The Skillings-Mack test (Friedman test
       when there are missing data). Stata Journal 9(2), 299-305.
       https://doi.org/10.1177/1536867X0900900208
    .. [3] Hollander, M., & Wolfe, D. A. (1999). Nonparametric Statistical Methods,
       2nd ed. Wiley, Chapter 7 (Brady's 1969 data).

    Examples
    --------
    Hollander & Wolfe's example (Brady 1969), three treatments on eight subjects, one
    cell missing; PMCMRplus's ``skillingsMackTest`` gives SM = 13.28095, p = 0.001306:

    >>> import numpy as np
    >>> from replicability.stats.incomplete import skillings_mack_test
    >>> x = np.array([[3, 5, 15], [1, 3, 18], [5, 4, 21], [2, np.nan, 6],
    ...               [0, 2, 17], [0, 2, 10], [0, 3, 8], [0, 2, 13]])
    >>> res = skillings_mack_test(x)
    >>> print(round(float(res.statistic), 5), round(float(res.pvalue), 6), res.df)
    13.28095 0.001306 2
    """
    arr, better = _as_table(scores, better)
    lead = arr.shape[:-2]
    out = [_skillings_mack_1d(arr[at], better) for at in np.ndindex(lead)]
    statistic = np.array([o[0] for o in out]).reshape(lead)
    df = {o[1] for o in out}
    df = df.pop() if len(df) == 1 else np.array([o[1] for o in out]).reshape(lead)
    pvalue = np.where(statistic > 0, special.chdtrc(df, statistic), 1.0)
    return IncompleteBlockResult(
        statistic=unwrap_scalar(statistic), pvalue=unwrap_scalar(pvalue), df=df,
        average_ranks=np.array([o[2] for o in out]).reshape(lead + (arr.shape[-1],)),
        n_blocks=unwrap_scalar(np.array([o[3] for o in out]).reshape(lead)),
        n_missing=unwrap_scalar(np.isnan(arr).sum(axis=(-2, -1))), method="skillings-mack",
    )


def is_balanced_incomplete(scores):
    """Whether the missing cells of a table ``(N, k)`` form a balanced incomplete block design.

    Every data set has the same number ``k' < k`` of scores (at least 2), every learner
    is present on the same number of data sets, and every pair of learners on the same
    number of data sets (Durbin 1951).

    Parameters
    ----------
    scores : array_like, shape (N, k)
        NaN for a missing cell.

    Returns
    -------
    bool

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.stats.incomplete import is_balanced_incomplete
    >>> nan = np.nan
    >>> is_balanced_incomplete([[1, 2, nan], [1, nan, 2], [nan, 1, 2]])
    True
    >>> is_balanced_incomplete([[1, 2, 3], [1, nan, 2], [nan, 1, 2]])
    False
    """
    present = ~np.isnan(np.asarray(scores, dtype=float))
    if present.ndim != 2:
        raise ValueError(f"`scores` must be a 2-d table (N, k); got shape {present.shape}.")
    per_block = present.sum(axis=1)
    both = present.T.astype(int) @ present.astype(int)
    off = both[~np.eye(both.shape[0], dtype=bool)]
    return bool(per_block.min() == per_block.max() and 2 <= per_block[0] < present.shape[1]
                and len(set(np.diag(both))) == 1 and len(set(off)) == 1 and off[0] > 0)


def _durbin_1d(table, better):
    if not is_balanced_incomplete(table):
        raise ValueError("`scores` must form a balanced incomplete block design (same number of scores on every "
                         "data set, every learner and every pair equally often); use skillings_mack_test.")
    b, t = table.shape
    ranks = _block_ranks(table, better)
    size = int(np.sum(~np.isnan(table[0])))
    r = int(np.sum(~np.isnan(table[:, 0])))
    sums = np.nansum(ranks, axis=0)
    # Conover (1999), Sec. 5.8: A = sum of squared ranks, C = b k'(k'+1)^2 / 4 (A - C carries the ties).
    a = float(np.nansum(ranks ** 2))
    c = b * size * (size + 1) ** 2 / 4.0
    deviations = float(np.sum((sums - r * (size + 1) / 2.0) ** 2))
    t1 = 0.0 if a == c else (t - 1) * deviations / (a - c)
    df2 = b * size - b - t + 1
    room = b * (size - 1) - t1
    t2 = 0.0 if t1 == 0 else (np.inf if room <= 0 else (t1 / (t - 1)) / (room / df2))
    return t1, t2, df2, np.nanmean(ranks, axis=0), b


def durbin_test(scores, *, better="higher"):
    r"""Durbin's test that all learners perform alike, for a balanced incomplete block design.

    Each of ``b`` data sets scores :math:`k'` of the ``t`` learners, each learner is
    scored on ``r`` data sets and each pair on the same number. The null hypothesis is
    Friedman's. With :math:`R_j` the sum of learner ``j``'s ranks within the data
    sets, :math:`A = \sum r_{ij}^2` and :math:`C = b k'(k'+1)^2/4`,

    .. math::

        T_1 = \frac{(t-1) \sum_j \big(R_j - r(k'+1)/2\big)^2}{A - C} \sim \chi^2_{t-1},

        T_2 = \frac{T_1/(t-1)}{(b(k'-1) - T_1)/(b k' - b - t + 1)} \sim F_{t-1,\, bk'-b-t+1},

    (Conover 1999, Sec. 5.8, who recommends :math:`T_2`). Without ties
    :math:`A - C = b k'(k'^2-1)/12` and :math:`T_1` is Durbin's (1951) statistic.

    Parameters
    ----------
    scores : array_like, shape (..., b, t)
        One score per data set (axis -2) and learner (last axis), NaN where missing;
        the missing cells of every slice must form a balanced incomplete block design
        (:func:`is_balanced_incomplete`).
    better : {"higher", "lower"}, optional

    Returns
    -------
    IncompleteBlockResult
        ``statistic`` (:math:`T_1`), ``pvalue``, ``df`` (``t - 1``), ``f_statistic``
        (:math:`T_2`), ``f_pvalue``, ``f_df``, ``average_ranks``, ``n_blocks``,
        ``n_missing``; ``method`` ``"durbin"``.

    Notes
    -----
    *Degenerate data.* When every data set ties all its learners (:math:`A = C`):
    :math:`T_1 = T_2 = 0`, p = 1. Should the ranks be exactly additive in data set and
    learner (:math:`T_1 = b(k'-1)`, no residual): :math:`T_2 = \infty`, its p = 0.

    References
    ----------
    .. [1] Durbin, J. (1951). Incomplete blocks in ranking experiments. British
       Journal of Statistical Psychology 4(2), 85-90.
       https://doi.org/10.1111/j.2044-8317.1951.tb00310.x
    .. [2] Conover, W. J. (1999). Practical Nonparametric Statistics, 3rd ed. Wiley,
       Sec. 5.8, pp. 388-395.

    Examples
    --------
    Conover's (1999, p. 391) ice creams: seven judges each rank three of seven
    varieties; he finds :math:`T_1 = 12.00` and :math:`T_2 = 8.00`:

    >>> import numpy as np
    >>> from replicability.stats.incomplete import durbin_test
    >>> nan = np.nan
    >>> ranks = [[2, 3, nan, 1, nan, nan, nan], [nan, 3, 1, nan, 2, nan, nan],
    ...          [nan, nan, 2, 1, nan, 3, nan], [nan, nan, nan, 1, 2, nan, 3],
    ...          [3, nan, nan, nan, 1, 2, nan], [nan, 3, nan, nan, nan, 1, 2],
    ...          [3, nan, 1, nan, nan, nan, 2]]
    >>> res = durbin_test(ranks, better="lower")
    >>> print(round(float(res.statistic), 2), round(float(res.f_statistic), 2), res.f_df)
    12.0 8.0 (6, 8)
    """
    arr, better = _as_table(scores, better)
    lead = arr.shape[:-2]
    out = [_durbin_1d(arr[at], better) for at in np.ndindex(lead)]
    t = arr.shape[-1]
    t1 = np.array([o[0] for o in out]).reshape(lead)
    t2 = np.array([o[1] for o in out]).reshape(lead)
    df2 = {o[2] for o in out}
    if len(df2) != 1:
        raise ValueError("`scores`: every slice must have the same block design for one F distribution.")
    df2 = df2.pop()
    p1 = np.where(t1 > 0, special.chdtrc(t - 1, t1), 1.0)
    p2 = np.where(t2 > 0, np.where(np.isinf(t2), 0.0, special.fdtrc(t - 1, df2, np.where(np.isinf(t2), 0.0, t2))),
                  1.0)
    return IncompleteBlockResult(
        statistic=unwrap_scalar(t1), pvalue=unwrap_scalar(p1), df=t - 1, f_statistic=unwrap_scalar(t2),
        f_pvalue=unwrap_scalar(p2), f_df=(t - 1, df2),
        average_ranks=np.array([o[3] for o in out]).reshape(lead + (t,)),
        n_blocks=unwrap_scalar(np.array([o[4] for o in out]).reshape(lead)),
        n_missing=unwrap_scalar(np.isnan(arr).sum(axis=(-2, -1))), method="durbin",
    )
