"""Tests of replicability.papers.bouckaert2005.histograms: outcome histograms of Task I and their measures."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from replicability.papers.bouckaert2005.histograms import histogram_measures, outcome_cells, outcome_histogram
from replicability.stats.measures import consistency, replicability_r2


def test_outcome_cells_count():
    n_a, n_b = outcome_cells(10)
    assert n_a.size == 66
    assert len(set(zip(n_a.tolist(), n_b.tolist()))) == 66
    assert np.all(n_a + n_b <= 10)


@settings(max_examples=60, deadline=None)
@given(arrays(np.int8, st.tuples(st.integers(1, 3), st.integers(1, 6), st.integers(2, 6)),
              elements=st.sampled_from([-1, 0, 1])))
def test_histogram_matches_direct_measures(outcomes):
    n = outcomes.shape[-1]
    hist = outcome_histogram(outcomes)
    n_a, n_b = outcome_cells(n)
    # loop over slices: the histogram counts each data set's cell
    for g in range(outcomes.shape[0]):
        expected = np.zeros(n_a.size, dtype=int)
        for row in outcomes[g]:
            cell = np.flatnonzero((n_a == (row == 1).sum()) & (n_b == (row == -1).sum()))
            expected[cell] += 1
        np.testing.assert_array_equal(hist[g], expected)
    m = histogram_measures(hist, n_repeats=n)
    np.testing.assert_allclose(m["b_better"], (outcomes == -1).mean(axis=(-2, -1)), rtol=1e-12)
    np.testing.assert_allclose(m["a_better"], (outcomes == 1).mean(axis=(-2, -1)), rtol=1e-12)
    np.testing.assert_allclose(m["rejection"], (outcomes != 0).mean(axis=(-2, -1)), rtol=1e-12)
    np.testing.assert_allclose(m["consistency"], consistency(outcomes).mean(axis=-1), rtol=1e-12)
    np.testing.assert_allclose(m["r2"], replicability_r2(outcomes).mean(axis=-1), rtol=1e-12)


def test_histogram_measures_are_the_correctly_rounded_fractions():
    # Integer numerators, one division: equal to the exact rational value rounded once,
    # so no BLAS or summation order can change the last bit.
    from fractions import Fraction
    from math import comb

    n = 10
    hist = np.random.default_rng(5).integers(0, 40_000, size=(3, 66))
    m = histogram_measures(hist, n_repeats=n)
    n_a, n_b = outcome_cells(n)
    for g in range(hist.shape[0]):
        total = int(hist[g].sum())
        pairs = sum(int(c) * (comb(int(a), 2) + comb(int(b), 2) + comb(n - int(a) - int(b), 2))
                    for c, a, b in zip(hist[g], n_a, n_b))
        b_better = sum(int(c) * int(b) for c, b in zip(hist[g], n_b))
        assert m["r2"][g] == float(Fraction(pairs, comb(n, 2) * total))
        assert m["b_better"][g] == float(Fraction(b_better, n * total))


def test_histogram_must_hold_counts():
    with pytest.raises(ValueError, match="`histogram` must hold counts"):
        histogram_measures(np.full(66, 0.5), n_repeats=10)
    m = histogram_measures(np.ones(66), n_repeats=10)  # whole numbers stored as floats are counts
    assert m["consistency"] == 3 / 66


def test_outcomes_must_be_three_valued():
    with pytest.raises(ValueError, match="`outcomes`"):
        outcome_histogram([[1, 2]])


def test_histogram_must_have_all_cells():
    with pytest.raises(ValueError, match="`histogram`"):
        histogram_measures(np.ones(65), n_repeats=10)


def test_r2_se_is_the_standard_error_of_the_per_dataset_r2():
    rng = np.random.default_rng(5)
    outcomes = rng.choice([-1, 0, 1], p=[0.2, 0.7, 0.1], size=(2, 40, 10))  # two cells, 40 data sets
    m = histogram_measures(outcome_histogram(outcomes), n_repeats=10)
    per_set = np.asarray(replicability_r2(outcomes), dtype=float)  # (2, 40), from the outcomes directly
    assert m["r2"] == pytest.approx(per_set.mean(axis=-1))
    assert m["r2_se"] == pytest.approx(per_set.std(axis=-1, ddof=1) / np.sqrt(40))
    normalized = 2 * per_set - 1  # Bouckaert (2004)'s normalized replicability, per data set
    assert m["normalized_r2"] == pytest.approx(normalized.mean(axis=-1))
    assert m["normalized_r2_se"] == pytest.approx(normalized.std(axis=-1, ddof=1) / np.sqrt(40))
    one = histogram_measures(outcome_histogram(outcomes[:, :1]), n_repeats=10)
    assert np.all(np.isnan(one["r2_se"]))
