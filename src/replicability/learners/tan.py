"""Tree-augmented naive Bayes as Weka 3.6's ``BayesNet`` with the ``TAN`` search builds it."""

from __future__ import annotations

import numpy as np
from numba import njit
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_positive

__all__ = ["TAN"]

#: Dirichlet pseudo-count of Weka's BAYES score (``LocalScoreSearchAlgorithm.m_fAlpha``;
#: no option sets it).
_SCORE_ALPHA = 0.5
# Cephes' lgam coefficients as Weka's Statistics.lnGamma holds them.
_LGAM_A = np.array([8.11614167470508450300e-4, -5.95061904284301438324e-4, 7.93650340457716943945e-4,
                    -2.77777777730099687205e-3, 8.33333333333331927722e-2])
_LGAM_B = np.array([-1.37825152569120859100e3, -3.88016315134637840924e4, -3.31612992738871184744e5,
                    -1.16237097492762307383e6, -1.72173700820839662146e6, -8.53555664245765465627e5])
_LGAM_C = np.array([-3.51815701436523470549e2, -1.70642106651881159223e4, -2.20528590553854454839e5,
                    -1.13933444367982507207e6, -2.53252307177582951285e6, -2.01889141433532773231e6])


def _fit_categories(X):
    """Sorted observed values of each column (the nominal categories)."""
    return [np.unique(X[:, j]) for j in range(X.shape[1])]


def _encode(X, categories):
    """Integer codes of ``X`` per column; a value unseen in training gets ``len(cats)``."""
    codes = np.empty(X.shape, dtype=np.intp)
    for j, cats in enumerate(categories):
        idx = np.searchsorted(cats, X[:, j])
        clipped = np.minimum(idx, len(cats) - 1)
        codes[:, j] = np.where(cats[clipped] == X[:, j], clipped, len(cats))
    return codes


@njit(cache=True)
def _ln_gamma(x):
    """``log Gamma(x)`` for ``x > 0``, operation for operation as Weka's ``Statistics.lnGamma`` (Cephes lgam)."""
    if x < 13.0:
        z = 1.0
        while x >= 3.0:
            x -= 1.0
            z *= x
        while x < 2.0:
            z /= x
            x += 1.0
        if x == 2.0:
            return np.log(z)
        x -= 2.0
        num = _LGAM_B[0]
        for c in _LGAM_B[1:]:
            num = num * x + c
        den = x + _LGAM_C[0]
        for c in _LGAM_C[1:]:
            den = den * x + c
        return np.log(z) + x * num / den
    q = (x - 0.5) * np.log(x) - x + 0.91893853320467274178
    if x > 1.0e8:
        return q
    p = 1.0 / (x * x)
    if x >= 1000.0:
        return q + ((7.9365079365079365079365e-4 * p - 2.7777777777777777777778e-3) * p
                    + 0.0833333333333333333333) / x
    s = _LGAM_A[0]
    for c in _LGAM_A[1:]:
        s = s * p + c
    return q + s / x


@njit(cache=True)
def _bayes_score(counts):
    """Weka's BAYES score of a node from ``counts[parent configuration, value]`` (int64).

    ``sum_q [log G(r a) - log G(N_q + r a) + sum_v (log G(N_qv + a) - log G(a))]`` with
    ``a = 0.5`` and ``r`` values (Cooper & Herskovits 1992 with Dirichlet prior ``a``),
    accumulated in the order of ``LocalScoreSearchAlgorithm.calcScoreOfCounts``.
    """
    n_config, r = counts.shape
    lg_alpha, lg_r_alpha = _ln_gamma(_SCORE_ALPHA), _ln_gamma(r * _SCORE_ALPHA)
    score = 0.0
    for q in range(n_config):
        total = 0.0
        for v in range(r):
            score += _ln_gamma(_SCORE_ALPHA + counts[q, v])
            total += _SCORE_ALPHA + counts[q, v]
        score -= _ln_gamma(total)
        score -= r * lg_alpha
        score += lg_r_alpha
    return score


@njit(cache=True)
def _weka_tan_parents(base, score):
    """Attribute parent of each attribute (-1 for none) by Weka 3.6's ``TAN.buildStructure``.

    ``base[h]`` is the score of attribute ``h`` with the class as its only parent,
    ``score[h, t]`` its score with the class and ``t``. The first link is the pair with
    the largest gain ``score[h, t] - base[h]``; each next link the largest gain between
    a linked and an unlinked attribute; ties keep the first pair in the order
    ``h = 0, 1, ...``, then ``t = 0, 1, ...`` (strict ``>``). Link ``(h, t)`` makes ``h``
    the parent of ``t`` if ``t`` has no parent yet, else ``t`` the parent of ``h``.
    """
    d = base.size
    parent = np.full(d, -1, dtype=np.int64)
    linked = np.zeros(d, dtype=np.bool_)
    heads = np.empty(max(d - 1, 0), dtype=np.int64)
    tails = np.empty(max(d - 1, 0), dtype=np.int64)
    for k in range(d - 1):
        best, best_head, best_tail = 0.0, -1, -1
        for h in range(d):
            for t in range(d):
                if h == t or (k > 0 and linked[h] == linked[t]):
                    continue
                gain = score[h, t] - base[h]
                if best_tail == -1 or gain > best:
                    best, best_head, best_tail = gain, h, t
        heads[k], tails[k] = best_head, best_tail
        linked[best_head] = linked[best_tail] = True
    for k in range(d - 1):
        if parent[tails[k]] < 0:
            parent[tails[k]] = heads[k]
        else:  # the other end joined the tree with this link: it has no parent yet
            parent[heads[k]] = tails[k]
    return parent


@njit(cache=True)
def _log_q(num, den):
    """``log(num / den)``: Weka's ``Math.log(getProbability(v))`` of the estimate ``num / den``."""
    return np.log(num / den)


@njit(cache=True)
def _log_quotient(num, den):
    """:func:`_log_q` elementwise (1-d float arrays)."""
    out = np.empty(num.size)
    for i in range(num.size):
        out[i] = _log_q(num[i], den[i])
    return out


@njit(cache=True)
def _weka_distribution_row(jll, out):
    """Class distribution of ``SimpleEstimator.distributionForInstance`` from the summed log-probabilities.

    Weka starts every class at 1.0 and adds the log-probabilities, subtracts the
    maximum, exponentiates and normalizes (``Utils.normalize``); written into ``out``.
    """
    top = 1.0 + jll[0]
    for k in range(1, jll.size):
        top = max(top, 1.0 + jll[k])
    total = 0.0
    for k in range(jll.size):
        out[k] = np.exp((1.0 + jll[k]) - top)
        total += out[k]
    for k in range(jll.size):
        out[k] /= total


@njit(cache=True)
def _weka_distribution(jll):
    """:func:`_weka_distribution_row` of every row of ``jll`` (n_samples, n_classes)."""
    out = np.empty(jll.shape)
    for i in range(jll.shape[0]):
        _weka_distribution_row(jll[i], out[i])
    return out


class TAN(ClassifierMixin, BaseEstimator):
    """Tree-augmented naive Bayes for nominal attributes, as Weka 3.6 builds it.

    Every attribute has the class and at most one other attribute as parents
    (Friedman, Geiger & Goldszmidt 1997). The attribute tree is the one Weka's
    ``BayesNet`` with the ``TAN`` search (``weka.classifiers.bayes.net.search.local.TAN``,
    score ``BAYES``) builds: a greedy maximum spanning tree over the gains
    ``score(h | C, t) - score(h | C)`` of the BAYES score (Cooper & Herskovits 1992,
    Dirichlet pseudo-count 0.5 per cell), grown Prim-like from the strongest link, with
    Weka's tie-breaking and its rule for directing the links (see Notes). The
    conditional probability tables are Weka's ``SimpleEstimator``'s, and prediction
    maximises ``log P(c) + sum_j log P(x_j | x_parent(j), c)`` with Weka's arithmetic.

    Parameters
    ----------
    alpha : float, default 0.5
        Pseudo-count of the estimates
        ``P(x | pa, c) = (N(x, pa, c) + alpha) / (N(pa, c) + alpha * r)`` and
        ``P(c) = (N(c) + alpha) / (N + alpha * K)``, with ``r`` the number of values of
        ``x`` and ``K`` of the class; 0.5 is the default of Weka's ``SimpleEstimator``
        (``-A``). It does not change the tree: Weka's BAYES score has its own
        pseudo-count, 0.5, which no option sets.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    categories_ : list of ndarray
        Observed values of each attribute (its nominal categories).
    parent_ : ndarray of shape (n_features,)
        Attribute parent of each attribute in the tree; -1 for the root.
    score_gain_ : ndarray of shape (n_features, n_features)
        ``score_gain_[h, t]``: the gain in BAYES score (natural log) of attribute ``h``
        when ``t`` joins the class as its parent (zero diagonal).
    class_log_prior_ : ndarray of shape (n_classes,)
    feature_log_prob_ : list of ndarray
        Entry ``j`` has shape ``(r_j + 1, r_parent + 1, n_classes)`` (``r_parent = 0``
        for the root); the extra row/column is for values not seen in training.

    Notes
    -----
    Weka 3.6's ``BayesNet -Q weka.classifiers.bayes.net.search.local.TAN -- -S BAYES
    -E weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5``, as replicated
    here from its source (``TAN.buildStructure``,
    ``LocalScoreSearchAlgorithm.calcScoreOfCounts``, ``SimpleEstimator``,
    ``Statistics.lnGamma``):

    * the tree: the first link is the pair ``(h, t)`` of largest gain, the next ones
      the largest gain between a linked and an unlinked attribute (the gain is not
      symmetric: both directions compete); the first pair in the order ``h``, then
      ``t``, wins a tie. The links are then directed in the order they were found:
      link ``(h, t)`` makes ``h`` the parent of ``t`` unless ``t`` already has a
      parent, in which case ``t`` becomes the parent of ``h`` (so the root is the
      attribute left without a parent, not a fixed one);
    * the score: ``log Gamma`` as Cephes' ``lgam`` (Weka's ``Statistics.lnGamma``),
      summed in Weka's order (class, then parent value, then value), so that near-ties
      between links are decided on the same floating-point numbers;
    * the estimates: ``log`` of the quotient ``(N + alpha) / (M + alpha r)``, summed
      over the attributes in order and the class last, added to 1.0, then
      ``exp(. - max)`` and normalized (``predict_proba``); the first most probable
      class wins a tie, as ``Utils.maxIndex``.

    Differences that remain: ``log`` and ``exp`` are the C library's, not Java's
    ``Math.log``/``Math.exp`` (both within an ulp of the exact value, so a tree or a
    prediction can differ only on a tie decided by the last bit); the number of values
    ``r`` of an attribute (and ``K`` of the class) are those seen in training, where
    Weka takes those declared in the data set's header, which differ when a fold's
    training set lacks a value (an attribute constant in training, a class absent);
    Weka discretizes numeric attributes and replaces missing values, here every value
    is a category and missing values are rejected. ``alpha`` is exact as Weka's for
    values such as 0.5 that are sums of powers of two (Weka adds 1 per instance to
    ``alpha`` and reads ``-A`` as a single-precision float).

    References
    ----------
    Friedman, N., Geiger, D., & Goldszmidt, M. (1997). Bayesian network
    classifiers. Machine Learning 29(2-3), 131-163.
    https://doi.org/10.1023/A:1007465528199

    Cooper, G. F., & Herskovits, E. (1992). A Bayesian method for the induction of
    probabilistic networks from data. Machine Learning 9(4), 309-347.
    https://doi.org/10.1007/BF00994110

    Bouckaert, R. R. (2004). Bayesian network classifiers in Weka. Working paper
    14/2004, Department of Computer Science, University of Waikato.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 2, size=(200, 3))
    >>> y = X[:, 1] ^ X[:, 2]
    >>> clf = TAN().fit(X, y)
    >>> clf.parent_.tolist()
    [1, -1, 1]
    >>> float(clf.score(X, y))
    1.0
    """

    def __init__(self, alpha=0.5):
        self.alpha = alpha

    def fit(self, X, y):
        """Search the tree and estimate the conditional probability tables.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Nominal attributes, integer-coded.
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self : TAN
        """
        alpha = check_positive(self.alpha, "alpha")
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.classes_, c = np.unique(y, return_inverse=True)
        n_c = len(self.classes_)
        self.categories_ = _fit_categories(X)
        codes = _encode(X, self.categories_)
        sizes = [len(cats) for cats in self.categories_]
        d = X.shape[1]

        # Weka's parent configurations: the class first, then the attribute parent.
        base = np.array([_bayes_score(np.bincount(c * sizes[h] + codes[:, h], minlength=n_c * sizes[h])
                                      .reshape(n_c, sizes[h])) for h in range(d)])
        score = base[:, None] + np.zeros((d, d))  # the diagonal: no gain
        for h in range(d):
            for t in range(d):
                if t != h:
                    cells = (c * sizes[t] + codes[:, t]) * sizes[h] + codes[:, h]
                    counts = np.bincount(cells, minlength=n_c * sizes[t] * sizes[h]).reshape(-1, sizes[h])
                    score[h, t] = _bayes_score(counts)
        self.score_gain_ = score - base[:, None]
        self.parent_ = _weka_tan_parents(base, score).astype(np.intp)

        class_counts = np.bincount(c, minlength=n_c)
        self.class_log_prior_ = _log_quotient(class_counts + alpha, np.full(n_c, c.shape[0] + alpha * n_c))

        tables = []
        for j in range(d):
            p = self.parent_[j]
            r = sizes[j]
            r_p = sizes[p] if p >= 0 else 0
            pa = codes[:, p] if p >= 0 else np.zeros_like(c)
            # One spare slot per dimension holds the zero counts of unseen values.
            counts = np.bincount(
                (codes[:, j] * (r_p + 1) + pa) * n_c + c, minlength=(r + 1) * (r_p + 1) * n_c
            ).reshape(r + 1, r_p + 1, n_c)
            totals = np.broadcast_to(counts.sum(axis=0, keepdims=True) + alpha * r, counts.shape)
            tables.append(_log_quotient((counts + alpha).ravel(), totals.ravel()).reshape(counts.shape))
        self.feature_log_prob_ = tables
        return self

    def _joint_log_likelihood(self, X):
        """``sum_j log P(x_j | x_parent(j), c) + log P(c)``, summed in Weka's order (the class last)."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        codes = _encode(X, self.categories_)
        jll = np.zeros((X.shape[0], len(self.classes_)))
        for j, table in enumerate(self.feature_log_prob_):
            p = self.parent_[j]
            pa = codes[:, p] if p >= 0 else 0
            jll += table[codes[:, j], pa]
        return jll + self.class_log_prior_

    def predict_log_proba(self, X):
        """Log posterior class probabilities, shape (n_samples, n_classes)."""
        jll = self._joint_log_likelihood(X)
        return jll - logsumexp(jll, axis=1, keepdims=True)

    def predict_proba(self, X):
        """Posterior class probabilities as Weka computes them, shape (n_samples, n_classes)."""
        return _weka_distribution(self._joint_log_likelihood(X))

    def predict(self, X):
        """Most probable class (the first on ties, as Weka's ``Utils.maxIndex``)."""
        proba = self.predict_proba(X)
        return self.classes_[np.argmax(proba, axis=1)]
