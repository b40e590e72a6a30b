"""Tests for replicability.learners.naive_bayes (Weka-faithful nominal naive Bayes)."""

from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.naive_bayes import CategoricalNB
from sklearn.utils.estimator_checks import parametrize_with_checks

from replicability.learners.naive_bayes import NaiveBayes

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "weka_nominal"
ATTS = [f"a{j}" for j in range(10)]

# All scikit-learn common checks pass; the `categorical` input tag makes them
# feed integer codes (see NaiveBayes.__sklearn_tags__).
@parametrize_with_checks([NaiveBayes()])
def test_sklearn_common_checks(estimator, check):
    check(estimator)


def _weka_agreement(column, make):
    data = pd.read_csv(FIXTURE / "data.csv")
    preds = pd.read_csv(FIXTURE / "predictions.csv")
    agree = total = 0
    for name, g in data.groupby("dataset"):
        weka = preds[preds.dataset == name].set_index("row").loc[g.row, column].to_numpy()
        n_classes = int(g.cls.max()) + 1
        X, y, fold = g[ATTS].to_numpy(), g.cls.to_numpy(), g.fold.to_numpy()
        for k in range(10):
            model = make(n_classes).fit(X[fold != k], y[fold != k])
            agree += np.sum(model.predict(X[fold == k]) == weka[fold == k])
            total += np.sum(fold == k)
    return agree / total


def test_agrees_with_weka_naive_bayes():
    # Weka 3.6.14 NaiveBayes, 10-fold cv on 5 synthetic data sets
    # (tests/fixtures/weka_nominal/make_fixture.py). Measured agreement: 100%.
    rate = _weka_agreement("nb", lambda k: NaiveBayes(n_values=2, n_classes=k))
    assert rate >= 0.99
    assert rate == 1.0


def test_hand_computed_posterior():
    # Class 0 has 3 of 5 instances, class 1 has 2; x = (1, 1).
    # P(0) = 4/7, P(x0=1|0) = P(x1=1|0) = (1+1)/(3+2); P(1) = 3/7, P(xj=1|1) = (2+1)/(2+2).
    X = np.array([[0, 1], [0, 0], [1, 1], [1, 1], [1, 0]])
    y = np.array([0, 0, 1, 1, 0])
    s0 = Fraction(4, 7) * Fraction(2, 5) ** 2
    s1 = Fraction(3, 7) * Fraction(3, 4) ** 2
    proba = NaiveBayes(n_values=2).fit(X, y).predict_proba([[1, 1]])
    np.testing.assert_allclose(proba[0], [float(s0 / (s0 + s1)), float(s1 / (s0 + s1))], rtol=1e-14)


def test_equals_categorical_nb_with_laplace_prior():
    # scikit-learn's CategoricalNB with alpha=1 smooths the conditionals as Weka;
    # give it Weka's Laplace-smoothed prior (n_c + 1) / (n + K) explicitly.
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, size=(80, 5))
    y = rng.integers(0, 3, size=80)
    prior = (np.bincount(y, minlength=3) + 1) / (80 + 3)
    ref = CategoricalNB(alpha=1.0, class_prior=prior, min_categories=3).fit(X, y)
    ours = NaiveBayes(n_values=3).fit(X, y)
    Xt = rng.integers(0, 3, size=(50, 5))
    np.testing.assert_allclose(ours.predict_proba(Xt), ref.predict_proba(Xt), rtol=1e-10)
    np.testing.assert_array_equal(ours.predict(Xt), ref.predict(Xt))


def test_ties_go_to_first_class():
    # Symmetric training data: every posterior is exactly 1/2; Weka picks class 0.
    X = np.array([[0], [1], [0], [1]])
    proba = NaiveBayes(n_values=2).fit(X, [0, 0, 1, 1]).predict_proba([[0], [1]])
    np.testing.assert_array_equal(proba, 0.5)
    assert list(NaiveBayes(n_values=2).fit(X, [0, 0, 1, 1]).predict([[0], [1]])) == [0, 0]
    assert list(NaiveBayes(n_values=2).fit(X, ["b", "b", "a", "a"]).predict([[0], [1]])) == ["a", "a"]


def test_absent_class_keeps_laplace_mass_with_n_classes():
    X = np.array([[0], [1], [1]])
    clf = NaiveBayes(n_values=2, n_classes=3).fit(X, [0, 1, 1])
    np.testing.assert_array_equal(clf.classes_, [0, 1, 2])
    # P(2) = 1/6, P(x=0|2) = 1/2; P(0) = 2/6, P(x=0|0) = 2/3; P(1) = 3/6, P(x=0|1) = 1/4.
    s = np.array([2 / 6 * 2 / 3, 3 / 6 * 1 / 4, 1 / 6 * 1 / 2])
    np.testing.assert_allclose(clf.predict_proba([[0]])[0], s / s.sum(), rtol=1e-14)


def test_constant_attribute_in_training_fold():
    # Attribute 1 is 0 in all training rows. With n_values=2 the value 1 gets
    # Laplace mass 1/(n_c + 2) as in Weka; inferred n_values (=1) still gives a
    # value unseen in training the mass 1/(n_c + 1) of a zero count.
    X = np.array([[0, 0], [1, 0], [1, 0], [0, 0]])
    y = np.array([0, 1, 1, 0])
    weka = NaiveBayes(n_values=2).fit(X, y)
    inferred = NaiveBayes().fit(X, y)
    np.testing.assert_array_equal(inferred.n_values_, [2, 1])
    p = weka.predict_proba([[1, 1]])[0]
    # P(c) = 3/6 both; P(x0=1|0) = 1/4, P(x0=1|1) = 3/4; P(x1=1|c) = 1/4 both.
    np.testing.assert_allclose(p, [0.25, 0.75], rtol=1e-14)
    q = inferred.predict_proba([[1, 1]])[0]
    np.testing.assert_allclose(q, [0.25, 0.75], rtol=1e-14)  # unseen factor 1/3 cancels
    assert np.all(np.isfinite(q))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 4), st.integers(2, 3))
def test_proba_sums_to_one_and_predict_is_argmax(seed, n_features, n_classes):
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(20, n_features))
    y = rng.integers(0, n_classes, size=20)
    clf = NaiveBayes(n_values=2, n_classes=n_classes).fit(X, y)
    proba = clf.predict_proba(X)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, rtol=1e-12)
    np.testing.assert_array_equal(clf.predict(X), np.argmax(proba, axis=1))


def test_rejects_negative_codes():
    with pytest.raises(ValueError, match="`X`"):
        NaiveBayes().fit([[0], [-1]], [0, 1])


def test_rejects_non_integer_codes():
    with pytest.raises(ValueError, match="`X`"):
        NaiveBayes().fit([[0.5], [1.0]], [0, 1])


def test_rejects_bad_n_values():
    with pytest.raises(ValueError, match="`n_values`"):
        NaiveBayes(n_values=0).fit([[0], [0]], [0, 1])
    with pytest.raises(ValueError, match="`n_values`"):
        NaiveBayes(n_values=[2, 2]).fit([[0], [1]], [0, 1])


def test_rejects_code_beyond_n_values():
    with pytest.raises(ValueError, match="`n_values`"):
        NaiveBayes(n_values=2).fit([[0], [2]], [0, 1])
    clf = NaiveBayes(n_values=2).fit([[0], [1]], [0, 1])
    with pytest.raises(ValueError, match="`n_values`"):
        clf.predict([[2]])


def test_rejects_bad_n_classes():
    with pytest.raises(ValueError, match="`n_classes`"):
        NaiveBayes(n_classes=0).fit([[0], [1]], [0, 1])
    with pytest.raises(ValueError, match="`y`"):
        NaiveBayes(n_classes=2).fit([[0], [1]], [0, 2])


def test_agrees_with_weka_on_small_multivalued_sets():
    # Weka 3.6.14 NaiveBayes on 30 small sets with 2-5-valued attributes and 3
    # classes, predictions for all 120 possible instances (small_*.csv).
    # Measured agreement: 3600/3600.
    data = pd.read_csv(FIXTURE / "small_data.csv")
    preds = pd.read_csv(FIXTURE / "small_predictions.csv")
    atts = ["a0", "a1", "a2", "a3"]
    agree = total = 0
    for name, g in data.groupby("dataset"):
        q = preds[preds.dataset == name]
        clf = NaiveBayes(n_values=[2, 3, 4, 5], n_classes=3).fit(g[atts].to_numpy(), g.cls.to_numpy())
        agree += np.sum(clf.predict(q[atts].to_numpy()) == q.nb.to_numpy())
        total += len(q)
    assert agree == total


# --- numeric attributes and missing values (attribute_types) -----------------------


def _weka_normal_reference(train, y, query, n_classes):
    """Weka 3.6 NaiveBayes with NormalEstimator, written out with loops and scipy.stats.norm."""
    from scipy.stats import norm

    vals = sorted(set(train[~np.isnan(train)].tolist()))
    prec = (vals[-1] - vals[0]) / (len(vals) - 1) if len(vals) > 1 else 0.01
    post = []
    for c in range(n_classes):
        r = [round(v / prec) * prec for v, cls in zip(train, y) if cls == c and not np.isnan(v)]
        mean = sum(r) / len(r)
        sd = max(prec / 6, (sum((v - mean) ** 2 for v in r) / len(r)) ** 0.5)
        q = round(query / prec) * prec
        like = norm.cdf((q - mean + prec / 2) / sd) - norm.cdf((q - mean - prec / 2) / sd)
        post.append((np.sum(y == c) + 1) / (len(y) + n_classes) * like)
    return np.array(post) / sum(post)


def test_numeric_attribute_matches_written_out_normal_estimator():
    # Weka's NormalEstimator: precision = mean gap of distinct values, values rounded
    # to it, population sd floored at precision / 6, interval probability +-precision/2.
    rng = np.random.default_rng(3)
    x = np.round(rng.normal(size=60), 2)
    y = (x + rng.normal(scale=0.8, size=60) > 0).astype(int)
    clf = NaiveBayes(attribute_types=["numeric"]).fit(x[:, None], y)
    for q in (-1.234, 0.0, 0.5, 2.7):
        np.testing.assert_allclose(clf.predict_proba([[q]])[0], _weka_normal_reference(x, y, q, 2), rtol=1e-9)


def test_precision_is_mean_gap_of_distinct_values():
    X = np.array([[1.0], [1.0], [2.0], [4.0], [np.nan], [7.0]])
    clf = NaiveBayes(attribute_types=["numeric"]).fit(X, [0, 1, 0, 1, 0, 1])
    assert clf.precision_[0] == 2.0  # (7 - 1) / 3 gaps
    one = NaiveBayes(attribute_types=["numeric"]).fit(np.array([[5.0], [5.0]]), [0, 1])
    assert one.precision_[0] == 0.01  # Weka's default with a single distinct value
    # A constant class keeps the floor precision / 6 as its standard deviation.
    np.testing.assert_allclose(one.std_[0], [0.01 / 6, 0.01 / 6])


def test_nominal_attribute_types_reproduce_the_nominal_model():
    rng = np.random.default_rng(4)
    X = rng.integers(0, 3, size=(70, 4))
    y = rng.integers(0, 3, size=70)
    Xt = rng.integers(0, 3, size=(40, 4))
    a = NaiveBayes(n_values=3).fit(X, y).predict_proba(Xt)
    b = NaiveBayes(n_values=3, attribute_types=["nominal"] * 4).fit(X.astype(float), y).predict_proba(Xt)
    np.testing.assert_array_equal(a, b)


def test_missing_value_in_query_drops_the_attribute():
    # Weka skips a missing value in distributionForInstance: the posterior equals that
    # of the model without the attribute (training data complete).
    rng = np.random.default_rng(5)
    X = np.column_stack([rng.normal(size=50), rng.integers(0, 2, size=50), rng.normal(size=50)])
    y = rng.integers(0, 2, size=50)
    types = ["numeric", "nominal", "numeric"]
    full = NaiveBayes(attribute_types=types).fit(X, y)
    for j in range(3):
        q = X[:5].copy()
        q[:, j] = np.nan
        keep = [i for i in range(3) if i != j]
        part = NaiveBayes(attribute_types=[types[i] for i in keep]).fit(X[:, keep], y)
        np.testing.assert_allclose(full.predict_proba(q), part.predict_proba(q[:, keep]), rtol=1e-12)


def test_missing_values_skipped_in_training():
    # Missing nominal values count in neither the numerator nor the denominator:
    # P(x=1 | c=0) = (1 + 1) / (2 + 2) with the two known values (0, 1) of class 0.
    X = np.array([[0.0], [1.0], [np.nan], [1.0]])
    clf = NaiveBayes(attribute_types=["nominal"], n_values=2).fit(X, [0, 0, 0, 1])
    np.testing.assert_array_equal(clf.category_count_[0], [[1, 1], [0, 1]])
    p0 = (3 + 1) / (4 + 2) * (1 + 1) / (2 + 2)
    p1 = (1 + 1) / (4 + 2) * (1 + 1) / (1 + 2)
    np.testing.assert_allclose(clf.predict_proba([[1.0]])[0], [p0 / (p0 + p1), p1 / (p0 + p1)], rtol=1e-14)


def test_rejects_bad_attribute_types():
    X = np.zeros((4, 2))
    for bad in (["numeric"], ["numeric", "ordinal"], "numeric"):
        with pytest.raises(ValueError, match="`attribute_types`"):
            NaiveBayes(attribute_types=bad).fit(X, [0, 1, 0, 1])


def test_rejects_non_code_in_nominal_column_with_attribute_types():
    X = np.array([[0.5, 1.0], [1.0, 2.0]])
    with pytest.raises(ValueError, match="`X`"):
        NaiveBayes(attribute_types=["nominal", "numeric"]).fit(X, [0, 1])


@pytest.mark.parametrize("name", ["NaiveBayes", "C45"])
def test_float_features_without_attribute_types_say_which_argument_to_set(name):
    # Issue #19: the error names `attribute_types`, the columns, and a value that works.
    import replicability as rp

    rng = np.random.default_rng(0)
    X = rng.normal(size=(20, 3))
    X[:, 1] = np.arange(20) % 3
    y = np.repeat([0, 1], 10)
    with pytest.raises(ValueError, match=r"column\(s\) \[0, 2\].*attribute_types=\['numeric', 'nominal', 'numeric'\]"):
        getattr(rp, name)().fit(X, y)
    getattr(rp, name)(attribute_types=["numeric", "nominal", "numeric"]).fit(X, y)
    wide = np.abs(rng.normal(size=(20, 12)))
    wide[:, ::2] = 1.0
    with pytest.raises(ValueError, match=r"attribute_types=\[\"numeric\" if j in \{1, 3"):
        getattr(rp, name)().fit(wide, y)
