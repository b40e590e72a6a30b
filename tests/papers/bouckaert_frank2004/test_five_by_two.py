"""Tests of replicability.papers.bouckaert_frank2004.five_by_two: the drivers of 5 x 2 cv's consistency."""

import numpy as np
import pytest
from scipy import stats

from replicability.papers.bouckaert_frank2004.five_by_two import (
    FIVE_BY_TWO_STATISTICS,
    NULL_SOURCE_ROW,
    consistency,
    five_by_two_drivers_page,
    five_by_two_statistic,
)
from replicability.stats.decisions import decide
from replicability.stats.ttests import dietterich_5x2cv_ttest


@pytest.fixture(autouse=True)
def _tmp_dirs(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path / "reproduced"))
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))


def _d(seed=0, shape=(300, 5, 2), loc=0.01):
    return np.round(np.random.default_rng(seed).normal(loc, 0.04, size=shape), 3)


def test_dietterich_variant_equals_the_package_test():
    d = _d()
    t, dist = five_by_two_statistic(d)
    res = dietterich_5x2cv_ttest(d)
    np.testing.assert_allclose(t, res.statistic, rtol=1e-12)
    crit = dist.isf(0.025)
    ours = np.where(t > crit, 1, np.where(t < -crit, -1, 0))
    np.testing.assert_array_equal(ours, decide(res, alpha=0.05))


def test_worked_example_by_hand():
    # s_j^2 = (x1 - m)^2 + (x2 - m)^2 per run; Dietterich (1998), Eq. for t~.
    d = np.array([[0.1, 0.0], [0.05, 0.05], [0.0, 0.1], [0.1, 0.1], [0.02, 0.08]])
    s2 = np.array([0.005, 0.0, 0.005, 0.0, 0.0018])
    expect = {"dietterich": 0.1 / np.sqrt(s2.mean()), "first_run_mean": 0.05 / np.sqrt(s2.mean()),
              "all_mean": d.mean() / np.sqrt(s2.mean()), "f_test": (d**2).sum() / (2 * s2.sum())}
    for variant, value in expect.items():
        stat, dist = five_by_two_statistic(d, variant)
        assert float(stat) == pytest.approx(value)
        assert dist.args == ((10, 5) if variant == "f_test" else (5,))


def test_zero_variance_is_no_difference():
    d = np.full((5, 2), 0.05)
    for variant in FIVE_BY_TWO_STATISTICS:
        assert float(five_by_two_statistic(d, variant)[0]) == 0.0


def test_consistency_and_validation():
    assert consistency([[1, 1], [0, 1], [-1, -1], [0, 0]]) == 0.75
    with pytest.raises(ValueError, match="outcomes"):
        consistency([1, 1])
    with pytest.raises(ValueError, match="5, 2"):
        five_by_two_statistic(np.zeros((4, 2)))
    with pytest.raises(ValueError, match="variant"):
        five_by_two_statistic(np.zeros((5, 2)), "nope")


def test_statistic_is_vectorized_like_a_loop():
    d = _d(shape=(7, 3, 5, 2))
    t, _ = five_by_two_statistic(d, "first_run_mean")
    loop = np.array([[float(five_by_two_statistic(d[i, j], "first_run_mean")[0]) for j in range(3)]
                     for i in range(7)])
    np.testing.assert_allclose(t, loop)


def test_committed_runs_rule_out_a_single_recalibration_and_stratification():
    # Committed 5 x 2 cv fold counts (stratified, and the unstratified run), 1000 data sets x 10 per source.
    # Printed: Bouckaert & Frank (2004), Table 5, row 5x2 cv: 72.3, 71.2, 63.5, 16.9.
    page = five_by_two_drivers_page()
    table, fits = page.tables["consistency"].frame, page.tables["fits"].frame
    used = table.loc["stratified, " + FIVE_BY_TWO_STATISTICS["dietterich"]]
    np.testing.assert_allclose(used.to_numpy(float), [58.9, 63.7, 40.4, 5.2], atol=0.05)  # the Table 5 notebook
    assert page.data["n_datasets"] == {"stratified": 1000, "unstratified": 1000, "null source": 1000}
    # The other null source (attribute probabilities 0.5) is as inconsistent as source 1: within 2 SE of 58.9.
    null = table.loc[NULL_SOURCE_ROW + ", " + FIVE_BY_TWO_STATISTICS["dietterich"], 1]
    assert abs(null - used.iloc[0]) <= 2 * np.hypot(*[100 * np.sqrt(p * (1 - p) / 1000) for p in (0.589, null / 100)])
    c = fits["c* (printed consistency)"].to_numpy(float)
    assert np.all(c > stats.t.isf(0.025, 5))  # every source needs a more conservative test
    assert c.max() - c.min() > 0.5  # ... but not the same one
    assert "none" in page.values["five_by_two_verdict"].split(";")[0]
    unstratified = table.loc["unstratified, " + FIVE_BY_TWO_STATISTICS["dietterich"]].to_numpy(float)
    printed = table.loc["printed (Table 5)"].to_numpy(float)
    assert np.all(unstratified < printed)  # stratification does not explain the row


def test_glue_values_quote_the_tables():
    page = five_by_two_drivers_page(scale="smoke", new_runs=False)
    values = page.glue_values()
    assert values["five_by_two_rejection"].count(",") == 3
    assert "five_by_two_unstratified" not in values
    first = float(values["five_by_two_ours"].split(",")[0])
    assert first == pytest.approx(page.tables["consistency"].frame.iloc[1, 0], abs=0.05)


def test_drivers_page_shows_three_tables_and_writes_nothing():
    page = five_by_two_drivers_page(scale="smoke", new_runs=False)
    assert list(page.tables) == ["consistency", "properties", "fits"]
    shown = page.show("consistency")
    assert (shown.digits, shown.caption) == (1, "5x2 cv consistency (%) per source, printed and under each variant")
    assert page.show("fits", caption="other").caption == "other"
    assert page.reproduced == {} and page.claims.verdicts() == {} and page.figures == {}
    assert list(page.glue_values())[0] == "five_by_two_verdict"
