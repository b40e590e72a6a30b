"""The voted perceptron (Freund & Schapire 1999) as implemented in Weka."""

from __future__ import annotations

import numbers

import numpy as np
from scipy.special import expit
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils import check_random_state
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_positive, check_positive_int
from .._weka_random import JavaRandom, randomize
from .tan import _encode, _fit_categories

__all__ = ["VotedPerceptron"]


def _binarize(codes, categories):
    """Weka's NominalToBinary: one 0/1 column for a two-valued attribute, else indicators.

    A value unseen in training (code ``len(cats)``) gets all-zero indicators.
    """
    columns = []
    for j, cats in enumerate(categories):
        if len(cats) <= 2:
            # Two values -> the index of the value (0 or 1); one value -> 0.
            columns.append((codes[:, j] == 1).astype(float)[:, None])
        else:
            columns.append((codes[:, j][:, None] == np.arange(len(cats))).astype(float))
    return np.hstack(columns)


def _weka_shuffle_order(n, seed):
    """Order of ``Instances.randomize(new Random(seed))`` on ``n`` instances."""
    order = np.arange(n)
    randomize(order, JavaRandom(seed))
    return order


class VotedPerceptron(ClassifierMixin, BaseEstimator):
    """Voted perceptron for two classes, with the defaults of Weka's ``VotedPerceptron``.

    The kernel is the polynomial ``K(a, b) = (1 + <a, b>)^exponent`` (the ``+1``
    is the bias). Training makes ``n_iter`` passes over the shuffled data; each
    mistake starts a new perceptron ``v_{k+1} = v_k + s_i x_i`` (``s_i = +-1``
    for class 1 / class 0) and every correct prediction adds one vote ``c_k`` to
    the current one (Freund & Schapire 1999, Figure 1). Prediction:
    ``output = sum_k c_k sign(v_k . x)`` with ``sign(0) = +1``; class 1 if
    ``output > 0`` (Weka: ``P(1) = 1 / (1 + exp(-output))``, ties to class 0).

    Parameters
    ----------
    n_iter : int, default 1
        Passes over the training data (Weka ``-I 1``).
    exponent : float, default 1.0
        Exponent of the polynomial kernel (Weka ``-E 1.0``).
    max_k : int, default 10000
        Maximum number of perceptrons (mistakes); training stops when reached
        (Weka ``-M 10000``).
    random_state : int, numpy.random.RandomState or None, default 1
        Seed of the shuffle of the training data before training (Weka ``-S 1``).
    weka_shuffle : bool, default False
        Shuffle exactly as Weka does (``Instances.randomize`` with
        ``java.util.Random(random_state)``, which must then be an int), so that
        the same data in the same order give Weka's perceptrons. Otherwise the
        permutation comes from NumPy.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two class labels; ``classes_[1]`` is the positive class.
    categories_ : list of ndarray
        Observed values of each nominal attribute.
    support_vectors_ : ndarray of shape (k, n_binary)
        Binarized training instances on which a mistake was made, in order.
    signs_ : ndarray of shape (k,)
        +1 when the mistake was on class 1, -1 otherwise.
    votes_ : ndarray of shape (k + 1,)
        Survival counts ``c_0 .. c_k`` of the perceptrons.

    Notes
    -----
    Replicates Weka's algorithm (including ``sign(0) = +1`` during training and
    the vote, and the ``+1`` inside the kernel). Its random stream is
    replicated only with ``weka_shuffle=True``; by default the permutation
    comes from ``random_state`` through NumPy, so for the same seed the
    perceptron sequence (not the algorithm) differs from Weka's. Nominal attributes are binarized as
    Weka's ``NominalToBinary`` does, with the categories observed in training
    (Weka uses those declared in the ARFF header; they differ only when a value
    is absent from the training set). Only two classes are supported, as in
    Weka; ``fit`` raises ``ValueError`` otherwise.

    References
    ----------
    Freund, Y., & Schapire, R. E. (1999). Large margin classification using the
    perceptron algorithm. Machine Learning 37(3), 277-296.
    https://doi.org/10.1023/A:1007662407062

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 5)
    >>> y = X[:, 0]
    >>> clf = VotedPerceptron(random_state=0).fit(X, y)
    >>> float(clf.score(X, y))
    1.0
    """

    def __init__(self, *, n_iter=1, exponent=1.0, max_k=10000, random_state=1, weka_shuffle=False):
        self.n_iter = n_iter
        self.exponent = exponent
        self.max_k = max_k
        self.random_state = random_state
        self.weka_shuffle = weka_shuffle

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        return tags

    def _kernel(self, A, B):
        dot = A @ B.T + 1.0
        return dot if self.exponent == 1.0 else dot**self.exponent

    def fit(self, X, y):
        """Train the voted perceptron.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Nominal attributes, integer-coded.
        y : array-like of shape (n_samples,)
            Two class labels.

        Returns
        -------
        self : VotedPerceptron
        """
        n_iter = check_positive_int(self.n_iter, "n_iter")
        max_k = check_positive_int(self.max_k, "max_k")
        check_positive(self.exponent, "exponent")
        seed = self.random_state
        if self.weka_shuffle and (isinstance(seed, bool) or not isinstance(seed, numbers.Integral)):
            raise ValueError(
                "`random_state` must be an int (the Java seed) when `weka_shuffle` is True; "
                f"got {self.random_state!r}."
            )
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.classes_, yi = np.unique(y, return_inverse=True)
        if len(self.classes_) != 2:
            raise ValueError(
                "Only binary classification is supported: `y` must have exactly two "
                f"classes; got {len(self.classes_)} class(es)."
            )
        self.categories_ = _fit_categories(X)
        Z = _binarize(_encode(X, self.categories_), self.categories_)
        if self.weka_shuffle:
            order = _weka_shuffle_order(Z.shape[0], int(self.random_state))
        else:
            order = check_random_state(self.random_state).permutation(Z.shape[0])
        Z, yi = Z[order], yi[order]
        s = np.where(yi == 1, 1.0, -1.0)

        # score[i] = v_k . x_i for the current perceptron, kept up to date by
        # adding one kernel row per mistake (O(n) per mistake, no Gram matrix).
        score = np.zeros(Z.shape[0])
        mistakes, votes = [], [0]
        done = False
        for _ in range(n_iter):
            for i in range(Z.shape[0]):
                # Weka: predict class 1 when the score is >= 0.
                if (score[i] >= 0) == (s[i] > 0):
                    votes[-1] += 1
                else:
                    mistakes.append(i)
                    votes.append(1)
                    score += s[i] * self._kernel(Z[i : i + 1], Z)[0]
                if len(mistakes) == max_k:
                    done = True
                    break
            if done:
                break
        idx = np.asarray(mistakes, dtype=np.intp)
        self.support_vectors_ = Z[idx]
        self.signs_ = s[idx]
        self.votes_ = np.asarray(votes, dtype=float)
        return self

    def decision_function(self, X):
        """Weka's vote ``sum_k c_k sign(v_k . x)``; positive favours ``classes_[1]``."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        Z = _binarize(_encode(X, self.categories_), self.categories_)
        n = Z.shape[0]
        if self.signs_.shape[0] == 0:
            # Weka returns output 0 (class 0) without perceptrons. Unreachable
            # after a two-class fit (the first class-0 instance is a mistake),
            # kept for fidelity.
            return np.zeros(n)
        contrib = self._kernel(Z, self.support_vectors_) * self.signs_
        # v_k . x for k = 0..K: v_0 = 0, then the running sum of the mistakes.
        partial = np.hstack([np.zeros((n, 1)), np.cumsum(contrib, axis=1)])
        return np.where(partial < 0, -1.0, 1.0) @ self.votes_

    def predict_proba(self, X):
        """Weka's probabilities ``P(classes_[1]) = 1 / (1 + exp(-output))``."""
        out = self.decision_function(X)
        return np.column_stack([expit(-out), expit(out)])

    def predict(self, X):
        """``classes_[1]`` when the vote is positive, ``classes_[0]`` otherwise."""
        check_is_fitted(self)
        return self.classes_[(self.decision_function(X) > 0).astype(np.intp)]
