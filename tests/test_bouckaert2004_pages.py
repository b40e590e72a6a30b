"""Tests of the page modules of replicability.papers.bouckaert2004 (section3, table1, sweep, table2)."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from replicability.papers.bouckaert2004 import sorted_runs as sweep
from replicability.papers.bouckaert2004 import synthetic as table1
from replicability.papers.bouckaert2004 import theory as section3
from replicability.papers.bouckaert2004 import uci as table2
from replicability.report import read_published
from replicability.report.claims import HOLDS, NOT_HOLDS, WITHIN
from replicability.report.uncertainty import rate_se
from replicability.stats.measures import replicability_r2


@pytest.fixture(autouse=True)
def _tmp_reproduced(tmp_path, monkeypatch):
    # Nothing here may overwrite the committed tables.
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path / "reproduced"))
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))


ROOT = Path(__file__).resolve().parents[1]


def _committed(name):
    return pd.read_csv(ROOT / "data" / "reproduced" / "bouckaert2004" / f"{name}.csv")


# --- section3 ------------------------------------------------------------------------------------------------------

def test_section3_smoke_checks_and_example():
    res = section3.section3(scale="smoke", check_r=[0.5, 0.8, 1.0], check_n=[2, 4, 6], n_random_estimators=5,
                            write=False)
    assert all(res.checks.values()), res.checks
    # Ten runs, six accepting: R1 = one equal pair of five, R2 = (C(6,2) + C(4,2)) / C(10,2) = 21/45.
    assert res.example.loc["R̂1"].tolist() == pytest.approx([0.2, 0.2])
    assert res.example.loc["R̂2"].tolist() == pytest.approx([21 / 45, 21 / 45])
    # var R1 = (r - r^2)/(n/2), Lemma 3.1, at r = 0.8, n = 4.
    cell = res.moments.query("estimator == 'R̂1' and r == 0.8 and n == 4").iloc[0]
    assert cell["variance (closed form)"] == pytest.approx(0.16 / 2)
    assert cell["exact variance"] == pytest.approx(0.16 / 2)
    c, values = section3.section3_claims(res)
    assert set(c.frame()["verdict"]) == {HOLDS}
    assert values["literal_negative"] > 0  # the printed Theorem 3.1 gives negative "variances"


def test_section3_claims_follow_the_checks():
    res = section3.section3(scale="smoke", check_r=[0.5, 1.0], check_n=[2, 4], n_random_estimators=5, write=False)
    res.checks["theorem32"] = False
    c, _ = section3.section3_claims(res)
    assert c.verdicts()["theorem32_holds"] == NOT_HOLDS


# --- table1 --------------------------------------------------------------------------------------------------------

def test_table1_reproduces_the_committed_table():
    res = table1.table1(write=False)
    committed = _committed("table1")
    pd.testing.assert_frame_equal(res.reproduced.drop(columns="source"), committed.drop(columns="source"),
                                  check_exact=False, rtol=1e-8, check_dtype=False)
    part = res.side_by_side("source 1 Type I")["source 1 Type I"]
    assert list(part.index) == res.order
    assert np.allclose(part["difference"], part["reproduced"] - part["published"])


def _fake_table1(type1_runs, nr2_sorted=0.85, n=1000):
    """A Table1 whose every scheme meets its claim, with chosen values for two of them."""
    summaries = {}
    type1 = {"resampling": 0.15, "cv": 0.11, "all": 0.55, "folds": 0.59, "runs": type1_runs, "sorted_runs": 0.04}
    power = {"resampling": 0.5, "cv": 0.5, "all": 0.9, "folds": 0.9, "runs": 0.9, "sorted_runs": 0.3}
    nr2 = {"resampling": 0.3, "cv": 0.4, "all": 0.6, "folds": 0.6, "runs": 0.6, "sorted_runs": nr2_sorted}
    for test, scheme in table1.TABLE1_ROWS:
        rate = np.array([type1[scheme], power[scheme], power[scheme], 1.0])
        if test != "signed_rank":
            rate = np.minimum(rate + (0.001 if test == "t" else 0.0), 1.0)
        value = nr2[scheme] + {"signed_rank": 0.0, "sign": -0.05, "t": 0.01}[test]
        summaries[test, scheme] = {"rejection": rate, "normalized_r2": np.full(4, value),
                                   "normalized_r2_halfwidth": np.full(4, 0.02), "rejection_halfwidth": np.zeros(4)}
    both = pd.DataFrame({"value_pct_published": [1.0], "value_pct_reproduced": [2.0], "difference": [1.0]})
    return table1.Table1(pd.DataFrame(), both, summaries, n, 0.05)


def test_table1_claims_apply_the_binomial_tolerance():
    # 2 SE of a rate at 50% over 1000 data sets: 2 * sqrt(0.25 / 1000) = 3.16 points.
    assert table1.table1_claims(_fake_table1(0.52))[0].verdicts()["claim_over_half"] == HOLDS
    assert table1.table1_claims(_fake_table1(0.485))[0].verdicts()["claim_over_half"] == WITHIN
    assert table1.table1_claims(_fake_table1(0.46))[0].verdicts()["claim_over_half"] == NOT_HOLDS
    # The normalized replicability's SE is its 95% half-width over t_{0.975}(999): 2 / 1.962 points.
    verdicts = table1.table1_claims(_fake_table1(0.52, nr2_sorted=0.79))[0].verdicts()
    assert verdicts["claim_sorted_80"] == WITHIN
    assert table1.table1_claims(_fake_table1(0.52, nr2_sorted=0.77))[0].verdicts()["claim_sorted_80"] == NOT_HOLDS
    assert verdicts["claim_test_order"] == HOLDS and verdicts["claim_t_above_rank"] == HOLDS


# --- sweep ---------------------------------------------------------------------------------------------------------

def test_sweep_reproduces_the_committed_table_and_judges_by_rate_se():
    res = sweep.sweep(write=False)
    committed = _committed("section4_sweep")
    assert np.allclose(res.frame["type1_excess_pct"], committed["type1_excess_pct"], rtol=1e-8)
    c, values = sweep.sweep_claims(res)
    frame = res.frame[res.frame["factor"] == "learner"]
    worst = float(frame["type1_excess_pct"].max())
    # The learner factor: over the bound of 1 point, by less than 2 SE of a rate at 6% over 1000 data sets.
    assert 1.0 < worst <= 1.0 + 200 * rate_se(0.06, 1000)
    assert values["type1_learner"] == WITHIN
    # Paired steps of the run sweep: the same data sets at every number of runs.
    step = res.runs_per_dataset[1, "t", 20] - res.runs_per_dataset[1, "t", 10]
    part = res.by_factor["runs_all"].query("data_source == 1 and test == 't'").set_index("setting")["norm_r2_pct"]
    assert 100 * step.mean() == pytest.approx(part[20] - part[10])


# --- table2 --------------------------------------------------------------------------------------------------------

def test_table2_reproduces_the_committed_table_and_its_means():
    res = table2.table2(write=False)
    committed = _committed("table2")
    assert res.reproduced["value"].tolist() == pytest.approx(committed["value"].tolist())
    c, values = table2.table2_claims(res)
    # The per-cell route of the claims and consistency_table's route give the same means.
    overall = res.norm.set_index(["test", "pair"])["normalized"]
    for test in table2.TABLE2_TESTS:
        assert values[f"overall_{test}"] == pytest.approx(round(overall[test, "all"], 1))
    # R2 of one cell from its draws k: [k(k-1) + (10-k)(9-k)] / 90, as replicability_r2 on the outcomes.
    k = 3
    outcomes = np.array([0] * k + [1] * (10 - k))
    assert table2.normalized((k * (k - 1) + (10 - k) * (9 - k)) / 90) == pytest.approx(
        100 * (2 * replicability_r2(outcomes) - 1))
    published = read_published("bouckaert2004", "table2")
    assert values["cells_total"] == published.query("row != 'mean_normalized_r2_pct'")["row"].nunique() * 9
