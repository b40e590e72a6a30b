"""Synthetic data sources of the papers.

* Task I of Bouckaert (2005): one binary attribute ``x`` and a binary class
  ``y`` whose joint distribution is controlled by a single parameter ``q``; the
  fixed predictors "always 1" (learner A) and "copy x" (learner B) then differ in
  expected accuracy by ``2q - 1/2``.
* Independent binary attributes with a chosen class distribution (Bouckaert
  2003, 2004; data source 1 of Bouckaert & Frank 2004): no attribute carries
  information on the class, so the null hypothesis "A and B perform the same"
  holds for every pair of learners.

Cells of Task I are numbered ``2 * x + y``: ``(x, y) = (0, 0), (0, 1), (1, 0),
(1, 1)``. :mod:`replicability.sources.counts` uses the same order.
"""

from __future__ import annotations

import numpy as np

from .._validation import as_generator, as_numbers_between, check_positive_int

__all__ = [
    "TASK1_CELLS",
    "task1_probabilities",
    "sample_task1",
    "sample_independent_binary",
]

#: The (x, y) value of each Task I cell, in the order used by every array here.
TASK1_CELLS = ((0, 0), (0, 1), (1, 0), (1, 1))


def _check_q(q):
    """Return ``q`` as a float array with every value in [1/4, 1/2]."""
    # Section 4 of Bouckaert (2005): q > 1/2 makes the cells negative and
    # q < 1/4 makes B worse than its inverted prediction, so q in [1/4, 1/2].
    return as_numbers_between(q, "q", 0.25, 0.5)


def _attribute_probabilities(attribute_probability, n_attributes):
    """Return ``P(x_j = 1)``: one probability for all attributes, or one per attribute."""
    p = as_numbers_between(attribute_probability, "attribute_probability", 0, 1)
    if p.ndim != 0 and p.shape != (n_attributes,):
        raise ValueError(
            f"`attribute_probability` must be a number or have shape ({n_attributes},); got shape {p.shape}."
        )
    return p


def task1_probabilities(q):
    """Joint distribution P(x, y) of Task I (Bouckaert 2005, Section 4).

    ``P(x=0, y=0) = P(x=1, y=1) = q`` and ``P(x=0, y=1) = P(x=1, y=0) = 1/2 - q``,
    so ``P(y=1) = 1/2``. Learner A ("always predict 1") has expected accuracy
    1/2, learner B ("predict x") has ``2q``; the expected difference B - A is
    ``2q - 1/2``, and ``q = 1/4`` is the null hypothesis (x independent of y).

    Parameters
    ----------
    q : float or array_like
        Probability of each concordant cell, in [1/4, 1/2].

    Returns
    -------
    ndarray
        Shape ``q.shape + (4,)``: the probabilities of the cells
        ``(x, y) = (0, 0), (0, 1), (1, 0), (1, 1)`` (see ``TASK1_CELLS``).

    Notes
    -----
    The paper sweeps the accuracy gap ``2q - 1/2`` from 0 to 0.5 in 100 steps;
    ``q = 1/4 + gap/2`` recovers ``q`` from a gap.

    References
    ----------
    R. R. Bouckaert (2005). Low replicability of machine learning experiments
    is not a small data set phenomenon. ICML Workshop on Meta-learning.

    Examples
    --------
    >>> from replicability.sources.synthetic import task1_probabilities
    >>> task1_probabilities(0.3).round(2).tolist()
    [0.3, 0.2, 0.2, 0.3]
    """
    q = _check_q(q)
    off = 0.5 - q
    return np.stack([q, off, off, q], axis=-1)


def sample_task1(n, q, *, rng=None):
    """Draw ``n`` instances of Task I (Bouckaert 2005, Section 4).

    Parameters
    ----------
    n : int
        Number of instances, at least 1.
    q : float
        Probability of each concordant cell ``(0, 0)`` and ``(1, 1)``, in
        [1/4, 1/2]; see :func:`task1_probabilities`.
    rng : numpy.random.Generator, int or None, keyword-only
        Source of randomness.

    Returns
    -------
    X : ndarray of int, shape (n, 1)
        The binary attribute ``x``.
    y : ndarray of int, shape (n,)
        The binary class.

    Notes
    -----
    Instances are independent draws from :func:`task1_probabilities`. For
    learners that ignore the training data, :mod:`replicability.sources.counts`
    samples the cell counts directly, at a cost that does not grow with ``n``.

    References
    ----------
    R. R. Bouckaert (2005). Low replicability of machine learning experiments
    is not a small data set phenomenon. ICML Workshop on Meta-learning.

    Examples
    --------
    >>> from replicability.sources.synthetic import sample_task1
    >>> X, y = sample_task1(1000, 0.5, rng=0)
    >>> X.shape, y.shape, bool((X[:, 0] == y).all())
    ((1000, 1), (1000,), True)
    """
    n = check_positive_int(n, "n")
    q = _check_q(q)
    if q.ndim != 0:
        raise ValueError(f"`q` must be a single number; got shape {q.shape}.")
    rng = as_generator(rng)
    cells = rng.choice(4, size=n, p=task1_probabilities(q))
    X = (cells // 2).astype(np.int64).reshape(n, 1)
    y = (cells % 2).astype(np.int64)
    return X, y


def _class_distribution(class_probability, n_classes):
    """Return the class distribution as a length-``n_classes`` float array."""
    if class_probability is None:
        return np.full(n_classes, 1.0 / n_classes)
    p = as_numbers_between(class_probability, "class_probability", 0, 1)
    if p.ndim == 0:
        # P(y = 1) = p; the other classes share 1 - p equally (binary: P(y = 0) = 1 - p).
        rest = (1.0 - float(p)) / (n_classes - 1)
        dist = np.full(n_classes, rest)
        dist[1] = float(p)
        return dist
    if p.shape != (n_classes,):
        raise ValueError(
            f"`class_probability` must be a number or have shape ({n_classes},); got shape {p.shape}."
        )
    if not np.isclose(p.sum(), 1.0, rtol=0, atol=1e-12):
        raise ValueError(f"`class_probability` must sum to 1; got {class_probability!r}.")
    return p / p.sum()


def sample_independent_binary(
    n,
    *,
    n_attributes=10,
    class_probability=None,
    n_classes=2,
    attribute_probability=0.5,
    rng=None,
):
    """Draw a data set of binary attributes that are independent of the class.

    The source of Bouckaert (2003, Section 4; 2004, Section 4) and data source 1
    of Bouckaert & Frank (2004): ``n_attributes`` mutually independent binary
    attributes and a class drawn independently of them, so no learner can do
    better than predicting the class distribution and the null hypothesis
    "learners A and B have the same expected accuracy" holds for every pair of
    learners that treat the classes alike.

    Parameters
    ----------
    n : int
        Number of instances, at least 1 (the papers use 300).
    n_attributes : int, keyword-only
        Number of binary attributes, at least 1 (the papers use 10, counting
        the class among the "10 binary variables"; pass 9 for that reading).
    class_probability : float, array_like or None, keyword-only
        ``None`` (default): every class equally likely (50% for two classes,
        the setting of all three papers' main experiments). A number ``p`` in
        [0, 1]: ``P(y = 1) = p`` and the other ``n_classes - 1`` classes share
        ``1 - p`` equally; for two classes ``P(y = 0) = 1 - p``. An array of
        length ``n_classes``: the full class distribution (must sum to 1).
    n_classes : int, keyword-only
        Number of class values, at least 2 (the 2004 sweep uses 2, 3 and 4).
    attribute_probability : float or array_like, keyword-only
        ``P(x_j = 1)``, one number for all attributes or one per attribute
        (Bouckaert & Frank 2004 use "various different probabilities").
    rng : numpy.random.Generator, int or None, keyword-only
        Source of randomness.

    Returns
    -------
    X : ndarray of int, shape (n, n_attributes)
        Attribute values in {0, 1}.
    y : ndarray of int, shape (n,)
        Class values in ``{0, ..., n_classes - 1}``.

    Notes
    -----
    The papers give "class probability" values 0.05 to 0.5 without naming the
    class; since the attributes carry no information, relabelling the classes
    changes nothing, and we read it as the probability of class 1 (the minority
    class when it is below 0.5). For three and four classes the 2004 paper does
    not give the distribution; the default makes the classes equally likely,
    which for two classes is the papers' 50% setting.

    References
    ----------
    R. R. Bouckaert (2003). Choosing between two learning algorithms based on
    calibrated tests. ICML, 51-58.

    R. R. Bouckaert (2004). Estimating replicability of classifier learning
    experiments. ICML. https://doi.org/10.1145/1015330.1015338

    R. R. Bouckaert and E. Frank (2004). Evaluating the replicability of
    significance tests for comparing learning algorithms. PAKDD, 3-12.
    https://doi.org/10.1007/978-3-540-24775-3_3

    Examples
    --------
    >>> from replicability.sources.synthetic import sample_independent_binary
    >>> X, y = sample_independent_binary(300, class_probability=0.2, rng=1)
    >>> X.shape, y.shape, sorted(set(y.tolist()))
    ((300, 10), (300,), [0, 1])
    """
    n = check_positive_int(n, "n")
    n_attributes = check_positive_int(n_attributes, "n_attributes")
    n_classes = check_positive_int(n_classes, "n_classes", minimum=2)
    dist = _class_distribution(class_probability, n_classes)
    p_attr = _attribute_probabilities(attribute_probability, n_attributes)
    rng = as_generator(rng)
    X = (rng.random((n, n_attributes)) < p_attr).astype(np.int64)
    y = rng.choice(n_classes, size=n, p=dist).astype(np.int64)
    return X, y
