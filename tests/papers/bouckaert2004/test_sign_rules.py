"""Tests of replicability.papers.bouckaert2004.sign_rules: the sign-test rules of Table 1 (notebook 02_table1)."""

import numpy as np
import pytest
from scipy import stats

from replicability.papers.bouckaert2004.sign_rules import (
    SIGN_VARIANTS,
    sign_counts,
    sign_rules_on_table2,
    sign_test_variants,
    sign_test_variants_page,
    sign_variant_outcomes,
)
from replicability.papers.shared import uci_outcomes


def _samples_with_pluses(n=10):
    # Row k: k pluses and n - k minuses, no zeros.
    return np.array([[1.0] * k + [-1.0] * (n - k) for k in range(n + 1)])


def test_rejection_regions_for_ten_values_at_five_percent():
    x = _samples_with_pluses()
    k = np.arange(11)
    # Exact two-sided test (scipy's binomtest): reject at k <= 1 or k >= 9.
    exact = np.array([stats.binomtest(int(i), 10, 0.5).pvalue < 0.05 for i in k])
    expected = {
        "exact": exact,
        "exact_zeros_dropped": exact,
        "normal": np.abs(2 * k - 10) / np.sqrt(10) > stats.norm.isf(0.025),
        "normal_cc": (np.abs(2 * k - 10) - 1) / np.sqrt(10) > stats.norm.isf(0.025),
        # As printed: P(Z) = P(X <= Z); B better below 2.5%, A better above 97.5%: k <= 1 or k >= 8.
        "printed": (stats.binom.cdf(k, 10, 0.5) < 0.025) | (stats.binom.cdf(k, 10, 0.5) > 0.975),
        "printed_upper_both": (k <= 2) | (k >= 8),
    }
    for variant, rejects in expected.items():
        out = sign_variant_outcomes(x, variant)
        np.testing.assert_array_equal(out != 0, rejects, err_msg=variant)
        np.testing.assert_array_equal(out[rejects], np.sign(2 * k - 10)[rejects], err_msg=variant)
    assert np.array_equal(expected["printed"], (k <= 1) | (k >= 8))


def test_swapping_a_and_b_flips_the_symmetric_rules_only():
    rng = np.random.default_rng(1)
    x = np.round(rng.normal(0.2, 1, size=(500, 10)), 1)
    for variant in SIGN_VARIANTS:
        flipped = -sign_variant_outcomes(-x, variant)
        same = np.array_equal(sign_variant_outcomes(x, variant), flipped)
        assert same == (variant != "printed"), variant


def test_zeros_half_a_plus_or_dropped():
    x = np.array([1.0] * 7 + [0.0] * 3)  # 8.5 pluses of 10 with zeros as halves; 7 of 7 without zeros
    assert [c.tolist() for c in sign_counts(x)] == [7, 0, 3]
    assert sign_variant_outcomes(x, "exact_zeros_dropped") == 1  # 2 / 2^7 < 0.05
    assert sign_variant_outcomes(x, "printed_upper_both") == 1  # floor(8.5) = 8
    assert sign_variant_outcomes(x, "printed") == 1


def test_printed_rule_equals_the_uci_implementation():
    # Independent implementation: uci_outcomes works on exact integer sums of sorted runs.
    rng = np.random.default_rng(4)
    ints = rng.integers(-3, 4, size=(2000, 10))
    ours = sign_variant_outcomes(ints.astype(float), "printed")
    np.testing.assert_array_equal(ours, uci_outcomes._printed_sign_outcomes(ints, 0.05))


def test_validation():
    with pytest.raises(ValueError, match="variant"):
        sign_variant_outcomes([1.0, -1.0], "nope")
    with pytest.raises(ValueError, match="sample"):
        sign_counts([1.0, np.nan])
    with pytest.raises(ValueError, match="alpha"):
        sign_variant_outcomes([1.0, -1.0], "exact", alpha=1.5)


def test_table1_singles_out_the_printed_upper_side_on_both_sides():
    # Committed 10 x 10 cv experiment of Table 1 (data/results); printed row: Bouckaert (2004), Table 1,
    # sign test / average sorted runs: Type I 5.0 (±0.5), power 21.2, 48.6, 99.1, min. norm. replicability 75.2.
    res = sign_test_variants()
    assert res.n_datasets == 1000
    assert res.fit.index[res.fit["all fit"]].tolist() == ["printed_upper_both"]
    assert res.fit.loc["printed_upper_both", "Type I error"] == pytest.approx(4.67, abs=0.005)
    assert res.fit.loc["exact", "Type I error"] == pytest.approx(0.32, abs=0.005)
    # The table's "used" row is the Table 1 notebook's sign test.
    assert res.table.loc[SIGN_VARIANTS["exact"], "source 2 power"] == pytest.approx(9.66, abs=0.005)


def test_table2_cells_favour_the_same_rule():
    frame = sign_rules_on_table2()
    assert int(frame["cells"].iloc[0]) == 81
    best = frame["cells equal"].idxmax()
    assert best == SIGN_VARIANTS["printed_upper_both"]
    assert frame.loc[SIGN_VARIANTS["printed"], "cells equal"] > frame.loc[SIGN_VARIANTS["exact"], "cells equal"]


def test_glue_values_quote_the_fit():
    res = sign_test_variants(scale="smoke")
    table2 = sign_rules_on_table2(scale="smoke")
    values = res.glue_values(table2)
    assert values["sign_rule_type1_upper"] == round(float(res.fit.loc["printed_upper_both", "Type I error"]), 2)
    assert values["sign_rule_t2_cells"] == int(table2["cells"].iloc[0])
    assert "sign_rule_t2_exact" not in res.glue_values()


def test_shown_tables_keep_the_values_and_fit_the_page():
    res = sign_test_variants(scale="smoke")
    table, fit = res.shown_tables()
    assert table.frame.shape[1] == 5  # value ± half-width in one cell: half the columns
    row = SIGN_VARIANTS["exact"]
    value, half = res.table.loc[row, "source 1 Type I"], res.table.loc[row, "source 1 Type I ±"]
    assert table.frame.loc[row, "source 1 Type I"] == f"{value:.1f} ± {half:.1f}"
    assert list(fit.frame.columns) == [rule.replace("_", " ") for rule in res.fit.index]
    assert fit.frame.shape == (res.fit.shape[1], res.fit.shape[0])


def test_the_page_glues_the_values_with_table2_and_shows_three_tables():
    page = sign_test_variants_page(scale="smoke")
    res, table2 = sign_test_variants(scale="smoke"), sign_rules_on_table2(scale="smoke")
    assert page.glue_values() == res.glue_values(table2)
    assert list(page.tables) == ["rules", "fit", "table2"]
    assert page.show("fit").caption == res.shown_tables()[1].caption
    assert page.show("table2").frame.equals(table2) and page.show("table2").digits == 1
    assert page.claims.frame().empty and not page.reproduced  # nothing to write
