"""Bouckaert (2005), Section 3.1 step by step (replicability.papers.bouckaert2005.type1_steps): every step's check
confirms the printed step or names an erratum, and rejects a deliberately wrong expression (or accepts the
corrected one); the simulated steps against the model."""

import numpy as np
import pytest

pytest.importorskip("sympy")

from replicability.papers.bouckaert2005 import type1_steps as t1  # noqa: E402
from replicability.papers.bouckaert2005.overlap import continuity_trend  # noqa: E402
from replicability.papers.bouckaert2005.theory import normal_tail_mean  # noqa: E402
from replicability.report.steps import CONFIRMED, ERRATUM  # noqa: E402

#: step function, keyword arguments, outcome, and another form: rejected (confirmed step) or accepted (erratum)
CASES = [
    (t1.section3_accept_mean, {}, CONFIRMED, {"form": "Z"}),
    (t1.section3_tail_mean, {}, CONFIRMED, {"form": "Z"}),
    (t1.section3_tail_approximation, {}, CONFIRMED, {"form": "0"}),
    (t1.section3_surplus_scale, {"table_sizes": (200_000,), "n_sim": 20_000}, ERRATUM,
     {"form": lambda n, t, z: t * np.sqrt(n) * float(normal_tail_mean(z))}),
    (t1.section3_p_prime, {}, CONFIRMED, {"form": "1/2 + Z/n"}),
    (t1.section3_m_prime, {}, CONFIRMED, {"form": "t*Z"}),
    (t1.section3_sigma_prime, {}, ERRATUM, {"form": "2*sqrt(n*p*(1 - p))"}),
    (t1.section3_total, {}, ERRATUM, {"form": "1 - (2 - e)*a + 2*a**2"}),
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


def test_simulated_steps_against_the_model(h0):
    acc = t1.section3_accept_accept(table=h0, exact_size=16, n_sim=20_000)
    assert acc.outcome == ERRATUM and acc.corrected_holds
    rr = t1.section3_reject_reject(table=h0)
    assert rr.outcome == ERRATUM and rr.corrected_holds
    # epsilon does not vanish: at the largest N and t = 0.5 the conditional rejection stays well above alpha
    big = rr.evidence[(rr.evidence["N"] == 200_000) & (rr.evidence["t"] == 0.5)]
    assert len(big) == 1
    assert (big["simulated"] - 0.05 > 3 * big["SE"]).all()
    dec = t1.section3_decreases_with_n(table=h0)
    assert dec.outcome == ERRATUM and dec.corrected_holds
    # a printed value for accept | accept that the simulation rejects, and one it accepts
    assert t1.section3_accept_accept(table=h0, exact_size=16, n_sim=20_000, form=0.9).holds is False


def test_reference_values_from_the_paper():
    assert "2.3378" in t1.section3_tail_mean().result


def test_the_decrease_with_n_comes_from_the_continuity_correction(h0):
    trend = continuity_trend((1000, 200_000), n_datasets=1500)
    with_corr = trend[trend["correction"] == "with (Eq. 1)"].set_index("N")
    without = trend[trend["correction"] == "without"].set_index("N")
    # the corrected test is conservative on 100 test instances: fewer rejections, more agreement
    assert with_corr.loc[1000, "rejection %"] < without.loc[1000, "rejection %"] - 0.5
    assert with_corr.loc[1000, "replicability %"] > with_corr.loc[200_000, "replicability %"] + 3
    step = t1.section3_decreases_with_n(table=h0, trend=trend)
    assert step.outcome == ERRATUM and step.corrected_holds
    # a trend in which the corrected test is flat too would not explain the decrease
    flat = trend.copy()
    flat.loc[flat["correction"] == "with (Eq. 1)", "replicability %"] = without["replicability %"].to_numpy()
    assert t1.section3_decreases_with_n(table=h0, trend=flat).corrected_holds is False
