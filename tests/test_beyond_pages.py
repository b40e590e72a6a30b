"""Tests of the page functions of the part Beyond the papers (what its three notebooks show).

``bayesian_page`` and ``many_learners_page`` (replicability.papers.beyond) and
``cv_intervals_page`` (replicability.papers.beyond.cv_intervals). Values the text quotes are
checked against the tables they come from, recomputed here from the results by other
means (loops, scipy, the formulas of the papers); files the pages write go to a
temporary folder and are compared with the committed ones, which the notebooks wrote
before their computation moved into the package.
"""

import math
from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd
import pytest
from scipy import stats

from replicability.papers.beyond import (
    DEMSAR_LEARNERS,
    bayesian_page,
    demsar_worked_example,
    many_learners_page,
    per_pair_tests,
    uci_correlated_comparisons,
)
from replicability.papers.beyond.cv_intervals import cached_coverage, coverage_table, cv_intervals_page
from replicability.papers.shared.uci_outcomes import PAIR_LABELS, uci_test_outcomes
from replicability.papers.shared.uci_runs import uci_scheme_results
from replicability.report.claims import HOLDS, NOT_HOLDS, WITHIN, se_multiple
from replicability.report.page import Table, format_number
from replicability.report.tables import read_published

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "data" / "reproduced"


@pytest.fixture(scope="module")
def results():
    return uci_scheme_results("cv")


@pytest.fixture
def reproduced_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path))
    return tmp_path


def _same_as_committed(folder, name):
    """The file ``<name>.csv`` written under ``folder`` equals the committed ``data/reproduced/<name>.csv``."""
    written = (folder / f"{name}.csv").read_text()
    assert written == (COMMITTED / f"{name}.csv").read_text(), f"{name}.csv differs from the committed file"


# ------------------------------------------------------------------ bayesian_page
@pytest.fixture(scope="module")
def bayes(results):
    return bayesian_page(results, n_draws=2000, rng=3, headline=2)


def test_bayesian_page_counts_are_those_of_the_headline_randomization(results, bayes):
    first = uci_correlated_comparisons(results).xs(2, level="repeat")
    values = bayes.values

    def count(bayesian, ttest):
        return int(((first["bayesian"] == bayesian) & (first["ttest"] == ttest)).sum())

    assert values["n_pairs"] == len(first) == 81
    assert values["both_a"] == count("A better", "A better") and values["both_b"] == count("B better", "B better")
    assert values["same_direction"] == values["both_a"] + values["both_b"]
    assert values["undecided_nodiff"] == count("undecided", "no difference")
    assert values["equivalent_all"] == int((first["bayesian"] == "equivalent").sum())
    assert values["t_only"] == count("undecided", "A better") + count("undecided", "B better")
    assert values["bayes_only"] == count("A better", "no difference") + count("B better", "no difference")
    assert values["opposite"] == count("A better", "B better") + count("B better", "A better")
    assert bayes.tables["comparisons"].frame.shape == (81, 6)
    assert bayes.data["sizes"] == dict(results["correct"].sizes)


def test_bayesian_page_stability_counts_decisions_that_never_change(bayes):
    comparisons = bayes.data["comparisons"]
    for key, column in (("bayes", "bayesian"), ("t", "ttest")):
        same = [len(set(group)) == 1 for _, group in comparisons[column].groupby(level=["dataset", "pair"])]
        assert bayes.values[f"{key}_consistent"] == sum(same)
        assert bayes.values[f"{key}_changes"] == len(same) - sum(same)
        assert 0 <= bayes.values[f"{key}_r2"] <= 1


def test_bayesian_page_signed_rank_values_are_the_headline_rows(bayes):
    signed_rank = bayes.data["signed_rank"]
    row = signed_rank.loc[("NaiveBayes-J48", 2)]
    assert bayes.values["sr_NB_vs_C45_p_b_better"] == round(float(row["p_b_better"]), 3)
    assert bayes.values["sr_NB_vs_C45_decision"] == row["bayesian"]
    ranges = [signed_rank.xs(pair)[c].max() - signed_rank.xs(pair)[c].min() for pair in PAIR_LABELS
              for c in ("p_a_better", "p_equivalent", "p_b_better")]
    assert bayes.values["sr_max_range"] == round(float(max(ranges)), 3)
    assert bayes.values["sr_n_tests"] == 30
    assert bayes.values["seed_shown"] == 3 and bayes.values["n_draws_shown"] == 2000
    assert set(bayes.tables) == {"comparisons", "agreement", "stability", "signed_rank", "spread"}
    assert all(isinstance(t, Table) for t in bayes.tables.values())


def test_bayesian_page_draws_one_triangle_per_pair(bayes):
    import matplotlib.pyplot as plt

    fig = bayes.figures["simplex"]()
    assert len(fig.axes) == 3
    assert [ax.get_title() for ax in fig.axes] == [f"{label} (rope 0.01)" for label in PAIR_LABELS.values()]
    plt.close(fig)


def test_bayesian_page_at_a_small_scale_and_its_checks(results):
    small = results.isel(dataset=slice(0, 3), repeat=slice(0, 2))
    page = bayesian_page(small, n_draws=500)
    assert page.values["n_pairs"] == 9 and page.values["sr_n_tests"] == 6
    assert page.claims.frame().empty
    with pytest.raises(ValueError, match="`headline` must be one of the randomizations"):
        bayesian_page(small, headline=5)
    with pytest.raises(ValueError, match="`headline`"):
        bayesian_page(small, headline=True)
    with pytest.raises(ValueError, match="`rope`"):
        bayesian_page(small, rope=-0.1)


# ------------------------------------------------------------------ many_learners_page
def _demsar_ranks():
    table = read_published("demsar2006", "table6")
    return table.pivot(index="dataset", columns="learner", values="rank")[list(DEMSAR_LEARNERS)].to_numpy()


def test_demsar_worked_example_against_the_formulas_of_section_3_2_2():
    ranks = _demsar_ranks()
    n, k = ranks.shape
    mean = ranks.mean(axis=0)
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(mean**2) - k * (k + 1) ** 2 / 4)
    ff = (n - 1) * chi2 / (n * (k - 1) - chi2)
    cd = {a: stats.studentized_range.ppf(1 - a, k, np.inf) / math.sqrt(2) * math.sqrt(k * (k + 1) / (6 * n))
          for a in (0.05, 0.10)}
    se = math.sqrt(k * (k + 1) / (6 * n))
    example = demsar_worked_example()
    value = example.fillna({"learner": "", "alpha": 0.0}).set_index(["quantity", "learner", "alpha"])["value"]
    assert value[("friedman_chi2", "", 0.0)] == round(chi2, 4)
    assert value[("iman_davenport_f", "", 0.0)] == round(ff, 4)
    for a in (0.05, 0.10):
        assert value[("nemenyi_cd", "", a)] == pytest.approx(cd[a], abs=5e-5)
    for j, name in enumerate(DEMSAR_LEARNERS):
        assert value[("average_rank", name, 0.0)] == round(mean[j], 4)
        if j:
            z = (mean[0] - mean[j]) / se
            assert value[("control_z", name, 0.0)] == pytest.approx(z, abs=5e-5)
            assert value[("control_p", name, 0.0)] == pytest.approx(2 * stats.norm.sf(abs(z)), abs=5e-5)


def test_per_pair_tests_count_the_corrected_test_and_run_wilcoxon(results):
    table = per_pair_tests(results, repeat=1)
    outcomes = uci_test_outcomes(results, "corrected_repeated_cv", alpha=0.05)
    accuracy = (results["correct"] / results["n_test"]).mean(("run", "fold")).isel(repeat=1)
    for pair, label in PAIR_LABELS.items():
        a, _, b = pair.partition("-")
        o = outcomes.sel(pair=pair).transpose("dataset", "repeat").values
        row = table.loc[label]
        assert row["A better (data sets)"] == int((o[:, 1] == 1).sum())
        assert row["B better (data sets)"] == int((o[:, 1] == -1).sum())
        assert row["no difference (data sets)"] == int((o[:, 1] == 0).sum())
        assert row["consistent over randomizations"] == int(sum(len(set(r)) == 1 for r in o))
        x, y = accuracy.sel(learner=a).values, accuracy.sel(learner=b).values
        ref = stats.wilcoxon(x, y, zero_method="wilcox", correction=False, method="approx")
        assert row["p"] == pytest.approx(ref.pvalue, abs=5e-4)
    with pytest.raises(ValueError, match="`repeat` must be an integer"):
        per_pair_tests(results, repeat=10)
    with pytest.raises(ValueError, match="`alpha`"):
        per_pair_tests(results, alpha=1.5)


def test_many_learners_page_writes_the_committed_files_and_quotes_its_tables(results, reproduced_dir):
    page = many_learners_page(results)
    _same_as_committed(reproduced_dir, "demsar2006/worked_example")
    _same_as_committed(reproduced_dir, "claims/beyond/02_many_learners")
    assert page.claims.verdicts() == {"demsar_statistics": HOLDS}
    # Friedman on the first randomization's ranks, by hand (no tie correction, as Demšar)
    accuracy = (results["correct"] / results["n_test"]).mean(("run", "fold")).isel(repeat=0)
    scores = np.round(accuracy.transpose("dataset", "learner").values, 12)
    ranks = np.apply_along_axis(stats.rankdata, 1, -scores)
    n, k = ranks.shape
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(ranks.mean(axis=0) ** 2) - k * (k + 1) ** 2 / 4)
    assert page.values["chi2"] == round(chi2, 3) and page.values["n_datasets"] == n
    ff = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert page.values["ff"] == round(ff, 3) and page.values["ff_df2"] == (k - 1) * (n - 1)
    assert page.values["ff_p"] == round(stats.f.sf(ff, k - 1, (k - 1) * (n - 1)), 3)
    over = page.tables["over"].frame
    assert page.values["n_rejects"] == int(over["rejects"].sum()) and page.values["n_repeats"] == 10
    per_pair = page.tables["per_pair"].frame
    assert page.values["nbc45_b"] == per_pair.loc["NB vs C4.5", "B better (data sets)"]
    assert page.values["n_significant"] == int(per_pair[["A better (data sets)", "B better (data sets)"]]
                                               .to_numpy().sum())
    assert page.summary.startswith("14 cells compared") and page.summary.endswith("claims held 1 of 1")
    shown = page.tables["worked_example"].frame
    assert (shown["difference"] == (shown["value reproduced"] - shown["value published"]).round(4)).all()


def test_many_learners_page_at_a_small_scale_and_its_checks(results, reproduced_dir):
    small = results.isel(dataset=slice(0, 4), repeat=slice(0, 2))
    page = many_learners_page(small, test="sign")
    assert page.values["n_datasets"] == 4 and page.values["n_repeats"] == 2
    assert page.tables["accuracies"].frame.shape == (4, 6)
    with pytest.raises(ValueError, match="`test` must be one of"):
        many_learners_page(small, test="t")
    with pytest.raises(ValueError, match="`alpha`"):
        many_learners_page(small, alpha=0)


# ------------------------------------------------------------------ cv_intervals_page
def test_cv_intervals_page_quotes_the_coverage_table_and_writes_its_claims(reproduced_dir):
    page = cv_intervals_page()  # the committed paper-scale result
    _same_as_committed(reproduced_dir, "claims/beyond/03_cv_intervals")
    ds = cached_coverage([100, 200], scale="paper", seed=2024, p=20, confidence_level=0.9)
    cov = coverage_table(ds).set_index(["n", "method", "target"])
    for n in (100, 200):
        for method in ("naive", "corrected", "nested"):
            for target in ("Err_XY", "Err"):
                # the text quotes the number the coverage table shows
                shown = format_number(cov.loc[(n, method, target), "coverage"], 3)
                assert f"{page.values[f'cov_{method}_{target}_{n}']:.3f}" == shown
        sel = ds.sel(n=n)
        assert page.values[f"corr_{n}"] == round(float(np.corrcoef(sel["cv_estimate"], sel["err_xy"])[0, 1]), 3)
    assert page.values["n_sets"] == 2000 and page.values["level_pct"] == 90
    # 200 nested repetitions of 10 folds: 55 models per repetition, then 40 bias runs of 10
    assert page.values["nested_fits"] == "11,400" and page.values["cost_ratio"] == "1,140"
    assert page.summary == f"2000 data sets per n; nested cv with 200 repetitions; {page.claims.summary()}"


def _judge(margins, tolerance):
    if np.all(margins >= 0):
        return HOLDS
    return WITHIN if np.all(margins >= -tolerance) else NOT_HOLDS


def test_cv_intervals_page_verdicts_follow_the_claims_rule_at_smoke_scale(reproduced_dir, tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))
    page = cv_intervals_page([30, 40], scale="smoke", p=3)
    cov = page.data["coverage"].set_index(["n", "method", "target"])
    z = se_multiple(2)
    naive = cov.loc[[(n, "naive", "Err_XY") for n in (30, 40)]]
    nested = cov.loc[[(n, "nested", "Err_XY") for n in (30, 40)]]
    assert page.values["verdict_naive"] == _judge(0.9 - naive["coverage"].to_numpy(), z * naive["mc_se"].to_numpy())
    assert page.values["verdict_nested_not_below"] == _judge(nested["coverage"].to_numpy() - 0.9,
                                                             z * nested["mc_se"].to_numpy())
    gap = np.abs(nested["coverage"].to_numpy() - 0.9)
    assert page.values["verdict_nested"] == _judge(-gap, z * nested["mc_se"].to_numpy())
    assert page.values["n_sets"] == 40 and page.values["tolerance_multiple"] == round(z, 2)
    assert set(page.figures) == {"coverage"} and set(page.tables) == {"coverage", "diagnostics"}


def test_cv_intervals_page_checks_its_parameters():
    for kwargs, name in [({"scale": "huge"}, "scale"), ({"confidence_level": 1.5}, "confidence_level"),
                         ({"p": 0}, "p"), ({"ns": [0]}, "ns")]:
        with pytest.raises(ValueError, match=f"`{name}`"):
            cv_intervals_page(**kwargs)


def test_beyond_keeps_its_public_names():
    import replicability.papers.beyond as beyond

    for name in beyond.__all__:
        assert getattr(beyond, name) is not None
    assert isinstance(beyond.labelled(pd.DataFrame(columns=["p_a_better"])), pd.DataFrame)
