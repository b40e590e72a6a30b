"""Exact sampling of per-fold counts for learners that ignore the training data.

In Task I of Bouckaert (2005) learner A always predicts 1 and learner B copies
the attribute ``x``; neither looks at its training set. Every statistic the
papers' tests need from a fold (``n_test, correct_a, correct_b,
correct_both``) is then a function of how many test instances fall in each of
the four ``(x, y)`` cells (order of ``replicability.sources.synthetic.TASK1_CELLS``):

* a data set of ``n`` instances is a multinomial draw of cell counts;
* a random test set of ``n_test`` instances is a multivariate hypergeometric
  draw from the data set's counts;
* the folds of a shuffled k-fold partition are successive multivariate
  hypergeometric draws from what the earlier folds left.

Each draw is a handful of univariate hypergeometric draws: numpy's sampler,
compiled with a table of log-factorials (``replicability.sources._hypergeometric``,
the same draws as ``Generator.hypergeometric``), so simulating a million
experiments on 200,000 instances costs about as much as on 1,000. The draws
have exactly the distribution of ``sklearn.model_selection.ShuffleSplit`` and
``KFold(shuffle=True)`` applied to instances; ``tests/sources/test_counts.py`` checks
this against instance-level simulation.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validation import as_cell_counts, as_generator, check_positive_int
from ._hypergeometric import hypergeometric
from .synthetic import task1_probabilities

__all__ = [
    "FoldStatistics",
    "sample_task1_counts",
    "holdout_fold_counts",
    "cv_fold_counts",
    "draw_folds",
    "multivariate_hypergeometric",
    "task1_fold_statistics",
]

_N_CELLS = 4


class FoldStatistics(NamedTuple):
    """Per-fold sufficient statistics of a comparison of learners A and B.

    Attributes
    ----------
    n_test : ndarray of int
        Number of test instances.
    correct_a, correct_b : ndarray of int
        Number of test instances learner A (B) classifies correctly.
    correct_both : ndarray of int
        Number of test instances both classify correctly.
    """

    n_test: np.ndarray
    correct_a: np.ndarray
    correct_b: np.ndarray
    correct_both: np.ndarray


def multivariate_hypergeometric(counts, n_draw, rng):
    """Draw ``n_draw`` items without replacement from urns with ``counts`` per colour.

    Vectorized over all leading axes of ``counts`` (``n_draw`` broadcasts
    against them). Uses the marginal decomposition: the number drawn of colour
    k, given the draws of colours < k, is hypergeometric with colour k as
    "good" and the later colours as "bad" (numpy's ``method="marginals"``).

    Parameters
    ----------
    counts : array_like of int, shape (..., n_colours)
        Non-negative counts per colour of each urn.
    n_draw : int or array_like of int
        Number of items drawn from each urn, at most its size.
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of int64, shape of ``counts``
        Number drawn of each colour.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.sources.counts import multivariate_hypergeometric
    >>> multivariate_hypergeometric([[5, 3, 2]] * 3, 10, np.random.default_rng(0)).tolist()
    [[5, 3, 2], [5, 3, 2], [5, 3, 2]]
    """
    counts = np.asarray(counts, dtype=np.int64)
    left = np.broadcast_to(np.asarray(n_draw, dtype=np.int64), counts.shape[:-1]).copy()
    remaining = counts.sum(axis=-1)
    out = np.empty_like(counts)
    for k in range(counts.shape[-1] - 1):
        good = counts[..., k]
        remaining = remaining - good
        drawn = hypergeometric(rng, good, remaining, left)
        out[..., k] = drawn
        left = left - drawn
    out[..., -1] = left
    return out


def draw_folds(counts, fold_sizes, rng):
    """Cut urns into folds of the given sizes, without replacement (a shuffled k-fold partition).

    Fold ``f`` is a :func:`multivariate_hypergeometric` draw of ``fold_sizes[f]`` items
    from what folds ``0, ..., f-1`` left; the last fold takes the rest.

    Parameters
    ----------
    counts : array_like of int, shape (..., n_colours)
        Counts per colour of each urn.
    fold_sizes : sequence of int or of arrays broadcasting against ``counts[..., 0]``
        Size of each fold; the sizes of an urn sum to its size (the last is not used).
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of int64, shape ``counts.shape[:-1] + (len(fold_sizes), n_colours)``

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.sources.counts import draw_folds
    >>> folds = draw_folds([6, 4], [4, 3, 3], np.random.default_rng(0))
    >>> folds.shape, folds.sum(axis=0).tolist(), folds.sum(axis=1).tolist()
    ((3, 2), [6, 4], [4, 3, 3])
    """
    remaining = np.array(counts, dtype=np.int64)
    out = np.empty(remaining.shape[:-1] + (len(fold_sizes), remaining.shape[-1]), dtype=np.int64)
    # Loop over folds only, never over the batch.
    for f, size in enumerate(fold_sizes[:-1]):
        drawn = multivariate_hypergeometric(remaining, size, rng)
        out[..., f, :] = drawn
        remaining -= drawn
    out[..., -1, :] = remaining
    return out


def sample_task1_counts(n, q, *, n_datasets=1, rng=None):
    """Draw the cell counts of Task I data sets (Bouckaert 2005, Section 4).

    A data set of ``n`` independent instances from :func:`~replicability.sources.synthetic.task1_probabilities`
    is summarized, for learners that ignore the training data, by its counts
    of the cells ``(x, y) = (0, 0), (0, 1), (1, 0), (1, 1)``: a multinomial
    draw with ``n`` trials.

    Parameters
    ----------
    n : int
        Number of instances per data set, at least 1.
    q : float or array_like
        Probability of each concordant cell, in [1/4, 1/2]; an array sweeps
        several accuracy gaps ``2q - 1/2`` at once.
    n_datasets : int, keyword-only
        Number of data sets per value of ``q``, at least 1.
    rng : numpy.random.Generator, int or None, keyword-only
        Source of randomness.

    Returns
    -------
    ndarray of int64
        Shape ``np.shape(q) + (n_datasets, 4)``; every row sums to ``n``.

    References
    ----------
    R. R. Bouckaert (2005). Low replicability of machine learning experiments
    is not a small data set phenomenon. ICML Workshop on Meta-learning.

    Examples
    --------
    >>> from replicability.sources.counts import sample_task1_counts
    >>> counts = sample_task1_counts(200_000, [0.25, 0.26], n_datasets=1000, rng=0)
    >>> counts.shape, bool((counts.sum(axis=-1) == 200_000).all())
    ((2, 1000, 4), True)
    """
    n = check_positive_int(n, "n")
    p = task1_probabilities(q)
    n_datasets = check_positive_int(n_datasets, "n_datasets")
    rng = as_generator(rng)
    pvals = np.broadcast_to(p[..., None, :], p.shape[:-1] + (n_datasets, _N_CELLS))
    return rng.multinomial(n, pvals).astype(np.int64)


def holdout_fold_counts(cell_counts, *, n_test, n_runs=1, rng=None):
    """Draw the cell counts of random test sets (random subsampling).

    Each run puts a uniformly random subset of ``n_test`` of the data set's
    instances in the test set, independently of the other runs: the train/test
    splits of the McNemar experiments (``n_runs=1``) and of the r x resampled
    t-tests of Bouckaert (2005, Section 2), as ``ShuffleSplit(n_splits=n_runs,
    test_size=n_test)`` does on instances.

    Parameters
    ----------
    cell_counts : array_like of int, shape (..., 4)
        Counts of the four cells of each data set.
    n_test : int, keyword-only
        Test set size, at least 1 and smaller than every data set (the
        training set must not be empty). For a 90%/10% train/test split of
        ``n`` instances use ``n_test = n // 10`` (or ``round(0.1 * n)``).
    n_runs : int, keyword-only
        Number of independent splits, at least 1.
    rng : numpy.random.Generator, int or None, keyword-only
        Source of randomness.

    Returns
    -------
    ndarray of int64
        Shape ``cell_counts.shape[:-1] + (n_runs, 4)``: the test-set counts of
        each cell; each row sums to ``n_test``. The training counts are
        ``cell_counts[..., None, :]`` minus these.

    Notes
    -----
    The test-set counts are multivariate hypergeometric: with ``N`` instances
    of which ``K_j`` in cell j, the mean count of cell j is ``n_test K_j / N``.
    Sampling costs about the same for every ``N``.

    Examples
    --------
    >>> from replicability.sources.counts import holdout_fold_counts
    >>> test = holdout_fold_counts([[30, 20, 20, 30]], n_test=10, n_runs=5, rng=0)
    >>> test.shape, test.sum(axis=-1).tolist()
    ((1, 5, 4), [[10, 10, 10, 10, 10]])
    """
    counts = as_cell_counts(cell_counts)
    n_test = check_positive_int(n_test, "n_test")
    n_runs = check_positive_int(n_runs, "n_runs")
    totals = counts.sum(axis=-1)
    if np.any(totals <= n_test):
        raise ValueError(
            f"`n_test` must be smaller than every data set size (min {int(totals.min())}); got {n_test}."
        )
    rng = as_generator(rng)
    urns = np.broadcast_to(counts[..., None, :], counts.shape[:-1] + (n_runs, _N_CELLS))
    return multivariate_hypergeometric(urns, n_test, rng)


def cv_fold_counts(cell_counts, *, n_folds=10, n_runs=1, rng=None):
    """Draw the cell counts of the folds of repeated k-fold cross validation.

    Each run shuffles the data set and cuts it into ``n_folds`` folds, as
    ``KFold(n_folds, shuffle=True)`` does on instances: with ``N`` instances,
    the first ``N % n_folds`` folds hold ``N // n_folds + 1`` instances and
    the others ``N // n_folds``. Runs are independent (r x k-fold cv of
    Bouckaert 2005, Section 2, including its sorted variant).

    Parameters
    ----------
    cell_counts : array_like of int, shape (..., 4)
        Counts of the four cells of each data set.
    n_folds : int, keyword-only
        Number of folds, at least 2 and at most every data set size.
    n_runs : int, keyword-only
        Number of independent partitions, at least 1.
    rng : numpy.random.Generator, int or None, keyword-only
        Source of randomness.

    Returns
    -------
    ndarray of int64
        Shape ``cell_counts.shape[:-1] + (n_runs, n_folds, 4)``: the cell
        counts of each test fold. Within a run the folds sum exactly to the
        data set's counts.

    Notes
    -----
    Fold f is a multivariate hypergeometric draw of its size from what folds
    0, ..., f-1 left; the last fold takes the rest. Unstratified: Bouckaert
    (2005) does not stratify its Task I experiments.

    Examples
    --------
    >>> from replicability.sources.counts import cv_fold_counts
    >>> folds = cv_fold_counts([25, 25, 25, 27], n_folds=10, n_runs=2, rng=0)
    >>> folds.shape, folds.sum(axis=-1)[0].tolist()
    ((2, 10, 4), [11, 11, 10, 10, 10, 10, 10, 10, 10, 10])
    >>> folds.sum(axis=-2).tolist()
    [[25, 25, 25, 27], [25, 25, 25, 27]]
    """
    counts = as_cell_counts(cell_counts)
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    n_runs = check_positive_int(n_runs, "n_runs")
    totals = counts.sum(axis=-1)
    if np.any(totals < n_folds):
        raise ValueError(
            f"`n_folds` must not exceed any data set size (min {int(totals.min())}); got {n_folds}."
        )
    rng = as_generator(rng)
    batch = counts.shape[:-1] + (n_runs,)
    totals = np.broadcast_to(totals[..., None], batch)
    base, extra = totals // n_folds, totals % n_folds
    urns = np.broadcast_to(counts[..., None, :], batch + (_N_CELLS,))
    return draw_folds(urns, [base + (f < extra) for f in range(n_folds)], rng)


def task1_fold_statistics(test_cell_counts):
    """Per-fold statistics of Task I's learners from test-set cell counts.

    Learner A always predicts 1, so it is right iff ``y = 1`` (cells
    ``(0, 1)`` and ``(1, 1)``); learner B predicts ``x``, so it is right iff
    ``x = y`` (cells ``(0, 0)`` and ``(1, 1)``); both are right only in cell
    ``(1, 1)``.

    Parameters
    ----------
    test_cell_counts : array_like of int, shape (..., 4)
        Test-set counts of the cells ``(x, y) = (0, 0), (0, 1), (1, 0), (1, 1)``,
        e.g. from :func:`holdout_fold_counts` or :func:`cv_fold_counts`.

    Returns
    -------
    FoldStatistics
        Named tuple of int64 arrays of shape ``test_cell_counts.shape[:-1]``:
        ``n_test, correct_a, correct_b, correct_both``. McNemar's discordant
        counts are ``correct_a - correct_both`` (only A right) and
        ``correct_b - correct_both`` (only B right); the accuracy difference
        A - B is ``(correct_a - correct_b) / n_test``.

    Examples
    --------
    >>> from replicability.sources.counts import task1_fold_statistics
    >>> stats = task1_fold_statistics([3, 1, 2, 4])
    >>> [int(v) for v in stats]
    [10, 5, 7, 4]
    """
    c = as_cell_counts(test_cell_counts, "test_cell_counts")
    return FoldStatistics(
        n_test=c.sum(axis=-1),
        correct_a=c[..., 1] + c[..., 3],
        correct_b=c[..., 0] + c[..., 3],
        correct_both=c[..., 3],
    )
