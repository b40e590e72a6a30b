"""Task I experiment designs of Bouckaert (2005), Sections 2 and 4.


* **Experiment designs** (Sections 2 and 4). Learner A always predicts 1,
  learner B copies the attribute ``x``; the accuracy gap ``2q - 1/2`` (B minus
  A) is set by the source. Each design function takes the cell counts of data
  sets (from :func:`~replicability.sources.counts.sample_task1_counts`), draws
  ``n_repeats`` independent randomizations of the experiment on each, and
  returns the three-valued outcomes of :func:`~replicability.stats.decisions.decide`
  (+1 A better, 0 no difference, -1 B better). :func:`simulate_task1` runs a
  grid of gaps and stores, per design and gap, the histogram over data sets of
  ``(#A better, #B better)`` among the repetitions: power, Type I error, the
  "all repetitions agree" replicability and R̂2 are exact functions of it
  (:func:`~replicability.papers.bouckaert2005.histograms.histogram_measures`).
* The theory of Section 3 and the Appendix is in
  :mod:`replicability.papers.bouckaert2005.theory`.

Only the test-set cells ``(x, y) = (0, 0)`` (B right, A wrong) and ``(0, 1)``
(A right, B wrong) matter to every test here, so test sets are drawn from a
three-colour urn ``(c00, c01, rest)``: two hypergeometric draws per split,
the same distribution as :mod:`replicability.sources.counts` for these two cells.

The paper: Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

import numpy as np
import xarray as xr

from ..._validation import as_cell_counts, as_generator, check_alpha, check_bool, check_fraction, check_positive_int
from ...engine.store import cached_result
from ...sources.counts import draw_folds, multivariate_hypergeometric, sample_task1_counts
from ...stats.contingency import mcnemar_test
from ...stats.decisions import decide
from ...stats.ttests import corrected_repeated_cv_ttest, corrected_resampled_ttest, paired_ttest
from .histograms import REPEATS_ATTR, outcome_cells, outcome_histogram

__all__ = [
    "Task1Design",
    "TASK1_DESIGNS",
    "mcnemar_outcomes",
    "resampling_outcomes",
    "cv_outcomes",
    "design_outcomes",
    "simulate_task1",
    "cached_task1",
]


@dataclass(frozen=True)
class Task1Design:
    """An experiment design of Bouckaert (2005), Section 2.

    Attributes
    ----------
    kind : {"mcnemar", "resampling", "cv", "sorted_cv"}
    n_runs : int
        Train/test splits (McNemar: 1; resampling: r) or cv repetitions (r).
    test_size : float
        Share of the data in each test set (cv: ``1 / n_folds``).
    n_folds : int or None
        Folds per cv run (None for the hold-out designs).
    """

    kind: str
    n_runs: int
    test_size: float
    n_folds: int | None = None

    @property
    def cost(self):
        """Number of times A and B are trained and tested (the paper's effort)."""
        return self.n_runs * (self.n_folds or 1)


#: The twelve designs of Figures 1-4, by name.
TASK1_DESIGNS = {
    "mcnemar_90_10": Task1Design("mcnemar", 1, 0.1),
    "mcnemar_66_33": Task1Design("mcnemar", 1, 1 / 3),
    "mcnemar_50_50": Task1Design("mcnemar", 1, 0.5),
    "resampling_10": Task1Design("resampling", 10, 0.1),
    "resampling_100": Task1Design("resampling", 100, 0.1),
    "resampling_500": Task1Design("resampling", 500, 0.1),
    "cv_1x10": Task1Design("cv", 1, 0.1, 10),
    "cv_10x10": Task1Design("cv", 10, 0.1, 10),
    "cv_50x10": Task1Design("cv", 50, 0.1, 10),
    "sorted_cv_1x10": Task1Design("sorted_cv", 1, 0.1, 10),
    "sorted_cv_10x10": Task1Design("sorted_cv", 10, 0.1, 10),
    "sorted_cv_50x10": Task1Design("sorted_cv", 50, 0.1, 10),
}


# --------------------------------------------------------------------------
# validation and sampling helpers
# --------------------------------------------------------------------------
def _data_sets(cell_counts):
    """Validate Task I cell counts; return them and the common data set size."""
    counts = as_cell_counts(cell_counts)
    totals = counts.sum(axis=-1)
    if totals.size == 0 or np.any(totals != totals.flat[0]):
        raise ValueError(f"`cell_counts` must describe data sets of one size; got sizes {np.unique(totals)}.")
    return counts, int(totals.flat[0])


def _three_colour_urns(counts):
    # Cells (0,0): only B right; (0,1): only A right; the rest are ties.
    return np.stack([counts[..., 0], counts[..., 1], counts[..., 2] + counts[..., 3]], axis=-1)


def _holdout_draws(counts, n_test, n_draws, rng):
    """Test-set counts (c00, c01) of ``n_draws`` independent random test sets."""
    urns = _three_colour_urns(counts)
    urns = np.broadcast_to(urns[..., None, :], urns.shape[:-1] + (n_draws, 3))
    drawn = multivariate_hypergeometric(urns, n_test, rng)
    return drawn[..., 0], drawn[..., 1]


def _cv_draws(counts, n_folds, n_draws, rng):
    """Fold counts (c00, c01) and fold sizes of ``n_draws`` shuffled k-fold partitions.

    Same scheme as :func:`replicability.sources.counts.cv_fold_counts` (first ``N % k``
    folds one larger), on the three-colour urn.
    """
    urns = _three_colour_urns(counts)
    n = int(urns[..., :].sum(axis=-1).flat[0])
    sizes = np.array([n // n_folds + (f < n % n_folds) for f in range(n_folds)])
    folds = draw_folds(np.broadcast_to(urns[..., None, :], urns.shape[:-1] + (n_draws, 3)), sizes, rng)
    return folds[..., 0], folds[..., 1], sizes


def _n_test(n, test_size):
    n_test = int(round(test_size * n))
    if not 1 <= n_test < n:
        raise ValueError(
            f"`test_size` must leave a non-empty test and training set of {n} instances; "
            f"got {test_size!r}."
        )
    return n_test


# --------------------------------------------------------------------------
# experiment designs
# --------------------------------------------------------------------------
def mcnemar_outcomes(cell_counts, *, test_size, n_repeats=10, alpha=0.05, correction=True, rng=None):
    """Outcomes of McNemar's test on random train/test splits of Task I data sets.

    Null hypothesis of each test: learners A and B have the same accuracy.
    Each repetition draws a random test set of ``round(test_size * n)``
    instances; with ``b`` = test cases only A gets right and ``c`` = only B
    gets right, ``T = (|b - c| - 1)^2 / (b + c)`` against chi2(1)
    (Eq. 1); ``b - c > 0`` favours A.

    Parameters
    ----------
    cell_counts : array_like of int, shape (..., 4)
        Cell counts of data sets of one size ``n`` (``sample_task1_counts``).
    test_size : float, keyword-only
        Share of the data in the test set (0.1, 1/3 and 0.5 in Figure 1).
    n_repeats : int, keyword-only
        Independent randomizations per data set (10 in the paper).
    alpha : float, keyword-only
        Significance level.
    correction : bool, keyword-only
        Continuity correction of Eq. (1); Section 3 analyses the test without it.
    rng : numpy.random.Generator, int or None, keyword-only

    Returns
    -------
    ndarray of int8, shape (..., n_repeats)
        +1 A better, 0 no difference, -1 B better.

    Notes
    -----
    No discordant test case gives statistic 0 and p = 1 (no difference).

    Examples
    --------
    >>> from replicability.sources.counts import sample_task1_counts
    >>> from replicability.papers.bouckaert2005.task1 import mcnemar_outcomes
    >>> data = sample_task1_counts(10_000, 0.30, n_datasets=3, rng=0)
    >>> mcnemar_outcomes(data, test_size=0.1, n_repeats=4, rng=1).tolist()
    [[-1, -1, -1, -1], [-1, -1, -1, -1], [-1, -1, -1, -1]]
    """
    counts, n = _data_sets(cell_counts)
    n_test = _n_test(n, check_fraction(test_size, "test_size"))
    n_repeats = check_positive_int(n_repeats, "n_repeats")
    alpha = check_alpha(alpha)
    c00, c01 = _holdout_draws(counts, n_test, n_repeats, as_generator(rng))
    return decide(mcnemar_test(c01, c00, correction=correction), alpha=alpha)


def resampling_outcomes(cell_counts, *, n_runs, test_size=0.1, n_repeats=10, alpha=0.05, rng=None):
    """Outcomes of the corrected resampled t-test (r x resampling) on Task I data sets.

    Null hypothesis: A and B have the same expected accuracy. Each repetition
    draws ``n_runs`` independent random test sets; the accuracy differences
    ``x_j = a_j - b_j`` are tested with
    ``t = mean / sqrt((1/r + n_test/n_train) var)`` against t(r - 1) (Eq. 2,
    Nadeau & Bengio 2003).

    Parameters
    ----------
    cell_counts : array_like of int, shape (..., 4)
    n_runs : int, keyword-only
        r, at least 2 (10, 100 and 500 in Figure 2).
    test_size : float, keyword-only
        Share of the data per test set (the paper's "10% of data 10 times").
    n_repeats, alpha, rng : keyword-only
        As in :func:`mcnemar_outcomes`.

    Returns
    -------
    ndarray of int8, shape (..., n_repeats)

    Notes
    -----
    Zero variance follows Weka's convention (p = 1 if all differences are zero,
    p = 0 if they are a non-zero constant).

    Examples
    --------
    >>> from replicability.sources.counts import sample_task1_counts
    >>> from replicability.papers.bouckaert2005.task1 import resampling_outcomes
    >>> data = sample_task1_counts(1000, 0.25, n_datasets=2, rng=0)
    >>> resampling_outcomes(data, n_runs=10, n_repeats=5, rng=1).shape
    (2, 5)
    """
    counts, n = _data_sets(cell_counts)
    n_runs = check_positive_int(n_runs, "n_runs", minimum=2)
    n_test = _n_test(n, check_fraction(test_size, "test_size"))
    n_repeats = check_positive_int(n_repeats, "n_repeats")
    alpha = check_alpha(alpha)
    c00, c01 = _holdout_draws(counts, n_test, n_repeats * n_runs, as_generator(rng))
    d = ((c01 - c00) / n_test).reshape(counts.shape[:-1] + (n_repeats, n_runs))
    res = corrected_resampled_ttest(d, n_train=n - n_test, n_test=n_test)
    return decide(res, alpha=alpha)


def _cv_differences(counts, n_runs, n_folds, n_repeats, rng):
    c00, c01, sizes = _cv_draws(counts, n_folds, n_repeats * n_runs, rng)
    d = (c01 - c00) / sizes
    return d.reshape(counts.shape[:-1] + (n_repeats, n_runs, n_folds))


def _cv_decisions(d, n_folds, alpha, kinds):
    out = {}
    if "cv" in kinds:
        # Section 2.3: Eq. (2) on all r k differences with n_test/n_train = 1/(k-1).
        out["cv"] = decide(corrected_repeated_cv_ttest(d, n_train=n_folds - 1, n_test=1), alpha=alpha)
    if "sorted_cv" in kinds:
        # Section 2.4 with ERRATA: k means of the sorted folds, variance / k, t(k-1).
        sample = np.sort(d, axis=-1).mean(axis=-2)
        out["sorted_cv"] = decide(paired_ttest(sample), alpha=alpha)
    return out


def cv_outcomes(cell_counts, *, n_runs, n_folds=10, sorted_folds=False, n_repeats=10, alpha=0.05, rng=None):
    """Outcomes of r x k-fold cross validation tests on Task I data sets.

    Null hypothesis: A and B have the same expected accuracy. Each repetition
    runs ``n_runs`` shuffled k-fold partitions. Plain (Section 2.3): the
    corrected repeated cv t-test on all ``r k`` differences,
    ``t = mean / sqrt((1/(r k) + 1/(k-1)) var)`` against t(r k - 1). Sorted
    (Section 2.4): the folds of each run are sorted, the j-th smallest are
    averaged over runs, and the k averages get an uncorrected t-test,
    ``t = mean / sqrt(var / k)`` against t(k - 1).

    Parameters
    ----------
    cell_counts : array_like of int, shape (..., 4)
    n_runs : int, keyword-only
        r (1, 10 and 50 in Figures 3 and 4).
    n_folds : int, keyword-only
        k, at least 2.
    sorted_folds : bool, keyword-only
        Use the sorted-folds scheme.
    n_repeats, alpha, rng : keyword-only
        As in :func:`mcnemar_outcomes`.

    Returns
    -------
    ndarray of int8, shape (..., n_repeats)

    Notes
    -----
    ERRATA (Bouckaert 2005, Sec. 2.4): the sorted sample has k values, so its
    standard error uses ``var / k``; the paper prints ``1/r`` (equal when
    r = k = 10). With one run, sorting does not change the sample and the
    sorted test is the plain k-fold t-test. Differences ``a - b`` are exact
    per fold (folds differ in size by at most one). Zero variance follows
    Weka's convention.

    Examples
    --------
    >>> from replicability.sources.counts import sample_task1_counts
    >>> from replicability.papers.bouckaert2005.task1 import cv_outcomes
    >>> data = sample_task1_counts(2000, 0.30, n_datasets=2, rng=0)
    >>> cv_outcomes(data, n_runs=2, sorted_folds=True, n_repeats=3, rng=1).tolist()
    [[-1, -1, -1], [-1, -1, -1]]
    """
    counts, n = _data_sets(cell_counts)
    n_runs = check_positive_int(n_runs, "n_runs")
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    if n_folds > n:
        raise ValueError(f"`n_folds` must not exceed the data set size {n}; got {n_folds}.")
    check_bool(sorted_folds, "sorted_folds")
    n_repeats = check_positive_int(n_repeats, "n_repeats")
    alpha = check_alpha(alpha)
    d = _cv_differences(counts, n_runs, n_folds, n_repeats, as_generator(rng))
    kind = "sorted_cv" if sorted_folds else "cv"
    return _cv_decisions(d, n_folds, alpha, (kind,))[kind]


def design_outcomes(cell_counts, design, *, n_repeats=10, alpha=0.05, rng=None):
    """Outcomes of a named design of :data:`TASK1_DESIGNS` (or a :class:`Task1Design`).

    Examples
    --------
    >>> from replicability.sources.counts import sample_task1_counts
    >>> from replicability.papers.bouckaert2005.task1 import design_outcomes
    >>> data = sample_task1_counts(1000, 0.25, n_datasets=4, rng=0)
    >>> design_outcomes(data, "cv_10x10", n_repeats=2, rng=1).shape
    (4, 2)
    """
    design = _as_design(design)
    opts = dict(n_repeats=n_repeats, alpha=alpha, rng=rng)
    if design.kind == "mcnemar":
        return mcnemar_outcomes(cell_counts, test_size=design.test_size, **opts)
    if design.kind == "resampling":
        return resampling_outcomes(cell_counts, n_runs=design.n_runs, test_size=design.test_size, **opts)
    return cv_outcomes(
        cell_counts, n_runs=design.n_runs, n_folds=design.n_folds, sorted_folds=design.kind == "sorted_cv", **opts
    )


def _as_design(design):
    if isinstance(design, Task1Design):
        return design
    if design not in TASK1_DESIGNS:
        raise ValueError(f"`design` must be one of {tuple(TASK1_DESIGNS)}; got {design!r}.")
    return TASK1_DESIGNS[design]


_SPLITS_PER_CHUNK = 2_000_000


def simulate_task1(designs, n, gaps, *, n_datasets=1000, n_repeats=10, alpha=0.05, seed=0):
    """Histograms of Task I outcomes for several designs over a grid of accuracy gaps.

    For every gap ``2q - 1/2`` (B minus A), ``n_datasets`` data sets of ``n``
    instances are drawn, and every design is run ``n_repeats`` times on
    each (Section 4: 1000 data sets x 10 repetitions x 100 gaps).

    Parameters
    ----------
    designs : sequence of str
        Names from :data:`TASK1_DESIGNS`.
    n : int
        Data set size.
    gaps : array_like of float
        Accuracy gaps in [0, 0.5].
    n_datasets, n_repeats : int, keyword-only
    alpha : float, keyword-only
    seed : int, keyword-only
        Root seed. The data sets of gap index g come from
        ``default_rng([seed, n, g])``, shared by all designs; the splits of
        each design family from ``default_rng([seed, n, g, family, chunk])``
        with ``family`` a checksum of the family's (kind, runs, folds or test
        fraction): plain and sorted cv see the same folds, and a design's
        result does not depend on which other designs are simulated with it.

    Returns
    -------
    xarray.Dataset
        ``histogram`` (int32, dims ``design, gap, cell``) with coordinates
        ``n_a`` and ``n_b`` on ``cell``; attributes ``n``, ``n_datasets``,
        ``n_repeats``, ``alpha``, ``seed``.

    Examples
    --------
    >>> from replicability.papers.bouckaert2005.histograms import histogram_measures
    >>> from replicability.papers.bouckaert2005.task1 import simulate_task1
    >>> ds = simulate_task1(["mcnemar_90_10"], 2000, [0.0, 0.2], n_datasets=50, seed=0)
    >>> m = histogram_measures(ds["histogram"].values, n_repeats=10)
    >>> m["b_better"].round(2).tolist()
    [[0.02, 0.98]]
    """
    names = list(designs)
    specs = [_as_design(d) for d in names]
    n, gaps, n_datasets = _check_sweep(n, gaps, n_datasets)
    n_repeats = check_positive_int(n_repeats, "n_repeats")
    alpha = check_alpha(alpha)
    n_cells = (n_repeats + 1) * (n_repeats + 2) // 2
    hist = np.zeros((len(names), gaps.size, n_cells), dtype=np.int64)
    families = {}
    for i, s in enumerate(specs):
        key = ("cv", s.n_runs, s.n_folds) if s.kind in ("cv", "sorted_cv") else (s.kind, s.n_runs, s.test_size)
        families.setdefault(key, []).append(i)
    for g, gap in enumerate(gaps):
        data = _sweep_data(n, gap, n_datasets, seed, g)
        for key, members in families.items():
            spec = specs[members[0]]
            # The stream of a family depends on its key only, not on the other designs.
            family = zlib.crc32(repr(key).encode())
            chunk = max(1, _SPLITS_PER_CHUNK // (n_repeats * spec.cost))
            for c, start in enumerate(range(0, n_datasets, chunk)):
                rng = np.random.default_rng([seed, n, g, family, c])
                part = data[start : start + chunk]
                for i, out in _family_outcomes(part, specs, members, n_repeats, alpha, rng).items():
                    hist[i, g] += outcome_histogram(out)
    n_a, n_b = outcome_cells(n_repeats)
    return xr.Dataset(
        {"histogram": (("design", "gap", "cell"), hist.astype(np.int32))},
        coords={"design": names, "gap": gaps, "n_a": ("cell", n_a), "n_b": ("cell", n_b)},
        attrs={"n": n, "n_datasets": n_datasets, REPEATS_ATTR: n_repeats, "alpha": alpha, "seed": seed},
    )


def _check_sweep(n, gaps, n_datasets):
    """``n``, ``gaps`` (1-d, in [0, 0.5]) and ``n_datasets`` of a sweep over accuracy gaps, checked."""
    n = check_positive_int(n, "n")
    gaps = np.atleast_1d(np.asarray(gaps, dtype=float))
    if gaps.ndim != 1 or not np.all((gaps >= 0) & (gaps <= 0.5)):
        raise ValueError(f"`gaps` must be a 1-d array of values in [0, 0.5]; got {gaps!r}.")
    return n, gaps, check_positive_int(n_datasets, "n_datasets")


def _sweep_data(n, gap, n_datasets, seed, g):
    """The data sets at the ``g``-th gap of a sweep, the same for every design (stream ``[seed, n, g]``)."""
    return sample_task1_counts(n, 0.25 + gap / 2, n_datasets=n_datasets, rng=np.random.default_rng([seed, n, g]))


def _family_outcomes(data, specs, members, n_repeats, alpha, rng):
    spec = specs[members[0]]
    if spec.kind in ("cv", "sorted_cv"):
        d = _cv_differences(data, spec.n_runs, spec.n_folds, n_repeats, rng)
        out = _cv_decisions(d, spec.n_folds, alpha, {specs[i].kind for i in members})
        return {i: out[specs[i].kind] for i in members}
    return {i: design_outcomes(data, spec, n_repeats=n_repeats, alpha=alpha, rng=rng) for i in members}


#: Caps on (gap steps, data sets) per scale, for the pages that sweep a gap grid (re-exported by ``curves``).
SCALE_CAPS = {"smoke": (6, 10), "quick": (25, 100), "paper": (100, 1000)}


def cached_task1(designs, n, gaps, *, n_datasets, n_repeats=10, alpha=0.05, seed=0, scale="paper"):
    """:func:`simulate_task1` through :func:`replicability.engine.store.cached_result`.

    The result is keyed by every argument, so notebooks and batch scripts
    that ask for the same experiment share one stored result (committed under
    ``data/results`` at ``scale="paper"``).

    Parameters
    ----------
    designs, n, gaps, n_datasets, n_repeats, alpha, seed
        As in :func:`simulate_task1`.
    scale : {"smoke", "quick", "paper"}, keyword-only
        Which store to use (see :func:`~replicability.engine.store.cached_result`).

    Returns
    -------
    xarray.Dataset

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> from replicability.papers.bouckaert2005.task1 import cached_task1
    >>> ds = cached_task1(["mcnemar_50_50"], 1000, [0.0], n_datasets=5, scale="smoke")
    >>> int(ds["histogram"].sum())
    5
    >>> del os.environ["REPLICABILITY_CACHE"]
    """
    gaps = [float(g) for g in np.atleast_1d(np.asarray(gaps, dtype=float))]
    params = {
        "designs": list(designs),
        "n": int(n),
        "gaps": gaps,
        "n_datasets": int(n_datasets),
        REPEATS_ATTR: int(n_repeats),  # the committed results' key name
        "alpha": float(alpha),
        "seed": int(seed),
        "version": 1,
    }

    def compute():
        return simulate_task1(
            designs, n, gaps, n_datasets=n_datasets, n_repeats=n_repeats, alpha=alpha, seed=seed
        )

    return cached_result("bouckaert2005/task1", params, compute, scale=scale)
