"""The hierarchical Bayesian test of Corani et al. (2017) and its convergence diagnostics (stats.hierarchical).

Reference: the same model fitted by NUTS in numpyro (an independent sampler, the
likelihood written as baycomp's Stan program writes it), on five inputs, stored with the
script that produced it in tests/fixtures/hierarchical (numpyro 0.22.0, jax 0.12.0.1).
baycomp's own HierarchicalTest needs pystan, which does not install here without a
compiler toolchain for Stan.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from replicability.stats.hierarchical import effective_sample_size, hierarchical_test, split_rhat

FIXTURES = Path(__file__).parents[1] / "fixtures" / "hierarchical"


def _reference_inputs():
    import importlib.util

    spec = importlib.util.spec_from_file_location("hierarchical_inputs", FIXTURES / "inputs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.INPUTS, module.inputs(), module.N_FOLDS


def _share_se(result, j):
    hits = (result.next_probabilities.argmax(axis=-1) == j).astype(float)
    p = hits.mean()
    return np.sqrt(p * (1 - p) / effective_sample_size(hits)) if 0 < p < 1 else 0.0


@pytest.mark.slow
def test_posterior_probabilities_match_numpyro_within_monte_carlo_error():
    reference = pd.read_csv(FIXTURES / "reference.csv")
    specs, inputs, n_folds = _reference_inputs()
    assert len(reference) == len(inputs) >= 5
    for (label, *_, rope), d, (_, ref) in zip(specs, inputs, reference.iterrows()):
        res = hierarchical_test(d, rope=rope, n_folds=n_folds, n_draws=2000, n_warmup=1000, rng=7)
        assert ref["input"] == label
        assert max(res.rhat.values()) < 1.05 and min(res.ess.values()) > 100, (label, res.rhat, res.ess)
        for j, name in enumerate(["p_a_better", "p_equivalent", "p_b_better"]):
            error = np.hypot(_share_se(res, j), ref[f"{name}_se"])
            assert abs(getattr(res, name) - ref[name]) <= 4 * error + 1e-9, (label, name, getattr(res, name),
                                                                              ref[name], error)
        delta0 = res.samples[..., 0]
        error = np.hypot(delta0.std() / np.sqrt(effective_sample_size(delta0)), ref["delta0_se"])
        assert abs(delta0.mean() - ref["delta0_mean"]) <= 4 * error, (label, delta0.mean(), ref["delta0_mean"])


def test_decides_a_clear_difference_and_reports_convergence():
    rng = np.random.default_rng(3)
    d = 0.03 + 0.005 * rng.normal(size=(10, 1)) + 0.02 * rng.normal(size=(10, 20))
    res = hierarchical_test(d, rope=0.01, n_folds=10, n_draws=400, n_warmup=200, rng=0)
    assert res.decision() == "A better"
    assert set(res.rhat) == set(res.ess) == {"delta0", "std0", "nu"}
    assert res.samples.shape == res.next_probabilities.shape == (4, 400, 3)
    assert res.p_a_better + res.p_equivalent + res.p_b_better == pytest.approx(1.0)
    np.testing.assert_allclose(res.next_probabilities.sum(axis=-1), 1.0)


def test_scores_of_a_and_b_equal_their_differences():
    rng = np.random.default_rng(4)
    x, y = rng.uniform(0.7, 0.9, size=(2, 5, 10))
    a = hierarchical_test(x, y, rope=0.01, n_folds=10, n_draws=100, n_warmup=50, rng=2)
    b = hierarchical_test(x - y, rope=0.01, n_folds=10, n_draws=100, n_warmup=50, rng=2)
    np.testing.assert_array_equal(a.samples, b.samples)


def test_constant_data_set_is_treated_as_baycomp_does():
    rng = np.random.default_rng(5)
    d = 0.01 * rng.normal(size=(4, 10))
    d[1] = 0.0
    res = hierarchical_test(d, rope=0.01, n_folds=10, n_draws=100, n_warmup=50, rng=0)
    assert np.isfinite(res.samples).all()
    with pytest.raises(ValueError, match="constant"):
        hierarchical_test(np.zeros((3, 10)), rope=0, n_folds=10)


@pytest.mark.parametrize("kwargs, match", [
    ({"x": np.zeros((1, 10))}, "q >= 2"), ({"x": np.zeros(10)}, "shape"), ({"rope": -1}, "rope"),
    ({"n_folds": 1}, "n_folds"), ({"n_chains": 1}, "n_chains"), ({"alpha_bounds": (2, 1)}, "alpha_bounds"),
    ({"upper_sigma": 0.5}, "upper_sigma"), ({"x": np.full((2, 3), np.nan)}, "finite")])
def test_validation(kwargs, match):
    args = {"x": np.random.default_rng(0).normal(size=(3, 10)), "rope": 0.01, "n_folds": 10, **kwargs}
    with pytest.raises(ValueError, match=match):
        hierarchical_test(**args)


def test_diagnostics_on_known_chains():
    rng = np.random.default_rng(6)
    iid = rng.normal(size=(4, 2000))
    assert split_rhat(iid) == pytest.approx(1.0, abs=0.01)
    assert effective_sample_size(iid) == pytest.approx(8000, rel=0.15)
    # AR(1) with phi = 0.8: ESS = N (1 - phi) / (1 + phi)
    ar = np.zeros((4, 20000))
    noise = rng.normal(size=ar.shape)
    for t in range(1, ar.shape[1]):
        ar[:, t] = 0.8 * ar[:, t - 1] + noise[:, t]
    assert effective_sample_size(ar) == pytest.approx(80000 * 0.2 / 1.8, rel=0.15)
    assert split_rhat(iid + np.arange(4)[:, None]) > 1.5
    assert split_rhat(np.ones((2, 10))) == 1.0
    with pytest.raises(ValueError, match="draws"):
        split_rhat(np.ones(10))
