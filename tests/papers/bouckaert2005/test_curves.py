"""Tests of replicability.papers.bouckaert2005.curves: Figures 1-4, their summary and claims."""

import numpy as np
import pandas as pd
import pytest

from replicability.papers.bouckaert2005 import curves
from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS, se_multiple


def test_task1_curves_reproduce_the_committed_figures(written, committed):
    page = curves.task1_curves_page()
    assert written("figures1_4") is None  # nothing is written while the page is built
    page.write()
    frame = curves.task1_curves()
    committed = committed("figures1_4")
    pd.testing.assert_frame_equal(written("figures1_4"), committed)
    assert (frame["r2_se"] >= 0).all() and (frame.loc[frame["gap"] == 0, "r2_se"] > 0).all()
    np.testing.assert_allclose(frame["normalized_r2"], 2 * frame["r2"] - 1, atol=1e-12)
    np.testing.assert_allclose(frame["normalized_r2_se"], 2 * frame["r2_se"], atol=1e-12)
    # One name per concept: "all agree" is the column all_agree; nothing is called "replicability".
    assert "all_agree" in frame and "replicability" not in frame and "all_agree" in committed
    assert list(page.tables) == ["type1_and_worst", "power"]
    assert list(page.figures) == ["figure1", "figure2", "figure3", "figure4"]


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
    for d, verdict in [(0.0, HOLDS), (0.9 * tol, INCONCLUSIVE), (1.1 * tol, NOT_HOLDS)]:
        assert curves.curves_claims(_hand_summary(0.8 + d))[0].verdicts()["mc_type1_same"] == verdict
    # A worst case above 50% by more than the tolerance is not "low".
    low = _hand_summary()
    low.loc[("mcnemar_50_50", 2000), "worst repl. (2 R2 - 1)"] = 0.6
    assert curves.curves_claims(low)[0].verdicts()["mc_worst_low"] == NOT_HOLDS


def test_figures_plot_2r2_minus_1_against_4q_minus_1():
    import matplotlib.pyplot as plt

    figs = curves._curves_figures(_hand_curve("mcnemar_90_10"))
    power, normalized, agree = figs["figure1"]().axes[0].get_lines()[:3]
    np.testing.assert_allclose(normalized.get_xdata(), [0, 20, 40])  # 4q - 1 = 2 x gap, percent
    np.testing.assert_allclose(normalized.get_ydata(), [80, 20, 70])
    np.testing.assert_allclose(agree.get_ydata(), [70, 10, 80])
    np.testing.assert_allclose(power.get_ydata(), [5, 45, 90])
    assert len(figs) == 4
    plt.close("all")
