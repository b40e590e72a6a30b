"""Tests of the Bayesian-network sources (replicability.sources.bayesnet; Bouckaert 2003 Table 3)."""

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replicability.learners.fastpath import pattern_index
from replicability.sources.bayesnet import (
    BOUCKAERT2003_TARGETS,
    BayesNet,
    bayes_optimal_accuracy,
    bouckaert2003_source,
    exact_accuracy,
    independent_network,
    load_bouckaert2003_networks,
    random_network,
    sample_bayesnet,
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


def _brute_force_joint(net):
    """P(x, y) by the chain rule, one state at a time (independent of BayesNet.joint)."""
    p = net.n_attributes
    out = np.zeros((2**p, 2))
    for c in (0, 1):
        for bits in itertools.product((0, 1), repeat=p):
            prob = net.class_probability if c == 1 else 1 - net.class_probability
            for j in range(p):
                p1 = net.cpts[j][(c,) + tuple(bits[i] for i in net.parents[j])]
                prob *= p1 if bits[j] == 1 else 1 - p1
            index = int("".join(map(str, bits)), 2)  # first attribute = most significant bit
            out[index, c] = prob
    return out


def _is_acyclic(n, arcs):
    """Kahn's algorithm on the attribute arcs (the class is a root and cannot close a cycle)."""
    indegree = [0] * n
    children = [[] for _ in range(n)]
    for i, j in arcs:
        children[i].append(j)
        indegree[j] += 1
    ready = [v for v in range(n) if indegree[v] == 0]
    seen = 0
    while ready:
        v = ready.pop()
        seen += 1
        for w in children[v]:
            indegree[w] -= 1
            if indegree[w] == 0:
                ready.append(w)
    return seen == n


# -- the network and its exact distribution ------------------------------------------


def test_joint_matches_chain_rule():
    np.testing.assert_allclose(SMALL.joint(), _brute_force_joint(SMALL), rtol=1e-14, atol=0)


def test_joint_of_random_network_matches_chain_rule():
    net = random_network(n_attributes=6, n_arcs=8, concentration=0.4, rng=3)
    np.testing.assert_allclose(net.joint(), _brute_force_joint(net), rtol=1e-12, atol=1e-300)


@settings(max_examples=30, deadline=None)
@given(
    n_attributes=st.integers(1, 7),
    arc_share=st.floats(0, 1),
    concentration=st.floats(0.05, 5),
    class_probability=st.floats(0, 1),
    seed=st.integers(0, 2**32 - 1),
)
def test_joint_sums_to_one(n_attributes, arc_share, concentration, class_probability, seed):
    n_arcs = int(arc_share * n_attributes * (n_attributes - 1) // 2)
    net = random_network(n_attributes=n_attributes, n_arcs=n_arcs, concentration=concentration,
                         class_probability=class_probability, rng=seed)
    joint = net.joint()
    assert joint.shape == (2**n_attributes, 2)
    assert joint.min() >= 0
    assert abs(joint.sum() - 1) < 1e-12
    # The class marginal is the class probability whatever the arcs.
    assert abs(joint[:, 1].sum() - class_probability) < 1e-12


@settings(max_examples=30, deadline=None)
@given(n_attributes=st.integers(1, 12), arc_share=st.floats(0, 1), seed=st.integers(0, 2**32 - 1))
def test_random_networks_are_acyclic(n_attributes, arc_share, seed):
    n_pairs = n_attributes * (n_attributes - 1) // 2
    n_arcs = int(arc_share * n_pairs)
    net = random_network(n_attributes=n_attributes, n_arcs=n_arcs, rng=seed)
    assert len(net.arcs) == n_arcs == len(set(net.arcs))
    assert all(i < j for i, j in net.arcs)
    assert _is_acyclic(n_attributes, net.arcs)


def test_acyclicity_check_detects_a_cycle():
    # The oracle itself must be able to fail.
    assert not _is_acyclic(3, [(0, 1), (1, 2), (2, 0)])


def test_scaled_limits():
    uniform = SMALL.scaled(0.0).joint()
    np.testing.assert_allclose(uniform[:, 1], 0.4 / 8, rtol=1e-14)
    np.testing.assert_allclose(uniform[:, 0], 0.6 / 8, rtol=1e-14)
    np.testing.assert_allclose(SMALL.scaled(1.0).joint(), SMALL.joint(), rtol=1e-14)


def test_independent_network_gives_every_classifier_half():
    net = independent_network(attribute_probability=np.linspace(0.1, 0.9, 10))
    rng = np.random.default_rng(0)
    predictions = rng.integers(0, 2, size=(5, 1024))
    np.testing.assert_allclose(exact_accuracy(net, predictions), 0.5, rtol=1e-12)
    assert bayes_optimal_accuracy(net) == pytest.approx(0.5, rel=1e-12)


def test_exact_accuracy_and_bayes_optimal_against_loops():
    joint = _brute_force_joint(SMALL)
    pred = np.array([0, 1, 1, 0, 1, 0, 0, 1])
    assert exact_accuracy(SMALL, pred) == pytest.approx(sum(joint[i, pred[i]] for i in range(8)), rel=1e-14)
    assert bayes_optimal_accuracy(SMALL) == pytest.approx(sum(max(row) for row in joint), rel=1e-14)


# -- sampling -------------------------------------------------------------------------


def test_sampling_frequencies_match_joint():
    n = 200_000
    X, y = sample_bayesnet(n, network=SMALL, rng=1)
    cells = pattern_index(X) * 2 + y
    observed = np.bincount(cells, minlength=16)
    p = SMALL.joint().ravel()
    se = np.sqrt(n * p * (1 - p))
    assert np.all(np.abs(observed - n * p) < 4 * se)


def test_sample_batch_shape_and_reproducibility():
    X, y = SMALL.sample(50, size=(4, 3), rng=5)
    assert X.shape == (4, 3, 50, 3) and y.shape == (4, 3, 50)
    assert X.dtype == np.int64 and set(np.unique(X)) <= {0, 1}
    X2, y2 = SMALL.sample(50, size=(4, 3), rng=np.random.default_rng(5))
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)


def _sample_attribute_by_attribute(net, n, size, rng):
    # The sampler as first written: one uniform draw per variable, CPTs read by fancy indexing.
    shape = size + (n,)
    y = (rng.random(shape) < net.class_probability).astype(np.int64)
    X = np.empty(shape + (net.n_attributes,), dtype=np.int64)
    for j, (pa, cpt) in enumerate(zip(net.parents, net.cpts)):
        X[..., j] = rng.random(shape) < cpt[(y, *(X[..., i] for i in pa))]
    return X, y


@pytest.mark.parametrize("size", [(), (3,), (2, 3)])
def test_compiled_sampling_equals_drawing_variable_by_variable(size):
    # The compiled forward sampling draws every uniform in one call: the same stream, the same data.
    networks = [SMALL, *load_bouckaert2003_networks()[0].values(),
                random_network(n_attributes=7, n_arcs=9, concentration=1.0, rng=3)]
    for seed, net in enumerate(networks):
        got = net.sample(40, size=size, rng=seed)
        want = _sample_attribute_by_attribute(net, 40, size, np.random.default_rng(seed))
        for a, b in zip(got, want, strict=True):
            np.testing.assert_array_equal(a, b)


def test_sample_bayesnet_accepts_dict_form():
    X, y = sample_bayesnet(20, network=SMALL.to_dict(), rng=2)
    X2, y2 = sample_bayesnet(20, network=SMALL, rng=2)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)


# -- serialization --------------------------------------------------------------------


def test_json_round_trip_is_exact():
    net = random_network(n_arcs=12, concentration=0.3, rng=4)
    text = net.to_json()
    data = json.loads(text)
    assert isinstance(data["cpts"][0], list) and isinstance(data["parents"][0], list)
    back = BayesNet.from_json(text)
    assert back == net
    np.testing.assert_array_equal(back.joint(), net.joint())


def test_equality_detects_a_changed_cpt():
    data = SMALL.to_dict()
    data["cpts"][0] = [0.2, 0.71]
    assert BayesNet.from_dict(data) != SMALL


# -- the stored sources of Bouckaert (2003) -----------------------------------------------


@pytest.fixture(scope="module")
def stored():
    return load_bouckaert2003_networks()


def test_stored_sources_meet_targets(stored):
    networks, records = stored
    assert sorted(networks) == [1, 2, 3, 4]
    for source, (nb, c45) in BOUCKAERT2003_TARGETS.items():
        acc = records[source]["accuracy"]
        assert networks[source].n_attributes == 10
        assert networks[source].class_probability == 0.5
        assert _is_acyclic(10, networks[source].arcs)
        # Table 3 of Bouckaert (2003), within half a point.
        assert abs(100 * acc["naive_bayes"] - nb) < 0.5
        assert abs(100 * acc["c45"] - c45) < 0.5
    assert networks[1].arcs == []


def test_null_source_is_exactly_fifty_percent(stored):
    networks, _ = stored
    assert bayes_optimal_accuracy(networks[1]) == pytest.approx(0.5, abs=1e-12)


def test_bouckaert2003_source_follows_runner_convention(stored):
    networks, _ = stored
    X, y = bouckaert2003_source(np.random.default_rng(3), n_instances=40, source=3)
    X2, y2 = networks[3].sample(40, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    assert X.shape == (40, 10)


# -- validation: one test per rule ------------------------------------------------------


def test_class_probability_must_be_probability():
    with pytest.raises(ValueError, match="`class_probability`"):
        BayesNet(1.5, [[]], [[0.5, 0.5]])


def test_class_probability_must_be_scalar():
    with pytest.raises(ValueError, match="`class_probability`"):
        BayesNet([0.5, 0.5], [[]], [[0.5, 0.5]])


def test_parents_and_cpts_same_length():
    with pytest.raises(ValueError, match="`parents` and `cpts`"):
        BayesNet(0.5, [[], []], [[0.5, 0.5]])


def test_parents_must_precede_child():
    with pytest.raises(ValueError, match="`parents`"):
        BayesNet(0.5, [[1], []], [[[0.5, 0.5], [0.5, 0.5]], [0.5, 0.5]])


def test_parents_must_be_distinct():
    with pytest.raises(ValueError, match="`parents`"):
        BayesNet(0.5, [[], [0, 0]], [[0.5, 0.5], np.full((2, 2, 2), 0.5)])


def test_cpt_shape_must_match_parents():
    with pytest.raises(ValueError, match=r"`cpts\[1\]`"):
        BayesNet(0.5, [[], [0]], [[0.5, 0.5], [0.5, 0.5]])


def test_cpt_values_must_be_probabilities():
    with pytest.raises(ValueError, match=r"`cpts\[0\]`"):
        BayesNet(0.5, [[]], [[0.5, -0.1]])


def test_from_dict_needs_keys():
    with pytest.raises(ValueError, match="`data`"):
        BayesNet.from_dict({"parents": [[]]})


def test_strength_range():
    with pytest.raises(ValueError, match="`strength`"):
        SMALL.scaled(1.5)


def test_sample_size_positive():
    with pytest.raises(ValueError, match="`n`"):
        sample_bayesnet(0, network=SMALL)


def test_network_type():
    with pytest.raises(TypeError, match="`network`"):
        sample_bayesnet(10, network="set2")


def test_n_arcs_at_most_pairs():
    with pytest.raises(ValueError, match="`n_arcs`"):
        random_network(n_attributes=3, n_arcs=4)


def test_concentration_positive():
    with pytest.raises(ValueError, match="`concentration`"):
        random_network(concentration=0)


def test_attribute_probability_shape():
    with pytest.raises(ValueError, match="`attribute_probability`"):
        independent_network(n_attributes=3, attribute_probability=[0.5, 0.5])


def test_predictions_shape():
    with pytest.raises(ValueError, match="`predictions`"):
        exact_accuracy(SMALL, [0, 1, 1])


def test_source_number():
    with pytest.raises(ValueError, match="`source`"):
        bouckaert2003_source(np.random.default_rng(0), n_instances=10, source=5)


def test_cpts_are_read_only():
    with pytest.raises(ValueError, match="read-only"):
        SMALL.cpts[0][0] = 0.3
