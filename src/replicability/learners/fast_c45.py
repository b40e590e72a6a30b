"""J48 (C4.5) on binary attributes for many training sets at once.

The private engine behind :func:`~replicability.learners.fastpath.c45_patterns`.
It builds exactly the trees of :class:`~replicability.learners.c45.C45`, from
(pattern, class) counts, with the work of all training sets done together:

* **Rows.** Each training set is its non-empty (pattern, class-count) rows
  (at most ``2**p``, about 260 for 270 instances on 10 attributes). A node's
  instances are the rows routed to it, so class counts are ``bincount`` sums.
* **Growing** proceeds level by level for all nodes of all training sets:
  ``C45ModelSelection``'s leaf tests, ``minNumObj``, gain ratio and the
  average-gain condition as array operations, in C45's arithmetic (sequential
  sum for the average gain, the first attribute wins ties, ``num * log2(num)``
  from a table of ``c45._log_func`` when the counts are integers).
* **Collapsing** is a bottom-up sum of training errors and one mask.
* **Pruning** (``C45PruneableClassifierTree.prune``: pessimistic errors with
  subtree raising) runs bottom-up over the levels of every tree at once. A
  node's decision needs its sons pruned, its leaf estimate, its subtree
  estimate (cached per node) and the estimate of its largest branch given all
  of the node's rows (routed through that branch). Raised nodes are pruned
  again by a recursive call over all of them at once, as C45 re-prunes a
  raised subtree.

Exactness: class counts are sums of the pattern counts in another order than
``C45`` adds them; with integer counts (instances, 0/1 fold masks) every sum is
exact, and every other quantity is computed with the same operations in the
same order, so trees and predictions are identical (tested on random folds,
including subtree raising).
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtri

from .c45 import _EPS, _log_func

__all__: list[str] = []  # private engine; the public entry point is fastpath.c45_patterns


def _max_class_vec(c):
    """Weka's Distribution.maxClass along the last axis (first class, tolerance 1e-6)."""
    best = np.zeros(c.shape[:-1])
    idx = np.zeros(c.shape[:-1], dtype=np.int64)
    for k in range(c.shape[-1]):
        better = c[..., k] - best > _EPS
        best = np.where(better, c[..., k], best)
        idx = np.where(better, k, idx)
    return idx


def _num_incorrect_vec(c):
    total = c.sum(axis=-1)
    return total - np.take_along_axis(c, _max_class_vec(c)[..., None], axis=-1)[..., 0]


def _select(dist, bags, free, m, logf):
    """C45ModelSelection.selectModel for N nodes at once; -1 for a leaf.

    dist: (N, K) class counts; bags: (N, p, 2, K) per attribute and value;
    free: (N, p) attributes not yet on the path (others cannot split);
    logf: ``num * log2(num)`` elementwise (c45._log_func or a table of it).
    """
    N, p = free.shape
    total = dist.sum(axis=-1)
    leaf = (total - 2 * m < -_EPS) | (np.abs(total - np.take_along_axis(
        dist, _max_class_vec(dist)[:, None], axis=1)[:, 0]) < _EPS)
    old_ent = logf(total) - logf(dist).sum(axis=-1)
    per_bag = bags.sum(axis=-1)
    valid = free & (np.count_nonzero(per_bag - m > -_EPS, axis=-1) > 1)
    log_per_bag = logf(per_bag)
    num = old_ent[:, None] - (log_per_bag - logf(bags).sum(axis=-1)).sum(axis=-1)
    tot = total[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        gain = np.where(np.abs(num) < _EPS, 0.0, num / tot)
        split_ent = logf(tot) - log_per_bag.sum(axis=-1)
        safe = np.where(np.abs(split_ent) < _EPS, 1.0, split_ent)
        ratio = np.where(np.abs(split_ent) < _EPS, 0.0, gain / (safe / tot))
    # With binary attributes only, Weka's "few values" filter of the average
    # (numValues < 0.3 N unless every attribute has many values) keeps every
    # valid attribute, so the average runs over the valid ones.
    n_valid = np.count_nonzero(valid, axis=1)
    acc = np.zeros(N)
    for a in range(p):  # sequential sum in attribute order, as C45
        acc = np.where(valid[:, a], acc + gain[:, a], acc)
    with np.errstate(divide="ignore", invalid="ignore"):
        avg = acc / n_valid
    best = np.full(N, -1, dtype=np.int64)
    min_result = np.zeros(N)
    for a in range(p):  # ascending order: the first attribute wins ties
        take = valid[:, a] & (gain[:, a] >= avg - 1e-3) & (ratio[:, a] - min_result > _EPS)
        best = np.where(take, a, best)
        min_result = np.where(take, ratio[:, a], min_result)
    best[leaf | (n_valid == 0) | (np.abs(min_result) < _EPS)] = -1
    return best


def _add_errs_vec(n, e, cf):
    """Weka's Stats.addErrs (c45.add_errs) on arrays; ``n > 0``."""
    n = np.asarray(n, dtype=float)
    e = np.asarray(e, dtype=float)
    if cf > 0.5:
        return np.zeros(np.broadcast_shapes(n.shape, e.shape))
    z = float(ndtri(1 - cf))

    def upper(e):
        f = (e + 0.5) / n
        r = (f + z * z / (2 * n) + z * np.sqrt(np.maximum(f / n - f * f / n + z * z / (4 * n * n), 0))) \
            / (1 + z * z / n)
        return np.where(e + 0.5 >= n, np.maximum(n - e, 0.0), r * n - e)

    base = n * (1 - np.power(cf, 1 / n))
    at_one = upper(np.ones_like(e))
    small = np.where(e == 0, base, base + e * (at_one - base))
    return np.where(e < 1, small, upper(e))


def _est_dist_vec(dist, cf):
    """est_errors_dist: observed errors plus addErrs, 0 for an empty distribution."""
    total = dist.sum(axis=-1)
    e = _num_incorrect_vec(dist)
    empty = np.abs(total) < _EPS
    safe = np.where(empty, 1.0, total)
    return np.where(empty, 0.0, e + _add_errs_vec(safe, e, cf))


def _log_table(fold, W, F):
    """``num * log2(num)`` for the growing phase, as a look-up table when it can.

    With integer counts every count the growing phase takes a logarithm of is
    an integer no larger than its training set; a table of c45._log_func over
    those integers gives the same values without a logarithm per cell.
    """
    if not W.size or not np.all(W == np.round(W)):
        return _log_func
    fold_total = np.bincount(fold, weights=W.sum(axis=-1), minlength=F)
    if fold_total.max() >= 2**22:  # a table this long costs more than the logarithms
        return _log_func
    table = _log_func(np.arange(int(fold_total.max()) + 1, dtype=float))
    return lambda x: table[x.astype(np.int64)]


def _grow(fold, pat, W, F, p, m):
    """Grow the unpruned trees of F training sets level by level, on sparse rows.

    ``fold, pat, W``: the training set, pattern and class counts of every
    non-empty (training set, pattern) cell, sorted by training set. Returns
    flat node arrays: attr (-1 leaf), child0 (the child for value v is
    child0 + v), depth and class counts; the root of training set f is node f.
    """
    K = W.shape[1]
    shifts = np.arange(p - 1, -1, -1)
    bits = (pat[:, None] >> shifts) & 1  # (R, p)
    bits_t = np.ascontiguousarray(bits.T, dtype=float)
    W_t = np.ascontiguousarray(W.T)
    logf = _log_table(fold, W, F)
    row_node = fold.copy()  # node (local to the level) of every active row
    rows = np.arange(pat.size)
    used = np.zeros((F, p), dtype=bool)  # attributes on the path of each node
    out = {k: [] for k in ("attr", "child0", "depth", "dist")}
    n_nodes, n, depth = 0, F, 0
    while n:
        dist = np.empty((n, K))
        for k in range(K):
            dist[:, k] = np.bincount(row_node, weights=W[rows, k], minlength=n)
        total = dist.sum(axis=-1)
        # C45ModelSelection's leaf tests (too few instances, one class) first,
        # so only the remaining nodes pay for the per-attribute counts.
        cand = ~((total - 2 * m < -_EPS)
                 | (np.abs(total - np.take_along_axis(dist, _max_class_vec(dist)[:, None], axis=1)[:, 0]) < _EPS))
        attr = np.full(n, -1, dtype=np.int64)
        if cand.any():
            ci = np.flatnonzero(cand)
            pos = np.full(n, -1)
            pos[ci] = np.arange(ci.size)
            on = pos[row_node] >= 0
            node_on, rows_on = pos[row_node[on]], rows[on]
            ones = np.empty((ci.size, p, K))
            bits_on = bits_t[:, rows_on]  # (p, rows): one contiguous row per attribute
            for k in range(K):
                wk = W_t[k, rows_on]
                for j in range(p):
                    ones[:, j, k] = np.bincount(node_on, weights=wk * bits_on[j], minlength=ci.size)
            d = dist[ci][:, None, :]
            bags = np.stack([d - ones, ones], axis=2)  # (n_c, p, 2, K)
            attr[ci] = _select(dist[ci], bags, ~used[ci], m, logf)
        split = attr >= 0
        n_split = int(split.sum())
        c0 = np.full(n, -1)
        c0[split] = n_nodes + n + 2 * np.arange(n_split)
        out["attr"].append(attr)
        out["child0"].append(c0)
        out["depth"].append(np.full(n, depth))
        out["dist"].append(dist)
        n_nodes += n
        # Rows of split nodes move to the child of their value; the others retire.
        local = np.full(n, -1)
        local[split] = 2 * np.arange(n_split)
        keep = split[row_node]
        rows, row_node = rows[keep], row_node[keep]
        row_node = local[row_node] + bits[rows, attr[row_node]]
        used = np.repeat(used[split], 2, axis=0)
        used[np.arange(2 * n_split), np.repeat(attr[split], 2)] = True
        n = 2 * n_split
        depth += 1
    return {k: np.concatenate(v) for k, v in out.items()}


def _collapse(nodes):
    """C45PruneableClassifierTree.collapse: the attributes after collapsing."""
    attr, child0, depth = nodes["attr"], nodes["child0"], nodes["depth"]
    own = _num_incorrect_vec(nodes["dist"])
    train_err = own.copy()
    internal = attr >= 0
    for d in range(int(depth.max()), -1, -1):  # children before parents
        at = np.flatnonzero((depth == d) & internal)
        train_err[at] = train_err[child0[at]] + train_err[child0[at] + 1]
    # Top-down in C45, but a node's test only reads its grown subtree, so the
    # tests can run at once; nodes below a collapsed node are never reached.
    return np.where(internal & (train_err >= own - 1e-3), -1, attr)


class _Forest:
    """Pruning state shared by every tree of a batch: node arrays and training rows.

    Trees are flat arrays ``attr`` (-1: leaf) and ``child0`` (the child for value
    v is ``child0 + v``), modified in place. Instances are the non-empty
    (training set, pattern) rows with their class counts ``W``; a node's
    instances are found by routing rows from a root, so subtree raising (which
    hands a branch all of its parent's instances) needs no bookkeeping.
    """

    def __init__(self, attr, child0, bits, W, cf, raising):
        self.attr, self.child0 = attr, child0
        self.bits, self.W, self.cf, self.raising = bits, W, cf, raising

    def descend(self, roots, row_idx, row_ent):
        """Walk the subtrees of ``roots`` with their rows, breadth first.

        Returns per-entry arrays (node, level, first child entry or -1, class
        counts) and the rows of each level as (row index, entry) pairs.
        """
        K = self.W.shape[1]
        ent_node, ent_level, ent_child, dists, level_rows = [], [], [], [], []
        nodes, base, level = roots, 0, 0
        while nodes.size:
            n = nodes.size
            dist = np.empty((n, K))
            local = row_ent - base
            for k in range(K):
                dist[:, k] = np.bincount(local, weights=self.W[row_idx, k], minlength=n)
            a = self.attr[nodes]
            split = a >= 0
            n_split = int(split.sum())
            first = np.full(n, -1)
            first[split] = base + n + 2 * np.arange(n_split)
            ent_node.append(nodes)
            ent_level.append(np.full(n, level))
            ent_child.append(first)
            dists.append(dist)
            level_rows.append((row_idx, row_ent))
            keep = split[local]
            row_idx, local = row_idx[keep], local[keep]
            row_ent = first[local] + self.bits[row_idx, a[local]]
            c = self.child0[nodes[split]]
            nodes = np.stack([c, c + 1], axis=1).ravel()
            base += n
            level += 1
        cat = np.concatenate
        return cat(ent_node), cat(ent_level), cat(ent_child), cat(dists), level_rows

    def est(self, roots, row_idx, row_ent):
        """est_errors_branch of every root given its rows (tree-ordered sums, as C45)."""
        _, level, child, dist, _ = self.descend(roots, row_idx, row_ent)
        value = _est_dist_vec(dist, self.cf)
        for d in range(int(level.max()) - 1, -1, -1):
            at = np.flatnonzero((level == d) & (child >= 0))
            value[at] = value[child[at]] + value[child[at] + 1]
        return value[:roots.size]

    def prune(self, roots, row_idx, row_ent):
        """C45PruneableClassifierTree.prune of every root; returns est_errors of each."""
        node, level, child, dist, level_rows = self.descend(roots, row_idx, row_ent)
        est = _est_dist_vec(dist, self.cf)  # leaves; internal entries are overwritten
        for d in range(int(level.max()) - 1, -1, -1):
            at = np.flatnonzero((level == d) & (child >= 0))
            if not at.size:
                continue
            n_at = node[at]
            c = child[at]
            # Distribution.maxBag: the last bag with the largest weight.
            w0, w1 = dist[c].sum(axis=-1), dist[c + 1].sum(axis=-1)
            largest = (w1 - w0 > -_EPS).astype(np.int64)
            son = self.child0[n_at] + largest
            err_tree = est[c] + est[c + 1]
            err_leaf = _est_dist_vec(dist[at], self.cf)
            rows, ents = level_rows[d]
            pos = np.full(node.size, -1)
            pos[at] = np.arange(at.size)
            mine = pos[ents] >= 0  # rows of the internal entries of this level
            r_idx, r_ent = rows[mine], pos[ents[mine]]
            if self.raising:
                err_branch = self.est(son, r_idx, r_ent)
            else:
                err_branch = np.full(at.size, np.inf)
            to_leaf = (err_leaf - (err_tree + 0.1) <= _EPS) & (err_leaf - (err_branch + 0.1) <= _EPS)
            to_raise = ~to_leaf & (err_branch - (err_tree + 0.1) <= _EPS)
            est[at] = np.where(to_leaf, err_leaf, err_tree)
            self.attr[n_at[to_leaf]] = -1
            if to_raise.any():
                # Subtree raising: the largest branch takes the node's place with
                # all of the node's instances, and the node is pruned again.
                up, s = n_at[to_raise], son[to_raise]
                self.attr[up] = self.attr[s]
                self.child0[up] = self.child0[s]
                idx = np.flatnonzero(to_raise)
                pos2 = np.full(at.size, -1)
                pos2[idx] = np.arange(idx.size)
                keep = pos2[r_ent] >= 0
                est[at[idx]] = self.prune(up, r_idx[keep], pos2[r_ent[keep]])
        return est[:roots.size]


def fit_predict(counts, p, *, confidence, min_num_obj, subtree_raising, query=None):
    """Fit J48 on count tensors (F, 2**p, K); predict patterns ``query`` (F, T), default all."""
    F, n_pat, K = counts.shape
    if query is None:
        query = np.broadcast_to(np.arange(n_pat), (F, n_pat))
    if F == 0:
        return np.zeros(query.shape, dtype=np.int64)
    cf = float(np.float32(confidence))  # Weka stores CF as a float
    fold, pat = np.nonzero(counts.sum(axis=-1) > 0)
    W = counts[fold, pat]
    nodes = _grow(fold, pat, W, F, p, float(min_num_obj))
    attr = _collapse(nodes)
    shifts = np.arange(p - 1, -1, -1)
    bits = (pat[:, None] >> shifts) & 1
    forest = _Forest(attr, nodes["child0"].copy(), bits, W, cf, subtree_raising)
    forest.prune(np.arange(F), np.arange(pat.size), fold)
    # Leaf class counts: the training rows that reach each leaf (exact for integers).
    leaf_of_row = _route(forest, fold, bits, p)
    dist = np.zeros((attr.size, K))
    for k in range(K):
        dist[:, k] = np.bincount(leaf_of_row, weights=W[:, k], minlength=attr.size)
    # A pattern's class is the first majority class of its leaf (C45._class_probs).
    q_bits = (query.reshape(-1)[:, None] >> shifts) & 1
    leaf_of_query = _route(forest, np.repeat(np.arange(F), query.shape[1]), q_bits, p)
    return np.argmax(dist, axis=-1)[leaf_of_query].reshape(query.shape)


def _route(forest, start, bits, p):
    """Leaf reached from root ``start`` by instances with attribute values ``bits``."""
    at = start.copy()
    active = np.arange(at.size)
    for _ in range(p + 1):
        a = forest.attr[at[active]]
        inner = a >= 0
        active = active[inner]
        if not active.size:
            break
        at[active] = forest.child0[at[active]] + bits[active, a[inner]]
    return at
