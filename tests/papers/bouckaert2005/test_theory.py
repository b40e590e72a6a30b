"""Tests of the McNemar theory of Bouckaert (2005), Section 3 and Appendix."""

import numpy as np
import pytest
from scipy import stats

from replicability.papers.bouckaert2005.task1 import mcnemar_outcomes
from replicability.papers.bouckaert2005.theory import (
    agreement_normal_model,
    mcnemar_epsilon,
    mcnemar_type1_replicability,
    normal_tail_mean,
    normal_tail_mean_linear,
    task1_worst_case_gap,
    worst_case_replicability_appendix,
)
from replicability.sources.counts import sample_task1_counts
from replicability.stats.measures import replicability_r2, type1_replicability_bound

Z = stats.norm.isf(0.025)


def _mvn_upper(lo, hi, mean, rho):
    """P(lo1 < Z1 < hi1, lo2 < Z2 < hi2) with scipy's bivariate normal cdf (oracle)."""
    cov = [[1, rho], [rho, 1]]
    mvn = stats.multivariate_normal(mean=[mean, mean], cov=cov, abseps=1e-12, releps=1e-12)
    return mvn.cdf(np.array(hi), lower_limit=np.array(lo))


def test_tail_mean_equals_scipy_truncnorm():
    z = np.linspace(-2, 8, 41)
    expected = [stats.truncnorm(a, np.inf).mean() for a in z]
    np.testing.assert_allclose(normal_tail_mean(z), expected, rtol=1e-10)


def test_tail_mean_at_z_alpha_is_slightly_above_z():
    # Section 3.1: phi(z) / (alpha/2) "is approximately Z (actually, slightly higher)".
    value = normal_tail_mean(Z)
    np.testing.assert_allclose(value, stats.norm.pdf(Z) / 0.025, rtol=1e-10)
    assert Z < value < Z + 0.5


def test_tail_mean_against_simulation():
    x = np.random.default_rng(0).standard_normal(2_000_000)
    tail = x[x > Z]
    assert abs(tail.mean() - normal_tail_mean(Z)) < 4 * tail.std() / np.sqrt(tail.size)


def test_linear_approximation_on_footnote_range():
    # Footnote 1 plots both on [0, 8]: the line 0.97 z + 0.33 follows the tail
    # mean within 0.12 from z = 1.9 on, but not near 0 (sqrt(2/pi) at z = 0).
    z = np.linspace(0, 8, 81)
    np.testing.assert_allclose(normal_tail_mean_linear(z), 0.97 * z + 0.33, rtol=1e-15)
    gap = normal_tail_mean(z) - normal_tail_mean_linear(z)
    assert np.max(np.abs(gap[z >= 1.9])) < 0.12
    np.testing.assert_allclose(gap[0], np.sqrt(2 / np.pi) - 0.33, rtol=1e-10)


def test_paper_epsilon_grows_with_t_and_vanishes_with_n():
    t = np.array([0.1, 0.33, 0.5])
    eps = mcnemar_epsilon(t[:, None], np.array([100, 1000, 10_000, 100_000]))
    assert np.all(eps > 0)
    assert np.all(np.diff(eps, axis=0) > 0)
    assert np.all(np.diff(eps, axis=1) < 0)
    assert eps[-1, -1] < 1e-4


def test_paper_epsilon_formula():
    # P(|N(2 t z, sqrt(n))| > z sqrt(n)) - alpha, Section 3.1.
    t, n = 0.33, 400
    d = stats.norm(2 * t * Z, np.sqrt(n))
    expected = d.sf(Z * np.sqrt(n)) + d.cdf(-Z * np.sqrt(n)) - 0.05
    np.testing.assert_allclose(mcnemar_epsilon(t, n), expected, rtol=1e-10)


@pytest.mark.parametrize("t", [0.1, 1 / 3, 0.5])
def test_normal_epsilon_equals_bivariate_normal_cdf(t):
    inf = 40.0
    both_up = _mvn_upper([Z, Z], [inf, inf], 0.0, t)
    up_down = _mvn_upper([Z, -inf], [inf, -Z], 0.0, t)
    expected = 2 * (both_up + up_down) / 0.05 - 0.05
    np.testing.assert_allclose(mcnemar_epsilon(t, model="normal"), expected, rtol=1e-7)


@pytest.mark.parametrize(("effect", "rho"), [(0.0, 0.1), (1.0, 0.33), (Z, 0.5), (3.0, 0.0)])
def test_pairwise_agreement_equals_bivariate_normal_cdf(effect, rho):
    inf = 40.0
    expected = (
        _mvn_upper([-Z, -Z], [Z, Z], effect, rho)
        + _mvn_upper([Z, Z], [inf, inf], effect, rho)
        + _mvn_upper([-inf, -inf], [-Z, -Z], effect, rho)
    )
    np.testing.assert_allclose(agreement_normal_model(effect, rho), expected, rtol=1e-7)


def test_agreement_with_independent_repetitions_is_sum_of_powers():
    p_up, p_low = stats.norm.sf(Z - 1.2), stats.norm.cdf(-Z - 1.2)
    p = np.array([p_up, p_low, 1 - p_up - p_low])
    np.testing.assert_allclose(agreement_normal_model(1.2, 0.0, n_repeats=10), (p**10).sum(), rtol=1e-10)


def test_agreement_of_ten_against_simulation():
    rng = np.random.default_rng(3)
    rho, effect, m = 0.33, 1.5, 200_000
    zs = effect + np.sqrt(rho) * rng.standard_normal((m, 1)) + np.sqrt(1 - rho) * rng.standard_normal((m, 10))
    o = np.where(zs > Z, 1, np.where(zs < -Z, -1, 0))
    agree = np.all(o == o[:, :1], axis=1).mean()
    expected = agreement_normal_model(effect, rho, n_repeats=10)
    assert abs(agree - expected) < 4 * np.sqrt(expected * (1 - expected) / m)


def test_type1_replicability_models():
    eps = mcnemar_epsilon(0.5, 200)
    # (1 - alpha)^2 + alpha (alpha + eps), Section 3.1 (printed with + alpha^2, see Notes).
    np.testing.assert_allclose(mcnemar_type1_replicability(0.5, 200), 0.95**2 + 0.05 * (0.05 + eps), rtol=1e-12)
    assert mcnemar_type1_replicability(0.5, 1e9) == pytest.approx(type1_replicability_bound(0.05), abs=1e-9)
    normal = mcnemar_type1_replicability(np.array([0.1, 0.5]), model="normal")
    # three outcomes, independent: 1 - 2 alpha + 1.5 alpha^2; overlap only raises it
    assert np.all(normal > 1 - 2 * 0.05 + 1.5 * 0.05**2)
    assert normal[1] > normal[0]


def test_appendix_expression():
    t = np.array([0.0, 0.1, 1 / 3, 0.5])
    np.testing.assert_allclose(
        worst_case_replicability_appendix(t), stats.norm.cdf(2 * t / np.sqrt(2 * np.pi)), rtol=1e-12
    )
    # Exact bivariate-normal value at the threshold is 1/2 + arcsin(t)/pi; same slope at 0.
    assert np.all(np.abs(worst_case_replicability_appendix(t) - (0.5 + np.arcsin(t) / np.pi)) < 0.015)
    np.testing.assert_allclose(
        agreement_normal_model(Z, t), 0.5 + np.arcsin(t) / np.pi, atol=2e-3
    )


def test_worst_case_gap_puts_mean_statistic_at_threshold():
    n, t = 50_000, 0.2
    gap = task1_worst_case_gap(n, t)
    m = int(round(t * n))
    # E[b - c] = -m gap and E[b + c] = m / 2 in Task I, so E[Z] ~ -gap sqrt(2 m).
    np.testing.assert_allclose(gap * np.sqrt(2 * m), Z, rtol=1e-12)


@pytest.mark.parametrize("n", [10_000, 1_000_000])
def test_worst_case_replicability_does_not_depend_on_n(n):
    # Appendix: at 50% power, pairwise replicability of McNemar on a test
    # fraction t is a function of t alone (normal model 1/2 + arcsin(t)/pi).
    t = 0.5
    data = sample_task1_counts(n, 0.25 + task1_worst_case_gap(n, t) / 2, n_datasets=6000, rng=n)
    out = mcnemar_outcomes(data, test_size=t, n_repeats=2, correction=False, rng=1)
    r2 = replicability_r2(out).mean()
    expected = agreement_normal_model(Z, t)
    assert abs(r2 - expected) < 4 * np.sqrt(0.25 / out.shape[0])


def test_test_size_in_unit_interval():
    with pytest.raises(ValueError, match="`test_size`"):
        mcnemar_epsilon(1.2, 100)


def test_paper_model_needs_n():
    with pytest.raises(ValueError, match="`n`"):
        mcnemar_epsilon(0.1)


def test_n_must_be_positive():
    with pytest.raises(ValueError, match="`n`"):
        mcnemar_epsilon(0.1, 0)


def test_model_must_be_known():
    with pytest.raises(ValueError, match="`model`"):
        mcnemar_epsilon(0.1, 10, model="exact")


def test_type1_model_must_be_known():
    with pytest.raises(ValueError, match="`model`"):
        mcnemar_type1_replicability(0.1, 10, model="exact")


def test_rho_in_unit_interval():
    with pytest.raises(ValueError, match="`rho`"):
        agreement_normal_model(0.0, 1.0)


def test_agreement_needs_two_repetitions():
    with pytest.raises(ValueError, match="`n_repeats`"):
        agreement_normal_model(0.0, 0.1, n_repeats=1)


def test_appendix_test_size_range():
    with pytest.raises(ValueError, match="`test_size`"):
        worst_case_replicability_appendix(-0.1)


def test_worst_case_gap_inputs():
    with pytest.raises(ValueError, match="`n`"):
        task1_worst_case_gap(0, 0.1)
