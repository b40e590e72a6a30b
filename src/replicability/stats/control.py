"""A control learner against each other learner over many data sets, with Holm's correction.

After the Friedman test (:mod:`replicability.stats.ranks`), Demšar (2006) compares a
control learner with each other one rather than all pairs when the question is
about the control: ``k - 1`` comparisons instead of ``k (k - 1) / 2``, hence more
power. Scores are a table ``(..., N, k)`` as in :mod:`~replicability.stats.ranks`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from scipy import special

from .._results import TestResult, unwrap_scalar
from .._validation import check_choice
from .contingency import holm
from .nonparametric import sign_test, signed_rank_test
from .ranks import _as_scores, _ranks

__all__ = ["ControlTestResult", "control_test"]

_CONTROL_TESTS = ("signed_rank", "sign", "mean_ranks")


@dataclass(frozen=True, repr=False)
class ControlTestResult(TestResult):
    """Result of :func:`control_test`: the control against each other learner.

    ``statistic`` and ``pvalue`` have one value per other learner (last axis, in
    the order of ``learners``); a positive statistic means that learner is better
    than the control.

    Attributes
    ----------
    adjusted_pvalue : ndarray
        Holm's step-down adjusted p-values over the ``k - 1`` comparisons.
    control : int
        Column of the control learner.
    learners : tuple of int
        Columns of the other learners, in the order of the last axis.
    test : str
        ``"signed_rank"``, ``"sign"`` or ``"mean_ranks"``.
    """

    adjusted_pvalue: np.ndarray | None = None
    control: int = 0
    learners: tuple = ()
    test: str = "signed_rank"

    def to_frame(self):
        """One row per comparison with the control (and test, for a batch), ``learner`` its column."""
        frame = TestResult.to_frame(replace(self, learners=None))
        frame["learners"] = np.broadcast_to(np.array(self.learners), np.shape(self.statistic)).ravel()
        return frame.rename(columns={"learners": "learner"})


def control_test(scores, *, control, better="higher", test="signed_rank", method="normal"):
    r"""Compare a control learner with each other learner over the data sets, with Holm's correction.

    For each other learner ``j`` the null hypothesis is that it performs like the
    control. The ``k - 1`` p-values are adjusted by Holm's step-down procedure
    (:func:`~replicability.stats.contingency.holm`), which controls the family-wise
    error rate; reject where ``adjusted_pvalue < alpha``. Tests:

    * ``"signed_rank"`` (default): the Wilcoxon signed-rank test on the ``N``
      differences of scores (:func:`~replicability.stats.nonparametric.signed_rank_test`),
      Demšar's (2006) recommendation for two learners over many data sets;
    * ``"sign"``: the sign test on the same differences
      (:func:`~replicability.stats.nonparametric.sign_test`);
    * ``"mean_ranks"``: Demšar's z on average ranks,
      :math:`z = (R_c - R_j) / \sqrt{k(k+1)/(6N)}` against the standard normal.

    The statistic is positive when learner ``j`` is better than the control.

    Parameters
    ----------
    scores : array_like, shape (..., N, k)
        One score per data set (axis -2) and learner (last axis).
    control : int
        Column of the control learner.
    better : {"higher", "lower"}, optional
    test : {"signed_rank", "sign", "mean_ranks"}, optional
    method : {"normal", "exact"}, optional
        For ``"signed_rank"`` and ``"sign"``: the p-value's method, as in those tests
        (ignored by ``"mean_ranks"``).

    Returns
    -------
    ControlTestResult
        ``statistic``, ``pvalue`` and ``adjusted_pvalue`` of shape (..., k - 1),
        ``control``, ``learners`` (the other columns, in order) and ``test``.

    Notes
    -----
    The signed-rank and sign tests are those of the package, with their conventions
    (zero differences removed, respectively counted half a plus; no tie correction;
    see their Notes): Demšar splits the ranks of zero differences between the two
    sums instead. Benavoli, Corani & Mangili (2016) advise the paired tests over the
    mean-ranks z: the latter's outcome for a pair depends on which other learners are
    in the comparison. Choosing as control the learner that ranked best, after seeing
    the data, turns the family into "is the best better than each other", as García
    & Herrera (2008) use it; a control fixed in advance is what Holm's guarantee is
    stated for.

    References
    ----------
    .. [1] Holm, S. (1979). A simple sequentially rejective multiple test procedure.
       Scandinavian Journal of Statistics 6(2), 65-70.
    .. [2] Demšar, J. (2006). Statistical comparisons of classifiers over multiple
       data sets. JMLR 7, 1-30, Sec. 3.1.3 and 3.2.2.
       https://jmlr.org/papers/v7/demsar06a.html
    .. [3] García, S., & Herrera, F. (2008). An extension on "Statistical comparisons
       of classifiers over multiple data sets" for all pairwise comparisons. JMLR 9,
       2677-2694. https://jmlr.org/papers/v9/garcia08a.html
    .. [4] Benavoli, A., Corani, G., & Mangili, F. (2016). Should we really use
       post-hoc tests based on mean-ranks? JMLR 17(5), 1-10.
       https://jmlr.org/papers/v17/benavoli16a.html

    Examples
    --------
    >>> from replicability.stats.control import control_test
    >>> scores = [[0.81, 0.79, 0.75], [0.90, 0.91, 0.85], [0.66, 0.64, 0.60],
    ...           [0.72, 0.70, 0.71], [0.95, 0.93, 0.92]]
    >>> res = control_test(scores, control=0, test="mean_ranks")
    >>> res.learners, res.statistic.round(3).tolist()
    ((1, 2), [-1.265, -2.53])
    >>> res.pvalue.round(4).tolist(), res.adjusted_pvalue.round(4).tolist()
    ([0.2059, 0.0114], [0.2059, 0.0228])
    """
    arr, better = _as_scores(scores, better)
    test = check_choice(test, "test", _CONTROL_TESTS)
    n, k = arr.shape[-2:]
    if isinstance(control, bool) or not isinstance(control, (int, np.integer)) or not -k <= control < k:
        raise ValueError(f"`control` must be a column index in [0, {k}); got {control!r}.")
    control = int(control) % k
    others = tuple(j for j in range(k) if j != control)
    if test == "mean_ranks":
        ranks = _ranks(arr, better).mean(axis=-2)
        z = (ranks[..., [control]] - ranks[..., list(others)]) / np.sqrt(k * (k + 1) / (6.0 * n))
        p = np.minimum(1.0, 2.0 * special.ndtr(-np.abs(z)))
    else:
        by_learner = np.moveaxis(arr, -1, -2)  # (..., k, N)
        other = by_learner[..., list(others), :]
        ctrl = np.broadcast_to(by_learner[..., [control], :], other.shape).copy()
        # Positive differences favour the other learner, whatever the direction of the scores.
        x, y = (other, ctrl) if better == "higher" else (ctrl, other)
        res = (signed_rank_test if test == "signed_rank" else sign_test)(x, y, method=method)
        z, p = np.asarray(res.statistic), np.asarray(res.pvalue)
    return ControlTestResult(
        statistic=unwrap_scalar(z), pvalue=unwrap_scalar(p), adjusted_pvalue=holm(p), control=control,
        learners=others, test=test,
    )
