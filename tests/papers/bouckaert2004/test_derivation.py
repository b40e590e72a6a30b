"""Tests of replicability.papers.bouckaert2004.derivation: Section 3 step by step, run in the paper's order, and its
page (notebook 05_section3_derivation). The steps themselves: test_lemmas.py and test_theorems.py."""

import pytest

pytest.importorskip("sympy")

from replicability.papers.bouckaert2004 import derivation as d  # noqa: E402
from replicability.report.steps import Derivation, identity  # noqa: E402


def test_identity_proves_and_disproves():
    import sympy as sp

    x = sp.Symbol("x")
    assert identity((x + 1) ** 2, x**2 + 2 * x + 1) == (True, 0.0)
    ok, gap = identity((x + 1) ** 2, x**2 + 1, {x: 2})
    assert not ok and gap == pytest.approx(4.0)


def test_the_derivation_runs_every_step_in_order_and_builds_its_page():
    der = d.section3_derivation(max_enumerated=6, n_sim=2000)
    assert isinstance(der, Derivation)
    assert [s.key for s in der.steps] == list(d.DERIVATION_2004_STEPS)
    counts = der.counts()
    assert counts["n_steps"] == 21 and counts["n_errata"] == 4 and counts["n_corrected_hold"] == 4
    page = der.as_page()
    claims = page.claims.frame()
    # a printed erratum does not hold, its correction does; simulations are judged by the Monte Carlo rule
    assert claims.set_index("key").loc["theorem31_variance", "verdict"] == "does not hold"
    assert claims.set_index("key").loc["theorem31_variance_corrected", "verdict"] == "holds"
    assert claims.set_index("key").loc["lemma31_variance_simulated", "verdict"] != "does not hold"
    assert set(der.table()["step"]) <= set(page.tables)
    with pytest.raises(KeyError, match="must be one of"):
        der["no such step"]


def test_the_page_builder_is_the_derivation_as_a_page():
    page = d.section3_derivation_page(max_enumerated=6, n_sim=2000, sim_n=[10, 28])
    der = d.section3_derivation(max_enumerated=6, n_sim=2000)
    assert page.name == "05_section3_derivation"
    assert page.glue_values() == der.as_page().glue_values()
    assert list(page.tables) == ["steps", *d.DERIVATION_2004_STEPS]


def test_input_checks():
    with pytest.raises(ValueError, match="max_enumerated"):
        d.section3_derivation(max_enumerated=2)
    with pytest.raises(ValueError, match="gradient_n"):
        d.section3_derivation(max_enumerated=6, gradient_n=4)
