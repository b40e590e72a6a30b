"""Weka's IB1: the one-nearest-neighbour classifier (Aha, Kibler & Albert 1991)."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["IB1"]

# Bound the (rows x n_train x n_features) boolean block built per chunk.
_CHUNK_ELEMENTS = 2**24


class IB1(ClassifierMixin, BaseEstimator):
    """One-nearest-neighbour classifier with Weka's IB1 conventions.

    Predicts the class of the training instance closest to the query. For
    nominal attributes (integer codes) the distance is the overlap distance,
    the number of attributes on which two instances differ:
    ``d(a, b) = sum_j [a_j != b_j]``. Ties go to the *first* training instance
    (in the order given to :meth:`fit`) at minimal distance, as Weka's
    ``IB1.classifyInstance`` keeps the first strict minimum.

    Parameters
    ----------
    None. (Weka's IB1 has no options.)

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels seen in :meth:`fit`.
    n_features_in_ : int
        Number of attributes.
    X_train_ : ndarray of shape (n_samples, n_features)
        The stored training instances.
    y_train_ : ndarray of shape (n_samples,)
        Their class indices into ``classes_``.

    Notes
    -----
    All attributes are treated as nominal: any two distinct values are at
    distance 1, whatever the codes. Numeric attributes (Weka: range-normalised
    absolute difference, squared Euclidean sum) are a later extension; the
    per-attribute contribution lives in ``_attribute_distances``, the only
    method such an extension needs to change. Missing values are not supported
    (Weka counts a missing nominal value as distance 1).

    References
    ----------
    Aha, D. W., Kibler, D., & Albert, M. K. (1991). Instance-based learning
    algorithms. Machine Learning 6(1), 37-66. https://doi.org/10.1007/BF00153759

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 0], [1, 1], [0, 1]])
    >>> y = np.array([0, 1, 1])
    >>> IB1().fit(X, y).predict(np.array([[0, 0], [1, 0]])).tolist()
    [0, 0]
    """

    def fit(self, X, y):
        """Store the training instances.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Nominal attributes, integer-coded.
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self : IB1
        """
        X, y = validate_data(self, X, y, ensure_min_samples=1)
        check_classification_targets(y)
        self.classes_, self.y_train_ = np.unique(y, return_inverse=True)
        self.X_train_ = X
        return self

    def _attribute_distances(self, X):
        """Per-attribute distances of ``X`` rows to every training row.

        Returns an array of shape (n_rows, n_train, n_features); overlap
        distance for nominal attributes.
        """
        return X[:, None, :] != self.X_train_[None, :, :]

    def kneighbors_index(self, X):
        """Index of the nearest training instance (first on ties) for each row."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        n_train, n_features = self.X_train_.shape
        rows = max(1, _CHUNK_ELEMENTS // max(1, n_train * n_features))
        out = np.empty(X.shape[0], dtype=np.intp)
        for start in range(0, X.shape[0], rows):
            dist = self._attribute_distances(X[start : start + rows]).sum(axis=2)
            # np.argmin returns the first minimum: Weka's tie rule.
            out[start : start + rows] = np.argmin(dist, axis=1)
        return out

    def predict(self, X):
        """Predict the class of the nearest training instance.

        Parameters
        ----------
        X : array-like of shape (n_queries, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_queries,)
        """
        check_is_fitted(self)
        return self.classes_[self.y_train_[self.kneighbors_index(X)]]
