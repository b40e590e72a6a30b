"""Tests of replicability.papers.bouckaert_frank2004.fidelity: the learners' fidelity to Weka 3.6."""

import os
from pathlib import Path

import numpy as np
import pytest

from replicability.papers.bouckaert_frank2004.fidelity import (
    fidelity_table,
    read_weka_cv,
    uci_cv_correct,
    uci_fidelity,
)
from replicability.papers.shared.uci_runs import LEARNERS, cv_correct
from replicability.sources.uci import load_uci

ROOT = Path(__file__).resolve().parents[3]
UCI_DIR = Path(os.environ.get("REPLICABILITY_UCI_DIR") or ROOT.parent / "shared" / "data" / "uci")


@pytest.fixture(scope="module")
def weka():
    return read_weka_cv()


@pytest.mark.parametrize("name, seeds", [("iris", [1, 2]), ("labor", [3]), ("zoo", [4]), ("hepatitis", [5])])
def test_runs_equal_weka_exactly(weka, name, seeds):
    # Same folds as Weka's -x 10 -s <seed>, so each run's correct count equals Weka's
    # (the package's weka_cv.csv): naive Bayes, J48 and IB1 on data with
    # numeric attributes (iris, labor, hepatitis), missing values (labor, hepatitis)
    # and a many-valued nominal attribute (zoo).
    ds = load_uci(name, directory=UCI_DIR)
    for learner in LEARNERS:
        ours = cv_correct(ds, learner, seeds=seeds)
        ref = weka["correct"].sel(dataset=name, learner=learner, seed=seeds).values
        np.testing.assert_array_equal(ours, ref, err_msg=f"{name} {learner}")


def test_fidelity_target_on_27_data_sets(weka):
    # The target: the mean accuracy of 10 x 10 cv is within 1.5 percentage
    # points of Weka 3.6.14's on at least 24 of the 27 data sets, for each learner.
    # Our results are the committed paper-scale result (data/results, recomputed by
    # `make reproduce`).
    table = fidelity_table(uci_fidelity(scale="paper"), weka)
    assert len(table) == 27 * 3
    within = table.groupby("learner")["within"].sum()
    for learner in LEARNERS:
        assert within[learner] >= 24, table[table.learner == learner]


def test_committed_result_equals_weka_run_by_run(weka):
    # Stronger than the target: of the 810 runs (27 data sets x 3 learners x 10 seeds)
    # all but one classify exactly as many instances correctly as Weka 3.6.14's summary.
    # The exception, primary-tumor / J48 / seed 8 (ours 144, Weka 143), agrees with
    # Weka's own per-instance predictions for that run: `J48 -t primary-tumor.arff -x 10
    # -s 8 -p 0` marks 144 of 339 predictions correct while the summary of the same
    # command without -p reports 143.
    ours = uci_fidelity(scale="paper")
    ref = weka["correct"].sel(dataset=ours["dataset"], learner=ours["learner"], seed=ours["seed"])
    differ = np.argwhere(ours["correct"].values != ref.values)
    runs = [(str(ours["dataset"][i].values), str(ours["learner"][j].values), int(ours["seed"][k]))
            for i, j, k in differ]
    assert runs == [("primary-tumor", "J48", 8)]
    i, j, k = differ[0]
    assert (int(ours["correct"][i, j, k]), int(ref[i, j, k])) == (144, 143)
    np.testing.assert_array_equal(ours["n_instances"].values, weka["n_instances"].sel(dataset=ours["dataset"]).values)


def test_uci_cv_correct_layout():
    ds = uci_cv_correct(["iris"], learners=["NaiveBayes"], seeds=[1, 2], directory=UCI_DIR)
    assert ds["correct"].dims == ("dataset", "learner", "seed")
    assert ds["correct"].shape == (1, 1, 2)
    assert int(ds["n_instances"].sel(dataset="iris")) == 150


def test_fidelity_table_columns(weka):
    table = fidelity_table(weka, weka)
    assert list(table.columns) == ["dataset", "learner", "ours", "weka", "difference", "within"]
    assert (table["difference"] == 0).all() and table["within"].all()
    # Weka's mean 10 x 10 cv accuracy of naive Bayes on anneal: 86.59 % (fixture).
    row = table[(table.dataset == "anneal") & (table.learner == "NaiveBayes")]
    assert round(float(row["weka"].iloc[0]), 2) == 86.59


def test_uci_cv_correct_rejects_unknown_learner():
    with pytest.raises(ValueError, match="`learners`"):
        uci_cv_correct(["iris"], learners=["SMO"], seeds=[1], directory=UCI_DIR)


def test_uci_cv_correct_rejects_bad_n_jobs():
    with pytest.raises(ValueError, match="`n_jobs`"):
        uci_cv_correct(["iris"], seeds=[1], n_jobs=0, directory=UCI_DIR)


def test_fidelity_table_rejects_bad_tolerance(weka):
    with pytest.raises(ValueError, match="`tolerance`"):
        fidelity_table(weka, weka, tolerance=0)


def test_uci_fidelity_rejects_bad_scale():
    with pytest.raises(ValueError, match="`scale`"):
        uci_fidelity(scale="huge")
