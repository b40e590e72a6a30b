"""Tests of replicability.papers.bouckaert2004.lemmas: the range of r and Lemmas 3.1, A.1, 3.2, 3.3 step by step.

Every step's check confirms the printed step or names an erratum, and rejects a deliberately wrong expression.
"""

import pytest

pytest.importorskip("sympy")

from replicability.papers.bouckaert2004 import lemmas as d  # noqa: E402
from replicability.report.steps import CONFIRMED, ERRATUM  # noqa: E402

FAST = {"max_enumerated": 6}

#: step function, its keyword arguments, outcome, and a wrong form (rejected) or the corrected one (accepted)
CASES = [
    (d.replicability_range, {}, CONFIRMED, {"form": 0.6}),
    (d.lemma31_pair, {}, CONFIRMED, {"form": "r**2"}),
    (d.lemma31_mean, FAST, CONFIRMED, {"form": "r/2"}),
    (d.lemma31_binomial, FAST, CONFIRMED, {"form": "binomial(m, i) * r**i * (1 - r)**(m - i + 1)"}),
    (d.lemma_a1, {}, CONFIRMED, {"form": ("1", "m*p", "m**2*p**2 + m*p")}),
    (d.lemma31_variance, {**FAST, "n_sim": 2000, "rng": 0}, CONFIRMED, {"form": "(r - r**2)/n"}),
    (d.lemma32, FAST, CONFIRMED, {"form": "i*(i-1)/(n*(n-1))"}),
    (d.lemma33_pair, {}, CONFIRMED, {"form": "p**2 * k"}),
    (d.lemma33_unbiased, {"rng": 0}, CONFIRMED, {"form": "r * K**2"}),
    (d.lemma33_members, FAST, CONFIRMED, {"form": 2}),
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
