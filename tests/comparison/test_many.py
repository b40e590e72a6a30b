"""Many learners on many data sets (comparison.many): the analysis of a score table and the runner."""

import matplotlib
import numpy as np
import pandas as pd
import pytest
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

import replicability as rp
from replicability.comparison import ManyComparison, compare_many, compare_many_scores
from replicability.engine.splits import RepeatedCV
from replicability.report import read_published
from replicability.stats.control import control_test
from replicability.stats.ranks import friedman_test, nemenyi_test

matplotlib.use("Agg")

LEARNERS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]


def _demsar_ranks():
    table = read_published("demsar2006", "table6")
    return table.pivot(index="dataset", columns="learner", values="rank")[LEARNERS]


def _table(seed=0, n=15, k=4, repeats=None):
    rng = np.random.default_rng(seed)
    shape = (n, k) if repeats is None else (repeats, n, k)
    return np.round(0.8 + 0.05 * rng.normal(size=shape) + np.linspace(0, 0.04, k), 3)


def test_demsar_example_through_compare_many_scores():
    # Demšar applies the Friedman formula without the tie correction to his tied ranks
    res = compare_many_scores(_demsar_ranks(), better="lower", alpha=0.10, test="mean_ranks", posthoc="nemenyi",
                              tie_correction=False)
    assert res.learners == tuple(LEARNERS) and len(res.datasets) == 14
    assert res.control == "C4.5+m+cf"  # the best average rank (1.964)
    assert res.cliques() == [("C4.5+m+cf", "C4.5+m", "C4.5+cf"), ("C4.5+cf", "C4.5")]
    assert round(float(res.friedman.statistic[0]), 2) == 9.28 and res.rejects(0)
    assert round(res.critical_difference, 2) == 1.12
    frame = res.to_frame()
    assert list(frame.index) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf", "C4.5"]
    assert frame.loc["C4.5", "differs from control"] == "yes"
    assert frame["average rank"].round(3).tolist() == [1.964, 2.0, 2.893, 3.143]
    with_control = compare_many_scores(_demsar_ranks(), better="lower", control="C4.5", test="mean_ranks")
    assert with_control.to_frame().loc[["C4.5+m+cf", "C4.5+m", "C4.5+cf"], "Holm pvalue"].lt(0.05).tolist() == [
        True, True, False]


def test_dataframe_and_array_give_the_same_analysis_as_the_stats_functions():
    x = _table()
    frame = pd.DataFrame(x, columns=list("ABCD"), index=[f"d{i}" for i in range(x.shape[0])])
    a = compare_many_scores(frame, control="B")
    b = compare_many_scores(x, learners=list("ABCD"), control="B")
    assert a.datasets == tuple(frame.index) and b.datasets == tuple(f"data set {i}" for i in range(x.shape[0]))
    for res in (a, b):
        assert res.friedman.iman_davenport[0] == friedman_test(x).iman_davenport
        np.testing.assert_array_equal(res.nemenyi.pvalue[0], nemenyi_test(x).pvalue)
        np.testing.assert_array_equal(res.control_results.adjusted_pvalue[0],
                                      control_test(x, control=1).adjusted_pvalue)
    pairs = a.pairs_frame()
    assert len(pairs) == 6 and pairs["significant"].tolist() == list(
        np.abs(pairs["rank difference"]) >= a.critical_difference)


def test_lower_is_better_reverses_the_ranks():
    x = _table(1)
    high, low = compare_many_scores(x), compare_many_scores(-x, better="lower")
    np.testing.assert_array_equal(high.nemenyi.average_ranks, low.nemenyi.average_ranks)
    assert high.control == low.control


def test_several_randomizations_report_the_first_and_their_agreement():
    x = _table(2, n=20, k=3, repeats=4)
    res = compare_many_scores(x, learners=["A", "B", "C"])
    first = compare_many_scores(x[0], learners=["A", "B", "C"])
    assert res.n_repeats == 4 and res.cliques() == first.cliques() and res.control == first.control
    table = res.replicability()
    assert len(table) == 4
    for r in range(4):
        single = compare_many_scores(x[r], learners=["A", "B", "C"], control=res.control)
        assert table.loc[r, "rejects"] == single.rejects(0)
        assert table.loc[r, "cliques"] == " | ".join(", ".join(c) for c in single.cliques())
    assert "over 4 randomizations" in res.summary()
    assert "over" not in first.summary()


def test_summary_html_and_repr():
    res = compare_many_scores(_table(3), learners=list("ABCD"), scoring="accuracy")
    text = res.summary()
    assert "Iman-Davenport F_F" in text and "Nemenyi CD" in text and "Holm" in text
    assert res._repr_html_().startswith("<p>") and "<table" in res._repr_html_()
    assert repr(res).startswith("<ManyComparison 4 learners x 15 data sets")


def test_plot_draws_the_critical_difference_diagram():
    res = compare_many_scores(_demsar_ranks(), better="lower", alpha=0.10, posthoc="nemenyi")
    ax = res.plot(best="right")
    bar = [line for line in ax.lines if line.get_gid() == "critical_difference"][0]
    assert np.ptp(bar.get_xdata()) == pytest.approx(res.critical_difference)
    assert sum(line.get_gid() == "clique" for line in ax.lines) == 2


@pytest.mark.parametrize("kwargs, error, match", [
    ({"scores": [0.1, 0.2, 0.3]}, ValueError, "shape \\(N, k\\)"),
    ({"scores": [["a", "b"], ["c", "d"]]}, TypeError, "must hold numbers"),
    ({"scores": np.ones((3, 2)), "learners": ["A"]}, ValueError, "`learners` must name each"),
    ({"scores": np.ones((3, 2)), "learners": ["A", "A"]}, ValueError, "`learners` must be distinct"),
    ({"scores": np.ones((3, 2)), "datasets": ["x"]}, ValueError, "`datasets` must name each"),
    ({"scores": np.ones((3, 2)), "control": "Z"}, ValueError, "`control` must be one of"),
    ({"scores": np.ones((3, 2)), "test": "t"}, ValueError, "`test` must be one of"),
    ({"scores": np.ones((3, 2)), "alpha": 0}, ValueError, "`alpha` must be a number"),
    ({"scores": np.ones((3, 2)), "better": "up"}, ValueError, "`better` must be one of"),
])
def test_compare_many_scores_checks_its_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        compare_many_scores(**kwargs)


def _small_data():
    X, y = load_breast_cancer(return_X_y=True)
    return {"iris": load_iris(return_X_y=True), "wine": load_wine(return_X_y=True), "cancer": (X[:200], y[:200])}


LEARNER_LIST = [GaussianNB(), KNeighborsClassifier(), DecisionTreeClassifier(random_state=0)]


def test_compare_many_scores_every_learner_on_the_same_splits():
    data = _small_data()
    res = compare_many(LEARNER_LIST, data, scheme="2x3cv", n_repeats=2, rng=5)
    assert isinstance(res, ManyComparison) and res.scoring == "accuracy" and res.scheme == "2x3cv"
    assert res.split_scores.shape == (2, 3, 2, 3, 3)
    np.testing.assert_array_equal(res.scores, res.split_scores.mean(axis=(2, 3)))
    for i in range(2):
        for d, (X, y) in enumerate(data.values()):
            cv = RepeatedCV(2, 3, stratified=True, random_state=res.seeds[i][d])
            for s, (train, test) in enumerate(cv.split(X, y)):
                for j, est in enumerate(LEARNER_LIST):
                    expected = clone(est).fit(X[train], y[train]).score(X[test], y[test])
                    assert res.split_scores[i, d, s // 3, s % 3, j] == expected
    same = compare_many_scores(res.scores, learners=res.learners, datasets=res.datasets, scoring="accuracy")
    own = ("learners' own randomness: GaussianNB has no random_state; KNeighborsClassifier has no random_state; "
           "DecisionTreeClassifier: random_state=0 kept as given (that randomness not varied)")
    assert same.summary() == res.summary().replace("; 2x3cv", "").replace(own + "\n", "")


def test_compare_many_draws_the_random_states_left_at_none_per_split():
    from sklearn.ensemble import RandomForestClassifier

    data = dict(list(_small_data().items())[:2])
    learners = {"nb": GaussianNB(), "forest": RandomForestClassifier(n_estimators=3)}
    runs = [compare_many(learners, data, scheme="1x2cv", n_repeats=2, rng=4) for _ in range(2)]
    assert runs[0].split_scores.tobytes() == runs[1].split_scores.tobytes()
    assert runs[0].seed_plans[1].drawn == ("random_state",)
    # reference: the forest with the seed drawn from the unit's child stream, on the same split
    unit = np.random.default_rng(4).spawn(2)[1].spawn(2)[0]
    seed = int(unit.spawn(1)[0].integers(2**31 - 1, size=(2, 1))[1, 0])
    X, y = data["iris"]
    train, test = list(RepeatedCV(1, 2, stratified=True, random_state=runs[0].seeds[1][0]).split(X, y))[1]
    forest = RandomForestClassifier(n_estimators=3, random_state=seed).fit(X[train], y[train])
    assert forest.score(X[test], y[test]) == runs[0].split_scores[1, 0, 0, 1, 1]
    assert "forest: random_state drawn from rng for every split" in runs[0].summary()


def test_compare_many_does_not_depend_on_n_jobs_and_is_seeded():
    data = _small_data()
    one = compare_many(LEARNER_LIST, data, scheme="resampling", n_runs=3, rng=1)
    two = compare_many(LEARNER_LIST, data, scheme="resampling", n_runs=3, rng=1, n_jobs=2)
    np.testing.assert_array_equal(one.split_scores, two.split_scores)
    assert one.split_scores.shape == (1, 3, 3, 1, 3)
    other = compare_many(LEARNER_LIST, data, scheme="resampling", n_runs=3, rng=2)
    assert not np.array_equal(one.split_scores, other.split_scores)


def test_compare_many_names_learners_by_class_or_by_key():
    data = _small_data()
    res = compare_many({"nb": GaussianNB(), "nb2": GaussianNB(var_smoothing=1e-3)}, data, scheme="1x2cv", rng=0)
    assert res.learners == ("nb", "nb2")
    res = compare_many([GaussianNB(), GaussianNB()], data, scheme="1x2cv", rng=0)
    assert res.learners == ("GaussianNB", "GaussianNB 2")


@pytest.mark.parametrize("kwargs, match", [
    ({"estimators": [GaussianNB()]}, "at least 2 scikit-learn estimators"),
    ({"datasets": {"one": (np.ones((5, 2)), np.zeros(5))}}, "at least 2 data sets"),
    ({"datasets": {"a": (np.ones(5), np.zeros(5)), "b": (np.ones((5, 2)), np.zeros(5))}}, "data set 'a'"),
    ({"scheme": "10x"}, "`scheme` must be"),
    ({"n_repeats": 0}, "`n_repeats` must be an integer >= 1"),
    ({"n_jobs": 0}, "`n_jobs` must be an integer >= 1"),
    ({"scheme": "resampling", "test_size": 2}, "`test_size` must be a number"),
])
def test_compare_many_checks_its_arguments(kwargs, match):
    args = {"estimators": LEARNER_LIST, "datasets": _small_data(), "scheme": "1x2cv"}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        compare_many(args.pop("estimators"), args.pop("datasets"), **args)


def test_top_level_names():
    assert rp.compare_many is compare_many and rp.compare_many_scores is compare_many_scores
    assert rp.friedman_test is friedman_test and rp.nemenyi_test is nemenyi_test
    assert callable(rp.critical_difference_diagram)


def test_agreement_counts_sets_of_cliques_and_tied_bests():
    base = np.array([[0.9, 0.8, 0.7], [0.8, 0.9, 0.7], [0.9, 0.7, 0.8], [0.7, 0.9, 0.8]])
    # Randomization 1: A and B swap on every data set: the same ranks as a set, A and B tie in both.
    x = np.stack([base, base[:, [1, 0, 2]], base[:, [2, 1, 0]]])
    res = compare_many_scores(x, learners=["A", "B", "C"])
    assert res.replicability()["best"].tolist() == ["A = B", "A = B", "B = C"]
    agree = res.agreement()
    assert agree["best"] == 2 and agree["order"] == 2 and agree["decision"] == 3 and agree["decision_r2"] == 1.0
    assert agree["cliques"] == sum(set(map(frozenset, res.cliques(r))) == set(map(frozenset, res.cliques(0)))
                                   for r in range(3))


def test_bayesian_signed_rank_per_pair_with_a_rope():
    # Each pair's entry is the Bayesian signed-rank test of its two columns (same draws
    # with the same seed), lower-is-better flips the roles, and the summary states the ROPE.
    from replicability.stats.bayesian import bayesian_signed_rank_test

    rng = np.random.default_rng(4)
    scores = rng.normal(0.8, 0.05, size=(12, 3)) + np.array([0.0, 0.02, 0.04])
    res = compare_many_scores(scores, learners=["a", "b", "c"], rope=0.01, rng=9)
    assert set(res.bayesian) == {("a", "b"), ("a", "c"), ("b", "c")}
    generator = np.random.default_rng(9)
    for (i, j) in [(0, 1), (0, 2), (1, 2)]:
        want = bayesian_signed_rank_test(scores[None, :, i], scores[None, :, j], rope=0.01, rng=generator)
        got = res.bayesian[("abc"[i], "abc"[j])]
        np.testing.assert_array_equal(np.ravel(got.p_a_better), np.ravel(want.p_a_better))
        np.testing.assert_array_equal(np.ravel(got.p_b_better), np.ravel(want.p_b_better))
    frame = res.pairs_frame()
    assert {"P(A better)", "P(equivalent)", "P(B better)", "Bayesian decision"} <= set(frame.columns)
    assert "ROPE 0.01" in res.summary()
    lower = compare_many_scores(-scores, learners=["a", "b", "c"], better="lower", rope=0.01, rng=9)
    np.testing.assert_array_equal(np.ravel(lower.bayesian[("a", "c")].p_b_better),
                                  np.ravel(res.bayesian[("a", "c")].p_b_better))
    assert compare_many_scores(scores).bayesian is None
    with pytest.raises(ValueError, match="`rope`"):
        compare_many_scores(scores, rope=-1)


def test_compare_many_names_the_data_set_and_split_of_a_failure_and_refuses_mixed_kinds():
    from sklearn.linear_model import LinearRegression
    from sklearn.svm import SVC

    data = dict(list(_small_data().items())[1:])
    with pytest.raises(ValueError, match=r"^on data set 'wine', randomization 0, run 0, fold 0: svc \(SVC\) failed "
                                         r"to fit: InvalidParameterError"):
        compare_many({"nb": GaussianNB(), "svc": SVC(C=-1.0)}, data, scheme="1x2cv", rng=0)
    with pytest.raises(ValueError, match=r"`estimators\['nb'\]` is a classifier and `estimators\['lr'\]` is a "
                                         r"regressor"):
        compare_many({"nb": GaussianNB(), "lr": LinearRegression()}, data, scheme="1x2cv", rng=0)


def _frames():
    """Iris and wine as DataFrames with a categorical column, and groups of 10 rows."""
    import pandas as pd

    out = {}
    for name, (X, y) in (("iris", load_iris(return_X_y=True)), ("wine", load_wine(return_X_y=True))):
        frame = pd.DataFrame(X, columns=[f"x{j}" for j in range(X.shape[1])])
        frame["colour"] = pd.Categorical(np.array(["red", "green", "blue"])[np.arange(len(y)) % 3])
        out[name] = (frame, y, np.arange(len(y)) // 10)
    return out


def test_compare_many_takes_frames_groups_and_any_cv_as_cross_validate_does():
    from sklearn.compose import make_column_selector, make_column_transformer
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import GroupKFold, cross_validate
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    data = _frames()
    columns = make_column_transformer((StandardScaler(), make_column_selector(dtype_include="number")),
                                      (OneHotEncoder(), make_column_selector(dtype_include="category")))
    learners = {"lr": make_pipeline(columns, LogisticRegression(max_iter=1000)),
                "hgb": HistGradientBoostingClassifier(categorical_features="from_dtype", max_iter=10, random_state=0),
                "nb": make_pipeline(columns, GaussianNB())}
    cv = GroupKFold(n_splits=5, shuffle=True)
    res = compare_many(learners, data, cv=cv, n_repeats=2, rng=0)
    assert res.scheme == repr(cv) and res.split_scores.shape == (2, 2, 1, 5, 3)
    for i in range(2):
        for d, (frame, y, groups) in enumerate(data.values()):
            splits = list(GroupKFold(n_splits=5, shuffle=True, random_state=res.seeds[i][d]).split(frame, y, groups))
            for train, test in splits:  # groups kept whole
                assert not set(groups[train]) & set(groups[test])
            for j, learner in enumerate(learners.values()):
                ref = cross_validate(learner, frame, y, cv=splits)["test_score"]
                np.testing.assert_array_equal(res.split_scores[i, d, 0, :, j], ref)
    two = compare_many(learners, data, cv=cv, n_repeats=2, rng=0, n_jobs=2)
    np.testing.assert_array_equal(two.split_scores, res.split_scores)


def test_compare_many_refuses_groups_without_a_group_aware_cv_and_mixed_layouts():
    from sklearn.model_selection import KFold, ShuffleSplit

    with pytest.raises(ValueError, match="`groups` need a group-aware `cv`"):
        compare_many(LEARNER_LIST, _frames(), scheme="1x2cv", rng=0)
    with pytest.raises(ValueError, match=r"data set 'b': `X` must be 2-d"):
        compare_many(LEARNER_LIST, {"a": load_iris(return_X_y=True), "b": (np.zeros(3), np.zeros(3))})
    with pytest.raises(TypeError, match="`cv` must be a scikit-learn splitter"):
        compare_many(LEARNER_LIST, _small_data(), cv=5)

    class _Odd(ShuffleSplit):  # k-fold on one data set, subsampling on the other: no common layout
        def split(self, X, y=None, groups=None):
            source = KFold(3) if len(y) == 150 else ShuffleSplit(3, test_size=0.2, random_state=0)
            yield from source.split(X, y)

        def get_n_splits(self, X=None, y=None, groups=None):
            return 3

    with pytest.raises(ValueError, match="the same layout"):
        compare_many(LEARNER_LIST, {"iris": load_iris(return_X_y=True), "wine": load_wine(return_X_y=True)},
                     cv=_Odd(3))


# --------------------------------------------------------------------------
# missing cells, pairwise post-hoc tests, tie correction, the diagram's caveat
# --------------------------------------------------------------------------


def _gappy(seed=0, n=20, k=5, fraction=0.15):
    rng = np.random.default_rng(seed)
    x = np.round(0.8 + 0.05 * rng.normal(size=(n, k)) + np.linspace(0, 0.05, k), 3)
    x[rng.random(x.shape) < fraction] = np.nan
    return x


def test_missing_cells_use_skillings_mack_and_pairwise_deletion():
    from replicability.stats.incomplete import skillings_mack_test
    from replicability.stats.pairwise import pairwise_test

    x = _gappy()
    res = compare_many_scores(x)
    assert res.friedman is None and res.nemenyi is None and res.omnibus == "Skillings-Mack"
    ref = skillings_mack_test(x)
    assert res.omnibus_pvalue()[0] == ref.pvalue and res.rejects(0) == (ref.pvalue < 0.05)
    pairs = pairwise_test(x)
    control = res.learners.index(res.control)
    np.testing.assert_array_equal(res.control_results.pvalue[0], np.delete(pairs.pvalue[:, control], control))
    assert f"{int(np.isnan(x).sum())} missing cells" in res.summary() and "Skillings-Mack" in res.summary()
    assert res.to_frame()["missing"].sum() == np.isnan(x).sum()
    with pytest.raises(ValueError, match="no critical difference"):
        _ = res.critical_difference


def test_balanced_incomplete_design_uses_durbin():
    from replicability.stats.incomplete import durbin_test

    nan = np.nan
    rng = np.random.default_rng(4)
    design = np.array([[1, 1, nan, 1, nan, nan, nan], [nan, 1, 1, nan, 1, nan, nan], [nan, nan, 1, 1, nan, 1, nan],
                       [nan, nan, nan, 1, 1, nan, 1], [1, nan, nan, nan, 1, 1, nan], [nan, 1, nan, nan, nan, 1, 1],
                       [1, nan, 1, nan, nan, nan, 1]])
    x = design * rng.normal(size=design.shape)
    res = compare_many_scores(x)
    assert res.omnibus == "Durbin F" and res.omnibus_pvalue()[0] == durbin_test(x).f_pvalue


@pytest.mark.parametrize("kwargs, match", [
    ({"posthoc": "nemenyi"}, "Nemenyi"), ({"test": "mean_ranks"}, "mean-ranks"), ({"rope": 0.01}, "`rope`")])
def test_missing_cells_refuse_what_needs_every_cell(kwargs, match):
    with pytest.raises(ValueError, match=match):
        compare_many_scores(_gappy(), **kwargs)


def test_missing_cells_refuse_learners_that_never_meet():
    x = np.array([[0.8, 0.7, np.nan, np.nan], [0.7, 0.8, np.nan, np.nan], [np.nan, np.nan, 0.6, 0.9],
                  [np.nan, np.nan, 0.9, 0.6]])
    with pytest.raises(ValueError, match="never meet"):
        compare_many_scores(x)


def test_default_cliques_come_from_pairwise_signed_rank_tests_with_holm():
    from replicability.stats.pairwise import pairwise_test, significance_cliques

    x = _table(seed=3, n=25, k=6)
    res = compare_many_scores(x)
    pairs = pairwise_test(x)
    groups = significance_cliques(res.nemenyi.average_ranks[0], pairs.adjusted_pvalue < 0.05)
    assert res.posthoc == "signed_rank" and res.cliques() == [tuple(res.learners[i] for i in g) for g in groups]
    frame = res.multi_comparison()
    assert len(frame) == 15 and (frame["differs"] == (frame["Holm pvalue"] < 0.05)).all()
    assert compare_many_scores(x, posthoc="sign").pairwise.test == "sign"


def test_tie_correction_is_on_by_default_as_scipy():
    from scipy import stats

    x = np.round(_table(seed=5, n=30, k=4), 2)  # rounded: ties within data sets
    assert np.any([len(set(row)) < 4 for row in x])
    res = compare_many_scores(x)
    assert float(res.friedman.statistic[0]) == pytest.approx(stats.friedmanchisquare(*x.T).statistic, rel=1e-12)
    assert res.friedman.tie_correction


def test_diagram_caveat_when_the_omnibus_test_does_not_reject():
    rng = np.random.default_rng(0)
    null = compare_many_scores(rng.normal(size=(10, 4)))
    assert not null.rejects(0)
    caveats = [t.get_text() for t in null.plot().texts if t.get_gid() == "caveat"]
    assert caveats and "no difference shown" in caveats[0]
    strong = compare_many_scores(_table(seed=1, n=30, k=3) + np.array([0.0, 0.05, 0.1]))
    assert strong.rejects(0) and not [t for t in strong.plot().texts if t.get_gid() == "caveat"]


def test_plot_matrix_draws_the_pairwise_result():
    res = compare_many_scores(_table(seed=2, n=20, k=3))
    ax = res.plot_matrix()
    assert [t.get_text() for t in ax.get_yticklabels()] == list(res.learners)
    assert len([t for t in ax.texts if (t.get_gid() or "").startswith("cell")]) == 6


def test_tie_corrected_friedman_on_autoranks_readme_table_matches_scipy_and_autorank():
    import warnings

    from autorank import autorank
    from scipy import stats

    # autorank's README example: six populations clipped to [0, 1], 19 of 50 rows with ties
    gen = np.random.RandomState(42)
    data = pd.DataFrame({f"pop_{i}": gen.normal(mean, 0.3, 50).clip(0, 1)
                         for i, mean in enumerate([0.2, 0.3, 0.5, 0.8, 0.85, 0.9])})
    assert int((data.nunique(axis=1) < 6).sum()) == 19
    res = compare_many_scores(data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = autorank(data, alpha=0.05, verbose=False)
    assert ref.omnibus == "friedman"
    assert float(res.friedman.pvalue[0]) == pytest.approx(ref.pvalue, rel=1e-12)
    assert float(res.friedman.pvalue[0]) == pytest.approx(stats.friedmanchisquare(*data.to_numpy().T).pvalue,
                                                          rel=1e-12)
    assert float(res.friedman.pvalue[0]) == pytest.approx(2.34e-28, rel=1e-2)  # the number
    untied = compare_many_scores(data, tie_correction=False)
    assert float(untied.friedman.pvalue[0]) == pytest.approx(1.07e-27, rel=1e-2)  # the former default


class FailsOnFewClasses(GaussianNB):
    """Naive Bayes that refuses data with fewer than three classes (a learner that fails on some data sets)."""

    def fit(self, X, y, **kwargs):
        if len(np.unique(y)) < 3:
            raise ValueError("needs at least 3 classes")
        return super().fit(X, y, **kwargs)


def _failing_data():
    return {"iris": load_iris(return_X_y=True), "wine": load_wine(return_X_y=True),
            "cancer": load_breast_cancer(return_X_y=True), "iris again": load_iris(return_X_y=True)}


def test_error_score_nan_makes_a_failing_cell_missing():
    from sklearn.exceptions import FitFailedWarning

    learners = {"picky": FailsOnFewClasses(), "knn": KNeighborsClassifier(), "tree": DecisionTreeClassifier()}
    with pytest.warns(FitFailedWarning, match="picky .*needs at least 3 classes on data set 'cancer'"):
        res = compare_many(learners, _failing_data(), scheme="1x5cv", error_score=np.nan, rng=3)
    assert np.isnan(res.scores[0, 2, 0]) and np.isfinite(np.delete(res.scores[0].ravel(), 6)).all()
    assert list(res.failures) == [("picky", "cancer")] and "needs at least 3 classes" in res.failures["picky",
                                                                                                      "cancer"]
    assert "failed, so missing (error_score=nan): picky on cancer" in res.summary()
    # the analysis is that of the same table with that cell missing
    again = compare_many_scores(res.scores, learners=res.learners, datasets=res.datasets)
    assert again.incomplete is not None and res.incomplete is not None
    assert np.array_equal(again.omnibus_pvalue(), res.omnibus_pvalue())
    # workers do not change it
    with pytest.warns(FitFailedWarning):
        two = compare_many(learners, _failing_data(), scheme="1x5cv", error_score=np.nan, rng=3, n_jobs=2)
    assert np.array_equal(two.scores, res.scores, equal_nan=True) and two.failures == res.failures


def test_error_score_raise_is_unchanged_and_a_learner_failing_everywhere_is_refused():
    learners = {"picky": FailsOnFewClasses(), "knn": KNeighborsClassifier(), "nb": GaussianNB()}
    with pytest.raises(ValueError, match="picky \\(FailsOnFewClasses\\) failed to fit.*needs at least 3 classes"):
        compare_many(learners, _failing_data(), scheme="1x5cv", rng=3)
    two_class = {"a": load_breast_cancer(return_X_y=True), "b": load_breast_cancer(return_X_y=True)}
    with pytest.warns(Warning), pytest.raises(ValueError, match="picky failed on every data set"):
        compare_many(learners, two_class, scheme="1x5cv", error_score=np.nan, rng=3)
    with pytest.raises(ValueError, match="`error_score`"):
        compare_many(learners, two_class, error_score=0.0)
