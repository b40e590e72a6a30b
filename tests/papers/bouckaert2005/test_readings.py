"""Tests of replicability.papers.bouckaert2005.readings: the readings of "replicability" and of the x-axis."""

from math import comb

import numpy as np
import pandas as pd
import pytest

from replicability.papers.bouckaert2005.histograms import histogram_measures, outcome_histogram
from replicability.papers.bouckaert2005.readings import (
    READINGS,
    X_AXES,
    reading_values,
    replicability_readings,
    replicability_readings_page,
)


def _outcomes(seed=3, shape=(2, 50, 10), p=(0.15, 0.6, 0.25)):
    return np.random.default_rng(seed).choice([-1, 0, 1], p=p, size=shape)


def test_readings_against_a_loop_over_data_sets():
    out = _outcomes()
    values = reading_values(outcome_histogram(out), n_repeats=10)
    for row in range(out.shape[0]):
        per = {"all_agree": [], "all_agree_binary": [], "r2": []}
        for o in out[row]:
            counts = [int(np.sum(o == c)) for c in (-1, 0, 1)]
            per["all_agree"].append(max(counts) == 10)
            per["all_agree_binary"].append(counts[1] in (0, 10))
            per["r2"].append(sum(comb(k, 2) for k in counts) / comb(10, 2))
        per["normalized_r2"] = [2 * r - 1 for r in per["r2"]]
        for key, v in per.items():
            v = np.asarray(v, float)
            assert values[key][0][row] == pytest.approx(v.mean())
            assert values[key][1][row] == pytest.approx(v.std(ddof=1) / np.sqrt(v.size))
        shares = [np.mean(out[row] == c) for c in (-1, 0, 1)]
        assert values["pooled"][0][row] == pytest.approx(sum(p**2 for p in shares))
        assert values["normalized_pooled"][0][row] == pytest.approx(2 * sum(p**2 for p in shares) - 1)


def test_readings_agree_with_histogram_measures():
    h = outcome_histogram(_outcomes(seed=7))
    values = reading_values(h, n_repeats=10)
    m = histogram_measures(h, n_repeats=10)
    np.testing.assert_allclose(values["all_agree"][0], m["consistency"])
    np.testing.assert_allclose(values["r2"][0], m["r2"])
    np.testing.assert_allclose(values["r2"][1], m["r2_se"])


def test_pooled_se_by_the_delta_method_matches_resampling_spread():
    # The delta-method SE of sum_c p_c^2 against its spread over independent samples of data sets.
    p = (0.3, 0.5, 0.2)
    ses, pooled = [], []
    for seed in range(300):
        v = reading_values(outcome_histogram(_outcomes(seed=seed, shape=(200, 10), p=p)), n_repeats=10)
        pooled.append(float(v["pooled"][0]))
        ses.append(float(v["pooled"][1]))
    assert np.mean(ses) == pytest.approx(np.std(pooled, ddof=1), rel=0.15)


def test_binary_all_agree_differs_from_three_outcomes_only_on_mixed_rejections():
    out = np.array([[1, 1, -1], [1, 1, 1], [0, 0, 0], [0, 1, 0]])
    v = reading_values(outcome_histogram(out), n_repeats=3)
    assert float(v["all_agree"][0]) == 0.5  # rows 2 and 3
    assert float(v["all_agree_binary"][0]) == 0.75  # row 1 rejects three times, in two directions


def test_reading_values_validation():
    with pytest.raises(ValueError, match="cells"):
        reading_values(np.ones(5, dtype=int), n_repeats=10)
    with pytest.raises(ValueError, match="integer"):
        reading_values(np.ones(66), n_repeats=10)
    with pytest.raises(ValueError, match="two data sets"):
        reading_values(np.eye(66, dtype=int)[0], n_repeats=10)
    with pytest.raises(ValueError, match="n_repeats"):
        reading_values(np.ones(3, dtype=int), n_repeats=1)


def test_readings_smoke_shapes_and_x_axes():
    res = replicability_readings([1000], [20000], scale="smoke")
    assert set(res.fit.index) == set(READINGS) and res.n_datasets == 10
    row = res.worst[res.worst["reading"] == "normalized_r2"].iloc[0]
    # The x-axes are multiples of the gap at the minimum.
    for axis, factor in X_AXES.items():
        assert row[f"{axis} at min %"] == pytest.approx(factor * row["gap 2q - 1/2 at min %"])
    assert row["near-min gap from %"] <= row["gap 2q - 1/2 at min %"] <= row["near-min gap to %"]


def test_committed_simulations_single_out_normalized_r2_and_4q_minus_1():
    # The committed paper-scale Task I simulations (data/results): the printed Section 4.1 values are the
    # normalized replicability 2 R2 - 1 of Bouckaert (2004) and the printed Δ is 4q - 1. Printed values:
    # Bouckaert (2005), Section 4.1, paragraphs 2 and 3 (data/published/bouckaert2005).
    res = replicability_readings()
    assert res.n_datasets == 1000
    reproducing = res.fit.index[res.fit["reproduces all"]].tolist()
    assert reproducing == ["normalized_r2"]
    assert res.fit.loc["normalized_r2", "Δ on 4q - 1"]
    assert not res.fit.loc["normalized_r2", "Δ on gap 2q - 1/2"]
    assert not res.fit.loc["normalized_r2", "Δ on q - 1/4"]
    t1 = res.type1[res.type1["reading"] == "normalized_r2"].set_index("n")
    pd.testing.assert_series_equal(t1["difference"], t1["value %"] - t1["published %"], check_names=False)
    assert float(t1["difference"].abs().max()) < 2.5


def test_readings_tables_and_glue_values():
    res = replicability_readings([1000, 2000], [20000], scale="smoke")
    t1 = res.table("type1")
    assert list(t1.columns) == ["printed", *READINGS.values()]
    assert t1.loc[2000, READINGS["r2"]] == pytest.approx(
        float(res.type1.query("n == 2000 and reading == 'r2'")["value %"].iloc[0]))
    worst = res.table("worst")
    assert worst.loc[20000, "printed Δ"] == 6
    assert set(res.glue_values()) >= {"readings_verdict", "readings_t1_maxdiff", "readings_max_z"}
    with pytest.raises(ValueError, match="name"):
        res.table("nope")


def test_readings_page_has_no_claims_and_the_tables_of_the_investigation():
    page = replicability_readings_page(type1_sizes=[1000, 2000], worst_sizes=[20000], scale="smoke")
    assert list(page.tables) == ["type1", "worst", "fit"] and page.reproduced == {}
    assert page.claims.frame().empty
    assert list(page.glue_values()) == ["readings_verdict", "readings_t1_maxdiff", "readings_wc_maxdiff",
                                        "readings_max_z", "readings_n_readings"]
    worst = page.show("worst")  # transposed: one column per size
    assert list(worst.frame.columns) == [20000] and worst.digits == 1
    assert page.show("fit").caption == "Each reading against the printed values"
