"""An adaptive cross-validation design for Task I (Bouckaert 2005, Conclusions).

The paper's conclusion proposes to "start with a simple experiment at relatively
low computational cost and, depending on the outcome, obtain more samples",
and reports promising preliminary results with sorted cross validation. Here
the experimenter runs the r x 10-fold sorted (or corrected) cv test for a
growing number of runs ``stages = (r_1, r_2, ...)``, reusing the runs already
done: after each stage it stops and reports "A better" or "B better" if
``p < stop_reject``, stops and reports "no difference" if ``p > stop_accept``,
and otherwise adds runs; at the last stage it decides at level ``alpha``.
The repeated looks raise the Type I error above a fixed design's; the
notebook ``bouckaert2005/04_beyond`` measures by how much.
"""

from __future__ import annotations

import zlib

import numpy as np
import xarray as xr

from ..._validation import as_generator, check_alpha, check_positive_int
from ...stats.decisions import decide
from ...stats.ttests import corrected_repeated_cv_ttest, paired_ttest
from .histograms import REPEATS_ATTR, outcome_cells, outcome_histogram
from .task1 import _check_sweep, _cv_differences, _data_sets, _sweep_data

__all__ = ["adaptive_cv_outcomes", "simulate_adaptive"]


def _check_stages(stages):
    st = tuple(stages)
    if not st or any(isinstance(s, bool) or not isinstance(s, (int, np.integer)) or s < 1 for s in st) or list(
        st
    ) != sorted(set(st)):
        raise ValueError(f"`stages` must be strictly increasing positive integers; got {stages!r}.")
    return st


def _stage_test(d, r, scheme, n_folds):
    sub = d[..., :r, :]
    if scheme == "sorted_cv":
        # Section 2.4 with ERRATA: k sorted-fold means, var / k, t(k - 1).
        return paired_ttest(np.sort(sub, axis=-1).mean(axis=-2))
    return corrected_repeated_cv_ttest(sub, n_train=n_folds - 1, n_test=1)


def adaptive_cv_outcomes(
    cell_counts,
    *,
    stages=(1, 10, 50),
    scheme="sorted_cv",
    stop_reject=0.001,
    stop_accept=0.5,
    n_folds=10,
    n_repeats=10,
    alpha=0.05,
    rng=None,
):
    """Outcomes and costs of an adaptive r x k-fold cv experiment on Task I data sets.

    Null hypothesis of every test: A and B have the same expected accuracy.
    At stage s the test of ``scheme`` is applied to the first ``stages[s]``
    runs; the experiment stops with the sign of the statistic if
    ``p < stop_reject``, with "no difference" if ``p > stop_accept``, and
    otherwise continues; the last stage decides at ``alpha``.

    Parameters
    ----------
    cell_counts : array_like of int, shape (..., 4)
        Task I data sets of one size.
    stages : sequence of int, keyword-only
        Strictly increasing numbers of cv runs.
    scheme : {"sorted_cv", "cv"}, keyword-only
        Sorted folds (Section 2.4) or the corrected repeated cv test (2.3).
    stop_reject, stop_accept : float, keyword-only
        Early-stopping thresholds on the p-value, ``stop_reject < stop_accept``.
    n_folds, n_repeats, alpha, rng : keyword-only
        As in :func:`replicability.papers.bouckaert2005.task1.cv_outcomes`.

    Returns
    -------
    outcomes : ndarray of int8, shape (..., n_repeats)
        +1 A better, 0 no difference, -1 B better.
    cost : ndarray of int, shape (..., n_repeats)
        Number of train/test splits used (runs x folds).

    Notes
    -----
    Runs are nested: stage s reuses the runs of stage s - 1. Zero variance
    follows Weka's convention in each test.

    Examples
    --------
    >>> from replicability.sources.counts import sample_task1_counts
    >>> from replicability.papers.bouckaert2005.adaptive import adaptive_cv_outcomes
    >>> data = sample_task1_counts(2000, 0.35, n_datasets=2, rng=0)
    >>> out, cost = adaptive_cv_outcomes(data, n_repeats=3, rng=1)
    >>> out.tolist(), cost.tolist()
    ([[-1, -1, -1], [-1, -1, -1]], [[10, 10, 10], [10, 10, 10]])
    """
    counts, n = _data_sets(cell_counts)
    stages = _check_stages(stages)
    if scheme not in ("sorted_cv", "cv"):
        raise ValueError(f"`scheme` must be 'sorted_cv' or 'cv'; got {scheme!r}.")
    alpha = check_alpha(alpha)
    stop_reject = check_alpha(stop_reject, "stop_reject")
    stop_accept = check_alpha(stop_accept, "stop_accept")
    if stop_reject >= stop_accept:
        raise ValueError(f"`stop_reject` must be below `stop_accept`; got {stop_reject!r} and {stop_accept!r}.")
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    if scheme == "cv" and stages[0] * n_folds < 2:
        raise ValueError(f"`stages` must give at least two differences; got {stages!r}.")
    n_repeats = check_positive_int(n_repeats, "n_repeats")
    d = _cv_differences(counts, stages[-1], n_folds, n_repeats, as_generator(rng))
    shape = d.shape[:-2]
    outcome = np.zeros(shape, dtype=np.int8)
    cost = np.full(shape, stages[-1] * n_folds, dtype=np.int64)
    undecided = np.ones(shape, dtype=bool)
    # The stage loop is over a handful of stages, not over the batch.
    for i, r in enumerate(stages):
        res = _stage_test(d, r, scheme, n_folds)
        if i == len(stages) - 1:
            final = decide(res, alpha=alpha)
            outcome = np.where(undecided, final, outcome)
            break
        reject = undecided & (res.pvalue < stop_reject)
        accept = undecided & (res.pvalue > stop_accept)
        outcome = np.where(reject, np.sign(res.statistic), outcome).astype(np.int8)
        cost = np.where(reject | accept, r * n_folds, cost)
        undecided &= ~(reject | accept)
    return outcome, cost


def simulate_adaptive(n, gaps, *, n_datasets=1000, n_repeats=10, alpha=0.05, seed=0, **options):
    """Histograms and mean cost of :func:`adaptive_cv_outcomes` over a grid of gaps.

    Data sets of gap index g come from ``default_rng([seed, n, g])``, as in
    :func:`replicability.papers.bouckaert2005.task1.simulate_task1`, so the adaptive design sees
    the same data sets as the fixed designs.

    Parameters
    ----------
    n, gaps, n_datasets, n_repeats, alpha, seed
        As in :func:`replicability.papers.bouckaert2005.task1.simulate_task1`.
    **options
        Passed to :func:`adaptive_cv_outcomes` (``stages``, ``scheme``,
        ``stop_reject``, ``stop_accept``, ``n_folds``).

    Returns
    -------
    xarray.Dataset
        ``histogram`` (int32, dims ``gap, cell``) and ``mean_cost`` (dims ``gap``).

    Examples
    --------
    >>> from replicability.papers.bouckaert2005.adaptive import simulate_adaptive
    >>> ds = simulate_adaptive(1000, [0.0, 0.3], n_datasets=5, seed=0)
    >>> ds["histogram"].shape, bool(ds["mean_cost"][1] <= ds["mean_cost"][0])
    ((2, 66), True)
    """
    n, gaps, n_datasets = _check_sweep(n, gaps, n_datasets)
    family = zlib.crc32(repr(("adaptive", sorted(options.items()))).encode())
    hist, cost = [], []
    for g, gap in enumerate(gaps):
        data = _sweep_data(n, gap, n_datasets, seed, g)
        out, c = adaptive_cv_outcomes(
            data, n_repeats=n_repeats, alpha=alpha, rng=np.random.default_rng([seed, n, g, family]), **options
        )
        hist.append(outcome_histogram(out[None])[0])
        cost.append(c.mean())
    n_a, n_b = outcome_cells(n_repeats)
    return xr.Dataset(
        {
            "histogram": (("gap", "cell"), np.array(hist, dtype=np.int32)),
            "mean_cost": (("gap",), np.array(cost)),
        },
        coords={"gap": gaps, "n_a": ("cell", n_a), "n_b": ("cell", n_b)},
        attrs={"n": n, "n_datasets": n_datasets, REPEATS_ATTR: n_repeats, "alpha": alpha, "seed": seed},
    )
