"""Tests of rp.compare and rp.compare_scores (replicability.comparison.run): the one-call comparison of two learners."""

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


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"scheme": "10-fold"}, "`scheme` must be 'RxKcv'"),
    ({"scheme": "1x1cv"}, "`scheme` must have at least"),
    ({"n_repeats": 1}, "`n_repeats`"),
    ({"alpha": 1.5}, "`alpha`"),
    ({"n_jobs": 0}, "`n_jobs`"),
    ({"backend": "spark"}, "`backend`"),
    ({"estimator_seeds": "none"}, "`estimator_seeds`"),
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


# --------------------------------------------------------------------------
# a region of practical equivalence: the Bayesian correlated t-test beside the tests
# --------------------------------------------------------------------------
def test_compare_with_rope_reports_the_bayesian_correlated_ttest():
    from replicability.stats.bayesian import bayesian_correlated_ttest

    res = rp.compare(A, B, X, Y, scheme="3x5cv", n_repeats=4, rope=0.01, rng=7)
    assert res.rope == 0.01
    d = res.differences
    expected = bayesian_correlated_ttest(d, rope=0.01, n_train=res.n_train, n_test=res.n_test)
    for got, want in zip(res.bayesian, expected):
        np.testing.assert_array_equal(got, want)
    assert res.bayesian.p_a_better.shape == (4,)
    # the posterior is the recommended test's: same location and scale
    assert float(res.bayesian.estimate[0]) == float(res.tests[res.recommended].estimate)
    assert float(res.bayesian.scale[0]) == float(res.tests[res.recommended].standard_error)
    # the same tests and decisions as without a ROPE
    plain = rp.compare(A, B, X, Y, scheme="3x5cv", n_repeats=4, rng=7)
    assert plain.rope is None and plain.bayesian is None
    assert {k: v.tolist() for k, v in plain.decisions.items()} == {k: v.tolist() for k, v in res.decisions.items()}


def test_compare_scores_rope_zero_is_reported_and_gives_the_one_sided_pvalue():
    rng = np.random.default_rng(4)
    a = rng.normal(0.8, 0.02, (10, 10))
    b = a - 0.004 + rng.normal(0, 0.02, (10, 10))
    res = rp.compare_scores(a, b, scheme="10x10cv", n_train=900, n_test=100, rope=0)
    assert res.rope == 0.0 and "Bayesian correlated t, rope 0:" in res.summary()
    assert float(res.bayesian.p_equivalent[0]) == 0.0
    greater = corrected_repeated_cv_ttest(a, b, n_train=900, n_test=100, alternative="greater")
    assert float(res.bayesian.p_b_better[0]) == pytest.approx(float(greater.pvalue), rel=1e-12)


def test_compare_scores_resampling_with_rope_uses_the_runs():
    from replicability.stats.bayesian import bayesian_correlated_ttest

    rng = np.random.default_rng(5)
    a, b = rng.normal(0.8, 0.02, (3, 15)), rng.normal(0.79, 0.02, (3, 15))
    res = rp.compare_scores(a, b, scheme="resampling", n_train=90, n_test=10, rope=0.01)
    for i in range(3):
        one = bayesian_correlated_ttest(a[i], b[i], rope=0.01, n_train=90, n_test=10)
        assert tuple(float(p[i]) for p in res.bayesian) == tuple(map(float, one))


@pytest.mark.parametrize("rope", [-0.01, "0.01", True, np.nan])
def test_compare_rejects_a_bad_rope_before_fitting(rope):
    with pytest.raises(ValueError, match="`rope` must be a non-negative finite number"):
        rp.compare(A, B, X, Y, scheme="2x2cv", n_repeats=2, rope=rope, rng=0)
    with pytest.raises(ValueError, match="`rope` must be a non-negative finite number"):
        rp.compare_scores(np.ones(4), np.ones(4), scheme="2x2cv", n_train=2, n_test=2, rope=rope)


# --------------------------------------------------------------------------
# the learners' own randomness: random_state drawn from rng for every split
# --------------------------------------------------------------------------
def _forest_and_mlp():
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    return (RandomForestClassifier(n_estimators=5),
            make_pipeline(StandardScaler(), MLPClassifier(hidden_layer_sizes=(4,), max_iter=20)))


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_same_rng_gives_byte_identical_results_for_learners_left_at_random_state_none():
    forest, mlp = _forest_and_mlp()
    runs = [rp.compare(forest, mlp, X, Y, scheme="2x3cv", n_repeats=2, rng=5) for _ in range(2)]
    runs.append(rp.compare(forest, mlp, X, Y, scheme="2x3cv", n_repeats=2, rng=5, n_jobs=2))
    for res in runs[1:]:
        assert res.scores_a.tobytes() == runs[0].scores_a.tobytes()
        assert res.scores_b.tobytes() == runs[0].scores_b.tobytes()
        assert res.to_dict() == runs[0].to_dict()
    res = runs[0]
    assert res.seed_plans["A"].drawn == ("random_state",)
    assert res.seed_plans["B"].drawn == ("mlpclassifier__random_state",)
    # a new seed for every split and randomization, the same split seeds as before
    assert res.drawn_seeds["A"].shape == (2, 2, 3, 1) and np.unique(res.drawn_seeds["A"]).size == 12
    assert res.seeds == _seeds(5, 2)
    # reference: the same splits, each model cloned with the drawn random_state, scored by hand
    for i, seed in enumerate(res.seeds):
        for j, (train, test) in enumerate(RepeatedCV(2, 3, stratified=True, random_state=seed).split(X, Y)):
            run, fold = divmod(j, 3)
            a = clone(forest).set_params(random_state=int(res.drawn_seeds["A"][i, run, fold, 0]))
            assert a.fit(X[train], Y[train]).score(X[test], Y[test]) == res.scores_a[i, run, fold]
            b = clone(mlp).set_params(mlpclassifier__random_state=int(res.drawn_seeds["B"][i, run, fold, 0]))
            assert b.fit(X[train], Y[train]).score(X[test], Y[test]) == res.scores_b[i, run, fold]
    assert "A: random_state drawn from rng for every split" in res.summary()
    assert res.to_dict()["estimator_seeds"] == {"A": {"drawn": ["random_state"], "fixed": {}},
                                                "B": {"drawn": ["mlpclassifier__random_state"], "fixed": {}}}


def test_a_fixed_random_state_is_kept_and_said_not_varied_unless_all_are_drawn(cv_result):
    assert cv_result.seed_plans["B"].fixed == {"random_state": 0} and cv_result.seed_plans["B"].drawn == ()
    assert cv_result.drawn_seeds["B"].shape == (4, 3, 5, 0)
    assert ("learners' own randomness: A has no random_state; B: random_state=0 kept as given "
            "(that randomness not varied)") in cv_result.summary()
    redrawn = rp.compare(A, B, X, Y, scheme="3x5cv", n_repeats=4, rng=7, estimator_seeds="all")
    assert redrawn.seed_plans["B"].drawn == ("random_state",) and redrawn.seed_plans["B"].fixed == {}
    assert redrawn.seeds == cv_result.seeds  # the same splits
    seeds = redrawn.drawn_seeds["B"]
    train, test = next(RepeatedCV(3, 5, stratified=True, random_state=redrawn.seeds[0]).split(X, Y))
    tree = clone(B).set_params(random_state=int(seeds[0, 0, 0, 0])).fit(X[train], Y[train])
    assert tree.score(X[test], Y[test]) == redrawn.scores_b[0, 0, 0]
    assert redrawn.to_dict()["estimator_seeds"]["B"] == {"drawn": ["random_state"], "fixed": {}}


# --------------------------------------------------------------------------
# refused before any fit; failures and undefined scores named with their split
# --------------------------------------------------------------------------
class _FitRaises(GaussianNB):
    """Fails on every fit: a refusal must come before one."""

    def fit(self, X, y):
        raise RuntimeError("fit was called")


def test_learners_of_different_kinds_without_a_scoring_are_refused_before_any_fit():
    with pytest.raises(ValueError, match="`estimator_a` is a classifier and `estimator_b` is a regressor"):
        rp.compare(_FitRaises(), LinearRegression(), X, Y, scheme="2x2cv", n_repeats=2)
    from sklearn.preprocessing import StandardScaler

    with pytest.raises(TypeError, match=r"`estimator_b` must predict"):
        rp.compare(_FitRaises(), StandardScaler(), X, Y, scheme="2x2cv", n_repeats=2)


def test_a_failing_fit_is_named_with_its_estimator_split_and_cause():
    from sklearn.svm import SVC

    with pytest.raises(ValueError, match=r"^on randomization 0, run 0, fold 0: B \(SVC\) failed to fit: "
                                         r"InvalidParameterError: The 'C' parameter of SVC"):
        rp.compare(A, SVC(C=-1.0), X, Y, scheme="2x2cv", n_repeats=2, rng=0)


def test_an_unpicklable_estimator_is_refused_before_workers_start():
    import threading

    from sklearn.ensemble import BaggingClassifier

    bagging = BaggingClassifier(GaussianNB(), n_estimators=2)
    bagging.lock = threading.Lock()  # an attribute that cannot be pickled
    with pytest.raises(ValueError, match=r"`estimator_b` \(BaggingClassifier\) cannot be sent to worker processes"):
        rp.compare(A, bagging, X, Y, scheme="2x2cv", n_repeats=2, n_jobs=2)


def test_imbalanced_classes_warn_once_and_an_undefined_fold_is_named_before_any_test():
    y = np.where(np.arange(150) % 50 == 0, 1, 0)  # 3 positives: fewer than 5 folds
    with pytest.warns(UserWarning, match="least populated class"):
        splits = list(RepeatedCV(2, 5, stratified=True, random_state=_seeds(2, 2)[0]).split(X, y))
    first = next(j for j, (_, test) in enumerate(splits) if not np.any(y[test] == 1))  # reference: no positive
    run, fold = divmod(first, 5)
    with pytest.warns(UserWarning, match="class 1 has 3 members, fewer than the 5 folds") as record:
        with pytest.raises(ValueError, match=rf"^on randomization 0, run {run}, fold {fold}: A \(GaussianNB\)'s "
                                             r"score is undefined on this test set: UndefinedMetricWarning: Only "
                                             r"one class is present in y_true"):
            rp.compare(A, B, X, y, scheme="2x5cv", n_repeats=2, scoring="roc_auc", rng=2)
    assert len(record) == 1  # once, not per randomization or fold


# --------------------------------------------------------------------------
# smaller defects: tests that cannot reject are not listed; R² named
# --------------------------------------------------------------------------
def test_only_tests_that_can_reject_under_the_scheme_are_listed():
    rng = np.random.default_rng(9)
    five = rp.compare_scores(rng.normal(0.8, 0.02, (5, 2)), rng.normal(0.8, 0.02, (5, 2)), scheme="5x2cv",
                             n_train=50, n_test=50)
    assert "sign, sorted runs" not in five.tests and "signed rank, sorted runs" not in five.tests
    # two sorted-run means: even when both favour A, neither test reaches alpha (scipy's normal approximation)
    assert float(rp.sign_test([1.0, 2.0]).pvalue) >= 0.05 and float(rp.signed_rank_test([1.0, 2.0]).pvalue) >= 0.05
    a, b = rng.normal(0.8, 0.02, (3, 5)), rng.normal(0.8, 0.02, (3, 5))
    assert "sign, sorted runs" in rp.compare_scores(a, b, scheme="3x5cv", n_train=80, n_test=20).tests
    strict = rp.compare_scores(a, b, scheme="3x5cv", n_train=80, n_test=20, alpha=0.01)
    assert "sign, sorted runs" not in strict.tests  # five values: p >= 0.025
    short = rp.compare_scores(rng.normal(size=3), rng.normal(size=3), scheme="resampling", n_train=9, n_test=1)
    assert set(short.tests) == {"corrected resampled t", "resampled t (uncorrected)"}


def test_a_regressors_default_score_is_named_r2():
    Xr, yr = make_regression(60, 4, noise=10.0, random_state=1)
    res = rp.compare(LinearRegression(), Ridge(alpha=5.0), Xr, yr, scheme="1x3cv", n_repeats=2, rng=0)
    assert res.scoring == "r2" and "score: r2" in res.summary()
    splits = list(RepeatedCV(1, 3, stratified=False, random_state=res.seeds[0]).split(Xr, yr))
    ref = cross_validate(Ridge(alpha=5.0), Xr, yr, cv=splits, scoring="r2")["test_score"]
    np.testing.assert_array_equal(res.scores_b[0].ravel(), ref)


# --------------------------------------------------------------------------
# a cheap first look
# --------------------------------------------------------------------------
def test_quick_is_one_by_ten_cv_under_two_randomizations_and_says_its_limits(capsys):
    res = rp.compare(A, B, X, Y, quick=True, rng=4, progress=True)
    assert "compare: 20 splits, 40 fits" in capsys.readouterr().err  # stated before the run
    same = rp.compare(A, B, X, Y, scheme="1x10cv", n_repeats=2, rng=4)
    np.testing.assert_array_equal(res.scores_a, same.scores_a)
    np.testing.assert_array_equal(res.scores_b, same.scores_b)
    assert res.scheme == "1x10cv" and res.scores_a.shape == (2, 1, 10) and res.quick and not same.quick
    assert "QUICK LOOK (40 fits): a first look, not a result to report" in res.summary()
    assert "QUICK LOOK" not in same.summary() and res.to_dict()["quick"] is True
    with pytest.raises(ValueError, match="`quick` sets the scheme"):
        rp.compare(A, B, X, Y, quick=True, scheme="5x2cv")
    with pytest.raises(ValueError, match="`quick` must be True or False"):
        rp.compare(A, B, X, Y, quick="yes")


def test_compare_parses_the_scheme_by_the_one_grammar():
    # the engine registry's and the papers' spellings, case and spaces free, are the same scheme
    ref = rp.compare(A, B, X, Y, scheme="2x5cv", n_repeats=2, rng=3)
    for spelling in ("2x5 cv", "2X5CV"):
        res = rp.compare(A, B, X, Y, scheme=spelling, n_repeats=2, rng=3)
        assert res.scheme == "2x5cv"
        np.testing.assert_array_equal(res.scores_a, ref.scores_a)
        np.testing.assert_array_equal(res.scores_b, ref.scores_b)
    five = rp.compare(A, B, X, Y, scheme="5x2", n_repeats=2, rng=0)
    assert five.scheme == "5x2cv" and "5x2cv t" in five.tests
    sub = rp.compare(A, B, X, Y, scheme="resample", n_runs=6, test_size=0.2, n_repeats=2, rng=1)
    assert sub.scheme == "resampling" and sub.scores_a.shape == (2, 6, 1)
    a = np.linspace(0.8, 0.9, 10)
    assert rp.compare_scores(a, a - 0.01, scheme="5x2", n_train=9, n_test=1).scheme == "5x2cv"
    with pytest.raises(ValueError, match="names the sample a test takes"):
        rp.compare(A, B, X, Y, scheme="sorted_runs")
    with pytest.raises(ValueError, match="names the sample a test takes"):
        rp.compare_scores(a, a, scheme="all", n_train=9, n_test=1)
