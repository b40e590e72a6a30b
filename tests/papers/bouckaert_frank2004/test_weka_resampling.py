"""Tests of replicability.papers.bouckaert_frank2004.weka_resampling.

Weka 3.6's random 90/10 runs (``data/weka``) and our agreement with them.
"""

import pytest

from replicability.papers.bouckaert_frank2004.weka_resampling import read_weka_resampling, resampling_agreement
from replicability.papers.shared.uci_runs import uci_scheme_results


def test_read_weka_resampling_layout():
    weka = read_weka_resampling()
    assert dict(weka["correct"].sizes) == {"dataset": 27, "learner": 3, "repeat": 1, "run": 100, "fold": 1}
    total = (weka["n_train"] + weka["n_test"]).isel(repeat=0, fold=0)
    assert bool((total == total.isel(run=0)).all())  # every run splits the whole data set
    assert int(weka["n_test"].sel(dataset="iris", run=0).item()) == 15


def test_resampling_agreement_before_and_after():
    weka = read_weka_resampling()
    # issue 21: our own random 90/10 splits matched Weka's counts on 1336 of 8100 runs and the tester on 78/81
    before = resampling_agreement(uci_scheme_results("resample"), weka).set_index("what")
    assert before.loc["runs, all learners"].tolist() == [1336, 8100]
    assert before.loc["decisions, all pairs"].tolist() == [78, 81]
    after = resampling_agreement(uci_scheme_results("resample_weka"), weka).set_index("what")
    assert after.loc["runs, all learners", "equal"] >= 8099
    assert after.loc["decisions, all pairs"].tolist() == [81, 81]


def test_resampling_agreement_rejects_too_many_runs():
    weka = read_weka_resampling()
    with pytest.raises(ValueError, match="n_runs"):
        resampling_agreement(weka, weka, n_runs=101)


def test_resampling_agreement_on_shared_data_sets_only():
    weka = read_weka_resampling()
    part = weka.sel(dataset=["iris", "labor"])
    agree = resampling_agreement(part, weka).set_index("what")
    assert agree.loc["runs, all learners"].tolist() == [600, 600]
    assert agree.loc["decisions, all pairs"].tolist() == [6, 6]
    with pytest.raises(ValueError, match="share"):
        resampling_agreement(weka.assign_coords(dataset=[f"x{i}" for i in range(27)]), weka)
