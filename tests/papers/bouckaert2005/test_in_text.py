"""Tests of replicability.papers.bouckaert2005.in_text: the in-text numbers of Section 4 and their claims."""

import numpy as np
import pandas as pd
import pytest

from replicability.papers.bouckaert2005 import curves, in_text
from replicability.papers.bouckaert2005.histograms import histogram_measures, outcome_histogram
from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS, Claims, se_multiple
from replicability.report.uncertainty import rate_se


def test_in_text_smoke_and_claims_rules():
    type1 = in_text.mcnemar_type1((1000, 2000), scale="smoke")
    worst, grids = in_text.mcnemar_worst_case((20000, 100000), scale="smoke")
    by_design = in_text.designs_at_equal_cost((1000,), scale="smoke")
    assert type1.attrs["n_datasets"] == 10 and len(grids[20000]) == 6
    # One size: "all agree" has the binomial SE of the one estimate, 2 R2 - 1 its SE over the data sets.
    row = by_design.loc[(10, "resampling_10")]
    assert row["type I repl. (all agree) SE"] == pytest.approx(rate_se(row["type I repl. (all agree)"], 10))
    curve = curves.task1_curves(curves.GROUPS, (1000,), scale="smoke")
    curve = curve[curve["design"] == "resampling_10"]
    assert row["type I repl. (2 R2 - 1)"] == pytest.approx(curve["normalized_r2"].iloc[0])
    assert row["type I repl. (2 R2 - 1) SE"] == pytest.approx(curve["normalized_r2_se"].iloc[0])
    assert row["worst repl. (2 R2 - 1)"] == pytest.approx(curve["normalized_r2"].min())
    assert row["worst repl. (2 R2 - 1) SE"] == pytest.approx(curve.loc[curve["normalized_r2"].idxmin(),
                                                                       "normalized_r2_se"])
    c, values = in_text.in_text_claims(type1, worst, by_design)
    # The paper's measure is 2 R2 - 1; its SE is twice that of R2 over the data sets.
    np.testing.assert_allclose(type1["normalized R2 %"], 2 * type1["R2 %"] - 100, atol=1e-9)
    m = histogram_measures(outcome_histogram(np.zeros((10, 10), dtype=int)), n_repeats=10)  # all accept: R2 = 1
    assert float(m["r2"]) == 1.0 and float(2 * m["r2"] - 1) == 1.0
    # The rule by hand: within rounding 0.05 holds, within 2 sqrt(2) SE (Bonferroni over the m values) + 0.05 within
    # tolerance.
    gap = (type1["normalized R2 %"] - type1["published %"]).abs().to_numpy()
    tol = se_multiple(gap.size) * np.sqrt(2) * type1["normalized R2 SE"].to_numpy() + 0.05
    expected = HOLDS if np.all(gap <= 0.05) else INCONCLUSIVE if np.all(gap <= tol) else NOT_HOLDS
    assert c.verdicts()["t1_values"] == expected
    # Δ is read on 4q - 1, twice the gap at the minimum of the normalized replicability.
    for n, g in grids.items():
        j = int(np.argmin(g["normalized R2"]))
        assert worst.loc[n, "4q - 1 %"] == pytest.approx(200 * g["gap"].iloc[j])
    assert values["summary"].startswith("4 cells compared")  # two Type I sizes and two worst-case sizes


def test_in_text_page_writes_the_printed_rows_only_when_asked(written):
    page = in_text.in_text_page(type1_sizes=(1000, 2000), worst_sizes=(20000, 100000), sizes=(1000,),
                                scale="smoke")
    assert written("type1_replicability") is None and written("worst_case") is None
    page.write()
    assert written("worst_case") is not None
    # The printed rows, our values at the sizes simulated (the others empty), rounded to 2 decimals.
    type1 = written("type1_replicability").set_index("n")
    assert list(type1.columns) == ["design", "replicability_pct", "source"] and len(type1) == 6
    assert type1.loc[1000, "replicability_pct"] == pytest.approx(
        round(page.tables["type1"].frame.loc["normalized R2 %", 1000], 2))
    assert type1["replicability_pct"].isna().sum() == 4
    worst = written("worst_case").set_index("n")
    assert list(worst.columns) == ["design", "replicability_pct", "delta_pct", "power_pct", "source"]
    assert worst.loc[20000, "delta_pct"] == pytest.approx(round(page.tables["worst"].frame.loc["4q - 1 %", 20000], 2))
    assert list(page.tables) == ["type1", "worst", "by_design", "by_design_se", "equal_cost_readings"]
    assert page.show("equal_cost_readings").caption.startswith("Sections 4.2-4.3")
    assert list(page.figures) == ["in_text"]


def test_designs_at_equal_cost_averages_the_sizes():
    by_design = in_text.designs_at_equal_cost((1000, 2000), scale="smoke")
    s = curves.curve_summary(curves.task1_curves(curves.GROUPS, (1000, 2000), scale="smoke")).loc["cv_10x10"]
    row = by_design.loc[(100, "cv_10x10")]
    # The mean of the two sizes, with the SE of a mean of two independent estimates sqrt(se_1^2 + se_2^2) / 2.
    assert row["worst repl. (2 R2 - 1)"] == pytest.approx(s["worst repl. (2 R2 - 1)"].mean())
    assert row["worst repl. (2 R2 - 1) SE"] == pytest.approx(np.hypot(*s["worst SE"]) / 2)
    assert row["worst repl. (all agree)"] == pytest.approx(s["worst repl. (all agree)"].mean())


_EQUAL_COST_DESIGNS = ["mcnemar_90_10", "mcnemar_50_50", "resampling_10", "resampling_100", "resampling_500",
                       "cv_1x10", "cv_10x10", "cv_50x10", "sorted_cv_1x10"]


def _fake_by_design(mc90_type1=0.84):
    """Every ordering of Sections 4.2-4.3 true on both readings, except Type I of McNemar 90/10 against 10x
    resampling (0.83 on 2 R2 - 1): set by ``mc90_type1`` on 2 R2 - 1, below it on "all agree"; every SE 0.001
    (so that each ordering, 0.01 or more, is beyond its uncertainty)."""
    t1 = dict(zip(_EQUAL_COST_DESIGNS, [mc90_type1, 0.85, 0.83, 0.92, 0.96, 0.97, 0.97, 0.98, 0.89]))
    wc = dict(zip(_EQUAL_COST_DESIGNS, [0.05, 0.33, 0.26, 0.69, 0.85, 0.43, 0.85, 0.93, 0.56]))
    power = dict(zip(_EQUAL_COST_DESIGNS, [0.67, 0.85, 0.77, 0.84, 0.85, 0.78, 0.85, 0.86, 0.83]))
    error = dict(zip(_EQUAL_COST_DESIGNS, [0.04, 0.045, 0.05, 0.05, 0.05, 0.01, 0.04, 0.047, 0.05]))
    frame = pd.DataFrame({"type I error": error, "mean power": power, "type I repl. (2 R2 - 1)": t1,
                          "worst repl. (2 R2 - 1)": wc, "type I repl. (all agree)": pd.Series(t1) - 0.2,
                          "worst repl. (all agree)": pd.Series(wc) - 0.05})
    frame.loc["mcnemar_90_10", "type I repl. (all agree)"] = 0.5  # below 10x resampling's 0.63
    for column in list(frame):
        frame[f"{column} SE"] = 0.001
    frame.index = pd.MultiIndex.from_product([[1], frame.index], names=["cost", "design"])
    return frame


def test_equal_cost_claims_read_2r2_minus_1_and_the_readings_side_by_side():
    c = Claims("bouckaert2005", "03_in_text_numbers")
    diffs = in_text.equal_cost_claims(c, _fake_by_design())
    v = c.verdicts()
    assert all(v[key] == HOLDS for key in ["cv_better_type1", "cv_better_worst", "rs_repl_up", "rs_worst_up",
                                           "rs10_vs_mcnemar90", "mcnemar_beats_rs10", "sorted_vs_cv_1x10"])
    assert diffs["rs10_vs_mcnemar90"][2] == pytest.approx(0.01)  # Type I: McNemar 90/10 above 10x resampling
    # The rule by hand: an ordering reversed by d, three compared values, SE of the difference sqrt(2) 0.001.
    tol = se_multiple(3) * np.hypot(0.001, 0.001)
    for d, verdict in [(0.9 * tol, INCONCLUSIVE), (1.1 * tol, NOT_HOLDS)]:
        c = Claims("bouckaert2005", "03_in_text_numbers")
        in_text.equal_cost_claims(c, _fake_by_design(0.83 - d))
        assert c.verdicts()["rs10_vs_mcnemar90"] == verdict
    table = in_text.equal_cost_readings(_fake_by_design())
    assert table.loc["rs10_vs_mcnemar90", ("2 R2 - 1", "verdict")] == HOLDS
    assert table.loc["rs10_vs_mcnemar90", ("all agree", "verdict")] == NOT_HOLDS
    assert "cv_power_slightly" not in table.index and "cv_better_type1" in table.index
    with pytest.raises(ValueError, match="reading"):
        in_text.equal_cost_claims(Claims("bouckaert2005", "x"), _fake_by_design(), "R2")
