"""C4.5 decision tree as Weka's ``J48`` builds it.

Follows Weka 3.6's ``C45PruneableClassifierTree`` with default options
(``-C 0.25 -M 2``): gain ratio restricted to attributes with at least average
information gain (``C45ModelSelection``), multiway splits, ``minNumObj``,
collapsing, pessimistic pruning (``Stats.addErrs``) and subtree raising.
The tree is built from (unique pattern, class count) pairs, so the same code
serves the instance-level estimator and the count-level fast path. Numeric
attributes and missing values (``attribute_types``) are handled by the builder
of ``replicability.learners._c45_mixed``.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.utils.validation import check_is_fitted

from .._validation import check_positive_int
from ._c45_mixed import fit_mixed, predict_mixed
from ._tree import _EPS, _check_confidence_factor, _TreeBuilder
from .naive_bayes import _CategoryCodesMixin

__all__ = ["C45"]

def _fit_tree(Xu, W, n_values, *, min_num_obj=2, confidence_factor=0.25, subtree_raising=True,
              collapse=True, prune=True):
    """Fit a J48 tree on unique patterns ``Xu`` (m, p) with class counts ``W`` (m, k)."""
    keep = W.sum(axis=1) > 0
    return _TreeBuilder(Xu[keep], W[keep], n_values, min_num_obj, confidence_factor,
                        subtree_raising, collapse, prune).fit()


def _class_probs(node, X, out, rows):
    """Fill ``out[rows]`` with class probabilities as Weka's ClassifierTree.getProbs."""
    if node.sons is None:
        counts = node.dist[0]
        total = counts.sum()
        out[rows] = counts / total if abs(total) >= _EPS else 0.0
        return
    vals = X[rows, node.attr]
    parent = node.dist.sum(axis=0)
    for v in np.unique(vals):
        sub = rows[vals == v]
        son = node.sons[v] if v < len(node.sons) else None
        if son is None or son.empty:
            # Empty son: the split's distribution, i.e. the parent's class frequencies.
            out[sub] = parent / parent.sum()
        else:
            _class_probs(son, X, out, sub)


def _predict_tree(root, X, n_classes):
    """Class codes for ``X``: first class with the largest probability."""
    probs = np.zeros((X.shape[0], n_classes))
    _class_probs(root, X, probs, np.arange(X.shape[0]))
    return np.argmax(probs, axis=1), probs


def _tree_size(node):
    if node.sons is None:
        return 1, 1
    sizes = [_tree_size(s) for s in node.sons]
    return 1 + sum(s[0] for s in sizes), sum(s[1] for s in sizes)


class C45(_CategoryCodesMixin, ClassifierMixin, BaseEstimator):
    """C4.5 decision tree as Weka's J48 (default options), nominal or mixed attributes.

    Grows a tree with multiway splits on nominal attributes. At each node the
    split maximizes the gain ratio :math:`\\mathrm{Gain}(a) / \\mathrm{SplitInfo}(a)`
    among the attributes whose information gain is at least the average gain of
    the admissible attributes (minus 1e-3, as Weka); an attribute is admissible
    when at least two of its branches hold ``min_num_obj`` instances. The tree
    is then collapsed (subtrees that do not reduce the training error become
    leaves) and pruned with C4.5's pessimistic error estimate
    :math:`e + \\mathrm{addErrs}(n, e, \\mathrm{CF})`, including subtree raising.

    Parameters
    ----------
    confidence_factor : float, default=0.25
        Confidence factor CF of pessimistic pruning (Weka ``-C``).
    min_num_obj : int, default=2
        Minimum number of instances in at least two branches (Weka ``-M``).
    subtree_raising : bool, default=True
        Consider replacing a node by its largest branch (Weka: on unless ``-S``).
    prune : bool, default=True
        Prune the tree (Weka ``-U`` turns it off).
    collapse : bool, default=True
        Collapse subtrees that do not reduce the training error (Weka default).
    n_values : int, array-like of int or None, default=None
        Number of values per attribute (``None``: ``max + 1`` in the training
        data). Only affects prediction for codes unseen in training.
    n_classes : int or None, default=None
        Fix the classes to ``0..n_classes-1`` (see :class:`NaiveBayes`).
    attribute_types : sequence of {"numeric", "nominal"} or None, default=None
        Kind of each attribute. ``None``: all nominal, no missing values (the
        original behaviour). Otherwise NaN marks a missing value and numeric
        attributes get binary splits, as J48 (see Notes).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
    n_values_ : ndarray of shape (n_features,)
    tree_ : object
        Root node (private structure).
    n_nodes_ : int
        Number of nodes, as Weka's "Size of the tree".
    n_leaves_ : int
        Number of leaves.
    n_features_in_ : int

    Notes
    -----
    Reimplemented from Weka 3.6's ``C45PruneableClassifierTree``,
    ``C45ModelSelection``, ``C45Split``, ``Distribution`` and ``Stats.addErrs``;
    counts are compared with Weka's tolerance 1e-6. Ties between attributes go
    to the first attribute; ties between classes at a leaf go to the first
    class; ``maxBag`` (the branch considered for raising) takes the *last*
    largest branch, as Weka's ``Distribution.maxBag``. A branch without training
    instances predicts the class frequencies of its parent node (Weka's empty
    leaves); a code unseen in training is routed the same way. A leaf emptied
    by subtree raising predicts class 0 (all probabilities 0), as in Weka.
    Without ``attribute_types``, missing values and numeric attributes are
    not supported.

    With ``attribute_types`` (Weka 3.6's ``C45Split``): a numeric attribute is
    split in two, ``x <= t`` and ``x > t``, at the candidate cut (between
    sorted known values more than 1e-5 apart) of largest information gain
    among those leaving at least ``min(25, max(min_num_obj, 0.1 n / K))``
    instances on each side (:math:`n` known weight, :math:`K` classes); the
    gain is then reduced by :math:`\\log_2(C) / N` (:math:`C` admissible cuts,
    :math:`N` the node's weight) and the threshold :math:`t` is the largest
    value in the whole training data not above the midpoint of the cut.
    Gains are scaled by the fraction of known values and the split entropy
    counts the unknowns as an extra branch. An instance with a missing value
    goes down every branch with its weight times the branch's share of the
    known weight (in training, in pruning and in prediction, where the
    leaves' class frequencies are combined with those weights).

    The tree is grown on the distinct rows of ``X`` weighted by their class
    counts, which gives the same tree as growing it on the instances.

    The estimator passes scikit-learn's common estimator checks; its input tags
    (``categorical``, ``positive_only``) make those checks feed non-negative
    integer codes.

    References
    ----------
    .. [1] Quinlan, J. R. (1993). C4.5: Programs for Machine Learning.
       Morgan Kaufmann.
    .. [2] Hall, M., Frank, E., et al. (2009). The WEKA data mining software:
       an update. SIGKDD Explorations 11(1), 10-18. doi:10.1145/1656274.1656278

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.learners.c45 import C45
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 2, size=(100, 3))
    >>> y = X[:, 1]
    >>> clf = C45().fit(X, y)
    >>> clf.n_nodes_, clf.n_leaves_
    (3, 2)
    >>> clf.predict([[0, 1, 0], [1, 0, 1]])
    array([1, 0])

    A numeric attribute: the threshold is the largest training value below the cut.

    >>> x = np.r_[np.arange(1.0, 21.0), np.arange(30.0, 50.0)][:, None]
    >>> clf = C45(attribute_types=["numeric"]).fit(x, np.repeat([0, 1], 20))
    >>> clf.tree_.attr, clf.predict([[20.5], [np.nan]]).tolist()
    ((0, 20.0), [1, 0])
    """

    def __init__(self, *, confidence_factor=0.25, min_num_obj=2, subtree_raising=True, prune=True,
                 collapse=True, n_values=None, n_classes=None, attribute_types=None):
        self.attribute_types = attribute_types
        self.confidence_factor = confidence_factor
        self.min_num_obj = min_num_obj
        self.subtree_raising = subtree_raising
        self.prune = prune
        self.collapse = collapse
        self.n_values = n_values
        self.n_classes = n_classes

    def fit(self, X, y):
        """Grow, collapse and prune the tree.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Non-negative integer category codes.
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self : C45
        """
        _check_confidence_factor(self.confidence_factor)
        check_positive_int(self.min_num_obj, "min_num_obj")
        if self.attribute_types is not None:
            return self._fit_mixed(X, y)
        X, codes = self._fit_codes(X, y)
        k = len(self.classes_)
        Xu, inv = np.unique(X, axis=0, return_inverse=True)
        W = np.zeros((Xu.shape[0], k))
        np.add.at(W, (inv.ravel(), codes), 1.0)
        self.tree_ = _fit_tree(Xu, W, self.n_values_, min_num_obj=self.min_num_obj,
                               confidence_factor=self.confidence_factor, subtree_raising=self.subtree_raising,
                               collapse=self.collapse, prune=self.prune)
        self.n_nodes_, self.n_leaves_ = _tree_size(self.tree_)
        return self

    def _fit_mixed(self, X, y):
        X, codes = self._fit_mixed_data(X, y)
        self.tree_ = fit_mixed(X, codes, len(self.classes_), self.numeric_, self.n_values_,
                               min_num_obj=self.min_num_obj, confidence_factor=self.confidence_factor,
                               subtree_raising=self.subtree_raising, collapse=self.collapse, prune=self.prune)
        self.n_nodes_, self.n_leaves_ = _tree_size(self.tree_)
        return self

    def predict_proba(self, X):
        """Class frequencies at the leaf reached (Weka's ``distributionForInstance``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_classes)
        """
        check_is_fitted(self)
        if self.attribute_types is not None:
            return predict_mixed(self.tree_, self._mixed_data(X), len(self.classes_))
        return _predict_tree(self.tree_, self._codes(X), len(self.classes_))[1]
