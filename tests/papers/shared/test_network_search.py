"""Tests of replicability.papers.shared.network_search (Bouckaert 2003, Table 3).

The expected accuracies of naive Bayes and C4.5 on a Bayesian network, and the search for the
networks that give the table's accuracies.
"""

import numpy as np
import pytest

from replicability.learners import C45, NaiveBayes
from replicability.learners.fastpath import naive_bayes_patterns, pattern_matrix
from replicability.papers.shared.network_search import (
    ExpectedAccuracy,
    _asymptotic_nb_accuracy,
    expected_accuracies,
    search_network,
)
from replicability.sources.bayesnet import (
    BayesNet,
    exact_accuracy,
    independent_network,
    load_bouckaert2003_networks,
    random_network,
)

# A hand-written network: y -> x0, y -> x1, y -> x2, x0 -> x2, x1 -> x2.
SMALL = BayesNet(
    0.4,
    [[], [], [0, 1]],
    [
        [0.2, 0.7],
        [0.6, 0.3],
        [[[0.1, 0.8], [0.5, 0.95]], [[0.9, 0.3], [0.05, 0.6]]],
    ],
)


def test_asymptotic_naive_bayes_equals_naive_bayes_on_huge_counts():
    # With 1e12 "instances" Weka's Laplace correction is negligible: naive Bayes
    # fitted on counts proportional to the joint has the exact marginals.
    net = random_network(n_attributes=6, n_arcs=6, concentration=0.7, rng=11)
    joint = net.joint()
    pred = naive_bayes_patterns(joint * 1e12)
    assert _asymptotic_nb_accuracy(joint) == pytest.approx(float(exact_accuracy(net, pred)), abs=1e-9)


# -- expected accuracies ----------------------------------------------------------------


def test_expected_accuracies_match_instance_level_learners():
    net = random_network(n_attributes=5, n_arcs=4, concentration=0.5, rng=8)
    res = expected_accuracies(net, n_train=120, n_train_sets=3, rng=21)
    # Redraw the same training sets and fit Weka's learners instance by instance.
    X, y = net.sample(120, size=(3,), rng=21)
    B = pattern_matrix(5)
    acc = {"nb": [], "c45": []}
    for b in range(3):
        for key, model in (("nb", NaiveBayes()), ("c45", C45())):
            pred = model.fit(X[b], y[b]).predict(B)
            acc[key].append(float(exact_accuracy(net, pred.astype(np.int64))))
    nb, c45 = np.array(acc["nb"]), np.array(acc["c45"])
    assert res.naive_bayes == pytest.approx(nb.mean(), rel=1e-12)
    assert res.c45 == pytest.approx(c45.mean(), rel=1e-12)
    assert res.difference == pytest.approx((c45 - nb).mean(), rel=1e-12, abs=1e-15)
    assert res.c45_se == pytest.approx(c45.std(ddof=1) / np.sqrt(3), rel=1e-12)
    assert res.naive_bayes_se == pytest.approx(nb.std(ddof=1) / np.sqrt(3), rel=1e-12)
    assert res.test_c45 is None and res.n_test is None


def test_test_set_accuracy_is_close_to_exact_accuracy():
    net = random_network(n_attributes=5, n_arcs=4, concentration=0.5, rng=8)
    n_test = 100_000
    res = expected_accuracies(net, n_train=120, n_train_sets=2, n_test=n_test, rng=3)
    assert isinstance(res, ExpectedAccuracy) and res.n_test == n_test
    for exact, test in ((res.naive_bayes, res.test_naive_bayes), (res.c45, res.test_c45)):
        assert abs(test - exact) < 4 * np.sqrt(exact * (1 - exact) / n_test)


def test_expected_accuracies_of_null_source_are_exactly_half():
    res = expected_accuracies(independent_network(), n_train_sets=3, rng=0)
    assert res.naive_bayes == pytest.approx(0.5, abs=1e-12)
    assert res.c45 == pytest.approx(0.5, abs=1e-12)
    assert res.difference == pytest.approx(0.0, abs=1e-12)


def test_search_network_hits_small_targets():
    net, info = search_network(0.75, 0.75, seed=0, n_attributes=4, arcs_range=(0, 3),
                               tolerance=0.03, n_confirm=20)
    acc = info["accuracy"]
    assert abs(acc["naive_bayes"] - 0.75) < 0.03 and abs(acc["c45"] - 0.75) < 0.03
    # The record regenerates the network: trial rng -> arcs, concentration, base network.
    rng = np.random.default_rng([info["seed"], info["trial"]])
    n_arcs = int(rng.integers(0, 4))
    concentration = float(np.exp(rng.uniform(np.log(0.1), np.log(2.0))))
    base = random_network(n_attributes=4, n_arcs=n_arcs, concentration=concentration, rng=rng)
    assert (n_arcs, concentration) == (info["n_arcs"], info["concentration"])
    assert base.scaled(info["strength"]) == net


# -- the stored sources of Bouckaert (2003) -----------------------------------------------


@pytest.fixture(scope="module")
def stored():
    return load_bouckaert2003_networks()


@pytest.mark.parametrize("source", [2, 3, 4])
def test_stored_sources_reproduce_stored_accuracies(stored, source):
    networks, records = stored
    acc = records[source]["accuracy"]
    res = expected_accuracies(networks[source], n_train_sets=40, rng=100 + source)
    for key in ("naive_bayes", "c45"):
        se = np.hypot(getattr(res, f"{key}_se"), acc[f"{key}_se"])
        assert abs(getattr(res, key) - acc[key]) < 4 * se


# -- validation: one test per rule ------------------------------------------------------


def test_n_train_sets_at_least_two():
    with pytest.raises(ValueError, match="`n_train_sets`"):
        expected_accuracies(SMALL, n_train_sets=1)


def test_n_test_positive():
    with pytest.raises(ValueError, match="`n_test`"):
        expected_accuracies(SMALL, n_train_sets=2, n_test=0)


def test_search_target_range():
    with pytest.raises(ValueError, match="`c45`"):
        search_network(0.8, 1.2, seed=0)


def test_search_tolerance_range():
    with pytest.raises(ValueError, match="`tolerance`"):
        search_network(0.8, 0.9, seed=0, tolerance=0)


def test_search_arcs_range():
    with pytest.raises(ValueError, match="`arcs_range`"):
        search_network(0.8, 0.9, seed=0, n_attributes=3, arcs_range=(0, 4))


def test_search_concentration_range():
    with pytest.raises(ValueError, match="`concentration_range`"):
        search_network(0.8, 0.9, seed=0, concentration_range=(0.5, 0.1))


def test_asymptotic_naive_bayes_with_deterministic_attribute():
    # P(x0 = 1 | y) is exactly 0 or 1: log(0) must not turn into NaN (0 * -inf).
    net = BayesNet(0.5, [[], []], [[0.0, 1.0], [0.3, 0.3]])
    assert _asymptotic_nb_accuracy(net.joint()) == 1.0


@pytest.mark.parametrize("source", [2, 3, 4])
def test_stored_networks_are_what_the_seeded_search_drew(stored, source):
    networks, records = stored
    info = records[source]["search"]
    rng = np.random.default_rng([info["seed"], info["trial"]])
    low, high = info["arcs_range"]
    n_arcs = int(rng.integers(low, high + 1))
    c_low, c_high = info["concentration_range"]
    concentration = float(np.exp(rng.uniform(np.log(c_low), np.log(c_high))))
    assert n_arcs == info["n_arcs"] and concentration == pytest.approx(info["concentration"], rel=1e-12)
    base = random_network(n_arcs=n_arcs, concentration=concentration, rng=rng)
    regenerated = base.scaled(info["strength"])
    assert regenerated.parents == networks[source].parents
    for a, b in zip(regenerated.cpts, networks[source].cpts):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-15)
