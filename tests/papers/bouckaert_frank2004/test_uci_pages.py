"""Tests of replicability.papers.bouckaert_frank2004.uci_pages: the pages of Tables 1 and 2.

The pages at paper scale read the committed results; their reproduced tables must be
byte-identical to the committed ``data/reproduced/bouckaert_frank2004`` files, and
their verdicts must follow from the claims' rule applied to independently recomputed
values.
"""

import numpy as np
import pytest

from replicability.papers.bouckaert_frank2004._uci_common import randomization_se
from replicability.papers.bouckaert_frank2004.uci_pages import table1_page, table2_page
from replicability.papers.shared.uci_outcomes import consistency_table, draw_counts, uci_test_outcomes
from replicability.papers.shared.uci_runs import uci_scheme_results
from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS, se_multiple
from replicability.report.tables import read_published
from replicability.report.uncertainty import rate_se

from ._checks import verdict_at_least


@pytest.mark.parametrize("make, files", [
    (table1_page, ["table1"]),
    (table2_page, ["table2", "table2_own_splits", "table2_stratified"]),
], ids=["table1", "table2"])
def test_reproduced_tables_equal_the_committed_files(make, files, written_as_committed):
    written_as_committed(make(), files)


def test_table1_count_claims_from_the_outcomes():
    res = uci_scheme_results("5x2")
    table = consistency_table(uci_test_outcomes(res, "5x2cv"))
    page = table1_page()
    verdicts = page.claims.verdicts()
    # the uncertainty is the randomizations', the 27 data sets fixed
    se = randomization_se(draw_counts(uci_test_outcomes(res, "5x2cv")).values, 10)
    cons = 100 * table["consistent"].to_numpy() / 27
    assert verdicts["claim_consistent_half"] == verdict_at_least(50, cons, se["consistent"])
    almost = 100 * table["almost_consistent"].to_numpy() / 27
    assert verdicts["claim_almost_66"] == verdict_at_least(66, almost, se["almost_consistent"])
    assert np.all(se["consistent"] < 100 * rate_se(0.5, 27))  # narrower than a binomial over data sets
    # the summary counts the 81 body cells and the 6 bottom counts of Table 1
    assert page.summary.startswith("87 counts compared")


def test_randomization_se_equals_a_simulation_of_the_randomizations():
    rng = np.random.default_rng(1)
    draws = np.array([[0], [3], [9], [10], [5]])
    q = (draws[:, 0] + 0.5) / 11
    sims = rng.binomial(10, q, size=(200_000, 5))  # the draws of a new randomization, per data set
    r = (sims * (sims - 1) + (10 - sims) * (9 - sims)) / 90
    se = randomization_se(draws, 10)
    assert se["consistent"][0] == pytest.approx(100 * np.isin(sims, [0, 10]).mean(1).std(), rel=0.02)
    assert se["almost_consistent"][0] == pytest.approx(100 * np.isin(sims, [0, 1, 9, 10]).mean(1).std(), rel=0.02)
    assert se["R"][0] == pytest.approx(r.mean(1).std(), rel=0.02)


def test_table2_says_which_splits_fit_the_printed_r(committed):
    page = table2_page()
    fit = page.tables["split_fit"].frame
    assert page.values["fit_unstratified"] == round(float(fit["|Δ| unstratified"].mean()), 3)
    assert page.values["fit_better"] == ("unstratified" if fit["|Δ| stratified"].mean() > fit["|Δ| unstratified"]
                                         .mean() else "Weka's stratified")
    # the verdict recomputed from the written tables: paired cells, 2 standard errors of the mean gap
    published = read_published("bouckaert_frank2004", "table2").query("measure == 'R'")
    key = ["pair", "n_runs"]
    gaps = []
    for name in ("table2", "table2_own_splits"):
        ours = page.reproduced[name].query("measure == 'R'").merge(published, on=key, suffixes=("", "_p"))
        gaps.append((ours["value"] - ours["value_p"]).abs().to_numpy())
    d = gaps[0] - gaps[1]
    z_se = 2 * d.std(ddof=1) / np.sqrt(d.size)
    expected = HOLDS if d.mean() > z_se else NOT_HOLDS if d.mean() < -z_se else INCONCLUSIVE
    assert page.claims.verdicts()["claim_unstratified_fit"] == expected


def test_table2_claim_100_r_from_the_outcomes():
    res = uci_scheme_results("resample_weka")
    outcomes = uci_test_outcomes(res, "corrected_resampled", n_runs=100)
    r = consistency_table(outcomes)["R"].to_numpy()
    se = randomization_se(draw_counts(outcomes).transpose("dataset", "pair").values, 10)["R"]
    page = table2_page()
    assert page.claims.verdicts()["claim_100_r"] == verdict_at_least(r, 0.9, se)
    assert page.claims.frame().set_index("key").loc["claim_100_r", "tolerance"] == f"{se_multiple(3) * se.max():.3f}"
    assert page.values["r_last_min"] == round(float(r.min()), 3)


def test_table1_draws_its_figure_and_refuses_unknown_tables():
    import matplotlib.pyplot as plt

    page = table1_page()
    fig = page.figures["figure"]()
    assert len(fig.axes) == 3 and np.allclose(fig.axes[0].get_xlim(), (-0.5, 10.5))
    plt.close(fig)
    with pytest.raises(KeyError, match="must be one of"):
        page.show("nope")


def test_the_folds_sentence_follows_the_agreement_verdict():
    import pandas as pd

    from replicability.papers.bouckaert_frank2004.uci_pages import _folds_reading
    from replicability.report.claims import Claims

    page = table1_page()
    assert page.claims.verdicts()["claim_weka_folds"] == HOLDS  # 55/81 against 30/81 for all draws
    assert page.values["agreement_reading"].startswith("So close an agreement")
    # a table that agrees only where ten draws would: the sentence must not claim the folds
    body = pd.DataFrame({"value_published": [10] * 30 + [7] * 51, "difference": [0] * 30 + [2] * 51})
    claims = Claims("p", "x")
    values = _folds_reading(claims, body, 10)
    assert claims.verdicts()["claim_weka_folds"] == NOT_HOLDS
    assert values["agreement_reading"].startswith("This agreement is not beyond")


def test_below_paper_scale_the_folds_sentence_and_count_claims_say_they_cannot_compare():
    import pandas as pd

    from replicability.papers.bouckaert_frank2004.uci_pages import _folds_reading
    from replicability.report.claims import Claims

    # quick scale: 2 randomizations per data set; all draws (2 of 2) agree with no printed cell out of 10
    body = pd.DataFrame({"value_published": [10] * 30 + [7] * 51, "difference": [-8] * 30 + [-5] * 51})
    claims = Claims("p", "x")
    values = _folds_reading(claims, body, 2)
    assert claims.verdicts()["claim_weka_folds"] == INCONCLUSIVE
    assert claims.frame()["to_decide"].iloc[0] == "the paper's design decides it: 10 randomizations per data set"
    assert values["agreement_reading"].startswith("At this scale our draws are out of 2 randomizations, the printed "
                                                  "ones out of 10: the cells are not comparable")
    assert "So close" not in values["agreement_reading"]


def test_table1_at_smoke_scale_compares_only_what_does_not_depend_on_the_randomizations(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path))
    page = table1_page(scale="smoke")
    verdicts = page.claims.verdicts()
    for key in ("claim_consistent_half", "claim_almost_66", "claim_mixed", "claim_weka_folds"):
        assert verdicts[key] == INCONCLUSIVE, key
    assert page.summary.startswith("not comparable with the paper at this scale: our draws are out of 2 "
                                   "randomizations, the printed ones out of 10; ")
    assert page.values["agreement_reading"].startswith("At this scale")


def test_table1_at_another_level_chooses_its_sentence_by_its_verdict():
    page = table1_page(alpha=0.01)  # the committed results, another level: 41/81 cells (issue 40)
    verdict = page.claims.verdicts()["claim_weka_folds"]
    sentence = page.values["agreement_reading"]
    assert sentence.startswith("So close an agreement") == (verdict == HOLDS)
    assert sentence.startswith("This agreement is not beyond") == (verdict != HOLDS)
