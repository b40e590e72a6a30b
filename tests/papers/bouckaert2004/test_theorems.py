"""Tests of replicability.papers.bouckaert2004.theorems: Theorems 3.1 and 3.2 step by step.

Every step's check confirms the printed step or names an erratum, and rejects a deliberately wrong expression.
"""

import numpy as np
import pytest

pytest.importorskip("sympy")

from replicability.papers.bouckaert2004 import theorems as d  # noqa: E402
from replicability.report.steps import CONFIRMED, ERRATUM  # noqa: E402
from replicability.stats.estimators import r2_variance_theorem31  # noqa: E402
from replicability.stats.measures import replicability_r2  # noqa: E402

FAST = {"max_enumerated": 6}

#: step function, its keyword arguments, outcome, and a wrong form (rejected) or the corrected one (accepted)
CASES = [
    (d.theorem31_p, {}, CONFIRMED, {"form": "1/2 + sqrt(2*r - 1)"}),
    (d.theorem31_unbiased, FAST, CONFIRMED, {"form": "r**2"}),
    (d.theorem31_variance, {**FAST, "n_sim": 2000, "rng": 0}, ERRATUM, None),
    (d.theorem31_variance_order, {}, CONFIRMED, {"form": "r - r**2"}),
    (d.theorem32_variance, {}, CONFIRMED, {"form": "r"}),
    (d.theorem32_derivative, {}, CONFIRMED, {"form": lambda e, a, b: int(e[a] == e[b])}),
    (d.theorem32_gradient, {}, CONFIRMED, {"form": lambda e, a, b, rk: rk * int(e[a] == e[b])}),
    (d.theorem32_case_disjoint, {}, ERRATUM, None),
    (d.theorem32_case_shared, {}, ERRATUM, None),
    (d.theorem32_stationary, {"n_values": (4,)}, CONFIRMED, {"form": "1/n"}),
    (d.theorem32_minimum, {"n_values": range(4, 7), "search_n": (4,), "n_random": 20, "rng": 0}, ERRATUM,
     {"form": "2*p**2*(1-p)**2"}),
]


@pytest.mark.parametrize(("step", "kwargs", "outcome", "other"), CASES, ids=[c[0].__name__ for c in CASES])
def test_each_step_confirms_or_names_an_erratum_and_rejects_a_wrong_form(step, kwargs, outcome, other):
    st = step(**kwargs)
    assert st.outcome == outcome
    assert st.printed and st.method and st.result
    if outcome == ERRATUM:
        assert st.corrected is not None and st.corrected_holds is True
    if other is not None:
        wrong = step(**kwargs, **other)
        if outcome == CONFIRMED:
            assert wrong.holds is False, wrong.result
        else:
            assert wrong.corrected_holds is False, wrong.result


def test_theorem31_the_pair_count_form_is_accepted_and_the_printed_one_is_negative():
    pair_count = "((p**2 + (1-p)**2) + 2*(n-2)*(p**3 + (1-p)**3) + (n-2)*(n-3)/2*(p**2 + (1-p)**2)**2)" \
                 "/(n*(n-1)/2) - (p**2 + (1-p)**2)**2"
    assert d.theorem31_variance(form=pair_count, max_enumerated=6, n_sim=2000, rng=0).holds
    st = d.theorem31_variance(max_enumerated=6, n_sim=2000, rng=0)
    assert st.known and (st.evidence["printed < 0 (cells)"] > 0).any()
    # the paper's reference value through ERRATA's reading, and the print taken literally (ERRATA example)
    assert round(float(r2_variance_theorem31(0.82, 10)), 5) == 0.02376
    assert round(float(r2_variance_theorem31(0.82, 10, reading="literal")), 5) == -0.00643


def test_lemma32_reference_example_and_the_order_of_the_variances():
    # e = 0010010010: i = 6 accepting of n = 10 gives (30 + 12)/90
    e = np.array([0, 0, 1, 0, 0, 1, 1, 0, 0, 1])
    assert replicability_r2(e) == pytest.approx(42 / 90, abs=1e-15)
    st = d.theorem31_variance_order()
    assert "2*(n - 2)*(r - 1)**2/(n*(n - 1))" in st.result
    assert (st.evidence["min gap, r < 1"] > 0).all()


def test_theorem32_the_printed_reductions_drop_the_terms_of_pairs_sharing_one_run():
    st = d.theorem32_case_disjoint(n=5)
    assert not st.holds and st.corrected_holds
    # at n = 4 no pair shares a run with (3, 4) without sharing one with (1, 2): the cross term vanishes there,
    # but the printed coefficient is still half of r - r^2
    assert not d.theorem32_case_disjoint(n=4).holds
    assert d.theorem32_case_disjoint(n=4).corrected_holds
