"""Tests of replicability.papers.bouckaert2005.overlap: two experiments whose test sets overlap, simulated, enumerated
exactly and in their large-sample limit."""

import numpy as np
import pytest
from scipy import stats

from replicability.papers.bouckaert2005 import overlap as d


def test_the_exact_model_matches_its_simulation_and_its_margins_are_binomial():
    joint, n = d.two_experiments_exact(24, 0.55, 0.5)
    assert joint.sum() == pytest.approx(1, abs=1e-12)
    # the first test set is a sample without replacement from a binomial population: Binomial(n, q)
    assert np.allclose(joint.sum(axis=1), stats.binom.pmf(np.arange(n + 1), n, 0.55), atol=1e-12)
    assert np.allclose(joint.sum(axis=0), joint.sum(axis=1), atol=1e-12)
    x1, x2, n_sim_n = d.two_experiments(24, 0.55, 0.5, n_sim=200_000, rng=1)
    assert n_sim_n == n
    counts = np.zeros_like(joint)
    np.add.at(counts, (x1, x2), 1)
    expected = joint * x1.size
    big = expected >= 5  # chi-square over the cells with enough expected counts, the rest pooled
    observed = np.append(counts[big], counts[~big].sum())
    assert stats.chisquare(observed, np.append(expected[big], expected[~big].sum())).pvalue > 1e-3
    # correlation of the two counts is the shared fraction t
    assert np.corrcoef(x1, x2)[0, 1] == pytest.approx(0.5, abs=0.01)


def test_normal_pair_reduces_to_independence_and_to_the_orthant_formula():
    out = d.normal_pair(0.0, 0.0)
    assert out["both reject"] == pytest.approx(0.05**2, abs=1e-9)
    assert out["both accept"] == pytest.approx(0.95**2, abs=1e-9)
    z = stats.norm.isf(0.025)
    for t in (0.1, 0.5):
        at = d.normal_pair(z, t)
        assert at["both up"] / at["reject up"] == pytest.approx(0.5 + np.arcsin(t) / np.pi, abs=1e-4)
    hi, lo = d.calibrated_thresholds(101, 0.5)
    x = np.arange(102)
    pm = stats.binom.pmf(x, 101, 0.5)
    zs = (2 * x - 101) / np.sqrt(101)
    assert stats.norm.sf(hi) == pytest.approx(pm[zs > z].sum(), rel=1e-9)
    assert stats.norm.cdf(lo) == pytest.approx(pm[zs < -z].sum(), rel=1e-9)


def test_input_checks():
    with pytest.raises(ValueError, match="test instances"):
        d.two_experiments(10, 0.5, 0.01, n_sim=5)
    with pytest.raises(ValueError, match="q"):
        d.two_experiments(100, 1.5, 0.1, n_sim=5)
