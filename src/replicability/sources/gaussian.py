"""Two Gaussian classes of known Bayes accuracy (the source of the Raschka 2018 simulation studies).

Given the class, the features are independent unit-variance normals whose means
differ by ``delta`` (Mahalanobis) between the classes, so the Bayes accuracy is
``Phi(delta / 2)`` and the *true* accuracy of a trained model can be measured on
as many fresh cases as needed; ``delta = 0`` is an exact null.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from .._validation import check_nonnegative, check_positive_int

__all__ = ["bayes_accuracy", "sample_gaussian_classes"]


def sample_gaussian_classes(n, *, n_features=2, n_informative=None, delta=1.0, rng=None):
    r"""Draw a two-class data set with Gaussian classes of known Bayes accuracy.

    Classes are equally likely. Given the class ``y`` in {0, 1}, the features
    are independent normal with unit variance; the first ``n_informative``
    have mean ``(2y - 1) delta / (2 sqrt(n_informative))``, the others mean 0.
    The class means are ``delta`` apart, so the Bayes accuracy is
    ``Phi(delta / 2)``; with ``delta = 0`` the class is independent of the
    features and every learner has true accuracy 1/2 (an exact null).

    Parameters
    ----------
    n : int
        Number of cases.
    n_features : int, optional
        Number of features.
    n_informative : int, optional
        Number of features that carry the class signal; default all.
    delta : float, optional
        Distance between the class means (Mahalanobis), >= 0.
    rng : numpy.random.Generator or int, optional
        Source of randomness.

    Returns
    -------
    X : ndarray, shape (n, n_features)
    y : ndarray of int, shape (n,)

    Examples
    --------
    >>> from replicability.sources.gaussian import sample_gaussian_classes
    >>> X, y = sample_gaussian_classes(5, n_features=3, rng=0)
    >>> X.shape, y.tolist()
    ((5, 3), [1, 1, 1, 0, 0])
    """
    n = check_positive_int(n, "n")
    n_features = check_positive_int(n_features, "n_features")
    if n_informative is None:
        n_informative = n_features
    n_informative = check_positive_int(n_informative, "n_informative")
    if n_informative > n_features:
        raise ValueError(
            f"`n_informative` must be at most `n_features` = {n_features}; got {n_informative}."
        )
    delta = check_nonnegative(delta, "delta")
    rng = np.random.default_rng(rng)
    y = rng.integers(0, 2, size=n)
    X = rng.standard_normal((n, n_features))
    X[:, :n_informative] += ((2 * y - 1) * delta / (2 * np.sqrt(n_informative)))[:, None]
    return X, y


def bayes_accuracy(delta):
    """Bayes accuracy ``Phi(delta / 2)`` of :func:`sample_gaussian_classes`.

    Parameters
    ----------
    delta : float
        Distance between the class means, >= 0.

    Returns
    -------
    float

    Examples
    --------
    >>> from replicability.sources.gaussian import bayes_accuracy
    >>> round(bayes_accuracy(2.0), 4)
    0.8413
    """
    return float(stats.norm.cdf(check_nonnegative(delta, "delta") / 2))
