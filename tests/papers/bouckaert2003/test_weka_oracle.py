"""Tests of replicability.papers.bouckaert2003.weka_oracle: the Weka 3.6 reference folds of ``data/weka``.

No Java here: the numbers were written by ``data/weka/make_weka_reference.py`` from real
Weka 3.6.14 (``data/weka/README.md``); the Weka tier (``tests/learners/test_weka_agreement.py``)
checks the driver and the splitters against the live jar.
"""

import numpy as np
import pytest

from replicability.engine.runner import pair_counts, run_experiment
from replicability.learners import C45, IB1, NaiveBayes
from replicability.papers.bouckaert2003 import weka_oracle as wo


@pytest.mark.parametrize("name, learners", [
    ("t7", ["naive_bayes", "c45", "ib1", "ibk1", "tan", "voted_perceptron"]),
    ("t7_experimenter", ["ib1", "voted_perceptron"]),
    ("t2_p03", ["naive_bayes", "c45"]),
    ("t2_p04", ["naive_bayes", "c45"]),
])
def test_read_weka_folds_shapes_and_ranges(name, learners):
    weka = wo.read_weka_folds(name)
    assert list(weka["learner"].values) == learners
    assert dict(weka["correct"].sizes) == {"learner": len(learners), "dataset": 1000, "run": 10, "fold": 10}
    n = weka["n_test"].values
    assert np.all(n.sum(axis=-1) == 300)  # every run of 10-fold cv tests the 300 instances once
    assert np.all((weka["correct"].values >= 0) & (weka["correct"].values <= n))


def test_read_weka_folds_rejects_unknown_experiment():
    with pytest.raises(ValueError, match="name"):
        wo.read_weka_folds("t9")


def test_dataset_and_splits_are_the_runners():
    # The runner's counts on two data sets equal the estimators fitted on dataset_and_splits' splits.
    config = wo.experiment_config("t7_experimenter", n_datasets=2)
    config = type(config)(**{**{f: getattr(config, f) for f in config.__dataclass_fields__},
                             "learners": ("ib1", "naive_bayes")})
    counts = pair_counts(run_experiment(config, progress=False))
    for i in range(2):
        X, y, splits = wo.dataset_and_splits(config, i)
        ours = [int((IB1().fit(X[tr], y[tr]).predict(X[te]) == y[te]).sum()) for tr, te in splits]
        nb = [int((NaiveBayes().fit(X[tr], y[tr]).predict(X[te]) == y[te]).sum()) for tr, te in splits]
        assert counts["correct_a"].values[i, 0].ravel().tolist() == ours
        assert counts["correct_b"].values[i, 0].ravel().tolist() == nb


def test_weka_counts_are_those_of_the_data_sets_they_name():
    # Data set 0 of Table 2 at 0.3, fold (0, 0): C4.5 fitted on the runner's split scores as Weka's J48.
    X, y, splits = wo.dataset_and_splits(wo.experiment_config("t2_p03", n_datasets=1), 0)
    weka = wo.read_weka_folds("t2_p03")
    train, test = splits[0]
    assert len(test) == int(weka["n_test"][0, 0, 0])
    assert int((C45().fit(X[train], y[train]).predict(X[test]) == y[test]).sum()) == int(
        weka["correct"].sel(learner="c45")[0, 0, 0])


def test_fold_agreement_table2_learners_equal_weka_on_every_fold():
    # Weka 3.6.14 NaiveBayes and J48 on the 2 x 100,000 folds of Table 2 at 0.3 and 0.4.
    for name in ("t2_p03", "t2_p04"):
        agree = wo.fold_agreement(name)
        assert agree["equal"].tolist() == [100000, 100000]
        assert np.allclose(agree["engine_accuracy"], agree["weka_accuracy"])


def test_fold_agreement_table7():
    agree = wo.fold_agreement("t7")
    assert agree.loc[["naive_bayes", "c45", "ib1", "tan"], "equal"].tolist() == [100000] * 4
    # the voted perceptron (NumPy's shuffle, not Weka's) differs
    assert agree.loc["voted_perceptron", "equal"] < 20000
    shuffled = wo.fold_agreement("t7_experimenter")
    assert shuffled["equal"].tolist() == [100000, 100000]  # IB1 and the voted perceptron with Weka's shuffle


def test_table7_oracle_weka_equals_engine_where_the_learners_agree():
    t = wo.table7_oracle().set_index("pair")
    exact = ["nb vs C4.5", "nn vs C4.5", "nn vs nb", "tan vs C4.5", "tan vs nb", "tan vs nn"]
    assert np.allclose(t.loc[exact, "weka_sorted"], t.loc[exact, "engine_sorted"])
    exact_exp = exact + ["vp vs C4.5", "vp vs nb", "vp vs nn", "vp vs tan"]
    assert np.allclose(t.loc[exact_exp, "weka_experimenter"], t.loc[exact_exp, "engine_experimenter"])
    # the Experimenter's order brings the 1-NN pairs toward the paper (Bouckaert 2003, Table 7: 2.0, 3.8)
    for pair in ("nn vs C4.5", "nn vs nb", "tan vs nn"):
        assert abs(t.loc[pair, "engine_experimenter"] - t.loc[pair, "published"]) < abs(
            t.loc[pair, "engine_sorted"] - t.loc[pair, "published"])


def test_table2_oracle_rates_identical():
    t = wo.table2_oracle()
    assert (t["engine"] == t["weka"]).all()
    assert set(t.index.get_level_values("class_probability")) == {0.3, 0.4}
    # Bouckaert (2003), Table 2, use all data: 1.0 at 0.3, 3.8 at 0.4
    assert t.loc[(0.3, "all"), "published"] == 1.0 and t.loc[(0.4, "all"), "published"] == 3.8


def test_table2_design_probes_book_row_is_table2():
    from replicability.papers.bouckaert2003 import table2_page

    probes = wo.table2_design_probes()
    reproduced = table2_page().reproduced["table2"].set_index(["test", "class_probability"])["value"]
    book = probes.iloc[0]
    for p in (0.3, 0.4):
        assert round(book[("all", p)], 4) == reproduced[("all", p)]
    assert probes.shape == (4, 4)


@pytest.mark.parametrize("name", sorted(wo.EXPERIMENTS))
def test_fold_agreement_reads_committed_results_only(name, committed_only):
    # the pairs are asked in their committed order (C4.5 is learner B): a fresh clone recomputes nothing
    agree = wo.fold_agreement(name)
    assert committed_only == [] and agree["folds"].gt(0).all()
