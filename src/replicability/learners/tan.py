"""Tree-augmented naive Bayes (Friedman, Geiger & Goldszmidt 1997) for nominal data."""

from __future__ import annotations

import numpy as np
from numba import njit
from scipy.special import logsumexp
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_positive

__all__ = ["TAN"]


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


def _conditional_mutual_information(a, b, c, n_a, n_b, n_c):
    """Empirical I(A; B | C) in nats from integer codes (Friedman et al. 1997, eq. 1).

    ``I = sum P(a,b,c) log[P(a,b,c) P(c) / (P(a,c) P(b,c))]``, from the counts
    ``N(a, b, c)`` by :func:`_cmi_from_counts` (shared with the compiled fast path).
    """
    n_abc = np.bincount((a * n_b + b) * n_c + c, minlength=n_a * n_b * n_c).reshape(n_a, n_b, n_c)
    return float(_cmi_from_counts(np.ascontiguousarray(n_abc, dtype=np.int64)))


@njit(cache=True)
def _cmi_from_counts(n_abc):
    """I(A; B | C) in nats from the counts ``n_abc[a, b, c]`` (int64).

    ``sum_{N(a,b,c) > 0} N(a,b,c) log[N(a,b,c) N(c) / (N(a,c) N(b,c))] / N``,
    summed sequentially in C order of ``(a, b, c)``. Compiled so that the
    estimator and the batched kernels of ``_kernels_more`` share one
    floating-point computation (the tree is then identical on near-ties).
    """
    n_a, n_b, n_c = n_abc.shape
    n_ac = np.zeros((n_a, n_c), dtype=np.int64)
    n_bc = np.zeros((n_b, n_c), dtype=np.int64)
    n_cc = np.zeros(n_c, dtype=np.int64)
    for i in range(n_a):
        for j in range(n_b):
            for k in range(n_c):
                m = n_abc[i, j, k]
                n_ac[i, k] += m
                n_bc[j, k] += m
                n_cc[k] += m
    return _cmi_sum(n_abc, n_ac, n_bc, n_cc)


@njit(cache=True)
def _cmi_sum(n_abc, n_ac, n_bc, n_cc):
    """The sum of :func:`_cmi_from_counts` given the (integer) marginal counts."""
    n_a, n_b, n_c = n_abc.shape
    n = 0
    for k in range(n_c):
        n += n_cc[k]
    acc = 0.0
    for i in range(n_a):
        for j in range(n_b):
            for k in range(n_c):
                m = n_abc[i, j, k]
                if m > 0:
                    acc += m * np.log((m * n_cc[k]) / (n_ac[i, k] * n_bc[j, k]))
    return acc / n


def _maximum_spanning_tree(weights, root=0):
    """Parent of each node in a maximum spanning tree directed away from ``root``.

    Prim's algorithm. Ties are broken deterministically: among equally heavy
    candidate edges the node with the smallest index joins first, and it hangs
    from the tree node that reached that weight first (strict ``>`` updates).
    """
    return _prim(np.ascontiguousarray(weights, dtype=np.float64), int(root)).astype(np.intp)


@njit(cache=True)
def _prim(weights, root):
    """:func:`_maximum_spanning_tree`, compiled (shared with the batched TAN kernel)."""
    d = weights.shape[0]
    parent = np.full(d, -1, dtype=np.int64)
    in_tree = np.zeros(d, dtype=np.bool_)
    best = np.full(d, -np.inf)
    node = root
    for _ in range(d - 1):
        in_tree[node] = True
        for v in range(d):
            if not in_tree[v] and weights[node, v] > best[v]:
                best[v] = weights[node, v]
                parent[v] = node
        # First maximum of the candidates (in-tree nodes count as -inf), as np.argmax.
        node, top = 0, -np.inf if in_tree[0] else best[0]
        for v in range(1, d):
            cand = -np.inf if in_tree[v] else best[v]
            if cand > top:
                node, top = v, cand
    return parent


class TAN(ClassifierMixin, BaseEstimator):
    """Tree-augmented naive Bayes classifier for nominal attributes.

    Every attribute has the class and at most one other attribute as parents;
    the attribute tree is the maximum spanning tree of the conditional mutual
    information ``I(X_i; X_j | C)`` (Friedman, Geiger & Goldszmidt 1997,
    Section 4.1), rooted at the first attribute. Prediction maximises
    ``log P(c) + sum_j log P(x_j | x_parent(j), c)``.

    Parameters
    ----------
    alpha : float, default 0.5
        Pseudo-count of the smoothed estimates
        ``P(x | pa, c) = (N(x, pa, c) + alpha) / (N(pa, c) + alpha * r)`` with ``r``
        the number of values of ``x``; 0.5 is the default of Weka's
        ``SimpleEstimator``, 1 gives Laplace's rule.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    categories_ : list of ndarray
        Observed values of each attribute (its nominal categories).
    parent_ : ndarray of shape (n_features,)
        Attribute parent of each attribute in the tree; -1 for the root (attribute 0).
    mutual_information_ : ndarray of shape (n_features, n_features)
        The edge weights ``I(X_i; X_j | C)`` in nats (zero diagonal).
    class_log_prior_ : ndarray of shape (n_classes,)
    feature_log_prob_ : list of ndarray
        Entry ``j`` has shape ``(r_j + 1, r_parent + 1, n_classes)`` (``r_parent = 0``
        for the root); the extra row/column is for values not seen in training.

    Notes
    -----
    What Weka's ``BayesNet -Q TAN -E SimpleEstimator -A 0.5`` does, and what is
    replicated here:

    * replicated: class + one attribute parent per attribute, smoothed counts with
      ``alpha = 0.5`` for the class prior and every conditional table;
    * not replicated: Weka's TAN search starts from the single strongest link and
      weights links by its local score metric (default ``BAYES``), which ranks
      links almost, but not exactly, like conditional mutual information; its
      root is an end of that strongest link. Here the weights are the empirical
      conditional mutual information and the root is attribute 0 (as in the
      paper's description), so on ties or near-ties the tree may differ;
    * not replicated: Weka discretizes numeric attributes and replaces missing
      values; here every value is a category and missing values are rejected.

    A value unseen in training gets count zero, so its probability is
    ``alpha / (N(pa, c) + alpha * r)`` (or uniform when it is a parent value).
    The tree needs no tie-breaking beyond Prim's order: ties go to the lower
    attribute index.

    References
    ----------
    Friedman, N., Geiger, D., & Goldszmidt, M. (1997). Bayesian network
    classifiers. Machine Learning 29(2-3), 131-163.
    https://doi.org/10.1023/A:1007465528199

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 2, size=(200, 3))
    >>> y = X[:, 1] ^ X[:, 2]
    >>> clf = TAN().fit(X, y)
    >>> clf.parent_.tolist()
    [-1, 0, 1]
    >>> float(clf.score(X, y))
    1.0
    """

    def __init__(self, alpha=0.5):
        self.alpha = alpha

    def fit(self, X, y):
        """Learn the tree and the smoothed conditional probability tables.

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

        cmi = np.zeros((d, d))
        for i in range(d):
            for j in range(i + 1, d):
                cmi[i, j] = cmi[j, i] = _conditional_mutual_information(
                    codes[:, i], codes[:, j], c, sizes[i], sizes[j], n_c
                )
        self.mutual_information_ = cmi
        self.parent_ = _maximum_spanning_tree(cmi, root=0)

        class_counts = np.bincount(c, minlength=n_c)
        self.class_log_prior_ = np.log(class_counts + alpha) - np.log(c.shape[0] + alpha * n_c)

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
            parent_counts = counts.sum(axis=0, keepdims=True)
            tables.append(np.log(counts + alpha) - np.log(parent_counts + alpha * r))
        self.feature_log_prob_ = tables
        return self

    def _joint_log_likelihood(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        codes = _encode(X, self.categories_)
        jll = np.broadcast_to(self.class_log_prior_, (X.shape[0], len(self.classes_))).copy()
        for j, table in enumerate(self.feature_log_prob_):
            p = self.parent_[j]
            pa = codes[:, p] if p >= 0 else 0
            jll += table[codes[:, j], pa]
        return jll

    def predict_log_proba(self, X):
        """Log posterior class probabilities, shape (n_samples, n_classes)."""
        jll = self._joint_log_likelihood(X)
        return jll - logsumexp(jll, axis=1, keepdims=True)

    def predict_proba(self, X):
        """Posterior class probabilities, shape (n_samples, n_classes)."""
        return np.exp(self.predict_log_proba(X))

    def predict(self, X):
        """Most probable class (first class on ties)."""
        check_is_fitted(self)
        return self.classes_[np.argmax(self._joint_log_likelihood(X), axis=1)]
