"""Weka 3.6's own 100-run resampling on the 27 UCI data sets, and our agreement with it.

Bouckaert & Frank (2004) ran the corrected resampled t-test in Weka's Experimenter,
whose ``RandomSplitResultProducer`` draws the 90/10 splits of run ``r`` with
``java.util.Random(r)``. ``data/weka/uci_resampling.csv.gz`` holds, for runs 1..100 of
every data set, the training and test sizes and the test instances Weka 3.6.14's
NaiveBayes, J48 and IB1 classify correctly (``data/weka/make_weka_reference.py``, which
calls Weka's own ``doRun``). :func:`read_weka_resampling` lays them out as
:func:`~replicability.papers.shared.uci_runs.uci_scheme_results` does (one
repeat); :func:`resampling_agreement` counts the runs on which our per-run counts equal
Weka's and the data set and pair on which the corrected resampled t-test decides as
Weka's corrected tester (the same test on Weka's counts).

.. rubric:: References

Bouckaert, R. R., & Frank, E. (2004). Evaluating the replicability of significance
tests for comparing learning algorithms. PAKDD 2004, LNAI 3056, 3-12.
https://doi.org/10.1007/978-3-540-24775-3_3
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from ..._validation import check_alpha, check_positive_int
from ...engine.store import data_dir
from ..shared.uci_outcomes import PAIR_LABELS, uci_test_outcomes
from ..shared.uci_runs import LEARNERS

__all__ = ["read_weka_resampling", "resampling_agreement"]


def read_weka_resampling(path=None):
    """Weka 3.6's per-run results of 100 runs of 90/10 resampling on the UCI data sets.

    Parameters
    ----------
    path : path-like, optional
        CSV with columns ``dataset, run, learner, n_train, n_test, correct``
        (default ``data/weka/uci_resampling.csv.gz`` of the compendium).

    Returns
    -------
    xarray.Dataset
        ``correct`` (dataset, learner, repeat, run, fold) and ``n_train``, ``n_test``
        (dataset, repeat, run, fold), one repeat and one fold, runs numbered from 0
        (Weka's run ``r`` is run ``r - 1``): the layout of
        :func:`~replicability.papers.shared.uci_runs.uci_scheme_results`.

    Examples
    --------
    >>> weka = read_weka_resampling()
    >>> dict(weka["correct"].sizes)
    {'dataset': 27, 'learner': 3, 'repeat': 1, 'run': 100, 'fold': 1}
    >>> int(weka["n_test"].sel(dataset="iris", run=0).item())  # Weka 3.6.14, iris, run 1: 15 test cases
    15
    """
    frame = pd.read_csv(data_dir() / "weka" / "uci_resampling.csv.gz" if path is None else path)
    names = list(dict.fromkeys(frame["dataset"]))
    runs = sorted(frame["run"].unique())
    correct = frame.set_index(["dataset", "learner", "run"])["correct"].to_xarray()
    correct = correct.reindex(dataset=names, learner=list(LEARNERS), run=runs)
    sizes = frame.groupby(["dataset", "run"])[["n_train", "n_test"]].first().to_xarray().reindex(dataset=names,
                                                                                               run=runs)
    out = xr.Dataset({"correct": correct.astype(np.int64), "n_train": sizes["n_train"].astype(np.int64),
                      "n_test": sizes["n_test"].astype(np.int64)})
    out = out.assign_coords(run=np.arange(len(runs))).expand_dims(repeat=[0], fold=[0])
    out["correct"] = out["correct"].transpose("dataset", "learner", "repeat", "run", "fold")
    for name in ("n_train", "n_test"):
        out[name] = out[name].transpose("dataset", "repeat", "run", "fold")
    return out


def resampling_agreement(results, weka, *, n_runs=100, alpha=0.05):
    """How far our resampling results agree with Weka's: per-run counts and test decisions.

    Parameters
    ----------
    results : xarray.Dataset
        Our results (:func:`~replicability.papers.shared.uci_runs.uci_scheme_results`);
        its repeat 0 is compared, run ``j`` with Weka's run ``j + 1``, on the data sets it
        shares with ``weka``.
    weka : xarray.Dataset
        From :func:`read_weka_resampling`.
    n_runs : int, default 100
        Runs compared and tested.
    alpha : float, default 0.05
        Level of the corrected resampled t-test.

    Returns
    -------
    pandas.DataFrame
        One row per learner (``what`` = ``"runs: <learner>"``: runs with the same number of
        correct test instances) and per pair (``"decisions: <pair>"``: data sets on which the
        corrected resampled t-test on the first ``n_runs`` runs decides the same), then the
        totals; columns ``equal``, ``total``.

    Examples
    --------
    >>> weka = read_weka_resampling()
    >>> agree = resampling_agreement(weka, weka).set_index("what")
    >>> agree.loc["runs, all learners"].tolist(), agree.loc["decisions, all pairs"].tolist()
    ([8100, 8100], [81, 81])
    """
    n_runs = check_positive_int(n_runs, "n_runs")
    alpha = check_alpha(alpha)
    ours_names = {str(n) for n in results["dataset"].values}
    names = [str(n) for n in weka["dataset"].values if str(n) in ours_names]
    if not names:
        raise ValueError("`results` and `weka` must share at least one data set.")
    ours = results.sel(dataset=names).isel(repeat=[0], run=slice(0, n_runs))
    theirs = weka.sel(dataset=names).isel(run=slice(0, n_runs))
    if ours.sizes["run"] != n_runs or theirs.sizes["run"] != n_runs:
        raise ValueError(f"`results` and `weka` must hold at least `n_runs` = {n_runs} runs.")
    rows = []
    equal = ours["correct"].values == theirs["correct"].values
    for j, learner in enumerate(LEARNERS):
        rows.append({"what": f"runs: {learner}", "equal": int(equal[:, j].sum()), "total": int(equal[:, j].size)})
    rows.append({"what": "runs, all learners", "equal": int(equal.sum()), "total": int(equal.size)})
    decide_ours = uci_test_outcomes(ours, "corrected_resampled", n_runs=n_runs, alpha=alpha).values
    decide_weka = uci_test_outcomes(theirs, "corrected_resampled", n_runs=n_runs, alpha=alpha).values
    same = decide_ours == decide_weka  # (dataset, pair, repeat)
    for k, pair in enumerate(PAIR_LABELS.values()):
        rows.append({"what": f"decisions: {pair}", "equal": int(same[:, k].sum()), "total": int(same[:, k].size)})
    rows.append({"what": "decisions, all pairs", "equal": int(same.sum()), "total": int(same.size)})
    return pd.DataFrame(rows)
