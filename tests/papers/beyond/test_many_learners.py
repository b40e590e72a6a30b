"""Tests of replicability.papers.beyond.many_learners (the notebook beyond/02_many_learners).

Demšar's worked example against the formulas of his Section 3.2.2, the per-pair tests by
a loop and scipy, and the page: the files ``page.write()`` writes go to a temporary
folder and are compared with the committed ones.
"""

import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from replicability.papers.beyond import DEMSAR_LEARNERS, demsar_worked_example, many_learners_page, per_pair_tests
from replicability.papers.shared.uci_outcomes import PAIR_LABELS, uci_test_outcomes
from replicability.report.claims import HOLDS
from replicability.report.tables import read_published

ROOT = Path(__file__).resolve().parents[3]
COMMITTED = ROOT / "data" / "reproduced"


def _same_as_committed(folder, name):
    """The file ``<name>.csv`` written under ``folder`` equals the committed ``data/reproduced/<name>.csv``."""
    written = (folder / f"{name}.csv").read_text()
    assert written == (COMMITTED / f"{name}.csv").read_text(), f"{name}.csv differs from the committed file"


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
    assert not any(reproduced_dir.iterdir())  # nothing is written before page.write()
    page.write()
    assert {p.relative_to(reproduced_dir).as_posix() for p in reproduced_dir.rglob("*.csv")} == {
        "demsar2006/worked_example.csv", "claims/beyond/02_many_learners.csv"}
    _same_as_committed(reproduced_dir, "demsar2006/worked_example")
    _same_as_committed(reproduced_dir, "claims/beyond/02_many_learners")
    assert page.claims.verdicts() == {"demsar_statistics": HOLDS}
    # Friedman on the first randomization's ranks, by hand (its rows have no ties: the tie correction is 1)
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


def test_many_learners_page_beyond_nemenyi(results):
    from replicability.stats.incomplete import skillings_mack_test
    from replicability.stats.pairwise import pairwise_test

    page = many_learners_page(results)
    accuracy = (results["correct"] / results["n_test"]).mean(("run", "fold")).isel(repeat=0)
    scores = np.round(accuracy.transpose("dataset", "learner").values, 12)
    multi = page.tables["multi_comparison"].frame
    holm = pairwise_test(scores).adjusted_pvalue[np.triu_indices(3, 1)]
    np.testing.assert_allclose(multi["Holm pvalue"], holm, rtol=1e-12)
    assert page.values["n_pairwise_differ"] == int(np.sum(holm < 0.05))
    gappy = scores.copy()
    gappy[np.random.default_rng(38).random(gappy.shape) < 0.15] = np.nan
    assert page.values["n_removed"] == int(np.isnan(gappy).sum()) and page.values["inc_test"] == "Skillings-Mack"
    assert page.values["inc_p"] == round(float(skillings_mack_test(gappy).pvalue), 3)
    hierarchical = page.tables["hierarchical"].frame
    assert list(hierarchical.index) == ["NB vs C4.5", "NB vs NN", "C4.5 vs NN"]
    for pair, res in page.data["hierarchical"].items():
        assert hierarchical.loc[pair, "decision"] == res.decision()
        assert (hierarchical.loc[pair, "converged"] == "yes") == (max(res.rhat.values()) < 1.05)
