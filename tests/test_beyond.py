"""The Bayesian analyses of the committed UCI results (rp.papers.beyond), checked slice by slice."""

import matplotlib
import numpy as np
import pandas as pd
import pytest

from replicability.papers import beyond
from replicability.papers.shared.uci_runs import uci_scheme_results
from replicability.stats.bayesian import bayesian_correlated_ttest, bayesian_signed_rank_test
from replicability.stats.ttests import corrected_repeated_cv_ttest

matplotlib.use("Agg")


@pytest.fixture(scope="module")
def results():
    return uci_scheme_results("cv")


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
