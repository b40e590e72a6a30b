"""Bouckaert (2005), Section 3 and the Appendix step by step (replicability.papers.bouckaert2005.derivation): every
step runs in the paper's order, and the page of notebook 05 holds them."""

import os

import pytest

pytest.importorskip("sympy")

from replicability.papers.bouckaert2005 import derivation as d  # noqa: E402


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
    with pytest.raises(ValueError, match="exact_size"):
        d.appendix_derivation(exact_size=2)


def test_the_page_has_a_table_per_step_and_writes_only_its_claims(written):
    page = d.appendix_derivation_page(sizes=[20_000, 200_000], test_sizes=[0.1, 0.5], n_sim=20_000, n_sim_worst=20_000,
                                      exact_size=16)
    assert page.name == "05_appendix_derivation" and page.reproduced == {}
    assert list(page.tables)[0] == "steps" and len(page.tables) == 1 + len(d.DERIVATION_2005_STEPS)
    assert page.values["n_steps"] == 32 and page.values["outcome_z_rewrite"] == "erratum"
    page.write()
    assert os.listdir(os.path.join(os.environ["REPLICABILITY_REPRODUCED_DIR"], "claims", "bouckaert2005")) == [
        "05_appendix_derivation.csv"]
