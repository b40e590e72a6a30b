"""Outcomes and replicability tables of the tests on the UCI data sets.

Bouckaert & Frank (2004, Section 4, Tables 1-4) and Bouckaert (2004, Table 2) run
every test ten times on each of 27 UCI data sets and each pair of naive Bayes,
C4.5 and 1-NN, changing only the random partitioning, and count per data set how
often the test finds no difference (a *draw*). Over the data sets they report how
many are *consistent* (all ten outcomes equal), *almost consistent* (all but at
most one equal) and the replicability ``R``, the mean over data sets of the share
of equal pairs among the ``C(10, 2)`` pairs of outcomes (R̂2 of Bouckaert 2004).

This module turns the per-fold results of :func:`~replicability.papers.shared.uci_runs.uci_scheme_results`
into those numbers:

* :func:`fold_accuracy_differences`: accuracy differences A - B per fold and pair;
* :func:`uci_test_outcomes`: the decision (-1 B better, 0 draw, +1 A better) of one
  of the tests in :data:`UCI_TESTS` per (dataset, pair, repeat);
* :func:`draw_counts` and :func:`consistency_table`: the body and the bottom rows of
  the tables.

.. rubric:: References

Bouckaert, R. R., & Frank, E. (2004). Evaluating the replicability of significance
tests for comparing learning algorithms. PAKDD 2004, LNAI 3056, 3-12.
https://doi.org/10.1007/978-3-540-24775-3_3

Bouckaert, R. R. (2004). Estimating replicability of classifier learning
experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338

Nadeau, C., & Bengio, Y. (2003). Inference for the generalization error. Machine
Learning 52(3), 239-281. https://doi.org/10.1023/A:1024068626366
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr
from scipy import stats

from ..._validation import check_alpha, check_choice, check_positive_int
from ...stats.decisions import decide
from ...stats.measures import almost_consistency, consistency, replicability_r2
from ...stats.ttests import corrected_resampled_ttest, dietterich_5x2cv_ttest, paired_ttest
from .readings import experiment_outcomes

__all__ = [
    "PAIR_LABELS",
    "UCI_TESTS",
    "consistency_table",
    "draw_counts",
    "fold_accuracy_differences",
    "uci_test_outcomes",
]

#: The pairs of learners (``uci_study`` names) and the papers' labels.
PAIR_LABELS = {"NaiveBayes-J48": "NB vs C4.5", "NaiveBayes-IB1": "NB vs NN", "J48-IB1": "C4.5 vs NN"}

#: Test -> (scheme of the results it needs, description). See :func:`uci_test_outcomes`.
UCI_TESTS = {
    "5x2cv": ("5x2", "Dietterich's 5x2cv paired t-test (B&F 2004, Table 1)"),
    "corrected_resampled": ("resample", "corrected resampled t-test (B&F 2004, Table 2)"),
    "corrected_repeated_cv": ("cv", "corrected r x 10 cv t-test (B&F 2004, Tables 3-4)"),
    "cv_ttest": ("cv", "t-test on one 10-fold cv, df = 9 (B&F 2004, Section 4.3)"),
    "repeated_cv_ttest": ("cv", "uncorrected t-test on the r x 10 differences (B&F 2004, Section 4.3)"),
    "sorted_runs_t": ("cv", "sorted runs with the t-test (Bouckaert 2004, Table 2)"),
    "sorted_runs_sign": ("cv", "sorted runs with the sign test (Bouckaert 2004, Table 2)"),
    "sorted_runs_signed_rank": ("cv", "sorted runs with the signed-rank test (Bouckaert 2004, Table 2)"),
    "sorted_runs_sign_printed": ("cv", "sorted runs, sign test with the rule as printed (Bouckaert 2004, Sec. 2.3)"),
}

_DIMS = ("dataset", "pair", "repeat", "run", "fold")


def _check_results(results):
    if not isinstance(results, xr.Dataset) or not {"correct", "n_test", "n_train"} <= set(results.data_vars):
        raise TypeError(
            "`results` must be an xarray.Dataset with `correct`, `n_train` and `n_test` "
            f"(from uci_scheme_results); got {type(results).__name__}."
        )
    return results


def fold_accuracy_differences(results, *, pairs=tuple(PAIR_LABELS)):
    """Accuracy differences A - B per fold for every pair of learners.

    ``d = (correct_A - correct_B) / n_test``: a fraction, exactly zero where both
    learners classify the same number of test cases correctly.

    Parameters
    ----------
    results : xarray.Dataset
        From :func:`~replicability.papers.shared.uci_runs.uci_scheme_results` (``correct`` over
        learner, ``n_test`` over the splits; a ``dataset`` dimension is optional).
    pairs : sequence of str, keyword-only
        ``"A-B"`` names of learner pairs; default the three pairs of the papers.

    Returns
    -------
    xarray.DataArray
        Dimensions ``(dataset, pair, repeat, run, fold)`` (``dataset`` only when
        ``results`` has it). Positive values favour A.

    Examples
    --------
    >>> import numpy as np, xarray as xr
    >>> from replicability.papers.shared.uci_outcomes import fold_accuracy_differences
    >>> res = xr.Dataset({"correct": (("learner", "repeat", "run", "fold"), [[[[9, 8]]], [[[7, 8]]]]),
    ...                   "n_train": (("repeat", "run", "fold"), [[[10, 10]]]),
    ...                   "n_test": (("repeat", "run", "fold"), [[[10, 10]]])},
    ...                  coords={"learner": ["NaiveBayes", "J48"]})
    >>> fold_accuracy_differences(res, pairs=["NaiveBayes-J48"]).values.ravel().tolist()
    [0.2, 0.0]
    """
    results = _check_results(results)
    learners = list(results["learner"].values)
    parts = []
    for pair in pairs:
        a, _, b = str(pair).partition("-")
        if a not in learners or b not in learners:
            raise ValueError(f"`pairs` must name learners of `results` ({learners}) as 'A-B'; got {pair!r}.")
        parts.append(results["correct"].sel(learner=a) - results["correct"].sel(learner=b))
    diff = xr.concat(parts, dim=pd.Index(list(pairs), name="pair")) / results["n_test"]
    return diff.transpose(*[d for d in _DIMS if d in diff.dims])


def _sorted_runs_sums(results, pairs, n_runs):
    """Sorted runs sample of every (dataset, pair, repeat) as exact integers.

    The accuracy difference of a fold is ``(c_A - c_B) / n_test``; with ``L`` the
    least common multiple of a data set's test-set sizes, ``(c_A - c_B) L / n_test``
    is an integer proportional to it (same factor ``L`` for every fold of the data
    set), so sorting the folds of each run and summing over the runs per sorted
    position gives integers whose signs are those of the sorted runs means. In
    floating point a sum that is zero in exact arithmetic can come out as
    ``±5e-19`` and a sign test would count it as a plus or a minus.

    Returns
    -------
    ndarray of int64, shape (dataset, pair, repeat, fold)
    """
    if "dataset" not in results.dims:
        results = results.expand_dims("dataset")
    sub = results.isel(run=slice(0, n_runs))
    n_test = sub["n_test"].transpose("dataset", "repeat", "run", "fold").values.astype(np.int64)
    lcm = np.array([np.lcm.reduce(np.unique(sizes)) for sizes in n_test], dtype=np.int64)
    scale = (lcm[:, None, None, None] // n_test)[:, None]  # (dataset, 1, repeat, run, fold)
    diff = np.stack([(sub["correct"].sel(learner=a) - sub["correct"].sel(learner=b))
                     .transpose("dataset", "repeat", "run", "fold").values.astype(np.int64)
                     for a, _, b in (str(pair).partition("-") for pair in pairs)], axis=1)
    return np.sort(diff * scale, axis=-1).sum(axis=-2)


def _printed_sign_outcomes(sample, alpha):
    # Bouckaert (2004, Sections 2.2-2.3) as printed: Z = number of pluses (a zero
    # is half a plus), P(Z) = Σ_{i=0}^{Z} C(n, i) (1/2)^n, accept iff
    # α/2 < P(Z) < 1 - α/2. A half-integer Z sums up to ⌊Z⌋. ``sample`` holds
    # exact integers (:func:`_sorted_runs_sums`), so the signs are exact and so is
    # ⌊Z⌋ = (2 n_plus + n_zero) // 2.
    sample = np.asarray(sample)
    if not np.issubdtype(sample.dtype, np.integer):
        raise TypeError(f"`sample` must hold exact integers; got dtype {sample.dtype}.")
    n = sample.shape[-1]
    z_floor = (2 * np.count_nonzero(sample > 0, axis=-1) + np.count_nonzero(sample == 0, axis=-1)) // 2
    p = stats.binom.cdf(z_floor, n, 0.5)
    return np.where(p < alpha / 2, -1, np.where(p > 1 - alpha / 2, 1, 0))


def _split_sizes(results, n_runs):
    # Weka's PairedCorrectedTTester uses the total test over the total training
    # cases of the splits it tests: n2/n1 of Nadeau & Bengio (2003), per data
    # set and repeat (exactly 1/9 for complete 10-fold cv runs).
    sel = {"run": slice(0, n_runs)}
    totals = [results[name].isel(sel).sum(("run", "fold")) for name in ("n_train", "n_test")]
    return [t.expand_dims(pair=1, axis=t.dims.index("repeat")).values for t in totals]


def uci_test_outcomes(results, test, *, n_runs=None, alpha=0.05, pairs=tuple(PAIR_LABELS)):
    """Outcome of a test per data set, pair of learners and repeat.

    Null hypothesis of every test: learners A and B are equally accurate on the
    data set. Each test is applied to the splits of one repeat (randomization),
    with differences ``x - y`` of the accuracies (positive favours A):

    * ``"5x2cv"``: :func:`~replicability.stats.ttests.dietterich_5x2cv_ttest`,
      ``t = x_11 / sqrt(Σ_j s_j² / 5)`` against t(5) ("5x2" results);
    * ``"corrected_resampled"``: the corrected resampled t-test of Nadeau &
      Bengio on the first ``n_runs`` 90/10 splits of the "resample" (or
      "resample_stratified", "resample_weka") results, ``t = m / sqrt((1/n + n2/n1) s²)`` with
      t(n - 1);
    * ``"corrected_repeated_cv"``: the same statistic on all ``10 r``
      differences of the first ``r = n_runs`` runs of 10-fold cv ("cv"
      results), t(10 r - 1) (Bouckaert & Frank 2004, Section 3.3);
    * ``"cv_ttest"``: the standard t-test on the 10 folds of run 0, t(9);
    * ``"repeated_cv_ttest"``: the uncorrected t-test on the ``10 r``
      differences, ``t = m / sqrt(s² / (10 r))`` with t(10 r - 1);
    * ``"sorted_runs_t"``, ``"sorted_runs_sign"``, ``"sorted_runs_signed_rank"``:
      Bouckaert (2004)'s sorted runs sample (each run's folds sorted, then
      averaged over runs per sorted position; 10 values) with the t-test, the
      exact sign test (a zero counts half a plus) and the Wilcoxon signed-rank
      test with normal approximation
      (:func:`~replicability.papers.shared.readings.experiment_outcomes`);
    * ``"sorted_runs_sign_printed"``: the sign test with Bouckaert (2004)'s
      decision rule taken literally: ``P(Z) = Σ_{i=0}^{⌊Z⌋} C(n, i) / 2^n``
      for ``Z`` pluses (a zero counting half), B better if ``P(Z) < α/2``, A
      better if ``P(Z) > 1 - α/2``. Since ``P`` includes ``Z`` itself, the rule
      is asymmetric (for n = 10 at 5%: B better at Z <= 1, A better at Z >= 8).

    Parameters
    ----------
    results : xarray.Dataset
        From :func:`~replicability.papers.shared.uci_runs.uci_scheme_results` for the scheme
        the test needs (``UCI_TESTS[test][0]``).
    test : str
        A key of :data:`UCI_TESTS`.
    n_runs : int, optional, keyword-only
        Use the first ``n_runs`` runs of every repeat (the ``m``-run experiment);
        default all runs. Ignored by ``"5x2cv"`` and ``"cv_ttest"``.
    alpha : float, keyword-only
        Significance level of the two-sided test (5% in the papers).
    pairs : sequence of str, keyword-only
        Learner pairs ``"A-B"``; default the papers' three.

    Returns
    -------
    xarray.DataArray of int8
        Dimensions ``(dataset, pair, repeat)``: -1 (B better), 0 (draw, no
        difference) or +1 (A better), as :func:`~replicability.stats.decisions.decide`.

    Notes
    -----
    The corrected tests use ``n2/n1`` = total test cases / total training cases
    of the splits tested, per data set and repeat (Weka's corrected tester);
    with varying ratios the statistic is computed by the same routine as
    :func:`~replicability.stats.ttests.corrected_resampled_ttest`, vectorized over the
    ratio. Zero variance follows Weka's convention (p = 1 if every difference
    is zero; p = 0 for a non-zero constant).

    Examples
    --------
    One data set, one repeat, 10 runs x 10 folds in which A is always one case
    in ten better than B (a non-zero constant: Weka's p = 0):

    >>> import numpy as np, xarray as xr
    >>> from replicability.papers.shared.uci_outcomes import uci_test_outcomes
    >>> dims = ("dataset", "repeat", "run", "fold")
    >>> correct = np.stack([np.full((1, 1, 10, 10), 9), np.full((1, 1, 10, 10), 8)], axis=1)
    >>> res = xr.Dataset({"correct": (("dataset", "learner", *dims[1:]), correct),
    ...                   "n_train": (dims, np.full((1, 1, 10, 10), 90)),
    ...                   "n_test": (dims, np.full((1, 1, 10, 10), 10))},
    ...                  coords={"learner": ["NaiveBayes", "J48"], "dataset": ["toy"]})
    >>> out = uci_test_outcomes(res, "corrected_repeated_cv", pairs=["NaiveBayes-J48"])
    >>> out.values.tolist()
    [[[1]]]
    """
    results = _check_results(results)
    test = check_choice(test, "test", tuple(UCI_TESTS))
    alpha = check_alpha(alpha)
    available = results.sizes["run"]
    n_runs = available if n_runs is None else check_positive_int(n_runs, "n_runs")
    if n_runs > available:
        raise ValueError(f"`n_runs` must be at most the {available} runs of `results`; got {n_runs}.")
    d = fold_accuracy_differences(results, pairs=pairs)
    if "dataset" not in d.dims:
        d = d.expand_dims("dataset")
    values = d.values  # (dataset, pair, repeat, run, fold)
    sub = values[..., :n_runs, :]
    if test == "5x2cv":
        if values.shape[-2:] != (5, 2):
            raise ValueError(f"`results` must hold 5 runs x 2 folds for '5x2cv'; got {values.shape[-2:]}.")
        outcome = decide(dietterich_5x2cv_ttest(values), alpha=alpha)
    elif test in ("corrected_resampled", "corrected_repeated_cv"):
        n_train, n_test = _split_sizes(
            results.expand_dims("dataset") if "dataset" not in results.dims else results, n_runs)
        flat = sub.reshape(sub.shape[:-2] + (-1,))
        outcome = decide(corrected_resampled_ttest(flat, n_train=n_train, n_test=n_test), alpha=alpha)
    elif test == "cv_ttest":
        outcome = experiment_outcomes(values, scheme="cv", test="t", alpha=alpha)
    elif test == "repeated_cv_ttest":
        outcome = decide(paired_ttest(sub.reshape(sub.shape[:-2] + (-1,))), alpha=alpha)
    elif test == "sorted_runs_sign_printed":
        outcome = _printed_sign_outcomes(_sorted_runs_sums(results, pairs, n_runs), alpha)
    else:
        name = test.removeprefix("sorted_runs_")
        outcome = experiment_outcomes(sub, scheme="sorted_runs", test=name, alpha=alpha)
    return xr.DataArray(np.asarray(outcome, dtype=np.int8), dims=("dataset", "pair", "repeat"),
                        coords={k: d[k] for k in ("dataset", "pair", "repeat") if k in d.coords},
                        name=test)


def _as_outcome_array(outcomes):
    if not isinstance(outcomes, xr.DataArray) or not {"dataset", "repeat"} <= set(outcomes.dims):
        raise TypeError(
            "`outcomes` must be an xarray.DataArray with `dataset` and `repeat` dimensions "
            f"(from uci_test_outcomes); got {type(outcomes).__name__}."
        )
    return outcomes


def draw_counts(outcomes):
    """Number of repeats on which the test finds no difference (the tables' body).

    Parameters
    ----------
    outcomes : xarray.DataArray
        Outcomes with a ``repeat`` dimension (from :func:`uci_test_outcomes`).

    Returns
    -------
    xarray.DataArray of int
        ``outcomes`` without ``repeat``: draws out of ``n_repeats``.

    Examples
    --------
    >>> import xarray as xr
    >>> from replicability.papers.shared.uci_outcomes import draw_counts
    >>> o = xr.DataArray([[0, 0, 1, -1], [0, 0, 0, 0]], dims=("dataset", "repeat"))
    >>> draw_counts(o).values.tolist()
    [2, 4]
    """
    return (_as_outcome_array(outcomes) == 0).sum("repeat")


def consistency_table(outcomes, *, directional=False):
    """Consistent, almost consistent and replicability R per pair (the tables' bottom rows).

    For each data set the ``n`` repeats give ``n`` outcomes. A data set is
    *consistent* when all ``n`` agree, *almost consistent* when all but at most
    one agree (Bouckaert & Frank 2004, Section 2). ``R`` is the mean over data
    sets of R̂2, the share of equal pairs among the ``C(n, 2)`` pairs of
    outcomes: for ``k`` rejections out of ``n``,
    ``R(k, n) = (k(k-1) + (n-k)(n-k-1)) / (n(n-1))`` (B&F 2004, Section 2;
    Bouckaert 2004, Lemma 3.2). ``normalized_R`` is ``2 R - 1`` (Bouckaert 2004).

    Parameters
    ----------
    outcomes : xarray.DataArray
        Outcomes -1/0/+1 with dimensions ``dataset`` and ``repeat`` (and any
        others, e.g. ``pair``, ``n_runs``, ``alpha``), from :func:`uci_test_outcomes`.
    directional : bool, keyword-only
        False (default, the papers' tables): two outcome values, reject or draw.
        True: three values, so a rejection for A and one for B disagree
        (ERRATA, Bouckaert 2004: R̂2 as the share of equal pairs).

    Returns
    -------
    pandas.DataFrame
        One row per combination of the other dimensions; columns ``consistent``
        and ``almost_consistent`` (number of data sets), ``R``,
        ``normalized_R`` and ``n_datasets``.

    Notes
    -----
    B&F count consistency as the number of 0's and 10's in the column of draws,
    i.e. on the two-valued outcome; a data set where the test sometimes prefers
    A and sometimes B with no draw is consistent there but not with
    ``directional=True``.

    Examples
    --------
    Draws 10, 9 and 5 out of 10 on three data sets:

    >>> import numpy as np, xarray as xr
    >>> from replicability.papers.shared.uci_outcomes import consistency_table
    >>> o = np.zeros((3, 10), dtype=int)
    >>> o[1, 0] = 1
    >>> o[2, :5] = -1
    >>> table = consistency_table(xr.DataArray(o[:, None], dims=("dataset", "pair", "repeat"),
    ...                                        coords={"pair": ["NaiveBayes-J48"]}))
    >>> table[["consistent", "almost_consistent"]].values.tolist()
    [[1, 2]]
    >>> print(round(float(table["R"].iloc[0]), 4))  # (1 + 0.8 + 40/90) / 3
    0.7481
    """
    o = _as_outcome_array(outcomes)
    if not directional:
        o = abs(o)
    others = [dim for dim in o.dims if dim not in ("dataset", "repeat")]
    o = o.transpose(*others, "dataset", "repeat")
    arr = o.values
    cons = np.asarray(consistency(arr)).sum(axis=-1)
    almost = np.asarray(almost_consistency(arr)).sum(axis=-1)
    r = np.asarray(replicability_r2(arr)).mean(axis=-1)
    table = xr.Dataset(
        {"consistent": (others, cons.astype(np.int64)), "almost_consistent": (others, almost.astype(np.int64)),
         "R": (others, r), "normalized_R": (others, 2 * r - 1),
         "n_datasets": (others, np.full(r.shape, o.sizes["dataset"], dtype=np.int64))},
        coords={dim: o[dim] for dim in others if dim in o.coords},
    )
    if not others:
        return pd.DataFrame({k: [v.item()] for k, v in table.data_vars.items()})
    return table.to_dataframe()[["consistent", "almost_consistent", "R", "normalized_R", "n_datasets"]]
