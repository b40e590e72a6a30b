"""The pieces of Weka's J48 tree builder shared by the nominal and the mixed-data C4.5.

Weka 3.6's ``C45PruneableClassifierTree`` on (unique pattern, class count) pairs:
gain-ratio selection, ``minNumObj``, collapsing, pessimistic pruning
(``Stats.addErrs``) and subtree raising. :mod:`replicability.learners.c45` fits it
on nominal data, ``replicability.learners._c45_mixed`` extends the builder to
numeric attributes and missing values.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtri

__all__ = ["add_errs"]

_EPS = 1e-6  # Weka's Utils.SMALL: every comparison of counts uses it


def _log_func(num):
    """``num * log2(num)``, 0 for ``num < 1e-6`` (Weka's EntropyBasedSplitCrit.logFunc)."""
    num = np.asarray(num, dtype=float)
    safe = np.where(num < 1e-6, 1.0, num)
    return np.where(num < 1e-6, 0.0, safe * np.log(safe) / math.log(2))


def _check_confidence_factor(value):
    """Return J48's confidence factor (``-C``) if it is a number in (0, 0.5]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 0.5:
        raise ValueError(f"`confidence_factor` must be a number in (0, 0.5]; got {value!r}.")
    return value


def add_errs(n, e, cf):
    """Weka's ``Stats.addErrs``: extra errors of the upper confidence limit (C4.5)."""
    if cf > 0.5:
        return 0.0
    if e < 1:
        # Base case e == 0 from Documenta Geigy; linear in e between 0 and 1 as C4.5.
        base = n * (1 - math.pow(cf, 1 / n))
        if e == 0:
            return base
        return base + e * (add_errs(n, 1, cf) - base)
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    z = float(ndtri(1 - cf))
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) / (1 + z * z / n)
    return r * n - e


def _max_class(counts):
    """First class with the largest count (Weka's Distribution.maxClass)."""
    best, idx = 0.0, 0
    for i, c in enumerate(counts):
        if c - best > _EPS:
            best, idx = c, i
    return idx


def _max_bag(per_bag):
    """Last bag with the largest weight (Weka's Distribution.maxBag uses >=)."""
    best, idx = 0.0, -1
    for i, c in enumerate(per_bag):
        if c - best > -_EPS:
            best, idx = c, i
    return idx


def _num_incorrect(counts):
    return counts.sum() - counts[_max_class(counts)]


class _Node:
    __slots__ = ("attr", "dist", "empty", "rows", "sons")

    def __init__(self):
        self.attr, self.sons, self.rows, self.dist, self.empty = -1, None, None, None, False


class _TreeBuilder:
    """Builds a J48 tree on unique patterns ``Xu`` with class-count weights ``W``."""

    def __init__(self, Xu, W, n_values, min_num_obj, cf, subtree_raising, collapse, prune):
        self.Xu, self.W, self.n_values = Xu, W, n_values
        self.m, self.cf = float(min_num_obj), float(np.float32(cf))  # Weka stores CF as a float
        self.raising, self.collapse_tree, self.prune_tree = subtree_raising, collapse, prune
        self.n_all = W.sum()
        self.n_values = np.asarray(n_values, dtype=np.int64)
        self.v_max = int(self.n_values.max())
        self.multi_val = not np.any(np.asarray(n_values) - 0.3 * self.n_all < -_EPS)

    def bags(self, rows, attr):
        v, k = int(self.n_values[attr]), self.W.shape[1]
        out = np.zeros((v, k))
        np.add.at(out, self.Xu[rows, attr], self.W[rows])
        return out

    def all_bags(self, rows):
        """Class counts per (attribute, value): shape (n_attributes, max n_values, n_classes)."""
        Xr, Wr = self.Xu[rows], self.W[rows]
        p, v, k = Xr.shape[1], self.v_max, Wr.shape[1]
        flat = (Xr + np.arange(p) * v).ravel()
        out = np.empty((p, v, k))
        for c in range(k):
            out[..., c] = np.bincount(flat, weights=np.repeat(Wr[:, c], p), minlength=p * v).reshape(p, v)
        return out

    def select(self, rows):
        """C45ModelSelection.selectModel: best attribute, or -1 for a leaf."""
        counts = self.W[rows].sum(axis=0)
        total = counts.sum()
        if total - 2 * self.m < -_EPS or abs(total - counts[_max_class(counts)]) < _EPS:
            return -1
        old_ent = _log_func(total) - _log_func(counts).sum()
        bags = self.all_bags(rows)
        per_bag = bags.sum(axis=2)
        # Distribution.check(minNoObj): at least two branches with min_num_obj instances.
        valid = np.count_nonzero(per_bag - self.m > -_EPS, axis=1) > 1
        num = old_ent - (_log_func(per_bag) - _log_func(bags).sum(axis=2)).sum(axis=1)
        gain = np.where(np.abs(num) < _EPS, 0.0, num / total)  # InfoGainSplitCrit
        split_ent = _log_func(total) - _log_func(per_bag).sum(axis=1)
        safe = np.where(np.abs(split_ent) < _EPS, 1.0, split_ent)
        ratio = np.where(np.abs(split_ent) < _EPS, 0.0, gain / (safe / total))  # GainRatioSplitCrit
        # Only attributes with few values (numValues < 0.3 N) enter the
        # average, unless every attribute has many values (Weka's multiVal).
        in_avg = valid & (self.multi_val | (self.n_values - 0.3 * self.n_all < -_EPS))
        n_valid = int(np.count_nonzero(in_avg))
        if not valid.any() or n_valid == 0:
            return -1
        avg = sum(gain[in_avg].tolist()) / n_valid  # sequential sum, as Weka
        best, min_result = -1, 0.0
        for a, (ok, g, r) in enumerate(zip(valid.tolist(), gain.tolist(), ratio.tolist())):
            # Ascending attribute order: the first attribute wins ties.
            if ok and g >= avg - 1e-3 and r - min_result > _EPS:
                best, min_result = a, r
        if abs(min_result) < _EPS:
            return -1
        return best

    def split_rows(self, rows, attr):
        vals = self.Xu[rows, attr]
        return [rows[vals == v] for v in range(int(self.n_values[attr]))]

    def build(self, rows):
        node = _Node()
        node.rows = rows
        attr = self.select(rows)
        if attr >= 0:
            node.attr = attr
            node.dist = self.bags(rows, attr)
            node.sons = [self.build(r) for r in self.split_rows(rows, attr)]
        else:
            node.dist = self.W[rows].sum(axis=0)[None, :]
            node.empty = abs(node.dist.sum()) < _EPS
        return node

    def make_leaf(self, node):
        node.attr, node.sons = -1, None
        node.dist = node.dist.sum(axis=0)[None, :]

    def training_errors(self, node):
        if node.sons is None:
            return _num_incorrect(node.dist[0])
        return sum(self.training_errors(s) for s in node.sons)

    def collapse(self, node):
        if node.sons is None:
            return
        if self.training_errors(node) >= _num_incorrect(node.dist.sum(axis=0)) - 1e-3:
            self.make_leaf(node)
        else:
            for s in node.sons:
                self.collapse(s)

    def est_errors_dist(self, counts):
        total = counts.sum()
        if abs(total) < _EPS:
            return 0.0
        e = _num_incorrect(counts)
        return e + add_errs(total, e, self.cf)

    def est_errors(self, node):
        if node.sons is None:
            return self.est_errors_dist(node.dist[0])
        return sum(self.est_errors(s) for s in node.sons)

    def est_errors_branch(self, node, rows):
        if node.sons is None:
            return self.est_errors_dist(self.W[rows].sum(axis=0))
        parts = self.split_rows(rows, node.attr)
        return sum(self.est_errors_branch(s, r) for s, r in zip(node.sons, parts))

    def new_distribution(self, node, rows):
        node.rows = rows
        if node.sons is None:
            node.dist = self.W[rows].sum(axis=0)[None, :]
            if abs(node.dist.sum()) >= _EPS:
                node.empty = False
        else:
            node.dist = self.bags(rows, node.attr)
            for s, r in zip(node.sons, self.split_rows(rows, node.attr)):
                self.new_distribution(s, r)

    def prune(self, node):
        """C45PruneableClassifierTree.prune: replace by a leaf or raise the largest branch."""
        if node.sons is None:
            return
        for s in node.sons:
            self.prune(s)
        largest = _max_bag(node.dist.sum(axis=1))
        if self.raising:
            err_branch = self.est_errors_branch(node.sons[largest], node.rows)
        else:
            err_branch = np.inf
        err_leaf = self.est_errors_dist(node.dist.sum(axis=0))
        err_tree = self.est_errors(node)
        if err_leaf - (err_tree + 0.1) <= _EPS and err_leaf - (err_branch + 0.1) <= _EPS:
            self.make_leaf(node)
            return
        if err_branch - (err_tree + 0.1) <= _EPS:
            son = node.sons[largest]
            node.sons, node.attr, node.dist = son.sons, son.attr, son.dist
            self.new_distribution(node, node.rows)
            self.prune(node)

    def fit(self):
        root = self.build(np.arange(self.Xu.shape[0]))
        if self.collapse_tree:
            self.collapse(root)
        if self.prune_tree:
            self.prune(root)
        return root
