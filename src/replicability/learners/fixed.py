"""The two fixed predictors of Task I (Bouckaert 2005, Section 3).

Task I: a binary class ``y`` and an independent binary attribute ``x``.
Learner A always predicts 1; learner B predicts ``y = x``. Both ignore the
training data, so the null hypothesis "A and B are equally accurate" holds
exactly when ``P(y = x) = 1/2``.
"""

from __future__ import annotations

import numbers

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["AlwaysPredict", "CopyAttribute"]


class AlwaysPredict(ClassifierMixin, BaseEstimator):
    """Predict one fixed value, whatever the data (Task I, learner A).

    Parameters
    ----------
    value : scalar, default 1
        The prediction for every instance. It need not occur in the training
        labels: the predictor ignores the training set.

    Attributes
    ----------
    classes_ : ndarray
        Class labels seen in :meth:`fit`.
    n_features_in_ : int
        Number of attributes seen in :meth:`fit`.

    Notes
    -----
    Unlike :class:`sklearn.dummy.DummyClassifier` with ``strategy="constant"``,
    the value need not be one of the training labels: on a small Task I data
    set the training fold may lack class 1, and learner A must still predict 1.

    References
    ----------
    Bouckaert, R. R. (2005). Low replicability of machine learning experiments
    is not a small data set phenomenon. ICML 2005 workshop on meta-learning.

    Examples
    --------
    >>> import numpy as np
    >>> AlwaysPredict(value=1).fit(np.zeros((2, 1)), [0, 0]).predict(np.zeros((3, 1))).tolist()
    [1, 1, 1]
    """

    def __init__(self, value=1):
        self.value = value

    def fit(self, X, y):
        """Record the labels and the number of attributes; nothing is learned."""
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        """Return ``value`` for every row of ``X``."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return np.full(X.shape[0], self.value)


class CopyAttribute(ClassifierMixin, BaseEstimator):
    """Predict the value of one attribute (Task I, learner B: ``y = x``).

    Parameters
    ----------
    attribute : int, default 0
        Column index of the attribute copied into the prediction.

    Attributes
    ----------
    classes_ : ndarray
        Class labels seen in :meth:`fit`.
    n_features_in_ : int
        Number of attributes seen in :meth:`fit`.

    References
    ----------
    Bouckaert, R. R. (2005). Low replicability of machine learning experiments
    is not a small data set phenomenon. ICML 2005 workshop on meta-learning.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.array([[0, 1], [1, 0], [1, 1]])
    >>> CopyAttribute(attribute=0).fit(X, [0, 1, 1]).predict(X).tolist()
    [0, 1, 1]
    """

    def __init__(self, attribute=0):
        self.attribute = attribute

    def fit(self, X, y):
        """Check ``attribute`` against ``X`` and record the labels."""
        X, y = validate_data(self, X, y)
        check_classification_targets(y)
        attr = self.attribute
        if (
            isinstance(attr, bool)
            or not isinstance(attr, numbers.Integral)
            or not 0 <= attr < X.shape[1]
        ):
            raise ValueError(
                f"`attribute` must be an integer in [0, {X.shape[1]}) (a column of X); "
                f"got {attr!r}."
            )
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        """Return column ``attribute`` of ``X``."""
        check_is_fitted(self)
        X = validate_data(self, X, reset=False)
        return X[:, self.attribute].copy()
