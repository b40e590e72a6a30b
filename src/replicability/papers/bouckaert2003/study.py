"""The tests of Bouckaert (2003) applied to repeated cross-validation results.

Sections 4 and 5 of Bouckaert (2003) apply thirteen tests to the same r x k cv
accuracy differences: the ten sampling schemes of Table 1
(:func:`~replicability.stats.schemes.scheme_ttest`) plus resampling, corrected
resampling and the k-fold cv t-test. This module names those tests once
(:data:`STUDY_TESTS`, :data:`TEST_LABELS`), applies any of them to an array of
differences of shape ``(..., R, k)`` (:func:`study_test`), counts rejections
over a grid of runs, degrees of freedom and levels for the calibration of
Section 4 (:func:`rejection_counts`, :func:`select_calibrated_df`), and returns
the three-valued outcomes of calibrated tests from which Type I error, power
and replicability are counted (:func:`study_outcomes`, :func:`replicability_summary`).

How resampling and k-fold cv are read from r x k cv results
-----------------------------------------------------------
One experiment of r runs of stratified k-fold cv serves every test, as in the
paper, where all tests are compared "for various numbers of runs":

* *k-fold cv* uses the first run only (the paper: "conceptually it only uses the
  first run and ignores the others");
* *resampling* with r runs uses the first fold of each of the first r runs. Each
  run is an independent random partition, so its first fold is a random
  (stratified) hold-out split with ``n_test / n_train = 1 / (k - 1)`` (90 % /
  10 % for k = 10, the split of Bouckaert & Frank 2004, who found that
  stratification hardly changes the results). This is our reading; the paper
  does not state the split.
* *corrected resampling* is Nadeau & Bengio's test on the same sample with
  ``n_test / n_train = 1 / (k - 1)``; a calibrated df replaces ``n - 1`` and the
  ``1/n`` of the variance inflation becomes ``1/(df + 1)`` (ERRATA, Bouckaert
  2003, second item).

.. rubric:: References

R. R. Bouckaert (2003). Choosing between two learning algorithms based on
calibrated tests. ICML 2003, 51-58.

C. Nadeau and Y. Bengio (2003). Inference for the generalization error.
Machine Learning 52(3), 239-281. https://doi.org/10.1023/A:1024068626366

R. R. Bouckaert and E. Frank (2004). Evaluating the replicability of
significance tests for comparing learning algorithms. PAKDD 2004, 3-12.
https://doi.org/10.1007/978-3-540-24775-3_3
"""

from __future__ import annotations

import functools
import json

import numpy as np
import xarray as xr

from ..._validation import (
    as_runs_folds,
    check_alpha,
    check_positive,
    check_positive_int,
)
from ...engine.parallel import parallel_map
from ...engine.store import cached_result
from ...stats.decisions import decide
from ...stats.measures import consistency, replicability_r2
from ...stats.schemes import scheme_moments, scheme_ttest, scheme_ttest_from_moments
from ...stats.ttests import corrected_resampled_ttest, kfold_cv_ttest, resampled_ttest
from ..shared.readings import experiment_sample
from ..shared.synthetic_runs import fold_differences, synthetic_fold_counts

__all__ = [
    "CALIBRATED_TESTS",
    "FIGURE2_RUNS",
    "STUDY_TESTS",
    "TEST_LABELS",
    "null_calibration",
    "rejection_counts",
    "replicability_summary",
    "select_calibrated_df",
    "study_outcomes",
    "study_test",
]

#: Row labels of the paper's tables and Figure 3 legend, keyed by test name.
TEST_LABELS = {
    "resampling": "Resampling",
    "corrected_resampling": "Cor-resampling",
    "kfold_cv": "k-fold cv",
    "all": "Use all data",
    "folds": "folds",
    "folds_averaged_var": "folds averaged var",
    "folds_averaged_t": "folds averaged T",
    "runs": "runs",
    "runs_averaged_var": "runs averaged var",
    "runs_averaged_t": "runs averaged T",
    "sorted_runs": "sorted runs",
    "sorted_runs_averaged_var": "sorted runs averaged var",
    "sorted_runs_averaged_t": "sorted runs averaged T",
}

#: Every test calibrated in Section 4 (Figure 2), in the order of :data:`TEST_LABELS`.
STUDY_TESTS = tuple(TEST_LABELS)

#: The nine tests kept after Section 4 (rows of Tables 2, 4, 5 and 6).
CALIBRATED_TESTS = ("resampling", "corrected_resampling", "kfold_cv", "all", "folds_averaged_var",
                    "folds_averaged_t", "runs_averaged_var", "runs_averaged_t", "sorted_runs")

#: Numbers of runs of Figure 2 (Section 4).
FIGURE2_RUNS = (5, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100)

# test name -> (scheme, variant) of scheme_ttest
_SCHEME_TESTS = {
    "all": ("all", "plain"),
    "folds": ("folds", "plain"),
    "folds_averaged_var": ("folds", "averaged_var"),
    "folds_averaged_t": ("folds", "averaged_t"),
    "runs": ("runs", "plain"),
    "runs_averaged_var": ("runs", "averaged_var"),
    "runs_averaged_t": ("runs", "averaged_t"),
    "sorted_runs": ("sorted_runs", "plain"),
    "sorted_runs_averaged_var": ("sorted_runs", "averaged_var"),
    "sorted_runs_averaged_t": ("sorted_runs", "averaged_t"),
}


def _check_test(test):
    if test not in TEST_LABELS:
        raise ValueError(f"`test` must be one of {STUDY_TESTS}; got {test!r}.")
    return test


def _check_tests(tests):
    tests = tuple(tests)
    if not tests:
        raise ValueError(f"`tests` must name at least one test; got {tests!r}.")
    for t in tests:
        if t not in TEST_LABELS:
            raise ValueError(f"`tests` must hold names of {STUDY_TESTS}; got {t!r}.")
    return tests


def _check_n_runs(n_runs, available):
    if n_runs is None:
        return available
    n_runs = check_positive_int(n_runs, "n_runs", minimum=2)
    if n_runs > available:
        raise ValueError(f"`n_runs` must be at most the {available} runs of `d`; got {n_runs}.")
    return n_runs


def study_test(d, test, *, n_runs=None, df=None):
    """Apply one of the tests of Bouckaert (2003) to r x k cv differences.

    Null hypothesis: learners A and B have the same expected accuracy.

    Parameters
    ----------
    d : array_like, shape (..., R, k)
        Accuracy differences (A - B; positive favours A) of R runs (axis -2) of
        k-fold cv (axis -1), R >= 2.
    test : str
        A name of :data:`STUDY_TESTS`: ``"resampling"`` (resampled t-test on the
        first fold of each run), ``"corrected_resampling"`` (Nadeau & Bengio on
        the same sample, ``n_test / n_train = 1/(k-1)``), ``"kfold_cv"`` (the
        first run), or a Table 1 scheme (``"all"``, ``"folds"``,
        ``"folds_averaged_var"``, ..., ``"sorted_runs_averaged_t"``) on the
        first ``n_runs`` runs.
    n_runs : int, optional
        Use the first ``n_runs`` runs (default all R); ignored by ``"kfold_cv"``.
    df : float, optional
        Calibrated degrees of freedom (default: the test's own, e.g. k r - 1
        for ``"all"``).

    Returns
    -------
    TestResult
        One statistic and p-value per leading index of ``d``.

    Notes
    -----
    The statistics are ``m / sqrt(s^2 / (df + 1))`` referred to t(df), with
    the corrections of ERRATA (Bouckaert 2003): the mean, not the sum, and
    ``df + 1`` as the effective sample size. Corrected resampling with a
    calibrated df is ``m / sqrt((1/(df+1) + n_test/n_train) s^2)`` (ERRATA, an
    interpretation). Zero variances follow Weka's convention (p = 1 for all-zero
    differences, p = 0 for a non-zero constant), as in the underlying tests.

    References
    ----------
    .. [1] Bouckaert, R. R. (2003). Choosing between two learning algorithms
       based on calibrated tests. ICML 2003, 51-58.

    Examples
    --------
    Figure 1 of Bouckaert (2003), in percentage points (rows are runs):

    >>> import numpy as np
    >>> from replicability.papers.bouckaert2003 import study_test
    >>> d = np.array([[3.33, 10, -6.66], [6.66, 3.33, 0], [6.66, -10, -3.33]])
    >>> print(round(float(study_test(d, "all", df=10).pvalue), 4))
    0.5928
    >>> res = study_test(d, "resampling")  # the first column: 3.33, 6.66, 6.66
    >>> print(round(float(res.statistic), 4), res.df)
    5.0 2.0
    """
    _check_test(test)
    d = as_runs_folds(d)
    n_runs = _check_n_runs(n_runs, d.shape[-2])
    if df is not None:
        df = check_positive(df, "df")
    k = d.shape[-1]
    if test == "kfold_cv":
        return kfold_cv_ttest(experiment_sample(d, "cv"), df=df)
    d = d[..., :n_runs, :]
    if test == "resampling":
        return resampled_ttest(experiment_sample(d, "resampling"), df=df)
    if test == "corrected_resampling":
        # Each first fold holds 1/k of the data: n_test / n_train = 1 / (k - 1).
        return corrected_resampled_ttest(experiment_sample(d, "resampling"), n_train=k - 1, n_test=1, df=df)
    scheme, variant = _SCHEME_TESTS[test]
    return scheme_ttest(d, scheme=scheme, variant=variant, df=df)


def _check_alphas(alphas):
    alphas = tuple(check_alpha(a, "alphas") for a in np.atleast_1d(alphas).tolist())
    if not alphas:
        raise ValueError(f"`alphas` must hold at least one level; got {alphas!r}.")
    return alphas


#: Grids of at least this many single tests (data sets x runs x df x tests) are
#: counted in worker processes by default; smaller ones would wait for the workers.
_PARALLEL_TESTS = 10**6


def rejection_counts(d, *, tests, n_runs, df_values, alphas, n_jobs=None):
    """Count rejections of each test over a grid of runs, df and levels (Section 4).

    For every test, number of runs and df the test is applied once to all data
    sets; a data set counts as rejected at level ``alpha`` when ``pvalue <
    alpha``. On null data the counts divided by the number of data sets are the
    Type I errors from which :func:`select_calibrated_df` picks the df. The
    (test, runs) cells of large grids are counted in worker processes (``n_jobs``).

    Parameters
    ----------
    d : array_like, shape (n_datasets, R, k)
        Accuracy differences of R runs of k-fold cv per data set.
    tests : sequence of str
        Names of :data:`STUDY_TESTS`.
    n_runs : sequence of int
        Numbers of runs (prefixes of the R runs), each in [2, R].
    df_values : sequence of float
        Degrees of freedom to try (the paper: 2, ..., 100).
    alphas : sequence of float
        Significance levels.
    n_jobs : int, optional
        Worker processes (joblib). None: all CPUs for grids of at least
        ``_PARALLEL_TESTS`` single tests (data sets x runs x df), else one
        process (starting workers would cost more). Never changes the result.

    Returns
    -------
    xarray.Dataset
        ``rejections`` (int64) on dims ``(test, n_runs, df, alpha)``, and
        ``n_datasets`` (int64, a scalar).

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.papers.bouckaert2003 import rejection_counts
    >>> d = np.random.default_rng(0).normal(size=(500, 4, 5))
    >>> ds = rejection_counts(d, tests=["all"], n_runs=[2, 4], df_values=[3, 19], alphas=[0.05])
    >>> ds["rejections"].sel(test="all", alpha=0.05).values.tolist()
    [[1, 97], [0, 29]]
    """
    tests = _check_tests(tests)
    d = as_runs_folds(d)
    if d.ndim != 3:
        raise ValueError(f"`d` must have shape (n_datasets, R, k); got shape {d.shape}.")
    n_runs = tuple(_check_n_runs(r, d.shape[-2]) for r in n_runs)
    df_values = tuple(check_positive(v, "df_values") for v in df_values)
    if not n_runs or not df_values:
        raise ValueError("`n_runs` and `df_values` must each hold at least one value.")
    alpha_arr = np.asarray(_check_alphas(alphas))
    if n_jobs is None:
        n_jobs = -1 if d.shape[0] * len(n_runs) * len(df_values) * len(tests) >= _PARALLEL_TESTS else 1
    cells = list(parallel_map(lambda cell: _cell_rejections(d, *cell, df_values, alpha_arr),
                              [(test, r) for test in tests for r in n_runs],
                              backend="processes", n_jobs=n_jobs))
    counts = np.array(cells, dtype=np.int64).reshape(len(tests), len(n_runs), len(df_values), alpha_arr.size)
    return xr.Dataset(
        {"rejections": (("test", "n_runs", "df", "alpha"), counts),
         "n_datasets": ((), np.int64(d.shape[0]))},
        coords={"test": list(tests), "n_runs": list(n_runs), "df": list(df_values),
                "alpha": alpha_arr.tolist()},
    )


def _cell_rejections(d, test, n_runs, df_values, alphas):
    """Rejections of one test on the first ``n_runs`` runs, shape (len(df_values), len(alphas)).

    A Table 1 scheme's df-free part (moments, sorted runs) is computed once for all df, as
    :func:`study_test` computes it.
    """
    if test in _SCHEME_TESTS:
        scheme, variant = _SCHEME_TESTS[test]
        result = functools.partial(scheme_ttest_from_moments, scheme_moments(d[..., :n_runs, :], scheme=scheme,
                                                                              variant=variant))
    else:
        result = functools.partial(study_test, d, test, n_runs=n_runs)
    out = np.empty((len(df_values), alphas.size), dtype=np.int64)
    for m, df in enumerate(df_values):
        p = np.asarray(result(df=df).pvalue)
        out[m] = (p[:, None] < alphas).sum(axis=0)
    return out


def select_calibrated_df(counts, *, alpha):
    """Pick the calibrated df from rejection counts on null data (Bouckaert 2003, Sec. 4).

    The calibrated df is the one "at which the Type I error measured is
    closest and less than or equal to the significance level"; ties go to the
    largest df, and when every df exceeds the level the df is 0 and the Type I
    error NaN, exactly as :func:`replicability.stats.calibration.calibrate_df`.

    Parameters
    ----------
    counts : xarray.Dataset
        A result of :func:`rejection_counts` on null data.
    alpha : float
        One of the levels of ``counts``.

    Returns
    -------
    xarray.Dataset
        ``df`` and ``type1_error`` (a fraction) on dims ``(test, n_runs)``.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.papers.bouckaert2003 import rejection_counts, select_calibrated_df
    >>> d = np.random.default_rng(0).normal(size=(500, 4, 5))
    >>> ds = rejection_counts(d, tests=["all"], n_runs=[4], df_values=range(10, 21), alphas=[0.05])
    >>> cal = select_calibrated_df(ds, alpha=0.05)
    >>> float(cal["df"].item()), float(cal["type1_error"].item())
    (18.0, 0.05)
    """
    alpha = check_alpha(alpha)
    if not np.any(np.isclose(counts["alpha"].values, alpha, rtol=0, atol=1e-12)):
        raise ValueError(f"`alpha` must be one of the levels of `counts`; got {alpha!r}.")
    rej = counts["rejections"].sel(alpha=alpha, method="nearest").transpose("test", "n_runs", "df")
    rates = rej.values / int(counts["n_datasets"])
    df_values = counts["df"].values.astype(float)
    ok = rates <= alpha
    # Largest admissible rate, then the largest df reaching it (calibrate_df's rule).
    best = np.where(ok, rates, -np.inf).max(axis=-1)
    chosen = np.where(ok & (rates == best[..., None]), df_values, -np.inf).max(axis=-1)
    none = ~ok.any(axis=-1)
    dims = ("test", "n_runs")
    return xr.Dataset(
        {"df": (dims, np.where(none, 0.0, chosen)), "type1_error": (dims, np.where(none, np.nan, best))},
        coords={"test": counts["test"].values, "n_runs": counts["n_runs"].values},
    )


def study_outcomes(d, *, tests, alphas, df=None, n_runs=None):
    """Outcomes (A better +1, no difference 0, B better -1) of the tests on every data set.

    Parameters
    ----------
    d : array_like, shape (..., R, k)
        Accuracy differences (A - B) of R runs of k-fold cv, with any leading
        axes (e.g. data set and repetition).
    tests : sequence of str
        Names of :data:`STUDY_TESTS`.
    alphas : sequence of float
        Significance levels.
    df : mapping of str to float, optional
        Calibrated df per test; a test not in the mapping (or with value None)
        uses its default df.
    n_runs : int, optional
        Use the first ``n_runs`` runs (default all).

    Returns
    -------
    ndarray of int8, shape ``(len(tests), len(alphas)) + d.shape[:-2]``
        The decisions of :func:`replicability.stats.decisions.decide` (reject when
        ``pvalue < alpha``, direction from the sign of the statistic).

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.papers.bouckaert2003 import study_outcomes
    >>> d = np.array([[3.33, 10, -6.66], [6.66, 3.33, 0], [6.66, -10, -3.33]])
    >>> study_outcomes(d, tests=["all", "resampling"], alphas=[0.05, 0.5]).tolist()
    [[0, 0], [1, 1]]
    """
    tests = _check_tests(tests)
    alphas = _check_alphas(alphas)
    df = dict(df or {})
    d = as_runs_folds(d)
    out = np.empty((len(tests), len(alphas)) + d.shape[:-2], dtype=np.int8)
    for i, test in enumerate(tests):
        res = study_test(d, test, n_runs=n_runs, df=df.get(test))
        for j, alpha in enumerate(alphas):
            out[i, j] = decide(res, alpha=alpha)
    return out


def replicability_summary(outcomes):
    """Share of consistent data sets and mean R̂2 with its standard error.

    Parameters
    ----------
    outcomes : array_like of int, shape (..., n_datasets, n_repeats)
        Outcomes in {-1, 0, 1}; the repetitions (randomizations of the splits)
        on the last axis, data sets on the one before.

    Returns
    -------
    dict of ndarray, each of shape ``outcomes.shape[:-2]``
        ``consistency``: share of data sets on which every repetition gives the
        same outcome (the "replicability" of Bouckaert 2003, Tables 5 and 6);
        ``r2``: mean over data sets of R̂2 (Bouckaert 2004), the share of
        agreeing pairs of repetitions; ``r2_se``: its standard error, the
        standard deviation of the per-data-set R̂2 over data sets divided by
        ``sqrt(n_datasets)`` (data sets are independent).

    Notes
    -----
    Outcomes have three values (ERRATA, Bouckaert 2004): two repetitions that
    reject in opposite directions disagree. Bouckaert (2003) speaks of "all
    reject or all not reject"; the two readings differ only on data sets
    where a test rejects in both directions.

    Examples
    --------
    >>> from replicability.papers.bouckaert2003 import replicability_summary
    >>> s = replicability_summary([[0, 0, 0], [1, 1, 0]])
    >>> float(s["consistency"]), round(float(s["r2"]), 4), round(float(s["r2_se"]), 4)
    (0.5, 0.6667, 0.3333)
    """
    outcomes = np.asarray(outcomes)
    if outcomes.ndim < 2 or outcomes.shape[-2] < 2 or outcomes.shape[-1] < 2:
        raise ValueError(
            f"`outcomes` must have at least 2 data sets and 2 repetitions on its last two axes; "
            f"got shape {outcomes.shape}."
        )
    r2 = replicability_r2(outcomes)
    n = outcomes.shape[-2]
    return {
        "consistency": consistency(outcomes).mean(axis=-1),
        "r2": r2.mean(axis=-1),
        "r2_se": r2.std(axis=-1, ddof=1) / np.sqrt(n),
    }


def null_calibration(*, n_datasets, seed, scale, n_runs=FIGURE2_RUNS, n_folds=10, tests=STUDY_TESTS,
                     df_values=range(2, 101), alphas=(0.01, 0.05, 0.1), n_jobs=None):
    """Rejection counts of the Section 4 calibration on the null source (cached).

    Runs (or reads) one experiment of ``max(n_runs)`` runs of stratified
    ``n_folds``-fold cv of naive Bayes and C4.5 on ``n_datasets`` data sets of
    300 instances with 10 independent binary attributes and class probability
    0.5 (:func:`~replicability.papers.shared.synthetic_runs.synthetic_fold_counts`, source
    ``"null"``); every smaller number of runs is a prefix of it. Then counts the
    rejections of every test for every number of runs, df and level
    (:func:`rejection_counts`), and stores the counts with
    :func:`~replicability.engine.store.cached_result`, so that the notebooks of
    Section 4 and Table 2 share them.

    Parameters
    ----------
    n_datasets, seed : int
        Data sets and root seed of the experiment (the paper: 1000 data sets).
    scale : {"smoke", "quick", "paper"}
        Where results are stored (see :func:`~replicability.engine.store.cached_result`).
    n_runs : sequence of int
        Numbers of runs (default :data:`FIGURE2_RUNS`).
    n_folds : int
        Folds per run (10 in the paper).
    tests : sequence of str
        Names of :data:`STUDY_TESTS` (default all).
    df_values : sequence of float
        Degrees of freedom tried (default 2, ..., 100 as in the paper).
    alphas : sequence of float
        Levels (default 1, 5 and 10%, those of the paper's technical report).
    n_jobs : int, optional
        Worker processes if the experiment must be computed; never changes the result.

    Returns
    -------
    xarray.Dataset
        As :func:`rejection_counts`; pass it to :func:`select_calibrated_df`.

    Examples
    --------
    >>> import os, tempfile
    >>> os.environ["REPLICABILITY_CACHE"] = tempfile.mkdtemp()
    >>> ds = null_calibration(n_datasets=2, seed=0, scale="smoke", n_runs=[2, 3], n_folds=3,
    ...                       tests=["all"], df_values=[2, 5], alphas=[0.05], n_jobs=1)
    >>> ds["rejections"].dims, int(ds["n_datasets"])
    (('test', 'n_runs', 'df', 'alpha'), 2)
    >>> del os.environ["REPLICABILITY_CACHE"]
    """
    tests = _check_tests(tests)
    n_runs = tuple(check_positive_int(r, "n_runs", minimum=2) for r in n_runs)
    if not n_runs:
        raise ValueError(f"`n_runs` must hold at least one number of runs; got {n_runs!r}.")
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)
    df_values = tuple(float(check_positive(v, "df_values")) for v in df_values)
    alphas = _check_alphas(alphas)
    counts = synthetic_fold_counts("null", scheme_params={"n_runs": max(n_runs), "n_folds": n_folds},
                                   n_datasets=n_datasets, n_repeats=1, seed=seed, scale=scale, n_jobs=n_jobs)
    params = {"fold_counts": counts.attrs["params"], "tests": list(tests), "n_runs": list(n_runs),
              "df_values": list(df_values), "alphas": list(alphas), "version": 1}
    return cached_result(
        "bouckaert2003/null_calibration", params,
        lambda: rejection_counts(fold_differences(counts)[:, 0], tests=tests, n_runs=n_runs,
                                 df_values=df_values, alphas=alphas),
        scale=scale,
        versions=json.loads(counts.attrs["code_versions"]),  # the fold counts' code: a stale count is stale here
    )
