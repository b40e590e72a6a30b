"""Tests of the page modules of replicability.papers.bouckaert2005 (section3, curves, in_text, beyond) and r2_se."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from replicability.papers.bouckaert2005 import beyond, curves, in_text
from replicability.papers.bouckaert2005 import theory_checks as section3
from replicability.papers.bouckaert2005.histograms import histogram_measures, outcome_histogram
from replicability.report.claims import HOLDS, NOT_HOLDS, WITHIN, Claims, se_multiple
from replicability.report.uncertainty import rate_se
from replicability.stats.measures import replicability_r2

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _tmp_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path / "reproduced"))
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))


def _committed(name):
    return pd.read_csv(ROOT / "data" / "reproduced" / "bouckaert2005" / f"{name}.csv")


def test_r2_se_is_the_standard_error_of_the_per_dataset_r2():
    rng = np.random.default_rng(5)
    outcomes = rng.choice([-1, 0, 1], p=[0.2, 0.7, 0.1], size=(2, 40, 10))  # two cells, 40 data sets
    m = histogram_measures(outcome_histogram(outcomes), n_repeats=10)
    per_set = np.asarray(replicability_r2(outcomes), dtype=float)  # (2, 40), from the outcomes directly
    assert m["r2"] == pytest.approx(per_set.mean(axis=-1))
    assert m["r2_se"] == pytest.approx(per_set.std(axis=-1, ddof=1) / np.sqrt(40))
    normalized = 2 * per_set - 1  # Bouckaert (2004)'s normalized replicability, per data set
    assert m["normalized_r2"] == pytest.approx(normalized.mean(axis=-1))
    assert m["normalized_r2_se"] == pytest.approx(normalized.std(axis=-1, ddof=1) / np.sqrt(40))
    one = histogram_measures(outcome_histogram(outcomes[:, :1]), n_repeats=10)
    assert np.all(np.isnan(one["r2_se"]))


def test_half_unit_of_the_last_printed_digit():
    assert section3._half_unit("90.5") == pytest.approx(0.05)
    assert section3._half_unit("3.841459") == pytest.approx(5e-7)
    assert section3._half_unit("2") == pytest.approx(0.5)


def test_section3_constants_and_claims_small_simulation():
    res = section3.section3(n_datasets=60, sizes=(10_000, 20_000), test_sizes=(0.1, 0.5), write=False)
    assert res.constants.loc["type1_replicability_bound_pct", "reproduced"] == pytest.approx(90.5)
    assert res.constants.loc["chi2_threshold", "reproduced"] == pytest.approx(3.841459, abs=5e-7)
    c, values = section3.section3_claims(res)
    v = c.verdicts()
    assert v["bound_holds"] == v["chi2_holds"] == v["z_holds"] == v["tail_above_z"] == HOLDS
    # 0.97 z + 0.33 at z = 1.96 is 2.231; the tail mean is 2.338: off by more than the printed rounding.
    assert values["tail_gap"] == pytest.approx(0.107, abs=0.001) and v["tail_linear"] == NOT_HOLDS
    pairwise, agree = res.split("type1")
    assert list(agree.columns) == ["all agree simulated", "all agree normal model"]
    assert "R2 SE" in pairwise.columns and len(pairwise) == 4
    with pytest.raises(ValueError, match="at least 2 values"):
        section3.section3(n_datasets=20, sizes=(10_000,))


def test_section3_writes_the_committed_constants(tmp_path):
    section3.section3(n_datasets=20, sizes=(10_000, 20_000), test_sizes=(0.1, 0.5))
    written = pd.read_csv(tmp_path / "reproduced" / "bouckaert2005" / "section3.csv")
    assert np.allclose(written["value"], _committed("section3")["value"])


def test_task1_curves_reproduce_the_committed_figures():
    frame = curves.task1_curves(write_as="figures1_4")
    committed = _committed("figures1_4")
    written = pd.read_csv(Path(__import__("os").environ["REPLICABILITY_REPRODUCED_DIR"]) / "bouckaert2005"
                          / "figures1_4.csv")
    pd.testing.assert_frame_equal(written, committed)
    assert (frame["r2_se"] >= 0).all() and (frame.loc[frame["gap"] == 0, "r2_se"] > 0).all()
    np.testing.assert_allclose(frame["normalized_r2"], 2 * frame["r2"] - 1, atol=1e-12)
    np.testing.assert_allclose(frame["normalized_r2_se"], 2 * frame["r2_se"], atol=1e-12)
    # One name per concept: "all agree" is the column all_agree; nothing is called "replicability".
    assert "all_agree" in frame and "replicability" not in frame and "all_agree" in committed


def _hand_curve(design="d", n=1000, normalized=(0.8, 0.2, 0.7), se=(0.02, 0.03, 0.02), power=(0.05, 0.45, 0.9)):
    return pd.DataFrame({"design": design, "n": n, "gap": [0.0, 0.1, 0.2], "n_datasets": 100,
                         "power": list(power), "rejection": [0.05, 0.5, 0.9], "all_agree": [0.7, 0.1, 0.8],
                         "normalized_r2": list(normalized), "normalized_r2_se": list(se)})


def test_curve_summary_on_a_hand_made_curve():
    s = curves.curve_summary(_hand_curve(), order=["d"]).loc[("d", 1000)]
    assert s["type I error"] == 0.05 and s["type I repl. (2 R2 - 1)"] == 0.8 and s["type I SE"] == 0.02
    # The worst case is the minimum of 2 R2 - 1, located on 4q - 1 = twice the gap; "all agree" kept beside.
    assert s["worst repl. (2 R2 - 1)"] == 0.2 and s["worst SE"] == 0.03 and s["4q - 1 at worst"] == pytest.approx(0.2)
    assert s["worst repl. (all agree)"] == 0.1 and s["type I repl. (all agree)"] == 0.7
    assert s["repl. at 50% power"] == 0.2 and s["SE at 50% power"] == 0.03  # power 0.45 is nearest 50%
    # Mean power over three gaps of 100 independent data sets each: sqrt(sum p(1-p)/100) / 3.
    expected = np.sqrt(sum(p * (1 - p) / 100 for p in [0.05, 0.45, 0.9])) / 3
    assert s["mean power SE"] == pytest.approx(expected)
    first, second = curves.summary_tables(curves.curve_summary(_hand_curve(), order=["d"]))
    assert "worst repl. (2 R2 - 1)" in first and "4q - 1 at worst" in second


def _hand_summary(type1_66=0.8):
    """McNemar's three splits at two sizes; Type I 2 R2 - 1 of 66/33 set by ``type1_66``, every SE 0.01."""
    frames = []
    for design, worst, t1 in [("mcnemar_90_10", 0.05, 0.8), ("mcnemar_66_33", 0.2, type1_66),
                              ("mcnemar_50_50", 0.3, 0.8)]:
        for n, power in [(1000, (0.05, 0.5, 0.8)), (2000, (0.05, 0.6, 0.9))]:
            frames.append(_hand_curve(design, n, (t1, worst, 0.9), (0.01, 0.01, 0.01), power))
    order = ["mcnemar_90_10", "mcnemar_66_33", "mcnemar_50_50"]
    return curves.curve_summary(pd.concat(frames, ignore_index=True), order=order)


def test_curves_claims_read_2r2_minus_1_with_the_se_of_a_difference():
    c, values = curves.curves_claims(_hand_summary())
    v = c.verdicts()
    assert v["mc_worst_by_t"] == HOLDS and v["mc_worst_low"] == HOLDS and v["worst_free_of_n"] == HOLDS
    assert values["mc_worst_by_t_values"] == "0.050, 0.200, 0.300"
    # Type I of 66/33 off by d against the others, four compared values: the rule by hand, SE of the
    # difference of two simulations sqrt(0.01^2 + 0.01^2).
    tol = se_multiple(4) * np.hypot(0.01, 0.01)
    for d, verdict in [(0.0, HOLDS), (0.9 * tol, WITHIN), (1.1 * tol, NOT_HOLDS)]:
        assert curves.curves_claims(_hand_summary(0.8 + d))[0].verdicts()["mc_type1_same"] == verdict
    # A worst case above 50% by more than the tolerance is not "low".
    low = _hand_summary()
    low.loc[("mcnemar_50_50", 2000), "worst repl. (2 R2 - 1)"] = 0.6
    assert curves.curves_claims(low)[0].verdicts()["mc_worst_low"] == NOT_HOLDS


def test_figures_plot_2r2_minus_1_against_4q_minus_1():
    import matplotlib.pyplot as plt

    figs = curves.curves_figures(_hand_curve("mcnemar_90_10"))
    power, normalized, agree = figs[0].axes[0].get_lines()[:3]
    np.testing.assert_allclose(normalized.get_xdata(), [0, 20, 40])  # 4q - 1 = 2 x gap, percent
    np.testing.assert_allclose(normalized.get_ydata(), [80, 20, 70])
    np.testing.assert_allclose(agree.get_ydata(), [70, 10, 80])
    np.testing.assert_allclose(power.get_ydata(), [5, 45, 90])
    assert len(figs) == 4
    plt.close("all")


def test_in_text_smoke_and_claims_rules():
    type1 = in_text.mcnemar_type1((1000, 2000), scale="smoke", write=False)
    worst, grids = in_text.mcnemar_worst_case((20000, 100000), scale="smoke", write=False)
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
    expected = HOLDS if np.all(gap <= 0.05) else WITHIN if np.all(gap <= tol) else NOT_HOLDS
    assert c.verdicts()["t1_values"] == expected
    # Δ is read on 4q - 1, twice the gap at the minimum of the normalized replicability.
    for n, g in grids.items():
        j = int(np.argmin(g["normalized R2"]))
        assert worst.loc[n, "4q - 1 %"] == pytest.approx(200 * g["gap"].iloc[j])
    assert values["summary"].startswith("4 cells compared")  # two Type I sizes and two worst-case sizes


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
    resampling (0.83 on 2 R2 - 1): set by ``mc90_type1`` on 2 R2 - 1, below it on "all agree"; every SE 0.01."""
    t1 = dict(zip(_EQUAL_COST_DESIGNS, [mc90_type1, 0.85, 0.83, 0.92, 0.96, 0.97, 0.97, 0.98, 0.89]))
    wc = dict(zip(_EQUAL_COST_DESIGNS, [0.05, 0.33, 0.26, 0.69, 0.85, 0.43, 0.85, 0.93, 0.56]))
    power = dict(zip(_EQUAL_COST_DESIGNS, [0.67, 0.85, 0.77, 0.84, 0.85, 0.78, 0.85, 0.86, 0.83]))
    error = dict(zip(_EQUAL_COST_DESIGNS, [0.04, 0.045, 0.05, 0.05, 0.05, 0.01, 0.04, 0.047, 0.05]))
    frame = pd.DataFrame({"type I error": error, "mean power": power, "type I repl. (2 R2 - 1)": t1,
                          "worst repl. (2 R2 - 1)": wc, "type I repl. (all agree)": pd.Series(t1) - 0.2,
                          "worst repl. (all agree)": pd.Series(wc) - 0.05})
    frame.loc["mcnemar_90_10", "type I repl. (all agree)"] = 0.5  # below 10x resampling's 0.63
    for column in list(frame):
        frame[f"{column} SE"] = 0.01
    frame.index = pd.MultiIndex.from_product([[1], frame.index], names=["cost", "design"])
    return frame


def test_equal_cost_claims_read_2r2_minus_1_and_the_readings_side_by_side():
    c = Claims("bouckaert2005", "03_in_text_numbers")
    diffs = in_text.equal_cost_claims(c, _fake_by_design())
    v = c.verdicts()
    assert all(v[key] == HOLDS for key in ["cv_better_type1", "cv_better_worst", "rs_repl_up", "rs_worst_up",
                                           "rs10_vs_mcnemar90", "mcnemar_beats_rs10", "sorted_vs_cv_1x10"])
    assert diffs["rs10_vs_mcnemar90"][2] == pytest.approx(0.01)  # Type I: McNemar 90/10 above 10x resampling
    # The rule by hand: an ordering reversed by d, three compared values, SE of the difference sqrt(2) 0.01.
    tol = se_multiple(3) * np.hypot(0.01, 0.01)
    for d, verdict in [(0.9 * tol, WITHIN), (1.1 * tol, NOT_HOLDS)]:
        c = Claims("bouckaert2005", "03_in_text_numbers")
        in_text.equal_cost_claims(c, _fake_by_design(0.83 - d))
        assert c.verdicts()["rs10_vs_mcnemar90"] == verdict
    table = in_text.equal_cost_readings(_fake_by_design())
    assert table.loc["rs10_vs_mcnemar90", ("2 R2 - 1", "verdict")] == HOLDS
    assert table.loc["rs10_vs_mcnemar90", ("all agree", "verdict")] == NOT_HOLDS
    assert "cv_power_slightly" not in table.index and "cv_better_type1" in table.index
    with pytest.raises(ValueError, match="reading"):
        in_text.equal_cost_claims(Claims("bouckaert2005", "x"), _fake_by_design(), "R2")


def _fake_compare(delta, se=0.01):
    designs = ["mcnemar_90_10", "cv_10x10"]
    block = pd.DataFrame({"type I error": [0.05, 0.04], "type I repl. (2 R2 - 1)": [0.8, 0.95], "type I SE": se,
                          "worst repl. (2 R2 - 1)": [0.06, 0.85], "worst SE": se,
                          "type I repl. (all agree)": [0.6, 0.9], "worst repl. (all agree)": [0.01, 0.8],
                          "power at worst": [0.5, 0.5]}, index=designs)
    large = block.copy()
    large["type I repl. (2 R2 - 1)"] += delta
    return pd.concat({"n = 10,000": block, "n = 1,000,000": large}, axis=1)


def _fake_table(cost=70.0, repl=0.98, type1=0.03):
    table = pd.DataFrame({"type I error": [0.03, type1], "type I repl. (2 R2 - 1)": [0.98, repl],
                          "type I SE": 0.005, "worst repl. (2 R2 - 1)": [0.9, 0.9], "worst SE": 0.01,
                          "mean cost": [500.0, cost]}, index=["sorted_cv_50x10", "adaptive sorted cv"])
    table.attrs["n_datasets"] = 1000
    return table


def test_beyond_claims_rules():
    # Two designs, SE 0.01 at each size: tolerance z_2 sqrt(2) 0.01 = 0.032 on 2 R2 - 1.
    tol = se_multiple(2) * np.hypot(0.01, 0.01)
    assert beyond.beyond_claims(_fake_compare(0.0), _fake_table())[0].verdicts()["million_type1"] == HOLDS
    assert beyond.beyond_claims(_fake_compare(0.9 * tol), _fake_table())[0].verdicts()["million_type1"] == WITHIN
    assert beyond.beyond_claims(_fake_compare(1.1 * tol), _fake_table())[0].verdicts()["million_type1"] == NOT_HOLDS
    # The same difference is within tolerance only with the larger SE: the SE is read, not a binomial one.
    assert beyond.beyond_claims(_fake_compare(0.05, se=0.02), _fake_table())[0].verdicts()["million_type1"] == WITHIN
    assert beyond.beyond_claims(_fake_compare(0.0), _fake_table(repl=0.95))[0].verdicts()["adaptive_repl"] == NOT_HOLDS
    v = beyond.beyond_claims(_fake_compare(0.0), _fake_table(cost=600.0, type1=0.08))[0].verdicts()
    assert v["adaptive_cheaper"] == NOT_HOLDS and v["adaptive_level"] == NOT_HOLDS


def test_adaptive_design_smoke():
    large, ref, compare = beyond.million(scale="smoke")
    table, adapt, ds = beyond.adaptive_design(ref, scale="smoke")
    assert list(table.index)[-1] == "adaptive sorted cv" and len(adapt) == 6
    assert table.loc["sorted_cv_10x10", "mean cost"] == 100
    assert table.loc["adaptive sorted cv", "mean cost"] == pytest.approx(float(ds["mean_cost"].mean()))
    assert compare.columns.get_level_values(0).unique().tolist() == ["n = 10,000", "n = 1,000,000"]
    # The adaptive design is read as the fixed ones: 2 R2 - 1 at gap 0 and its minimum, "all agree" beside.
    assert adapt["normalized_r2"].iloc[0] == pytest.approx(table.loc["adaptive sorted cv", "type I repl. (2 R2 - 1)"])
    assert adapt["normalized_r2"].min() == pytest.approx(table.loc["adaptive sorted cv", "worst repl. (2 R2 - 1)"])
    assert adapt["all_agree"].min() == pytest.approx(table.loc["adaptive sorted cv", "worst repl. (all agree)"])
    ref_cv = ref[ref["design"] == "sorted_cv_10x10"]
    assert table.loc["sorted_cv_10x10", "worst SE"] == pytest.approx(
        ref_cv.loc[ref_cv["normalized_r2"].idxmin(), "normalized_r2_se"])
