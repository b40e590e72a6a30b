"""The experiments behind the pages of Bouckaert (2003): sizes per scale and shared stored results.

Every page reads its experiments through these functions, so that pages sharing an
experiment read one stored result (:func:`~replicability.engine.store.cached_result`):
the Section 4 calibration on the null source (:func:`section4_calibration`, Figure 2,
Tables 2 and 7), the 10 x 10 cv runs on the four sources (:func:`source_counts`,
Figure 4 and Tables 4-6) and the calibration on set 1 (:func:`set1_calibration`,
Figure 4 and Tables 4-6).
"""

from __future__ import annotations

import json

from ...engine.store import cached_result
from ..shared.synthetic_runs import fold_differences, synthetic_fold_counts
from .study import CALIBRATED_TESTS, FIGURE2_RUNS, null_calibration, rejection_counts, select_calibrated_df

__all__ = [
    "CALIBRATION_ALPHAS",
    "LEVELS",
    "NULL_DATASETS",
    "PAIR_DATASETS",
    "SOURCE_SIZES",
    "TRAIN_SETS",
    "calibrated_df",
    "n_jobs_for",
    "section4_calibration",
    "set1_calibration",
    "source_counts",
    "stacked_runs",
]

#: Null data sets of the Section 4 calibration and of each Table 2 column, per scale (1000 in the paper).
NULL_DATASETS = {"smoke": 4, "quick": 100, "paper": 1000}
#: (data sets, randomizations of 10 x 10 cv) per source, per scale (1000 x 10 in the paper).
SOURCE_SIZES = {"smoke": (3, 4), "quick": (100, 10), "paper": (1000, 10)}
#: Data sets of set 1 per pair of learners of Table 7, per scale (1000 in the paper).
PAIR_DATASETS = {"smoke": 2, "quick": 50, "paper": 1000}
#: Training sets of 300 instances per source for Table 3, per scale.
TRAIN_SETS = {"smoke": 10, "quick": 100, "paper": 1000}
#: Levels of the Section 4 calibration (5% in the paper, 1% and 10% in its technical report).
CALIBRATION_ALPHAS = (0.01, 0.05, 0.1)
#: Levels of Tables 4 and 6.
LEVELS = (0.01, 0.025, 0.05, 0.1)


def _check_scale(scale):
    if scale not in NULL_DATASETS:
        raise ValueError(f"`scale` must be one of {sorted(NULL_DATASETS)}; got {scale!r}.")
    return scale


def n_jobs_for(scale):
    """Worker processes for an experiment that must be computed: one at smoke scale, else all CPUs.

    Examples
    --------
    >>> n_jobs_for("smoke"), n_jobs_for("paper")
    (1, None)
    """
    return 1 if _check_scale(scale) == "smoke" else None


def section4_calibration(*, scale, seed=0, alphas=CALIBRATION_ALPHAS):
    """Rejection counts of the Section 4 calibration at the sizes of ``scale``.

    :func:`~replicability.papers.bouckaert2003.study.null_calibration` for all numbers of
    runs of :data:`~replicability.papers.bouckaert2003.study.FIGURE2_RUNS` (at most 10 at
    smoke scale), every test, df 2..100, on ``NULL_DATASETS[scale]`` data sets.
    """
    runs = [r for r in FIGURE2_RUNS if _check_scale(scale) != "smoke" or r <= 10]
    return null_calibration(n_datasets=NULL_DATASETS[scale], seed=seed, scale=scale, n_runs=runs,
                            alphas=list(alphas), n_jobs=n_jobs_for(scale))


def calibrated_df(calibration, *, alpha, tests, n_runs=10):
    """``{test: df}`` calibrated at ``alpha`` for ``n_runs`` runs (0 when no df keeps the level)."""
    chosen = select_calibrated_df(calibration, alpha=alpha)["df"]
    return {t: float(chosen.sel(test=t, n_runs=n_runs)) for t in tests}


def source_counts(*, scale, seed=0, scheme="rxk_cv"):
    """Fold counts of naive Bayes against C4.5 on sources 1-4 (``{1: Dataset, ..., 4: Dataset}``).

    ``scheme="rxk_cv"``: randomizations of stratified 10 x 10 cv (Figure 4, Tables 4-6);
    ``"5x2"``: of stratified 5 x 2 cv (Table 5). Sizes from :data:`SOURCE_SIZES`.
    """
    n_datasets, n_repeats = SOURCE_SIZES[_check_scale(scale)]
    scheme_params = {"n_runs": 10, "n_folds": 10} if scheme == "rxk_cv" else {"stratified": True}
    return {s: synthetic_fold_counts(f"source{s}", scheme=scheme, scheme_params=scheme_params, n_datasets=n_datasets,
                                     n_repeats=n_repeats, seed=seed, scale=scale, n_jobs=n_jobs_for(scale))
            for s in (1, 2, 3, 4)}


def stacked_runs(d):
    """Differences ``(data set, repeat, run, fold)`` as ``(data set, repeat x run, fold)``: repeats are runs."""
    return d.reshape(d.shape[0], -1, d.shape[-1])


def set1_calibration(counts1, *, scale, tests=CALIBRATED_TESTS, alphas=LEVELS, df_min=2, df_max=100):
    """Rejection counts on set 1 for every number of runs its randomizations hold (cached).

    Set 1 "is the set used for calibrating the tests" (Section 5.2): the repeats of
    10 x 10 cv are independent partitions, so they are 10 x repeats runs of 10-fold cv,
    of which the first r make the r-run experiment. The result records the fold
    counts' code versions: a stale count makes it stale too.
    """
    d = stacked_runs(fold_differences(counts1))
    runs = [r for r in FIGURE2_RUNS if r <= d.shape[1]]
    tests = list(tests)
    params = {"fold_counts": counts1.attrs["params"], "tests": tests, "n_runs": runs, "df": [df_min, df_max],
              "alphas": list(alphas), "version": 1}
    return cached_result(
        "bouckaert2003/calibration_set1", params,
        lambda: rejection_counts(d, tests=tests, n_runs=runs, df_values=range(df_min, df_max + 1), alphas=alphas),
        scale=scale,
        versions=json.loads(counts1.attrs["code_versions"]),
    )
