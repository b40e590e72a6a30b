"""Naive Bayes as Weka's ``NaiveBayes`` computes it.

Bouckaert (2003, 2004) and Bouckaert & Frank (2004) compare Weka's naive Bayes
and J48 on synthetic data with binary attributes and on 27 UCI data sets. This
module reproduces Weka 3.6's arithmetic for nominal attributes, including the
order of the floating-point products, so that predictions (and ties) agree with
Weka's; with ``attribute_types`` also numeric attributes (Weka's default normal
estimator) and missing values.
"""

from __future__ import annotations

import numbers

import numpy as np
from scipy.special import ndtr
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["NaiveBayes"]

# Weka multiplies by max(1e-75, p) and rescales by 1e75 when every product
# falls below 1e-75 (NaiveBayes.distributionForInstance) to avoid underflow.
_TINY = 1e-75


def _numeric_hint(bad_columns, n_features):
    """The sentence that says which argument makes float columns numeric attributes."""
    cols = [int(j) for j in bad_columns]
    if n_features <= 8:
        example = repr(["numeric" if j in cols else "nominal" for j in range(n_features)])
    else:
        example = (
            f'["numeric"] * {n_features}'
            if len(cols) == n_features
            else f'["numeric" if j in {set(cols)} else "nominal" for j in range({n_features})]'
        )
    shown = cols if len(cols) <= 10 else cols[:10] + ["..."]
    return (
        f" in column(s) {shown}. Without `attribute_types` every column is read as nominal category codes; "
        f"for numeric features pass `attribute_types` ('numeric' or 'nominal' per column), "
        f"e.g. attribute_types={example}."
    )


def _check_codes(X, name="X"):
    """Return ``X`` as an int64 array of non-negative integer category codes."""
    X = np.asarray(X)
    if X.dtype.kind == "O":
        X = X.astype(float)  # TypeError for non-numbers, as numpy words it
    if X.dtype.kind == "f":
        bad = ~np.isfinite(X) | (X != np.round(X))
        if np.any(bad):
            columns = np.flatnonzero(bad.any(axis=0)) if X.ndim == 2 else [0]
            raise ValueError(
                f"`{name}` must contain non-negative integer category codes; got non-integer values"
                + _numeric_hint(columns, X.shape[-1] if X.ndim == 2 else 1)
            )
    elif X.dtype.kind not in "iub":
        raise ValueError(f"`{name}` must contain non-negative integer category codes; got dtype {X.dtype}.")
    if X.size and X.min() < 0:
        columns = np.flatnonzero((X < 0).any(axis=0)) if X.ndim == 2 else [0]
        raise ValueError(
            f"`{name}` must contain non-negative integer category codes. Negative values in data: got "
            f"{int(X.min())}" + _numeric_hint(columns, X.shape[-1] if X.ndim == 2 else 1)
        )
    return X.astype(np.int64)


def _resolve_n_values(n_values, X):
    """Number of values per attribute: given, or inferred as max + 1 per column."""
    n_features = X.shape[1]
    inferred = X.max(axis=0) + 1 if X.shape[0] else np.ones(n_features, dtype=np.int64)
    if n_values is None:
        return inferred.astype(np.int64)
    if isinstance(n_values, numbers.Integral) and not isinstance(n_values, bool):
        out = np.full(n_features, int(n_values), dtype=np.int64)
    else:
        out = np.asarray(n_values)
        if out.shape != (n_features,) or out.dtype.kind not in "iu":
            raise ValueError(
                f"`n_values` must be a positive integer or one positive integer per column of `X`; got {n_values!r}."
            )
        out = out.astype(np.int64)
    if np.any(out < 1):
        raise ValueError(
            f"`n_values` must be a positive integer or one positive integer per column of `X`; got {n_values!r}."
        )
    if np.any(inferred > out):
        raise ValueError(
            f"`X` has a category code >= `n_values`; got codes up to {int(X.max())} and n_values={n_values!r}."
        )
    return out


def _encode_classes(y, n_classes):
    """Return ``(classes_, y_codes)``; ``n_classes`` fixes the classes to ``0..n_classes-1``."""
    check_classification_targets(y)
    if n_classes is None:
        classes, codes = np.unique(y, return_inverse=True)
        return classes, codes.astype(np.int64)
    if isinstance(n_classes, bool) or not isinstance(n_classes, numbers.Integral) or n_classes < 1:
        raise ValueError(f"`n_classes` must be a positive integer or None; got {n_classes!r}.")
    y_arr = np.asarray(y)
    if y_arr.dtype.kind not in "iu" or y_arr.min() < 0 or y_arr.max() >= n_classes:
        raise ValueError(
            f"`y` must hold integer labels in [0, n_classes) when `n_classes` is given; got {np.unique(y_arr)!r}."
        )
    return np.arange(n_classes), y_arr.astype(np.int64)


def _check_attribute_types(attribute_types, n_features):
    """Validate ``attribute_types``; return a boolean mask of numeric attributes."""
    kinds = None if isinstance(attribute_types, str) else list(attribute_types)
    if kinds is None or len(kinds) != n_features or any(k not in ("numeric", "nominal") for k in kinds):
        raise ValueError(
            f"`attribute_types` must be None or one of 'numeric'/'nominal' per column of `X` "
            f"({n_features} columns); got {attribute_types!r}."
        )
    return np.array([k == "numeric" for k in kinds], dtype=bool)


def _check_mixed(X, numeric, n_values):
    """Validate mixed data: NaN is missing, nominal columns hold codes ``0..n_values-1``.

    Returns ``(X as float, n_values per attribute)``; ``n_values`` is 0 for
    numeric attributes and, for nominal ones, as :func:`_resolve_n_values`.
    """
    X = np.asarray(X, dtype=float)
    if np.any(np.isinf(X)):
        raise ValueError("`X` must not contain infinite values; NaN marks a missing value.")
    nom = X[:, ~numeric]
    known = nom[~np.isnan(nom)]
    if known.size and (np.any(known != np.round(known)) or known.min() < 0):
        raise ValueError("`X` must contain non-negative integer category codes (or NaN) in nominal columns.")
    codes = np.where(np.isnan(nom), 0, nom).astype(np.int64)
    out = np.zeros(X.shape[1], dtype=np.int64)
    if isinstance(n_values, numbers.Integral) or n_values is None:
        out[~numeric] = _resolve_n_values(n_values, codes)
    else:
        given = np.asarray(n_values)
        if given.shape != (X.shape[1],) or given.dtype.kind not in "iu":
            raise ValueError(f"`n_values` must be one integer per column of `X`; got {n_values!r}.")
        out[~numeric] = _resolve_n_values(given[~numeric], codes)
    return X, out


def _numeric_precision(col):
    """Weka's ``NaiveBayes`` estimator precision: mean gap between sorted distinct values.

    The gaps are summed left to right as Weka does; 0.01 (Weka's default) when
    fewer than two distinct values are known.
    """
    vals = np.unique(col[~np.isnan(col)])
    if len(vals) < 2:
        return 0.01
    return float(np.cumsum(np.diff(vals))[-1]) / (len(vals) - 1)


def _weka_nb_proba_known(prior, cond, known):
    """As :func:`_weka_nb_proba`, skipping attributes whose value is missing.

    ``known`` lists, per attribute, a boolean array of shape (...,): where it
    is False the attribute does not enter the product (nor the 1e75 rescaling),
    as Weka's ``distributionForInstance`` skips missing values.
    """
    probs = np.array(prior, dtype=float, copy=True)
    for p, ok in zip(cond, known):
        new = probs * np.maximum(_TINY, p)
        mx = new.max(axis=-1, keepdims=True)
        new = np.where((mx > 0) & (mx < _TINY), new * 1e75, new)
        probs = np.where(ok[..., None], new, probs)
    return _normalize(probs)


def _weka_nb_proba(prior, cond):
    """Weka's naive Bayes posterior, product taken in Weka's order.

    Parameters
    ----------
    prior : ndarray, shape (..., n_classes)
        Laplace-smoothed class prior, ``(n_c + 1) / (n + n_classes)``.
    cond : list of ndarray, each of shape (..., n_classes)
        Per attribute, in attribute order, the Laplace-smoothed
        ``P(x_j | c) = (n_cjv + 1) / (n_c + n_values_j)`` of the observed value.

    Returns
    -------
    ndarray, shape (..., n_classes)
        Normalized posterior, computed as Weka 3.6's
        ``NaiveBayes.distributionForInstance``.
    """
    probs = np.array(prior, dtype=float, copy=True)
    for p in cond:
        probs *= np.maximum(_TINY, p)
        mx = probs.max(axis=-1, keepdims=True)
        probs = np.where((mx > 0) & (mx < _TINY), probs * 1e75, probs)
    return _normalize(probs)


def _normalize(probs):
    """``probs`` divided by its sum over the last axis, summed in order as Weka's ``Utils.sum``."""
    total = np.zeros(probs.shape[:-1])
    for j in range(probs.shape[-1]):
        total = total + probs[..., j]
    return probs / total[..., None]


class _CategoryCodesMixin:
    """What :class:`NaiveBayes` and :class:`~replicability.learners.c45.C45` share.

    Input checks for nominal data (non-negative integer codes) and, with
    ``attribute_types``, mixed data (NaN is missing), the input tags, and the
    prediction from :meth:`predict_proba`. The estimators have the parameters
    ``n_values``, ``n_classes`` and ``attribute_types``.
    """

    def _fit_codes(self, X, y):
        """Check nominal training data; set ``classes_``, ``n_values_``; return ``(X, class codes)``."""
        X, y = validate_data(self, X, y, dtype=None)
        self.classes_, codes = _encode_classes(y, self.n_classes)
        X = _check_codes(X)
        self.n_values_ = _resolve_n_values(self.n_values, X)
        return X, codes

    def _fit_mixed_data(self, X, y):
        """Check mixed training data; set ``classes_``, ``n_values_``, ``numeric_``; return ``(X, class codes)``."""
        X, y = validate_data(self, X, y, dtype=float, ensure_all_finite="allow-nan")
        numeric = _check_attribute_types(self.attribute_types, X.shape[1])
        self.classes_, codes = _encode_classes(y, self.n_classes)
        X, self.n_values_ = _check_mixed(X, numeric, self.n_values)
        self.numeric_ = numeric
        return X, codes

    def _codes(self, X):
        """Nominal data to predict, checked."""
        return _check_codes(validate_data(self, X, dtype=None, reset=False))

    def _mixed_data(self, X):
        """Mixed data to predict, checked."""
        X = validate_data(self, X, dtype=float, ensure_all_finite="allow-nan", reset=False)
        return _check_mixed(X, self.numeric_, self.n_values_)[0]

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True  # category codes are >= 0
        tags.input_tags.categorical = True
        tags.input_tags.allow_nan = self.attribute_types is not None
        return tags

    def predict(self, X):
        """Class of largest probability in :meth:`predict_proba`; ties go to the first class, as in Weka.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        check_is_fitted(self)
        return self.classes_[np.argmax(self.predict_proba(X), axis=1)]


class NaiveBayes(_CategoryCodesMixin, ClassifierMixin, BaseEstimator):
    """Naive Bayes with Weka's Laplace smoothing (and normal estimator for numeric attributes).

    The model assumes the attributes independent given the class and predicts
    the class with the largest posterior

    .. math:: P(c \\mid x) \\propto \\frac{n_c + 1}{n + K}
              \\prod_j \\frac{n_{c, j, x_j} + 1}{n_c + V_j},

    where :math:`n_c` counts class :math:`c` among the :math:`n` training
    instances, :math:`K` is the number of classes, :math:`n_{c,j,v}` counts
    instances of class :math:`c` with value :math:`v` on attribute :math:`j`
    and :math:`V_j` is the number of values of attribute :math:`j`. Both the
    prior and the conditional probabilities are Laplace-smoothed, as in Weka.

    Parameters
    ----------
    n_values : int, array-like of int or None, default=None
        Number of values of each attribute (codes ``0..n_values-1``). ``None``
        infers ``max + 1`` per column from the training data.
    n_classes : int or None, default=None
        If given, the classes are ``0..n_classes-1`` even when some are absent
        from the training data (as in Weka, where the ARFF header fixes them);
        absent classes still get Laplace mass in the prior. If ``None`` the
        classes are those present in ``y``.
    attribute_types : sequence of {"numeric", "nominal"} or None, default=None
        Kind of each attribute. ``None``: all nominal, no missing values (the
        original behaviour). Otherwise NaN marks a missing value, nominal
        columns hold integer codes and numeric attributes get Weka's normal
        estimator (see Notes); ``n_values`` then applies to nominal columns.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    class_count_ : ndarray of shape (n_classes,)
        Training instances per class.
    category_count_ : list of ndarray of shape (n_classes, n_values_j)
        Per attribute, instances per class and value.
    n_values_ : ndarray of shape (n_features,)
        Number of values per attribute used for smoothing (0 for numeric).
    numeric_ : ndarray of bool of shape (n_features,)
        Numeric attributes (all False when ``attribute_types`` is None).
    mean_, std_ : ndarray of shape (n_features, n_classes)
        Normal estimator per numeric attribute and class (NaN for nominal).
    precision_ : ndarray of shape (n_features,)
        Weka's estimator precision per numeric attribute (NaN for nominal).
    n_features_in_ : int
        Number of attributes.

    Notes
    -----
    The posterior is computed as Weka 3.6's ``NaiveBayes.distributionForInstance``:
    the prior times the conditional probabilities, multiplied attribute by
    attribute in column order (each factor floored at 1e-75, with Weka's 1e75
    rescaling against underflow), then normalized. Ties go to the first class
    with the maximum probability, as in Weka.

    Weka knows the number of values of every attribute from the ARFF header.
    When ``n_values`` is ``None`` it is inferred per column as ``max + 1``: an
    attribute that is constant (say 0) within a training fold then looks
    one-valued. A code not seen in training (``>= n_values_``) at prediction
    time still gets the Laplace mass ``1 / (n_c + V_j)`` of a zero count, so
    the model does not break; but the smoothing denominators then differ from
    Weka's, so pass ``n_values`` when it is known. A code ``>= n_values`` when
    ``n_values`` was given raises ``ValueError``.

    Numeric attributes (``attribute_types``) follow Weka 3.6's default
    ``NormalEstimator``: the precision :math:`\\delta_j` is the mean gap between
    the sorted distinct training values of attribute :math:`j` (0.01 with fewer
    than two), values are rounded to multiples of :math:`\\delta_j`
    (``rint(x / delta) * delta``), the mean and the (population, divisor
    :math:`n`) standard deviation of the rounded values are taken per class,
    the standard deviation floored at :math:`\\delta_j / 6` (and equal to it
    when it is below 1e-10), and the factor of a value :math:`x` is the normal
    probability of the interval :math:`x \\pm \\delta_j / 2` around the
    rounded :math:`x`. Missing values are skipped in training (so a nominal
    attribute's smoothing denominator counts the class's known values) and in
    prediction (the attribute does not enter the product).

    The estimator passes scikit-learn's common estimator checks; its input tags
    (``categorical``, ``positive_only``) make those checks feed non-negative
    integer codes. Non-integer or negative features raise ``ValueError``.

    References
    ----------
    .. [1] Hall, M., Frank, E., et al. (2009). The WEKA data mining software:
       an update. SIGKDD Explorations 11(1), 10-18. doi:10.1145/1656274.1656278
    .. [2] Bouckaert, R. R. (2003). Choosing between two learning algorithms
       based on calibrated tests. ICML 2003, 51-58.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.learners.naive_bayes import NaiveBayes
    >>> X = np.array([[0, 1], [0, 0], [1, 1], [1, 1], [1, 0]])
    >>> y = np.array([0, 0, 1, 1, 0])
    >>> clf = NaiveBayes(n_values=2).fit(X, y)
    >>> clf.predict([[1, 1], [0, 0]])
    array([1, 0])
    >>> print(np.round(clf.predict_proba([[1, 1]]), 4))
    [[0.275 0.725]]

    A numeric attribute and a missing value (NaN):

    >>> X = np.array([[1.0, 0], [1.2, 0], [0.9, 1], [3.1, 1], [2.8, 1], [3.3, 0]])
    >>> clf = NaiveBayes(attribute_types=["numeric", "nominal"]).fit(X, [0, 0, 0, 1, 1, 1])
    >>> clf.predict([[1.1, 1], [3.0, np.nan]]).tolist()
    [0, 1]
    """

    def __init__(self, *, n_values=None, n_classes=None, attribute_types=None):
        self.n_values = n_values
        self.n_classes = n_classes
        self.attribute_types = attribute_types

    def fit(self, X, y):
        """Count classes and (class, attribute, value) triples.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Non-negative integer category codes.
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self : NaiveBayes
        """
        if self.attribute_types is not None:
            return self._fit_mixed(X, y)
        X, codes = self._fit_codes(X, y)
        k = len(self.classes_)
        self.numeric_ = np.zeros(X.shape[1], dtype=bool)
        self.class_count_ = np.bincount(codes, minlength=k).astype(float)
        self.category_count_ = [
            np.bincount(codes * v + X[:, j], minlength=k * v).reshape(k, v).astype(float)
            for j, v in enumerate(self.n_values_)
        ]
        return self

    def _fit_mixed(self, X, y):
        X, codes = self._fit_mixed_data(X, y)
        numeric = self.numeric_
        k, p = len(self.classes_), X.shape[1]
        self.class_count_ = np.bincount(codes, minlength=k).astype(float)
        self.category_count_ = []
        self.mean_, self.std_, self.precision_ = (np.full((p, k), np.nan), np.full((p, k), np.nan),
                                                  np.full(p, np.nan))
        onehot = np.eye(k)[codes]
        for j in range(p):
            col = X[:, j]
            known = ~np.isnan(col)
            if not numeric[j]:
                v = int(self.n_values_[j])
                cj = col[known].astype(np.int64)
                self.category_count_.append(
                    np.bincount(codes[known] * v + cj, minlength=k * v).reshape(k, v).astype(float))
                continue
            self.category_count_.append(None)
            prec = _numeric_precision(col)
            r = np.rint(col[known] / prec) * prec  # NormalEstimator.round
            oh = onehot[known]
            w = oh.sum(axis=0)
            s1, s2 = r @ oh, (r * r) @ oh
            with np.errstate(invalid="ignore", divide="ignore"):
                mean = np.where(w > 0, s1 / w, 0.0)
                sd = np.sqrt(np.abs(s2 - mean * s1) / np.where(w > 0, w, 1.0))
            self.mean_[j] = mean
            self.std_[j] = np.where((w > 0) & (sd > 1e-10), np.maximum(prec / 6, sd), prec / 6)
            self.precision_[j] = prec
        return self

    def _predict_proba_mixed(self, X):
        X = self._mixed_data(X)
        n, k = self.class_count_.sum(), len(self.classes_)
        prior = np.broadcast_to((self.class_count_ + 1.0) / (n + k), (X.shape[0], k))
        cond, known = [], []
        for j, counts in enumerate(self.category_count_):
            xj = X[:, j]
            ok = ~np.isnan(xj)
            if self.numeric_[j]:
                prec, mean, sd = self.precision_[j], self.mean_[j], self.std_[j]
                r = np.rint(np.where(ok, xj, 0.0) / prec)[:, None] * prec
                # NormalEstimator.getProbability: mass of [r - prec/2, r + prec/2].
                c = ndtr((r - mean + prec / 2) / sd) - ndtr((r - mean - prec / 2) / sd)
            else:
                v = int(self.n_values_[j])
                codes = np.where(ok, xj, 0).astype(np.int64)
                if np.any(codes >= v):
                    raise ValueError("`X` has a category code >= `n_values`.")
                c = (counts[:, codes].T + 1.0) / (counts.sum(axis=1) + v)
            cond.append(c)
            known.append(ok)
        return _weka_nb_proba_known(prior, cond, known)

    def predict_proba(self, X):
        """Posterior class probabilities, computed in Weka's order.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Non-negative integer category codes.

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self)
        if self.attribute_types is not None:
            return self._predict_proba_mixed(X)
        X = self._codes(X)
        if self.n_values is not None and np.any(X >= self.n_values_):
            raise ValueError("`X` has a category code >= `n_values`.")
        n, k = self.class_count_.sum(), len(self.classes_)
        prior = np.broadcast_to((self.class_count_ + 1.0) / (n + k), (X.shape[0], k))
        cond = []
        for j, counts in enumerate(self.category_count_):
            v = self.n_values_[j]
            xj = X[:, j]
            seen = xj < v
            c = np.zeros((X.shape[0], k))
            c[seen] = counts[:, xj[seen]].T
            # Unseen code (inferred n_values only): Laplace mass of a zero count.
            cond.append((c + 1.0) / (self.class_count_ + v))
        return _weka_nb_proba(prior, cond)
