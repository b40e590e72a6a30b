"""Bouckaert (2005), Section 3 and the Appendix step by step: every step's check confirms the printed step or
names an erratum, and rejects a deliberately wrong expression (or accepts the corrected one)."""

import numpy as np
import pytest
from scipy import stats

pytest.importorskip("sympy")

from replicability.papers.bouckaert2005 import derivation as d  # noqa: E402
from replicability.report.steps import CONFIRMED, ERRATUM  # noqa: E402


@pytest.fixture(scope="module")
def h0():
    return d.two_experiments_table(0.5, sizes=(20_000, 200_000), test_sizes=(0.1, 0.5), n_sim=100_000)


@pytest.fixture(scope="module")
def worst():
    return d.two_experiments_table("threshold", sizes=(20_000, 200_000), test_sizes=(0.1, 0.5), n_sim=50_000)


#: step function, keyword arguments, outcome, and another form: rejected (confirmed step) or accepted (erratum)
CASES = [
    (d.section3_bound_independent, {}, ERRATUM, {"form": "(1 - a)*(1 - a)"}),
    (d.section3_bound_is_lower, {"n_rho": 10}, CONFIRMED, {"form": lambda a: 1 - a}),
    (d.section3_z_rewrite, {}, ERRATUM, {"form": "2*(a/(a + b) - 1/2)/sqrt(1/(a + b))"}),
    (d.section3_z_sign, {}, ERRATUM, {"form": "(n10 - n01)/sqrt(n10 + n01)"}),
    (d.section3_t_square, {}, CONFIRMED, {"form": 2}),
    (d.section3_two_sided, {}, ERRATUM, {"form": 2 * stats.norm.sf(stats.norm.isf(0.025))}),
    (d.section3_accept_mean, {}, CONFIRMED, {"form": "Z"}),
    (d.section3_tail_mean, {}, CONFIRMED, {"form": "Z"}),
    (d.section3_tail_approximation, {}, CONFIRMED, {"form": "0"}),
    (d.section3_surplus_scale, {"table_sizes": (200_000,), "n_sim": 20_000}, ERRATUM,
     {"form": lambda n, t, z: t * np.sqrt(n) * float(d.normal_tail_mean(z))}),
    (d.section3_p_prime, {}, CONFIRMED, {"form": "1/2 + Z/n"}),
    (d.section3_m_prime, {}, CONFIRMED, {"form": "t*Z"}),
    (d.section3_sigma_prime, {}, ERRATUM, {"form": "2*sqrt(n*p*(1 - p))"}),
    (d.section3_total, {}, ERRATUM, {"form": "1 - (2 - e)*a + 2*a**2"}),
    (d.appendix_q_threshold, {}, CONFIRMED, {"form": "1/2 + Z/sqrt(n)"}),
    (d.appendix_half_rejected, {"n_values": (1000,)}, CONFIRMED, {"form": 0.6}),
    (d.appendix_x_plus_y, {"size": 20}, CONFIRMED, {"form": lambda x, y, pr: x * y}),
    (d.appendix_rejected_typo, {}, ERRATUM, {"form": 1}),
    (d.appendix_conditional_mean, {"n_values": (1000, 10_000)}, ERRATUM, None),
    (d.appendix_sigma_binomial, {}, CONFIRMED, {"form": "n*q"}),
    (d.appendix_p_prime, {}, CONFIRMED, {"form": "q + t*sqrt(q*(1 - q))/sqrt(n)"}),
    (d.appendix_t_prime, {}, ERRATUM, {"form": "sqrt(n/4)"}),
    (d.appendix_split_integral, {}, CONFIRMED, {"form": "1/4"}),
    (d.appendix_upper_limit, {}, CONFIRMED, {"form": "t*sqrt(n*q*(1 - q))/sqrt(pi)"}),
    (d.appendix_q_product, {}, ERRATUM, {"form": "1/2 + Z/(2*sqrt(n))"}),
    (d.appendix_drop_term, {}, CONFIRMED, {"form": "t*sqrt(n)/sqrt(pi)"}),
    (d.appendix_rescale, {}, CONFIRMED, {"form": "t/pi"}),
    (d.appendix_other_branch, {}, ERRATUM, None),
]


@pytest.mark.parametrize(("step", "kwargs", "outcome", "other"), CASES, ids=[c[0].__name__ for c in CASES])
def test_each_step_confirms_or_names_an_erratum_and_judges_another_form(step, kwargs, outcome, other):
    st = step(**kwargs)
    assert st.outcome == outcome, st.result
    assert st.printed and st.method and st.result
    if outcome == ERRATUM:
        assert st.corrected is not None and st.corrected_holds is True, st.result
    if other is not None:
        again = step(**kwargs, **other)
        # a wrong form fails a confirmed step; the corrected form passes an erratum's check
        assert again.holds is (outcome == ERRATUM), again.result


def test_wrong_forms_fail_the_corrected_checks_of_errata_without_a_printed_expression():
    assert d.appendix_conditional_mean(form="q*n + sigma", n_values=(1000,)).corrected_holds is False
    assert d.appendix_other_branch(form="q*n + 2*sigma/sqrt(2*pi)").corrected_holds is False


def test_simulated_steps_against_the_model(h0, worst):
    acc = d.section3_accept_accept(table=h0, exact_size=16, n_sim=20_000)
    assert acc.outcome == ERRATUM and acc.corrected_holds
    rr = d.section3_reject_reject(table=h0)
    assert rr.outcome == ERRATUM and rr.corrected_holds
    # epsilon does not vanish: at the largest N and t = 0.5 the conditional rejection stays well above alpha
    big = rr.evidence[(rr.evidence["N"] == 200_000) & (rr.evidence["t"] == 0.5)]
    assert len(big) == 1
    assert (big["simulated"] - 0.05 > 3 * big["SE"]).all()
    dec = d.section3_decreases_with_n(table=h0)
    assert dec.outcome == ERRATUM and dec.corrected_holds
    wc = d.appendix_worst_case(table=worst)
    assert wc.outcome == CONFIRMED
    assert d.appendix_worst_case(table=worst, form=lambda t: 0.5).holds is False
    # a printed value for accept | accept that the simulation rejects, and one it accepts
    assert d.section3_accept_accept(table=h0, exact_size=16, n_sim=20_000, form=0.9).holds is False


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


def test_reference_values_from_the_paper():
    bound = d.section3_bound_independent()
    assert "90.5%" in bound.result and bound.known
    assert "1.959964" in d.section3_two_sided().result
    assert "2.3378" in d.section3_tail_mean().result
    assert "0.5318" not in d.appendix_rescale().result  # the value is computed on the page, not hard-coded here
    assert float(stats.norm.cdf(0.1 * np.sqrt(2 / np.pi))) == pytest.approx(0.5318, abs=1e-4)


def test_the_derivation_runs_every_step_in_order():
    der = d.appendix_derivation(sizes=(20_000, 200_000), test_sizes=(0.1, 0.5), n_sim=50_000, n_sim_worst=50_000,
                                exact_size=16)
    keys = [s.key for s in der.steps]
    assert len(set(keys)) == len(keys) == len(d.DERIVATION_2005_STEPS)
    assert all(name.split("_", 1)[1] in key for key, name in zip(keys, d.DERIVATION_2005_STEPS))
    counts = der.counts()
    assert counts["n_steps"] == 32 and counts["n_known"] == 4
    claims = der.claims().frame().set_index("key")
    assert claims.loc["z_rewrite", "verdict"] == "does not hold"
    assert claims.loc["z_rewrite_corrected", "verdict"] == "holds"


def test_input_checks():
    with pytest.raises(ValueError, match="test instances"):
        d.two_experiments(10, 0.5, 0.01, n_sim=5)
    with pytest.raises(ValueError, match="q"):
        d.two_experiments(100, 1.5, 0.1, n_sim=5)
    with pytest.raises(ValueError, match="exact_size"):
        d.appendix_derivation(exact_size=2)


def test_the_decrease_with_n_comes_from_the_continuity_correction(h0):
    trend = d.continuity_trend((1000, 200_000), n_datasets=1500)
    with_corr = trend[trend["correction"] == "with (Eq. 1)"].set_index("N")
    without = trend[trend["correction"] == "without"].set_index("N")
    # the corrected test is conservative on 100 test instances: fewer rejections, more agreement
    assert with_corr.loc[1000, "rejection %"] < without.loc[1000, "rejection %"] - 0.5
    assert with_corr.loc[1000, "replicability %"] > with_corr.loc[200_000, "replicability %"] + 3
    step = d.section3_decreases_with_n(table=h0, trend=trend)
    assert step.outcome == ERRATUM and step.corrected_holds
    # a trend in which the corrected test is flat too would not explain the decrease
    flat = trend.copy()
    flat.loc[flat["correction"] == "with (Eq. 1)", "replicability %"] = without["replicability %"].to_numpy()
    assert d.section3_decreases_with_n(table=h0, trend=flat).corrected_holds is False
