"""Every pair of learners over many data sets, by paired tests that ignore the other learners.

Benavoli, Corani & Mangili (2016) show that post-hoc tests on mean ranks (Nemenyi)
decide a pair by ranks that depend on which other learners are in the table. Here each
pair is tested on its own two columns, by the Wilcoxon signed-rank or the sign test,
and the family of all :math:`k(k-1)/2` pairs is corrected by Holm's step-down method
(the post-hoc analysis aeon draws by default). :class:`PairwiseResult` also holds the
multi-comparison matrix of Ismail-Fawaz et al. (2023): mean difference,
wins/ties/losses and p-value of every pair. A missing cell (NaN) drops that data set
from the pairs of its learner only.

Scores are a table ``(..., N, k)`` as in :mod:`~replicability.stats.ranks`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._results import TestResult
from .._validation import as_float_array, check_alpha, check_choice
from .contingency import holm
from .incomplete import _as_table
from .nonparametric import sign_test, signed_rank_test

__all__ = ["PairwiseResult", "pairwise_test", "significance_cliques"]

_PAIRWISE_TESTS = ("signed_rank", "sign")


@dataclass(frozen=True, repr=False)
class PairwiseResult(TestResult):
    """Result of :func:`pairwise_test`: every pair of learners, as ``(..., k, k)`` matrices.

    ``statistic[..., i, j]`` is the test's Z for learner ``i`` against ``j``, positive
    when ``i`` is better (antisymmetric, 0 on the diagonal); ``pvalue`` its two-sided
    p-value (symmetric, 1 on the diagonal).

    Attributes
    ----------
    adjusted_pvalue : ndarray, shape (..., k, k)
        Holm's adjusted p-values over the ``k (k - 1) / 2`` pairs (1 on the diagonal).
    mean_difference : ndarray, shape (..., k, k)
        Mean of ``score_i - score_j`` over the data sets where both are present.
    wins, ties, losses : ndarray of int, shape (..., k, k)
        Data sets where ``i`` is better than, equal to, worse than ``j``.
    n_datasets : ndarray of int, shape (..., k, k)
        Data sets where both are present.
    test : str
        ``"signed_rank"`` or ``"sign"``.
    better : str
        ``"higher"`` or ``"lower"``.
    """

    adjusted_pvalue: np.ndarray | None = None
    mean_difference: np.ndarray | None = None
    wins: np.ndarray | None = None
    ties: np.ndarray | None = None
    losses: np.ndarray | None = None
    n_datasets: np.ndarray | None = None
    test: str = "signed_rank"
    better: str = "higher"

    def significant(self, alpha=0.05):
        """Boolean matrix: the pair differs after Holm's correction (``adjusted_pvalue < alpha``)."""
        return np.asarray(self.adjusted_pvalue) < check_alpha(alpha)

    def to_frame(self, names=None):
        """The multi-comparison matrix as one row per pair ``i < j`` of a single table.

        Columns: ``learner A``, ``learner B``, ``mean difference`` (A - B), ``wins``,
        ``ties``, ``losses`` (of A), ``n_datasets``, ``statistic``, ``pvalue``,
        ``Holm pvalue``.
        """
        import pandas as pd

        k = np.shape(self.pvalue)[-1]
        if np.ndim(self.pvalue) != 2:
            raise ValueError(f"`to_frame` takes the result of one table; got shape {np.shape(self.pvalue)}.")
        names = [str(i) for i in range(k)] if names is None else [str(n) for n in names]
        rows = [{"learner A": names[i], "learner B": names[j],
                 "mean difference": float(self.mean_difference[i, j]), "wins": int(self.wins[i, j]),
                 "ties": int(self.ties[i, j]), "losses": int(self.losses[i, j]),
                 "n_datasets": int(self.n_datasets[i, j]), "statistic": float(self.statistic[i, j]),
                 "pvalue": float(self.pvalue[i, j]), "Holm pvalue": float(self.adjusted_pvalue[i, j])}
                for i, j in zip(*np.triu_indices(k, 1))]
        return pd.DataFrame(rows)


def _pair(a, b, better, test, method):
    """One pair on the data sets where both are present: Z, p, mean difference, wins, ties, losses, n."""
    both = ~(np.isnan(a) | np.isnan(b))
    a, b = a[both], b[both]
    if a.size == 0:
        return 0.0, 1.0, np.nan, 0, 0, 0, 0
    x, y = (a, b) if better == "higher" else (b, a)
    res = (signed_rank_test if test == "signed_rank" else sign_test)(x, y, method=method)
    return (float(res.statistic), float(res.pvalue), float(np.mean(a - b)), int(np.sum(x > y)),
            int(np.sum(x == y)), int(np.sum(x < y)), int(a.size))


def pairwise_test(scores, *, better="higher", test="signed_rank", method="normal"):
    r"""Every pair of learners by a paired test over the data sets, with Holm's correction.

    For each pair ``i, j`` the null hypothesis is that the two learners perform alike:
    the differences of their scores over the data sets are symmetric about zero
    (signed-rank) or as often positive as negative (sign). Each pair is tested on its
    own columns, so its decision does not depend on the other learners (Benavoli,
    Corani & Mangili 2016); the :math:`m = k(k-1)/2` p-values are adjusted by Holm's
    step-down method, which controls the family-wise error rate.

    Parameters
    ----------
    scores : array_like, shape (..., N, k)
        One score per data set (axis -2) and learner (last axis); NaN for a missing
        cell, which removes that data set from the pairs of that learner.
    better : {"higher", "lower"}, optional
    test : {"signed_rank", "sign"}, optional
        :func:`~replicability.stats.nonparametric.signed_rank_test` (Demšar's 2006
        choice for two learners over many data sets) or
        :func:`~replicability.stats.nonparametric.sign_test`.
    method : {"normal", "exact"}, optional
        P-value method of the test.

    Returns
    -------
    PairwiseResult
        ``statistic``, ``pvalue``, ``adjusted_pvalue``, ``mean_difference``, ``wins``,
        ``ties``, ``losses``, ``n_datasets``, all ``(..., k, k)``.

    Notes
    -----
    The tests are the package's, with their conventions (see their Notes): the
    signed-rank test removes zero differences and has no tie correction; the sign
    test counts a zero half a plus. A pair with no data set in common gets Z = 0 and
    p = 1. The leading axes are looped over.

    References
    ----------
    .. [1] Benavoli, A., Corani, G., & Mangili, F. (2016). Should we really use
       post-hoc tests based on mean-ranks? JMLR 17(5), 1-10.
       https://jmlr.org/papers/v17/benavoli16a.html
    .. [2] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
       Scandinavian Journal of Statistics 6(2), 65-70.
    .. [3] Ismail-Fawaz, A., Dempster, A., Tan, C. W., Herrmann, M., Miller, L.,
       Schmidt, D. F., Berretti, S., Weber, J., Devanne, M., Forestier, G., &
       Webb, G. I. (2023). An approach to multiple comparison benchmark evaluations
       that is stable under manipulation of the comparate set. arXiv:2305.11921.
       https://arxiv.org/abs/2305.11921

    Examples
    --------
    >>> from replicability.stats.pairwise import pairwise_test
    >>> scores = [[0.81, 0.79, 0.75], [0.90, 0.91, 0.85], [0.66, 0.64, 0.60],
    ...           [0.72, 0.70, 0.71], [0.95, 0.93, 0.92], [0.85, 0.80, 0.78]]
    >>> res = pairwise_test(scores)
    >>> res.wins[0].tolist(), res.losses[0].tolist()
    ([0, 5, 6], [0, 1, 0])
    >>> print(round(float(res.pvalue[0, 2]), 4), round(float(res.adjusted_pvalue[0, 2]), 4))
    0.0277 0.0831
    """
    arr, better = _as_table(scores, better)
    test = check_choice(test, "test", _PAIRWISE_TESTS)
    check_choice(method, "method", ("normal", "exact"))
    lead, k = arr.shape[:-2], arr.shape[-1]
    first, second = np.triu_indices(k, 1)
    fields = np.zeros(lead + (7, k, k))
    for at in np.ndindex(lead):
        for i, j in zip(first, second):
            z, p, diff, win, tie, loss, n = _pair(arr[at][:, i], arr[at][:, j], better, test, method)
            fields[at + (slice(None), i, j)] = (z, p, diff, win, tie, loss, n)
            fields[at + (slice(None), j, i)] = (-z, p, -diff, loss, tie, win, n)
    z, p, diff, wins, ties, losses, n = (fields[..., f, :, :] for f in range(7))
    np.einsum("...ii->...i", p)[...] = 1.0
    adjusted = np.ones_like(p)
    adjusted[..., first, second] = holm(p[..., first, second])
    adjusted[..., second, first] = adjusted[..., first, second]
    diag = np.eye(k, dtype=bool)
    n[..., diag] = (~np.isnan(arr)).sum(axis=-2)
    return PairwiseResult(
        statistic=z, pvalue=p, adjusted_pvalue=adjusted, mean_difference=np.where(diag, 0.0, diff),
        wins=wins.astype(int), ties=np.where(diag, n, ties).astype(int), losses=losses.astype(int),
        n_datasets=n.astype(int), test=test, better=better,
    )


def significance_cliques(average_ranks, significant):
    r"""Maximal runs of learners, in rank order, of which no pair differs significantly.

    Sort the learners by average rank; from each learner, extend a run to the next
    ones as long as the newcomer differs significantly from no learner already in the
    run; keep the runs no other run contains. Every pair joined by a bar of the CD
    diagram is then not significantly different, whichever post-hoc test decided it.
    With Nemenyi's decisions (:math:`|R_i - R_j| \ge CD`) this gives
    :func:`~replicability.stats.ranks.rank_cliques`.

    Parameters
    ----------
    average_ranks : array_like, shape (k,)
    significant : array_like of bool, shape (k, k)
        Symmetric: whether learners ``i`` and ``j`` differ.

    Returns
    -------
    list of tuple of int
        Each run as learner positions sorted by average rank (then position), the runs
        ordered by their best rank; a learner that differs from its neighbours forms a
        run of one.

    Notes
    -----
    aeon (``_build_cliques``) extends a run from its first learner while the first
    does not differ from the next one, without checking the pairs inside the run; a
    bar can then join two learners that differ. Here every pair in a run is checked.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.stats.pairwise import significance_cliques
    >>> differ = np.array([[0, 0, 1], [0, 0, 0], [1, 0, 0]], dtype=bool)
    >>> significance_cliques([1.2, 2.0, 2.8], differ)
    [(0, 1), (1, 2)]
    """
    r = as_float_array(average_ranks, "average_ranks")
    if r.ndim != 1:
        raise ValueError(f"`average_ranks` must be 1-d (one value per learner); got shape {r.shape}.")
    sig = np.asarray(significant)
    if sig.shape != (r.size, r.size) or sig.dtype != bool or not np.array_equal(sig, sig.T):
        raise ValueError(f"`significant` must be a symmetric boolean matrix of shape ({r.size}, {r.size}); "
                         f"got shape {sig.shape} and dtype {sig.dtype}.")
    order = [int(i) for i in np.lexsort((np.arange(r.size), r))]
    groups = []
    for start in range(r.size):
        members = [order[start]]
        for j in order[start + 1:]:
            if sig[j, members].any():
                break
            members.append(j)
        if not groups or not set(members) <= set(groups[-1]):
            groups.append(tuple(members))
    return groups
