"""Tests for replicability.stats.bootstrap (Raschka 2018 Section 2; Efron & Tibshirani 1997)."""

import numpy as np
import pytest
from mlxtend.evaluate import bootstrap_point632_score
from mlxtend.evaluate.bootstrap_point632 import accuracy as mlx_accuracy
from mlxtend.evaluate.bootstrap_point632 import no_information_rate as mlx_nir
from scipy import stats
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier
from statsmodels.stats.proportion import proportion_confint

from replicability.stats.bootstrap import (
    ConfidenceInterval,
    bootstrap_632,
    bootstrap_632_plus,
    bootstrap_oob_scores,
    holdout_accuracy_interval,
    no_information_rate,
    percentile_interval,
    standard_interval,
)

X_IRIS, Y_IRIS = load_iris(return_X_y=True)
SEED = 123
N_SPLITS = 15


def _noise_data():
    # labels independent of features: the out-of-bag error often exceeds γ
    rng = np.random.default_rng(7)
    X = rng.normal(size=(60, 2))
    y = rng.integers(0, 2, size=60)
    return X, y


# ------------------------------------------------------------------ mlxtend oracle
@pytest.mark.parametrize("est", [GaussianNB(), DecisionTreeClassifier(random_state=0)])
def test_oob_matches_mlxtend(est):
    ours = bootstrap_oob_scores(est, X_IRIS, Y_IRIS, n_splits=N_SPLITS, rng=np.random.RandomState(SEED))
    ref = bootstrap_point632_score(est, X_IRIS, Y_IRIS, n_splits=N_SPLITS, method="oob", random_seed=SEED)
    np.testing.assert_allclose(ours.oob, ref, rtol=1e-12)


@pytest.mark.parametrize("est", [GaussianNB(), DecisionTreeClassifier(random_state=0)])
def test_632_matches_mlxtend(est):
    ours = bootstrap_632(est, X_IRIS, Y_IRIS, n_splits=N_SPLITS, rng=np.random.RandomState(SEED))
    ref = bootstrap_point632_score(est, X_IRIS, Y_IRIS, n_splits=N_SPLITS, method=".632", random_seed=SEED)
    np.testing.assert_allclose(ours, ref, rtol=1e-12)


def test_632_plus_matches_mlxtend_where_no_clipping():
    est = DecisionTreeClassifier(random_state=0)
    kw = dict(n_splits=N_SPLITS)
    ours = bootstrap_632_plus(est, X_IRIS, Y_IRIS, rng=np.random.RandomState(SEED), **kw)
    ref = bootstrap_point632_score(est, X_IRIS, Y_IRIS, method=".632+", random_seed=SEED, **kw)
    parts = bootstrap_oob_scores(est, X_IRIS, Y_IRIS, rng=np.random.RandomState(SEED), **kw)
    e1, er, g = 1 - parts.oob, 1 - parts.resubstitution, parts.no_information
    inside = (er < e1) & (e1 <= g)
    assert inside.all()  # a tree on iris overfits a little: R in (0, 1) every round
    np.testing.assert_allclose(ours, ref, rtol=1e-12)


def test_632_plus_differs_from_mlxtend_when_oob_error_exceeds_gamma():
    X, y = _noise_data()
    est = KNeighborsClassifier(n_neighbors=1)
    ours = bootstrap_632_plus(est, X, y, n_splits=30, rng=np.random.RandomState(SEED))
    ref = bootstrap_point632_score(est, X, y, n_splits=30, method=".632+", random_seed=SEED)
    parts = bootstrap_oob_scores(est, X, y, n_splits=30, rng=np.random.RandomState(SEED))
    e1, er, g = 1 - parts.oob, 1 - parts.resubstitution, parts.no_information
    inside = (er < e1) & (e1 <= g)
    assert inside.any() and (~inside).any()
    np.testing.assert_allclose(ours[inside], ref[inside], rtol=1e-12)
    # mlxtend neither caps err_oob at γ nor clips R (ERRATA): estimates differ
    assert np.all(np.abs(ours[~inside] - ref[~inside]) > 1e-6)


# -------------------------------------------------------- formulas from the parts
def _parts(est, X, y, seed=5, n_splits=N_SPLITS):
    return bootstrap_oob_scores(est, X, y, n_splits=n_splits, rng=seed)


def test_632_plus_efron_tibshirani_formula():
    # E&T (1997) Eq. 32-34: err632+ = err632 + (err1' − err̄)·(.368·.632·R')/(1 − .368 R')
    X, y = _noise_data()
    est = KNeighborsClassifier(n_neighbors=1)
    p = _parts(est, X, y)
    e1, er, g = 1 - p.oob, 1 - p.resubstitution, p.no_information
    e1c = np.minimum(e1, g)
    expected = []
    for a, b, c in zip(e1c, er, g):
        rp = (a - b) / (c - b) if (a > b and c > b) else 0.0
        err632 = 0.368 * b + 0.632 * a
        expected.append(1 - (err632 + (a - b) * 0.368 * 0.632 * rp / (1 - 0.368 * rp)))
    ours = bootstrap_632_plus(est, X, y, n_splits=N_SPLITS, rng=5)
    np.testing.assert_allclose(ours, expected, rtol=1e-12)
    # .632+ weight lies in [0.632, 1]: estimate between the .632 and the (capped) oob accuracy
    lo = np.minimum(1 - (0.368 * er + 0.632 * e1c), 1 - e1c)
    hi = np.maximum(1 - (0.368 * er + 0.632 * e1c), 1 - e1c)
    assert np.all((ours >= lo - 1e-12) & (ours <= hi + 1e-12))


def test_632_plus_raschka_formula():
    # Raschka (2018) Eq. 37 as printed: R = −(ACC_h − ACC_r)/(γ − (1 − ACC_h))
    est = DecisionTreeClassifier(random_state=0)
    p = _parts(est, X_IRIS, Y_IRIS)
    R = -(p.oob - p.resubstitution) / (p.no_information - (1 - p.oob))
    w = 0.632 / (1 - 0.368 * R)
    expected = w * p.oob + (1 - w) * p.resubstitution
    ours = bootstrap_632_plus(est, X_IRIS, Y_IRIS, n_splits=N_SPLITS, rng=5, variant="raschka")
    np.testing.assert_allclose(ours, expected, rtol=1e-12)
    et = bootstrap_632_plus(est, X_IRIS, Y_IRIS, n_splits=N_SPLITS, rng=5)
    assert not np.allclose(ours, et)


def test_632_formula_and_reproducibility():
    est = GaussianNB()
    p = _parts(est, X_IRIS, Y_IRIS)
    ours = bootstrap_632(est, X_IRIS, Y_IRIS, n_splits=N_SPLITS, rng=5)
    np.testing.assert_allclose(ours, 0.632 * p.oob + 0.368 * p.resubstitution, rtol=1e-14)
    again = bootstrap_632(est, X_IRIS, Y_IRIS, n_splits=N_SPLITS, rng=np.random.default_rng(5))
    np.testing.assert_array_equal(ours, again)


def test_oob_is_pessimistic_resubstitution_optimistic():
    p = _parts(DecisionTreeClassifier(random_state=0), X_IRIS, Y_IRIS)
    assert np.all(p.resubstitution >= p.oob)


def test_custom_scoring_is_used():
    def error_count(y_true, y_pred):
        return float(np.sum(y_true != y_pred))

    p = bootstrap_oob_scores(GaussianNB(), X_IRIS, Y_IRIS, n_splits=5, rng=1, scoring=error_count)
    assert np.all(p.oob == np.round(p.oob)) and p.oob.max() >= 1


# ------------------------------------------------------------ no-information rate
def test_no_information_rate_matches_pairs_and_mlxtend():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, size=40)
    pred = rng.integers(0, 4, size=40)  # a predicted class absent from y
    pairs = np.mean(y[:, None] != pred[None, :])  # Raschka Eq. 38
    assert no_information_rate(y, pred) == pytest.approx(pairs, rel=1e-13)
    assert no_information_rate(y, pred) == pytest.approx(1 - mlx_nir(y, pred, mlx_accuracy), rel=1e-13)


# -------------------------------------------------------------------- intervals
def test_percentile_interval_matches_numpy_and_batches():
    rng = np.random.default_rng(0)
    scores = rng.normal(0.8, 0.05, size=(3, 200))
    ci = percentile_interval(scores, confidence_level=0.95)
    assert isinstance(ci, ConfidenceInterval)
    for i in range(3):
        lo, hi = np.percentile(scores[i], [2.5, 97.5])
        assert ci.low[i] == pytest.approx(lo, rel=1e-13)
        assert ci.high[i] == pytest.approx(hi, rel=1e-13)


def test_standard_interval_matches_scipy():
    rng = np.random.default_rng(1)
    scores = rng.normal(0.8, 0.05, size=(2, 50))
    low, high = standard_interval(scores, confidence_level=0.9)
    for i in range(2):
        ref = stats.t.interval(0.9, 49, loc=scores[i].mean(), scale=scores[i].std(ddof=1))
        np.testing.assert_allclose([low[i], high[i]], ref, rtol=1e-13)


def test_standard_and_percentile_agree_for_normal_scores():
    # Raschka Figure 8: for roughly normal replicates the two intervals agree
    scores = np.random.default_rng(2).normal(0.9, 0.02, size=5000)
    a, b = standard_interval(scores), percentile_interval(scores)
    assert a.low == pytest.approx(b.low, abs=0.003) and a.high == pytest.approx(b.high, abs=0.003)


def test_holdout_interval_matches_statsmodels():
    # Raschka Eq. 17; statsmodels' normal (Wald) interval is the same formula
    low, high = holdout_accuracy_interval(0.85, n_test=200, confidence_level=0.95)
    ref = proportion_confint(170, 200, alpha=0.05, method="normal")
    np.testing.assert_allclose([low, high], ref, rtol=1e-12)
    acc = np.array([0.7, 0.9])
    ci = holdout_accuracy_interval(acc, n_test=50)
    np.testing.assert_allclose(ci.high - ci.low, 2 * 1.959963984540054 * np.sqrt(acc * (1 - acc) / 50))


# -------------------------------------------------------------------- validation
def test_X_must_be_2d():
    with pytest.raises(ValueError, match="`X`"):
        bootstrap_oob_scores(GaussianNB(), np.arange(10.0), np.zeros(10))


def test_y_must_match_X():
    with pytest.raises(ValueError, match="`y`"):
        bootstrap_oob_scores(GaussianNB(), X_IRIS, Y_IRIS[:-1])


def test_n_splits_positive():
    with pytest.raises(ValueError, match="`n_splits`"):
        bootstrap_632(GaussianNB(), X_IRIS, Y_IRIS, n_splits=0)


def test_scoring_callable():
    with pytest.raises(ValueError, match="`scoring`"):
        bootstrap_oob_scores(GaussianNB(), X_IRIS, Y_IRIS, n_splits=2, scoring="accuracy")


def test_variant_name():
    with pytest.raises(ValueError, match="`variant`"):
        bootstrap_632_plus(GaussianNB(), X_IRIS, Y_IRIS, n_splits=2, variant="mlxtend")


def test_scores_too_short():
    with pytest.raises(ValueError, match="`scores`"):
        percentile_interval([0.9])
    with pytest.raises(ValueError, match="`scores`"):
        standard_interval([0.9])


def test_confidence_level_range():
    with pytest.raises(ValueError, match="`confidence_level`"):
        percentile_interval([0.8, 0.9], confidence_level=95)
    with pytest.raises(ValueError, match="`confidence_level`"):
        holdout_accuracy_interval(0.9, n_test=10, confidence_level=0.0)


def test_acc_range():
    with pytest.raises(ValueError, match="`acc`"):
        holdout_accuracy_interval(1.2, n_test=10)


def test_n_test_positive_int():
    with pytest.raises(ValueError, match="`n_test`"):
        holdout_accuracy_interval(0.9, n_test=0)


def test_no_information_rate_shapes():
    with pytest.raises(ValueError, match="`y_true`"):
        no_information_rate([0, 1], [0, 1, 1])


# ---------------------------------------------------------------- issue #19: errors name the argument
def test_holdout_interval_names_bad_accuracies():
    from replicability.stats.bootstrap import holdout_accuracy_interval

    with pytest.raises(TypeError, match="`acc` must hold numbers, not strings"):
        holdout_accuracy_interval("abc", n_test=100)
    with pytest.raises(TypeError, match="`acc` must hold numbers, not booleans"):
        holdout_accuracy_interval(True, n_test=100)
    with pytest.raises(ValueError, match=r"`acc` must lie in \[0.0, 1.0\]"):
        holdout_accuracy_interval([0.5, 1.5], n_test=100)
    with pytest.raises(ValueError, match="`n_test`"):
        holdout_accuracy_interval(0.9, n_test="100")
    ci = holdout_accuracy_interval(0.95, n_test=100)
    assert isinstance(ci.low, float) and repr(ci).startswith("ConfidenceInterval(low=0.907")
