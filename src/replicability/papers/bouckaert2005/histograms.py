"""Outcome histograms of Task I (Bouckaert 2005) and the measures read off them exactly.

:func:`~replicability.papers.bouckaert2005.task1.simulate_task1` stores, per design and
gap, the histogram over data sets of ``(#A better, #B better)`` among the
repetitions; power, Type I error, the "all repetitions agree" replicability, R̂2
and the normalized replicability ``2 R̂2 - 1`` (the paper's measure) are exact
functions of it (:func:`histogram_measures`). R̂2 is the estimator of Bouckaert, R. R.
(2004), Estimating replicability of classifier learning experiments, ICML 2004,
https://doi.org/10.1145/1015330.1015338.
"""

from __future__ import annotations

import numpy as np

from ..._validation import check_positive_int

__all__ = ["REPEATS_ATTR", "histogram_measures", "outcome_cells", "outcome_histogram", "stored_measures"]

#: The attribute under which a stored Task I or adaptive simulation records ``n_repeats``.
#: It keeps the name of the committed results (``data/results``, computed before the
#: package settled on ``n_repeats``), so that new results and committed ones read alike.
REPEATS_ATTR = "n_repetitions"


def outcome_cells(n_repeats):
    """The ``(#A better, #B better)`` pairs a histogram counts, in storage order.

    Returns
    -------
    n_a, n_b : ndarray of int
        All pairs with ``n_a + n_b <= n_repeats``, ordered by ``n_a`` then
        ``n_b``; ``(n + 1)(n + 2) / 2`` cells (66 for 10 repetitions).

    Examples
    --------
    >>> from replicability.papers.bouckaert2005.histograms import outcome_cells
    >>> n_a, n_b = outcome_cells(2)
    >>> list(zip(n_a.tolist(), n_b.tolist()))
    [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)]
    """
    n = check_positive_int(n_repeats, "n_repeats")
    pairs = [(a, b) for a in range(n + 1) for b in range(n + 1 - a)]
    return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])


def _cell_index(n_a, n_b, n):
    # Cells before row a: sum_{i<a} (n + 1 - i) = a (n + 1) - a (a - 1) / 2.
    return n_a * (n + 1) - n_a * (n_a - 1) // 2 + n_b


def outcome_histogram(outcomes):
    """Histogram over data sets of ``(#A better, #B better)`` among repetitions.

    Parameters
    ----------
    outcomes : array_like of int, shape (..., n_datasets, n_repeats)
        Values in {-1, 0, 1}.

    Returns
    -------
    ndarray of int64, shape (..., n_cells)
        Number of data sets in each cell of :func:`outcome_cells`.

    Examples
    --------
    >>> from replicability.papers.bouckaert2005.histograms import outcome_histogram
    >>> outcome_histogram([[1, 1], [0, -1], [1, 1]]).tolist()
    [0, 1, 0, 0, 0, 2]
    """
    o = np.asarray(outcomes)
    if o.ndim < 2 or o.shape[-1] < 1 or not np.all(np.isin(o, (-1, 0, 1))):
        raise ValueError(
            f"`outcomes` must have shape (..., n_datasets, n_repeats) with values in {{-1, 0, 1}}; "
            f"got shape {o.shape}."
        )
    n = o.shape[-1]
    n_cells = (n + 1) * (n + 2) // 2
    idx = _cell_index((o == 1).sum(axis=-1), (o == -1).sum(axis=-1), n)
    lead = idx.shape[:-1]
    rows = idx.reshape(-1, idx.shape[-1]) + n_cells * np.arange(int(np.prod(lead)))[:, None]
    hist = np.bincount(rows.ravel(), minlength=n_cells * int(np.prod(lead)))
    return hist.reshape(lead + (n_cells,))


def histogram_measures(histogram, *, n_repeats):
    """Power, Type I error and replicability from :func:`outcome_histogram`.

    Parameters
    ----------
    histogram : array_like of int, shape (..., n_cells)
    n_repeats : int, keyword-only

    Returns
    -------
    dict of ndarray, shape (...)
        ``"b_better"``, ``"a_better"``: share of all experiments deciding for
        B (A); ``"rejection"``: their sum; ``"consistency"``: share of data sets
        on which all repetitions agree (the "consistency" of Bouckaert & Frank 2004);
        ``"r2"``: mean over data sets of R̂2, the share of equal pairs among
        the ``C(n, 2)`` pairs of repetitions (Bouckaert 2004); ``"r2_se"``: its
        standard error over the independent data sets, ``s / sqrt(N)`` with
        ``s`` the standard deviation of the per-data-set R̂2 over the ``N``
        data sets (NaN for one data set); ``"normalized_r2"``: the normalized
        replicability ``2 R̂2 - 1`` of Bouckaert (2004), R̂2 "linearly scaled
        to the range 0% to 100%", the reading that reproduces the printed
        numbers of Bouckaert (2005)
        (:func:`~replicability.papers.bouckaert2005.readings.replicability_readings`);
        ``"normalized_r2_se"``: its standard error, ``2 r2_se``.

    Notes
    -----
    In Task I learner B is never worse than A (gap ``2q - 1/2 >= 0``). At
    gap 0 the Type I error is ``"rejection"``; for a positive gap we read the
    paper's power ("1 minus the Type II error") as the probability of the
    *correct* decision, ``"b_better"``: a rejection in A's favour is an error,
    not power. The two differ only at gaps so small that power is near alpha.

    Examples
    --------
    >>> from replicability.papers.bouckaert2005.histograms import outcome_histogram, histogram_measures
    >>> h = outcome_histogram([[-1, -1, -1], [0, -1, 0]])
    >>> m = histogram_measures(h, n_repeats=3)
    >>> print(round(float(m["b_better"]), 4), float(m["consistency"]), round(float(m["r2"]), 4))
    0.6667 0.5 0.6667
    >>> print(round(float(m["r2_se"]), 4))  # R̂2 per data set: 1 and 1/3
    0.3333
    >>> print(round(float(m["normalized_r2"]), 4), round(float(m["normalized_r2_se"]), 4))  # 2 R̂2 - 1: 1, -1/3
    0.3333 0.6667
    """
    n = check_positive_int(n_repeats, "n_repeats", minimum=2)
    h = np.asarray(histogram)
    n_a, n_b = outcome_cells(n)
    if h.ndim < 1 or h.shape[-1] != n_a.size:
        raise ValueError(f"`histogram` must have {n_a.size} cells on its last axis; got shape {h.shape}.")
    if not np.issubdtype(h.dtype, np.integer) and not (np.all(np.isfinite(h)) and np.all(h == np.round(h))):
        raise ValueError(f"`histogram` must hold counts (whole numbers); got {h!r}.")
    h = h.astype(np.int64)
    n_0 = n - n_a - n_b
    # Integer numerators and one division each: exact up to the final rounding, so the
    # measures do not depend on the BLAS or on the order of a float sum.
    n_sets = h.sum(axis=-1)
    equal_pairs = n_a * (n_a - 1) + n_b * (n_b - 1) + n_0 * (n_0 - 1)  # 2 * sum_c C(n_c, 2)
    agree = ((n_a == n) | (n_b == n) | (n_0 == n)).astype(np.int64)

    def weighted(weights):
        return (h * weights).sum(axis=-1)

    r2 = weighted(equal_pairs) / (n * (n - 1) * n_sets)
    per_set = equal_pairs / (n * (n - 1))
    with np.errstate(invalid="ignore", divide="ignore"):  # one data set: no spread, NaN by definition
        spread = (h * (per_set - np.asarray(r2)[..., None]) ** 2).sum(axis=-1) / (n_sets - 1)
        r2_se = np.where(n_sets > 1, np.sqrt(spread / n_sets), np.nan)
    return {
        "b_better": weighted(n_b) / (n * n_sets),
        "a_better": weighted(n_a) / (n * n_sets),
        "rejection": weighted(n_a + n_b) / (n * n_sets),
        "consistency": weighted(agree) / n_sets,
        "r2": r2,
        "r2_se": r2_se,
        "normalized_r2": 2 * r2 - 1,
        "normalized_r2_se": 2 * r2_se,
    }


# Experiments are sampled in chunks of data sets so that memory stays bounded;
# the chunk size depends only on the design, so results do not depend on memory.


def stored_measures(ds):
    """:func:`histogram_measures` of a stored simulation (its ``histogram`` and ``n_repeats``).

    Parameters
    ----------
    ds : xarray.Dataset
        A result of :func:`~replicability.papers.bouckaert2005.task1.cached_task1` or of
        the adaptive design, with a ``histogram`` variable and the :data:`REPEATS_ATTR`
        attribute.

    Returns
    -------
    dict of ndarray
        As :func:`histogram_measures`.
    """
    return histogram_measures(ds["histogram"].values, n_repeats=ds.attrs[REPEATS_ATTR])
