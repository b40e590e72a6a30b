"""Tests of replicability.comparison.k_learners: k learners on one data set.

The reference is scikit-learn's gallery example "Statistical comparison of models
using grid search" (examples/model_selection/plot_grid_search_stats.py): four SVC
kernels scored by ROC AUC under 10 x 10 stratified cv, every pair tested by the
corrected t-test with Bonferroni's correction, one pair by the Bayesian t posterior.
Its procedure is re-derived here with scipy on its own scores.
"""

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_iris, make_moons
from sklearn.model_selection import GridSearchCV, RepeatedStratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

import replicability as rp


@pytest.fixture(scope="module")
def gallery():
    X, y = make_moons(noise=0.352, random_state=1, n_samples=100)
    grid = [{"kernel": ["linear"]}, {"kernel": ["poly"], "degree": [2, 3]}, {"kernel": ["rbf"]}]
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
    search = GridSearchCV(SVC(random_state=0), grid, scoring="roc_auc", cv=cv).fit(X, y)
    res = search.cv_results_
    names = [p["kernel"] + (f"_{p['degree']}" if "degree" in p else "") for p in res["params"]]
    scores = {name: np.array([res[f"split{i}_test_score"][m] for i in range(100)]) for m, name in enumerate(names)}
    train, test = next(cv.split(X, y))
    return scores, len(train), len(test)


def _gallery_ttest(a, b, n_train, n_test):
    """The gallery's corrected t-test: variance of the differences times 1/n + n_test/n_train, df n - 1."""
    d = a - b
    se = np.sqrt(np.var(d, ddof=1) * (1 / d.size + n_test / n_train))
    t = d.mean() / se
    return t, 2 * stats.t.sf(abs(t), d.size - 1), se


def test_gallery_pairs_and_bonferroni_step(gallery):
    scores, n_train, n_test = gallery
    res = rp.compare_scores(scores, scheme="10x10cv", n_train=n_train, n_test=n_test, correction="bonferroni")
    frame = res.to_frame()
    m = len(scores) * (len(scores) - 1) / 2
    assert len(frame) == m == 6
    for (a, b), row in frame.iterrows():
        t, p, _ = _gallery_ttest(scores[a], scores[b], n_train, n_test)
        assert row["statistic"] == pytest.approx(t, rel=1e-12, abs=1e-12)
        assert row["pvalue"] == pytest.approx(p, rel=1e-10, abs=1e-14)
        assert row["pvalue bonferroni"] == pytest.approx(min(1.0, p * m), rel=1e-10, abs=1e-14)


def test_gallery_holm_step_is_statsmodels(gallery):
    from statsmodels.stats.multitest import multipletests

    scores, n_train, n_test = gallery
    res = rp.compare_scores(scores, scheme="10x10cv", n_train=n_train, n_test=n_test)
    frame = res.to_frame()
    reject, adjusted, *_ = multipletests(frame["pvalue"].to_numpy(), alpha=0.05, method="holm")
    assert np.allclose(frame["pvalue holm"], adjusted, rtol=1e-12, atol=0)
    assert ((frame["decision"] != "no difference").to_numpy() == reject).all()


def test_gallery_bayesian_rope_probability(gallery):
    # the gallery's posterior for rbf against linear: t(df, mean, corrected se), rope (-0.01, 0.01)
    scores, n_train, n_test = gallery
    res = rp.compare_scores({"rbf": scores["rbf"], "linear": scores["linear"]}, scheme="10x10cv",
                            n_train=n_train, n_test=n_test, rope=0.01)
    d = scores["rbf"] - scores["linear"]
    _, _, se = _gallery_ttest(scores["rbf"], scores["linear"], n_train, n_test)
    post = stats.t(d.size - 1, loc=d.mean(), scale=se)
    row = res.to_frame().loc[("rbf", "linear")]
    assert row["P(first better)"] == pytest.approx(post.sf(0.01), abs=1e-12)
    assert row["P(equivalent)"] == pytest.approx(post.cdf(0.01) - post.cdf(-0.01), abs=1e-12)
    assert row["P(second better)"] == pytest.approx(post.cdf(-0.01), abs=1e-12)


X, Y = load_iris(return_X_y=True)
LEARNERS = {"nb": GaussianNB(), "tree": DecisionTreeClassifier(), "knn": KNeighborsClassifier(3)}


@pytest.fixture(scope="module")
def three():
    return rp.compare(LEARNERS, X, Y, scheme="2x5cv", n_repeats=4, rng=11)


def test_every_pair_is_the_two_learner_analysis_of_its_scores(three):
    labels = list(LEARNERS)
    for (a, b), res in three.pairs.items():
        i, j = labels.index(a), labels.index(b)
        assert np.array_equal(res.scores_a, three.scores[..., i]) and np.array_equal(res.scores_b, three.scores[..., j])
        again = rp.compare_scores(res.scores_a, res.scores_b, scheme="2x5cv", n_train=res.n_train, n_test=res.n_test)
        assert np.array_equal(again.pvalues[again.recommended], res.pvalues[res.recommended])


def test_the_first_pair_is_compare_of_the_first_two(three):
    # same rng: same splits, and the first two learners get A's and B's seeds
    two = rp.compare(LEARNERS["nb"], LEARNERS["tree"], X, Y, scheme="2x5cv", n_repeats=4, rng=11)
    pair = three.pair("nb", "tree")
    assert np.array_equal(pair.scores_a, two.scores_a) and np.array_equal(pair.scores_b, two.scores_b)
    assert pair.summary() == two.summary()


def test_workers_do_not_change_the_result(three):
    again = rp.compare(LEARNERS, X, Y, scheme="2x5cv", n_repeats=4, rng=11, n_jobs=2)
    assert np.array_equal(again.scores, three.scores) and again.to_dict() == three.to_dict()


def test_a_list_is_named_by_class_and_made_unique():
    res = rp.compare([KNeighborsClassifier(1), KNeighborsClassifier(5), GaussianNB()], X, Y, scheme="1x5cv",
                     n_repeats=2, rng=0)
    assert res.learners == ["KNeighborsClassifier", "KNeighborsClassifier 2", "GaussianNB"]


@pytest.mark.parametrize("call,error,match", [
    (lambda: rp.compare([GaussianNB()], X, Y), ValueError, "at least 2"),
    (lambda: rp.compare({"a": GaussianNB(), "b": "tree"}, X, Y), ValueError, "scikit-learn estimators"),
    (lambda: rp.compare(LEARNERS, X, Y, Y), TypeError, "extra positional"),
    (lambda: rp.compare(GaussianNB(), GaussianNB(), X), TypeError, "needs y"),
    (lambda: rp.compare(LEARNERS, X, Y, correction="sidak"), ValueError, "correction"),
    (lambda: rp.compare(LEARNERS, X, Y, scoring=["accuracy", "f1_macro"]), ValueError, "two learners only"),
    (lambda: rp.compare_scores({"a": np.ones(10)}, scheme="2x5cv", n_train=8, n_test=2), ValueError, "at least 2"),
    (lambda: rp.compare_scores({"a": np.ones(10), "b": np.ones(10), "c": np.ones(8)}, scheme="2x5cv", n_train=8,
                               n_test=2), ValueError, "'c'"),
    (lambda: rp.compare_scores({"a": np.ones(10), "b": np.ones(10)}, np.ones(10), scheme="2x5cv", n_train=8,
                               n_test=2), TypeError, "no `y`"),
])
def test_bad_calls_are_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()
