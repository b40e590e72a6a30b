"""Tests for replicability.learners.c45 (Weka J48-faithful C4.5 on nominal data)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from replicability.learners.c45 import C45

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "weka_nominal"
ATTS = [f"a{j}" for j in range(10)]


@parametrize_with_checks([C45()])
def test_sklearn_common_checks(estimator, check):
    check(estimator)


def _folds():
    data = pd.read_csv(FIXTURE / "data.csv")
    preds = pd.read_csv(FIXTURE / "predictions.csv")
    for name, g in data.groupby("dataset", sort=False):
        weka = preds[preds.dataset == name].set_index("row").loc[g.row, "j48"].to_numpy()
        X, y, fold = g[ATTS].to_numpy(), g.cls.to_numpy(), g.fold.to_numpy()
        for k in range(10):
            yield name, k, X[fold != k], y[fold != k], X[fold == k], weka[fold == k], int(y.max()) + 1


@pytest.fixture(scope="module")
def weka_fits():
    return [(name, k, C45(n_values=2, n_classes=n_classes).fit(Xtr, ytr), Xte, weka)
            for name, k, Xtr, ytr, Xte, weka, n_classes in _folds()]


def test_agrees_with_weka_j48_predictions(weka_fits):
    # Weka 3.6.14 J48 (default -C 0.25 -M 2), 10-fold cv on 5 synthetic data sets
    # (tests/fixtures/weka_nominal/make_fixture.py). Measured agreement: 100% (1500/1500).
    agree = sum(np.sum(m.predict(Xte) == weka) for _, _, m, Xte, weka in weka_fits)
    total = sum(len(weka) for *_, weka in weka_fits)
    assert agree / total >= 0.99
    assert agree == total


def test_tree_sizes_equal_weka(weka_fits):
    # "Size of the tree" and "Number of Leaves" printed by Weka 3.6.14 J48 per fold
    # (tests/fixtures/weka_nominal/j48_trees.csv).
    sizes = pd.read_csv(FIXTURE / "j48_trees.csv").set_index(["dataset", "fold"])
    for name, k, model, _, _ in weka_fits:
        assert (model.n_nodes_, model.n_leaves_) == tuple(sizes.loc[(name, k), ["n_nodes", "n_leaves"]])


def test_subtree_raising_changes_some_trees():
    # Without subtree raising the indep50 trees differ from Weka's default on
    # some folds (measured: 295/300 predictions agree), so raising is exercised.
    sizes = pd.read_csv(FIXTURE / "j48_trees.csv").set_index(["dataset", "fold"])
    differ = 0
    for name, k, Xtr, ytr, *_ in _folds():
        if name == "indep50":
            m = C45(n_values=2, subtree_raising=False).fit(Xtr, ytr)
            differ += m.n_nodes_ != sizes.loc[(name, k), "n_nodes"]
    assert differ >= 1


def test_single_relevant_attribute():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(100, 3))
    clf = C45().fit(X, X[:, 1])
    assert (clf.n_nodes_, clf.n_leaves_) == (3, 2)
    np.testing.assert_array_equal(clf.predict(X), X[:, 1])


def test_pure_node_and_too_small_data_make_a_leaf():
    assert C45().fit([[0], [1], [1]], [1, 1, 1]).n_nodes_ == 1
    # 3 instances < 2 * min_num_obj = 4: no split (C45ModelSelection).
    clf = C45().fit([[0], [1], [1]], [0, 1, 1])
    assert clf.n_nodes_ == 1
    assert list(clf.predict([[0]])) == [1]


def test_empty_branch_predicts_parent_majority():
    # Attribute with 3 values; value 2 never occurs in training. Weka's empty
    # leaf returns the split's class frequencies, i.e. the parent's majority.
    # (20 instances: Weka averages gains only over attributes with n_values < 0.3 N.)
    X = np.array([[0]] * 12 + [[1]] * 8)
    y = np.array([0] * 12 + [1] * 8)
    clf = C45(n_values=3).fit(X, y)
    assert clf.n_nodes_ == 4  # root + 3 leaves, one of them empty
    np.testing.assert_allclose(clf.predict_proba([[2]]), [[0.6, 0.4]], rtol=1e-15)
    assert list(clf.predict([[2]])) == [0]
    # With inferred n_values the unseen code takes the same route.
    assert list(C45().fit(X, y).predict([[2]])) == [0]


def test_instance_order_and_labels_do_not_matter():
    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(120, 6))
    y = (X[:, 0] & X[:, 2]) ^ (rng.random(120) < 0.1)
    perm = rng.permutation(120)
    a = C45().fit(X, y)
    b = C45().fit(X[perm], y[perm])
    c = C45().fit(X, np.where(y == 1, "yes", "no"))
    np.testing.assert_array_equal(a.predict(X), b.predict(X))
    np.testing.assert_array_equal(np.where(a.predict(X) == 1, "yes", "no"), c.predict(X))


def test_many_valued_attribute_is_left_out_of_the_average_gain():
    # C45ModelSelection averages the gain only over attributes with
    # n_values < 0.3 * N, unless all attributes have that many values
    # (multiVal). Checked against Weka 3.6.14 J48 (sizes 4 and 3).
    X = np.array([[0]] * 6 + [[1]] * 4)
    y = np.array([0] * 6 + [1] * 4)
    assert C45(n_values=3).fit(X, y).n_nodes_ == 4
    assert C45(n_values=2).fit(X, y).n_nodes_ == 3


def test_pruning_options_only_grow_the_tree():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, size=(200, 8))
    y = rng.integers(0, 2, size=200)
    pruned = C45().fit(X, y).n_nodes_
    unpruned = C45(prune=False).fit(X, y).n_nodes_
    raw = C45(prune=False, collapse=False).fit(X, y).n_nodes_
    assert pruned <= unpruned <= raw
    assert raw > pruned


def test_rejects_bad_confidence():
    with pytest.raises(ValueError, match="`confidence_factor`"):
        C45(confidence_factor=0.0).fit([[0], [1]], [0, 1])
    with pytest.raises(ValueError, match="`confidence_factor`"):
        C45(confidence_factor=0.6).fit([[0], [1]], [0, 1])


def test_rejects_bad_min_num_obj():
    with pytest.raises(ValueError, match="`min_num_obj`"):
        C45(min_num_obj=0).fit([[0], [1]], [0, 1])


def test_rejects_negative_codes():
    with pytest.raises(ValueError, match="`X`"):
        C45().fit([[0], [-1]], [0, 1])


def test_rejects_non_integer_codes():
    with pytest.raises(ValueError, match="`X`"):
        C45().fit([[0.5], [1.0]], [0, 1])


def test_agrees_with_weka_on_small_multivalued_sets():
    # Weka 3.6.14 J48 on 30 small sets with 2-5-valued attributes, predictions
    # for all 120 possible instances and tree sizes (small_*.csv; make_fixture.py).
    # Measured agreement: 3600/3600 predictions, 30/30 tree sizes.
    data = pd.read_csv(FIXTURE / "small_data.csv")
    preds = pd.read_csv(FIXTURE / "small_predictions.csv")
    sizes = pd.read_csv(FIXTURE / "small_trees.csv").set_index("dataset")
    atts = ["a0", "a1", "a2", "a3"]
    agree = total = 0
    for name, g in data.groupby("dataset"):
        q = preds[preds.dataset == name]
        clf = C45(n_values=[2, 3, 4, 5], n_classes=3).fit(g[atts].to_numpy(), g.cls.to_numpy())
        agree += np.sum(clf.predict(q[atts].to_numpy()) == q.j48.to_numpy())
        total += len(q)
        assert (clf.n_nodes_, clf.n_leaves_) == tuple(sizes.loc[name, ["n_nodes", "n_leaves"]])
    assert agree == total


# --- numeric attributes and missing values (attribute_types) -----------------------

MIXED = Path(__file__).resolve().parents[1] / "fixtures" / "weka_uci"


def _mixed_data():
    from replicability.sources.arff import load_arff

    train, test = load_arff(MIXED / "mixed_train.arff"), load_arff(MIXED / "mixed_test.arff")
    n_values = np.array([len(v) for v in train.nominal_values])
    return train, test, list(train.attribute_types), n_values


def test_mixed_data_agrees_with_weka_j48():
    # Weka 3.6.14 J48 on tests/fixtures/weka_uci/mixed_train.arff (250 rows: 3 numeric,
    # 2 nominal attributes, 10% missing), tested on mixed_test.arff (make_mixed.py).
    # Weka prints 19 leaves; its root test is "a <= 0.25" and its first leaf holds
    # 41.63 (fractional) instances.
    train, test, types, n_values = _mixed_data()
    clf = C45(attribute_types=types, n_values=n_values, n_classes=3).fit(train.X, train.y)
    weka = pd.read_csv(MIXED / "mixed_predictions.csv")["j48"].to_numpy()
    np.testing.assert_array_equal(clf.predict(test.X), weka)
    assert clf.n_leaves_ == 19
    assert clf.tree_.attr == (0, 0.25)
    first = clf.tree_.sons[0].sons[0].sons[0]
    assert round(float(first.dist.sum()), 2) == 41.63


def test_mixed_builder_reproduces_the_nominal_trees():
    # With attribute_types all nominal and no missing values the mixed-data code
    # path grows the same trees as the nominal one (and so agrees with Weka).
    for i, (_name, _k, Xtr, ytr, Xte, weka, n_classes) in enumerate(_folds()):
        if i % 5:
            continue
        model = C45(n_values=2, n_classes=n_classes).fit(Xtr, ytr)
        mixed = C45(n_values=2, n_classes=n_classes, attribute_types=["nominal"] * 10).fit(Xtr, ytr)
        assert (mixed.n_nodes_, mixed.n_leaves_) == (model.n_nodes_, model.n_leaves_)
        np.testing.assert_allclose(mixed.predict_proba(Xte), model.predict_proba(Xte), rtol=1e-12)
        np.testing.assert_array_equal(mixed.predict(Xte), weka)


def test_numeric_threshold_is_largest_training_value_below_midpoint():
    # 1..20 in class 0, 30..49 in class 1: the cut lies between 20 and 30; Weka's
    # C45Split.setSplitPoint moves the midpoint 25 down to the largest training value, 20.
    x = np.r_[np.arange(1, 21), np.arange(30, 50)].astype(float)[:, None]
    y = np.r_[np.zeros(20, int), np.ones(20, int)]
    clf = C45(attribute_types=["numeric"]).fit(x, y)
    assert clf.tree_.attr == (0, 20.0)
    assert list(clf.predict([[20.0], [20.5], [29.0]])) == [0, 1, 1]


def test_minimum_instances_per_numeric_branch():
    # 100 instances, 2 classes: each side of a numeric cut needs
    # min(25, max(2, 0.1 * 100 / 2)) = 5 instances; 4 outliers of class 1 at the
    # low end cannot be cut off, 6 can.
    x = np.arange(100, dtype=float)[:, None]
    for n_low, splits in ((4, False), (6, True)):
        y = np.r_[np.ones(n_low, int), np.zeros(100 - n_low, int)]
        y[-3:] = 1  # keep the node impure after the cut
        clf = C45(attribute_types=["numeric"], prune=False, collapse=False).fit(x, y)
        assert (clf.tree_.sons is not None and clf.tree_.attr == (0, float(n_low - 1))) == splits


def test_mdl_correction_can_reject_a_numeric_split():
    # Information gain of the best cut minus log2(#cuts) / N: with many distinct
    # values and a weak signal the corrected gain is <= 0 and the root stays a leaf.
    rng = np.random.default_rng(0)
    x = rng.permutation(200).astype(float)[:, None]
    y = (rng.random(200) < 0.5).astype(int)
    y[x[:, 0] < 3] = 1
    clf = C45(attribute_types=["numeric"], prune=False, collapse=False).fit(x, y)
    assert clf.n_nodes_ == 1


def test_missing_value_goes_down_both_branches():
    # Training: x <= 20 is class 0 (20 instances), x > 20 class 1 (30); a query with
    # x missing gets the leaves' frequencies weighted 20/50 and 30/50.
    x = np.r_[np.arange(1, 21), np.arange(30, 60)].astype(float)[:, None]
    y = np.r_[np.zeros(20, int), np.ones(30, int)]
    clf = C45(attribute_types=["numeric"]).fit(x, y)
    np.testing.assert_allclose(clf.predict_proba([[np.nan]]), [[0.4, 0.6]], rtol=1e-14)


def test_missing_training_values_are_fractional_instances():
    # Two missing values of class 1 are split 20:30 over the branches of x.
    x = np.r_[np.arange(1, 21), np.arange(30, 60), [np.nan, np.nan]].astype(float)[:, None]
    y = np.r_[np.zeros(20, int), np.ones(32, int)]
    clf = C45(attribute_types=["numeric"]).fit(x, y)
    left, right = clf.tree_.sons
    np.testing.assert_allclose(left.dist[0], [20, 2 * 20 / 50], rtol=1e-14)
    np.testing.assert_allclose(right.dist[0], [0, 30 + 2 * 30 / 50], rtol=1e-14)


def test_rejects_bad_attribute_types():
    with pytest.raises(ValueError, match="`attribute_types`"):
        C45(attribute_types=["numeric"]).fit(np.zeros((4, 2)), [0, 1, 0, 1])
