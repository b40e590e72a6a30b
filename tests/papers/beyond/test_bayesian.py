"""Tests of replicability.papers.beyond.bayesian: the Bayesian analyses of the committed UCI results, checked
slice by slice, and the page ``bayesian_page`` (the notebook beyond/01_bayesian_comparisons).

Values the page's text quotes are checked against the tables they come from, recomputed
here from the results by other means (loops, the tests on one slice).
"""

import matplotlib
import numpy as np
import pandas as pd
import pytest

from replicability.papers import beyond
from replicability.papers.beyond import bayesian_page, uci_correlated_comparisons
from replicability.papers.shared.uci_outcomes import PAIR_LABELS
from replicability.report.page import Table
from replicability.stats.bayesian import bayesian_correlated_ttest, bayesian_signed_rank_test
from replicability.stats.ttests import corrected_repeated_cv_ttest

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def comparisons(results):
    return beyond.uci_correlated_comparisons(results)


def _differences(results, dataset, pair, repeat):
    a, _, b = pair.partition("-")
    sel = results.sel(dataset=dataset).isel(repeat=repeat)
    correct = sel["correct"]
    return ((correct.sel(learner=a) - correct.sel(learner=b)) / sel["n_test"]).values, sel


@pytest.mark.parametrize(("dataset", "pair", "repeat"), [
    ("anneal", "NaiveBayes-J48", 0), ("autos", "J48-IB1", 0), ("labor", "NaiveBayes-IB1", 9),
    ("zoo", "J48-IB1", 4), ("vote", "NaiveBayes-IB1", 3),
])
def test_correlated_row_is_the_test_on_that_slice(results, comparisons, dataset, pair, repeat):
    d, sel = _differences(results, dataset, pair, repeat)
    n_train, n_test = float(sel["n_train"].sum()), float(sel["n_test"].sum())
    one = bayesian_correlated_ttest(d, rope=0.01, n_train=n_train, n_test=n_test)
    row = comparisons.loc[(dataset, pair, repeat)]
    assert (row["p_a_better"], row["p_equivalent"], row["p_b_better"]) == pytest.approx(tuple(map(float, one)),
                                                                                        abs=1e-12)
    assert row["bayesian"] == one.decision(0.95)
    t = corrected_repeated_cv_ttest(d, n_train=n_train, n_test=n_test)
    expected = "no difference" if t.pvalue >= 0.05 else ("A better" if t.statistic > 0 else "B better")
    assert row["ttest"] == expected


def test_agreement_table_counts_the_first_randomization(comparisons):
    table = beyond.agreement_table(comparisons, repeat=0)
    first = comparisons.xs(0, level="repeat")
    assert int(table.loc["all", "all"]) == len(first) == 81
    for bayes in ("A better", "equivalent", "B better", "undecided"):
        for t in ("A better", "no difference", "B better"):
            expected = int(((first["bayesian"] == bayes) & (first["ttest"] == t)).sum())
            assert int(table.loc[bayes, t]) == expected
    # the two never decide in opposite directions on these data
    assert int(table.loc["A better", "B better"]) == int(table.loc["B better", "A better"]) == 0
    with pytest.raises(ValueError, match="`repeat` must be one of"):
        beyond.agreement_table(comparisons, repeat=10)
    with pytest.raises(TypeError, match="`comparisons` must be the DataFrame"):
        beyond.agreement_table(first.reset_index())


def test_decision_stability_counts_consistent_pairs_by_a_loop(comparisons):
    table = beyond.decision_stability(comparisons)
    for method, column in (("Bayesian correlated t", "bayesian"), ("corrected t-test", "ttest")):
        consistent = 0
        r2 = []
        for _, group in comparisons[column].groupby(level=["dataset", "pair"]):
            values = group.tolist()
            consistent += len(set(values)) == 1
            agree = sum(values[i] == values[j] for i in range(10) for j in range(i + 1, 10))
            r2.append(agree / 45)
        assert table.loc[method, "consistent"] == consistent
        assert table.loc[method, "changes"] == 81 - consistent
        assert table.loc[method, "mean R2"] == pytest.approx(np.mean(r2))


def test_signed_rank_rows_are_the_test_on_the_dataset_means(results):
    frame, samples = beyond.uci_signed_rank(results, n_draws=3000, rng=5)
    for pair in ("NaiveBayes-J48", "J48-IB1"):
        a, _, b = pair.partition("-")
        acc = (results["correct"] / results["n_test"]).isel(repeat=2).mean(("run", "fold"))
        d = (acc.sel(learner=a) - acc.sel(learner=b)).values
        one = bayesian_signed_rank_test(d, rope=0.01, n_draws=3000, rng=5)
        row = frame.loc[(pair, 2)]
        assert (row["p_a_better"], row["p_equivalent"], row["p_b_better"]) == pytest.approx(
            tuple(map(float, one)), abs=1e-12)
        assert row["mean_difference"] == pytest.approx(d.mean())
        np.testing.assert_allclose(samples.sel(pair=pair, repeat=2).values, one.samples, atol=1e-12)
    spread = beyond.signed_rank_spread(frame)
    assert list(spread.index) == ["NaiveBayes-J48", "NaiveBayes-IB1", "J48-IB1"]
    assert spread.loc["J48-IB1", "p_a_better max"] == frame.xs("J48-IB1")["p_a_better"].max()


def test_plot_simplex_labels_the_regions_with_their_shares():
    import matplotlib.pyplot as plt

    draws = np.array([[0.7, 0.1, 0.2], [0.2, 0.1, 0.7], [0.3, 0.4, 0.3], [0.6, 0.3, 0.1]])
    ax = beyond.plot_simplex(draws, names=("NB", "C4.5"))
    texts = [t.get_text() for t in ax.texts]
    assert "NB better\n0.500" in texts and "C4.5 better\n0.250" in texts and "equivalent 0.250" in texts
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="`samples` must have shape"):
        beyond.plot_simplex(np.ones((4, 2)))


def test_parameters_are_checked(results):
    with pytest.raises(ValueError, match="`rope`"):
        beyond.uci_correlated_comparisons(results, rope=-1)
    with pytest.raises(ValueError, match="`threshold`"):
        beyond.uci_correlated_comparisons(results, threshold=0.3)
    with pytest.raises(ValueError, match="`n_draws`"):
        beyond.uci_signed_rank(results, n_draws=0)
    with pytest.raises(TypeError, match="`frame` must be"):
        beyond.signed_rank_spread(pd.DataFrame({"x": [1]}))


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
    assert set(bayes.tables) == {"sizes", "comparisons", "agreement", "stability", "signed_rank", "spread"}
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
