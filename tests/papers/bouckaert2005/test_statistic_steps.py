"""Bouckaert (2005), Section 3 step by step (replicability.papers.bouckaert2005.statistic_steps): every step's check
confirms the printed step or names an erratum, and rejects a deliberately wrong expression (or accepts the
corrected one)."""

import pytest
from scipy import stats

pytest.importorskip("sympy")

from replicability.papers.bouckaert2005 import statistic_steps as s3  # noqa: E402
from replicability.report.steps import CONFIRMED, ERRATUM  # noqa: E402

#: step function, keyword arguments, outcome, and another form: rejected (confirmed step) or accepted (erratum)
CASES = [
    (s3.section3_bound_independent, {}, ERRATUM, {"form": "(1 - a)*(1 - a)"}),
    (s3.section3_bound_is_lower, {"n_rho": 10}, CONFIRMED, {"form": lambda a: 1 - a}),
    (s3.section3_z_rewrite, {}, ERRATUM, {"form": "2*(a/(a + b) - 1/2)/sqrt(1/(a + b))"}),
    (s3.section3_z_sign, {}, ERRATUM, {"form": "(n10 - n01)/sqrt(n10 + n01)"}),
    (s3.section3_t_square, {}, CONFIRMED, {"form": 2}),
    (s3.section3_two_sided, {}, ERRATUM, {"form": 2 * stats.norm.sf(stats.norm.isf(0.025))}),
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


def test_reference_values_from_the_paper():
    bound = s3.section3_bound_independent()
    assert "90.5%" in bound.result and bound.known
    assert "1.959964" in s3.section3_two_sided().result
