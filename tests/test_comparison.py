"""Tests of rp.compare and rp.compare_scores: the one-call comparison of two learners."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.datasets import load_iris, make_regression
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.model_selection import RepeatedStratifiedKFold, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

import replicability as rp
from replicability._validation import sklearn_seed
from replicability.engine.splits import RandomSubsampling, RepeatedCV
from replicability.stats.measures import replicability_r2
from replicability.stats.ttests import corrected_repeated_cv_ttest, corrected_resampled_ttest

X, Y = load_iris(return_X_y=True)
A, B = GaussianNB(), DecisionTreeClassifier(random_state=0)


def _seeds(rng, n):
    return [sklearn_seed(g) for g in np.random.default_rng(rng).spawn(n)]


def _loop(splitter_of, seeds, X=X, y=Y, a=A, b=B):
    """Scores (repeats, splits, 2) by a plain loop over the same splits."""
    out = []
    for seed in seeds:
        rows = []
        for train, test in splitter_of(seed).split(X, y):
            rows.append([clone(m).fit(X[train], y[train]).score(X[test], y[test]) for m in (a, b)])
        out.append(rows)
    return np.array(out)


@pytest.fixture(scope="module")
def cv_result():
    return rp.compare(A, B, X, Y, scheme="3x5cv", n_repeats=4, rng=7)


def test_compare_equals_a_hand_built_loop_bit_for_bit(cv_result):
    seeds = _seeds(7, 4)
    assert cv_result.seeds == seeds
    scores = _loop(lambda s: RepeatedCV(3, 5, stratified=True, random_state=s), seeds)
    np.testing.assert_array_equal(cv_result.scores_a, scores[..., 0].reshape(4, 3, 5))
    np.testing.assert_array_equal(cv_result.scores_b, scores[..., 1].reshape(4, 3, 5))
    d = scores[..., 0] - scores[..., 1]
    want = corrected_repeated_cv_ttest(d[0].reshape(3, 5), n_train=120, n_test=30)
    got = cv_result.tests["corrected repeated cv t"]
    assert (float(got.statistic), float(got.pvalue), float(got.df)) == (
        float(want.statistic), float(want.pvalue), float(want.df))
    assert cv_result.recommended == "corrected repeated cv t"
    assert cv_result.mean_difference == float(d[0].mean())


def test_replicability_is_r2_of_the_decisions(cv_result):
    outcomes = cv_result.decisions["corrected repeated cv t"]
    assert outcomes.shape == (4,)
    assert cv_result.replicability()["r2"] == float(replicability_r2(outcomes))
    assert cv_result.decision == int(outcomes[0])


def test_interval_excludes_zero_exactly_when_the_test_rejects():
    for rng in range(6):
        res = rp.compare_scores(np.random.default_rng(rng).normal(0.01, 0.02, (4, 5)), np.zeros((4, 5)),
                                scheme="4x5cv", n_train=80, n_test=20)
        low, high = res.confidence_interval(0.95)
        assert (low > 0 or high < 0) == (float(res.tests[res.recommended].pvalue) < 0.05)


def test_compare_scores_on_cross_validate_equals_compare():
    res = rp.compare(A, B, X, Y, scheme="2x5cv", n_repeats=2, rng=3)
    seed = res.seeds[0]
    cv = RepeatedCV(2, 5, stratified=True, random_state=seed)
    a = cross_validate(A, X, Y, cv=cv)["test_score"]
    b = cross_validate(B, X, Y, cv=cv)["test_score"]
    again = rp.compare_scores(a, b, scheme="2x5cv", n_train=120, n_test=30)
    np.testing.assert_array_equal(again.scores_a[0], res.scores_a[0])
    for name, test in res.tests.items():
        assert float(again.tests[name].pvalue) == float(test.pvalue)


def test_compare_scores_reads_sklearn_repeated_stratified_kfold_run_major():
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=3, random_state=0)
    a = cross_validate(A, X, Y, cv=cv)["test_score"]
    b = cross_validate(B, X, Y, cv=cv)["test_score"]
    res = rp.compare_scores(a, b, scheme="3x5cv", n_train=120, n_test=30)
    np.testing.assert_array_equal(res.scores_a[0], a.reshape(3, 5))
    assert res.n_repeats == 1 and res.warning is None


def test_resampling_uses_the_corrected_resampled_test():
    res = rp.compare(A, B, X, Y, scheme="resampling", n_runs=6, test_size=0.2, n_repeats=2, rng=1)
    seeds = _seeds(1, 2)
    scores = _loop(lambda s: RandomSubsampling(6, test_size=0.2, stratified=True, random_state=s), seeds)
    np.testing.assert_array_equal(res.scores_a[..., 0], scores[..., 0])
    want = corrected_resampled_ttest(scores[0, :, 0] - scores[0, :, 1], n_train=120, n_test=30)
    assert res.recommended == "corrected resampled t"
    assert float(res.tests[res.recommended].pvalue) == float(want.pvalue)


def test_five_by_two_reports_dietterich_and_alpaydin():
    res = rp.compare(A, B, X, Y, scheme="5x2cv", n_repeats=2, rng=0)
    assert {"5x2cv t", "5x2cv F"} <= set(res.tests)
    assert set(res.to_frame().index) == set(res.tests)


def test_regressors_and_scoring_names():
    Xr, yr = make_regression(80, 5, noise=10.0, random_state=0)
    res = rp.compare(LinearRegression(), Ridge(alpha=50.0), Xr, yr, scheme="2x5cv", n_repeats=2,
                     scoring="neg_mean_absolute_error", rng=0)
    assert res.scoring == "neg_mean_absolute_error"
    assert res.scores_a.shape == (2, 2, 5) and np.all(res.scores_a <= 0)


def test_parallel_and_dask_give_the_serial_result(cv_result):
    par = rp.compare(A, B, X, Y, scheme="3x5cv", n_repeats=4, rng=7, n_jobs=2)
    np.testing.assert_array_equal(par.scores_a, cv_result.scores_a)
    np.testing.assert_array_equal(par.scores_b, cv_result.scores_b)
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                                  dashboard_address=None) as cluster, distributed.Client(cluster):
        res = rp.compare(A, B, X, Y, scheme="3x5cv", n_repeats=4, rng=7, backend="dask")
    np.testing.assert_array_equal(res.scores_a, cv_result.scores_a)
    np.testing.assert_array_equal(res.scores_b, cv_result.scores_b)


def test_warning_names_the_disagreeing_randomizations():
    x = np.zeros((4, 2, 5))
    x[0] += 0.05  # one randomization strongly favours A, the others see nothing
    x[0, 0, 0] = 0.06
    res = rp.compare_scores(x, np.zeros_like(x), scheme="2x5cv", n_train=80, n_test=20)
    assert res.decisions[res.recommended].tolist() == [1, 0, 0, 0]
    assert "1 say A better" in res.warning and "3 say no difference" in res.warning
    assert "WARNING" in res.summary()


def test_summary_repr_and_frame_are_plain():
    res = rp.compare_scores(np.full(10, 0.9) + np.arange(10) / 1000, np.full(10, 0.9), scheme="2x5cv",
                            n_train=90, n_test=10)
    assert "np.float64" not in str(res) and "np.float64" not in repr(res)
    frame = res.to_frame()
    assert frame.loc[res.recommended, "decision"] == "A better"
    assert "<table" in res._repr_html_()


def test_scores_frame_labels_every_split(cv_result):
    frame = cv_result.scores_frame()
    assert len(frame) == 4 * 3 * 5
    row = frame.iloc[-1]
    assert (row["repeat"], row["run"], row["fold"]) == (3, 2, 4)
    assert row["A"] == cv_result.scores_a[3, 2, 4] and row["A - B"] == cv_result.differences[3, 2, 4]


def test_plot_draws_two_panels():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    res = rp.compare_scores(np.random.default_rng(0).normal(0, 0.01, (3, 2, 5)), np.zeros((3, 2, 5)),
                            scheme="2x5cv", n_train=90, n_test=10)
    axes = res.plot()
    assert axes.shape == (2,)
    import matplotlib.pyplot as plt

    plt.close("all")


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"scheme": "10-fold"}, "`scheme` must be 'RxKcv'"),
    ({"scheme": "1x1cv"}, "`scheme` must have at least"),
    ({"n_repeats": 1}, "`n_repeats`"),
    ({"alpha": 1.5}, "`alpha`"),
    ({"n_jobs": 0}, "`n_jobs`"),
    ({"backend": "spark"}, "`backend`"),
    ({"scheme": "resampling", "test_size": 2.0}, "`test_size`"),
])
def test_compare_rejects_bad_options(kwargs, match):
    with pytest.raises(ValueError, match=match):
        rp.compare(A, B, X, Y, **kwargs)


def test_compare_rejects_mismatched_data():
    with pytest.raises(ValueError, match="`X` must be 2-d"):
        rp.compare(A, B, X[:, 0], Y)
    with pytest.raises(ValueError, match="one label per row"):
        rp.compare(A, B, X, Y[:-1])


def test_compare_scores_rejects_bad_shapes_and_values():
    with pytest.raises(ValueError, match=r"`x` must hold 2 x 5 scores"):
        rp.compare_scores(np.zeros(9), np.zeros(9), scheme="2x5cv", n_train=9, n_test=1)
    with pytest.raises(ValueError, match="same shape"):
        rp.compare_scores(np.zeros((2, 2, 5)), np.zeros((3, 2, 5)), scheme="2x5cv", n_train=9, n_test=1)
    with pytest.raises(ValueError, match="finite"):
        rp.compare_scores(np.full(10, np.nan), np.zeros(10), scheme="2x5cv", n_train=9, n_test=1)
    with pytest.raises(ValueError, match="`n_train`"):
        rp.compare_scores(np.zeros(10), np.zeros(10), scheme="2x5cv", n_train=0, n_test=1)
    with pytest.raises(ValueError, match="`n_runs`"):
        rp.compare_scores(np.zeros(1), np.zeros(1), scheme="resampling", n_train=9, n_test=1)
