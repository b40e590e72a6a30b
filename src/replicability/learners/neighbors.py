"""Weka's IB1: the one-nearest-neighbour classifier (Aha, Kibler & Albert 1991)."""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from .._validation import check_bool
from .naive_bayes import _check_attribute_types

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

    With ``attribute_types``, numeric attributes contribute the squared
    difference of their values scaled to [0, 1] by the training range,
    ``((a_j - min_j) / (max_j - min_j) - (b_j - min_j) / (max_j - min_j))^2``
    (0 when the range is below 1e-6), and missing values (NaN) follow Weka's
    ``IB1.distance`` (see Notes).

    Parameters
    ----------
    attribute_types : sequence of {"numeric", "nominal"} or None, default=None
        Kind of each attribute; ``None`` treats all as nominal (the original
        behaviour, no missing values). Weka's IB1 itself has no options.
    weka_range_update : bool, default=False
        Only with ``attribute_types``. Weka 3.6's ``IB1.classifyInstance``
        widens the stored min/max with every instance it classifies, so the
        scaling of a query depends on the queries classified before it since
        :meth:`fit`. True reproduces that: row ``i`` of a :meth:`predict` call
        is scaled by the range of the training data and of rows ``0..i``
        (each call starts from the training range).

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
    Without ``attribute_types`` all attributes are treated as nominal: any two
    distinct values are at distance 1, whatever the codes, and missing values
    are not supported. With ``attribute_types``, as Weka 3.6's ``IB1``: a
    nominal attribute contributes 1 when either value is missing (even both);
    a numeric attribute contributes 1 when both are missing, and when one is
    missing :math:`\\max(z, 1 - z)^2`, where :math:`z` is the other value
    scaled to [0, 1]. Values outside the training range scale outside [0, 1].

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

    Numeric attributes scaled by the training range; NaN is missing:

    >>> X = np.array([[0.0, 0], [10.0, 1], [4.0, 1]])
    >>> IB1(attribute_types=["numeric", "nominal"]).fit(X, [0, 1, 1]).predict([[3.0, 0], [np.nan, 1]]).tolist()
    [0, 1]
    """

    def __init__(self, *, attribute_types=None, weka_range_update=False):
        self.attribute_types = attribute_types
        self.weka_range_update = weka_range_update

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = self.attribute_types is not None
        return tags

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
        check_bool(self.weka_range_update, "weka_range_update")
        if self.attribute_types is None:
            X, y = validate_data(self, X, y, ensure_min_samples=1)
            self.numeric_ = np.zeros(X.shape[1], dtype=bool)
        else:
            X, y = validate_data(self, X, y, ensure_min_samples=1, ensure_all_finite="allow-nan")
            self.numeric_ = _check_attribute_types(self.attribute_types, X.shape[1])
        check_classification_targets(y)
        self.classes_, self.y_train_ = np.unique(y, return_inverse=True)
        self.X_train_ = X
        if self.attribute_types is not None:
            num = X[:, self.numeric_]
            # fmin/fmax skip NaN; a column without known values keeps NaN (Weka: range unknown).
            self.min_ = np.fmin.reduce(num, axis=0) if num.shape[0] else np.full(num.shape[1], np.nan)
            self.max_ = np.fmax.reduce(num, axis=0) if num.shape[0] else np.full(num.shape[1], np.nan)
        return self

    def _scale(self, values, lo, hi):
        """Weka's ``IB1.norm``: 0 when the range is unknown or below 1e-6 (NaN stays NaN)."""
        flat = np.isnan(lo) | (np.abs(hi - lo) < 1e-6)
        with np.errstate(all="ignore"):
            z = np.where(flat, 0.0, (values - lo) / np.where(flat, 1.0, hi - lo))
        return np.where(np.isnan(values), np.nan, z)

    def _attribute_distances(self, X):
        """Per-attribute distances of ``X`` rows to every training row.

        Returns an array of shape (n_rows, n_train, n_features); overlap
        distance for nominal attributes (``attribute_types=None`` only).
        """
        return X[:, None, :] != self.X_train_[None, :, :]

    def _mixed_distances(self, X, lo, hi):
        """Weka's ``IB1.distance`` of ``X`` rows to every training row, (n_rows, n_train).

        Summed attribute by attribute in column order, as Weka, so that ties
        between training instances are exact ties here too. ``lo``, ``hi``
        (n_rows, n_numeric) are the ranges scaling each row.
        """
        dist = np.zeros((X.shape[0], self.X_train_.shape[0]))
        k = 0
        for j in range(X.shape[1]):
            a, b = X[:, j][:, None], self.X_train_[:, j][None, :]
            ma, mb = np.isnan(a), np.isnan(b)
            if not self.numeric_[j]:
                dist = dist + (ma | mb | (a != b))
                continue
            lo_j, hi_j = lo[:, k][:, None], hi[:, k][:, None]
            k += 1
            za, zb = self._scale(a, lo_j, hi_j), self._scale(b, lo_j, hi_j)
            other = np.where(ma, zb, za)  # the known value when one is missing
            one = np.where(other < 0.5, 1.0 - other, other)
            diff = np.where(ma & mb, 1.0, np.where(ma | mb, one, za - zb))
            dist = dist + diff * diff
        return dist

    def _query_ranges(self, X):
        """Ranges scaling each query row: training range, widened by earlier rows if asked."""
        num = X[:, self.numeric_]
        lo = np.broadcast_to(self.min_, num.shape)
        hi = np.broadcast_to(self.max_, num.shape)
        if self.weka_range_update and num.shape[0]:
            with np.errstate(invalid="ignore"):
                # Running min/max over queries 0..i (NaN = missing is skipped).
                run_lo = np.fmin.accumulate(num, axis=0)
                run_hi = np.fmax.accumulate(num, axis=0)
            lo, hi = np.fmin(lo, run_lo), np.fmax(hi, run_hi)
        return lo, hi

    def kneighbors_index(self, X):
        """Index of the nearest training instance (first on ties) for each row."""
        check_is_fitted(self)
        if self.attribute_types is None:
            X = validate_data(self, X, reset=False)
            lo = hi = None
        else:
            X = validate_data(self, X, reset=False, ensure_all_finite="allow-nan")
            lo, hi = self._query_ranges(X)
        n_train, n_features = self.X_train_.shape
        rows = max(1, _CHUNK_ELEMENTS // max(1, n_train * n_features))
        out = np.empty(X.shape[0], dtype=np.intp)
        for start in range(0, X.shape[0], rows):
            part = slice(start, start + rows)
            if lo is None:
                dist = self._attribute_distances(X[part]).sum(axis=2)
            else:
                dist = self._mixed_distances(X[part], lo[part], hi[part])
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
