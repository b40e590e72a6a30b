"""J48 on mixed data: numeric thresholds and fractional instances for missing values.

The tree builder of :mod:`replicability.learners.c45` for data with numeric
attributes and missing values (NaN), following Weka 3.6's ``C45Split``
(``handleNumericAttribute``, ``setSplitPoint``), ``C45ModelSelection``,
``Distribution.addInstWithUnknown``, ``ClassifierSplitModel.split`` and
``ClassifierTree.getProbs``. Collapsing and pruning are inherited from
:class:`~replicability.learners._tree._TreeBuilder`; a node's ``rows`` is here a
pair ``(idx, w)`` of instance indices and their (fractional) weights, and its
``attr`` a pair ``(attribute, split point)`` (``None`` for a nominal split).
"""

from __future__ import annotations

import math

import numpy as np

from ._tree import _EPS, _Node, _TreeBuilder, add_errs

__all__: list[str] = []

_LOG2 = math.log(2)


def _log_func(num):
    """``num * log2(num)``, 0 below 1e-6: the values of ``c45._log_func``, computed faster."""
    num = np.asarray(num, dtype=float)
    return num * np.log(np.where(num < 1e-6, 1.0, num)) / _LOG2


def _info_gain(bags, total_all):
    """InfoGainSplitCrit.splitCritValue for bags (..., n_bags, k) and the node's total weight."""
    per_bag = bags.sum(axis=-1)
    known = per_bag.sum(axis=-1)
    old = _log_func(known) - _log_func(bags.sum(axis=-2)).sum(axis=-1)
    new = _log_func(per_bag).sum(axis=-1) - _log_func(bags).sum(axis=(-1, -2))
    num = (1 - (total_all - known) / total_all) * (old - new)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(np.abs(num) < _EPS, 0.0, num / np.where(known > 0, known, 1.0))


def _gain_ratio(bags, total_all, gain):
    """GainRatioSplitCrit.splitCritValue: gain over the split entropy (unknowns as a bag)."""
    per_bag = bags.sum(axis=-1)
    known = per_bag.sum(axis=-1)
    split_ent = np.where(known > _EPS,
                         -_log_func(per_bag).sum(axis=-1) - _log_func(total_all - known) + _log_func(total_all),
                         0.0)
    safe = np.where(np.abs(split_ent) < _EPS, 1.0, split_ent)
    return np.where(np.abs(split_ent) < _EPS, 0.0, gain / (safe / total_all))


def _max_count(counts):
    """Largest count, found as Weka's ``Distribution.maxClass`` (first beyond tolerance)."""
    best = 0.0
    for v in counts.tolist():
        if v - best > _EPS:
            best = v
    return best


def _sequential_best(values, start=0.0):
    """Index of Weka's running maximum with tolerance (``Utils.gr``), -1 if none beats ``start``."""
    best, idx = start, -1
    for i, v in enumerate(values):
        if v - best > _EPS:
            best, idx = v, i
    return idx


class _MixedTreeBuilder(_TreeBuilder):
    """J48 tree on instances ``X`` (NaN = missing) with classes ``y`` and weights."""

    def __init__(self, X, y, n_classes, numeric, n_values, min_num_obj, cf, subtree_raising, collapse, prune):
        self.X, self.y, self.k = X, y, int(n_classes)
        self.numeric = np.asarray(numeric, dtype=bool)
        self.n_values = np.asarray(n_values, dtype=np.int64)
        self.m, self.cf = float(min_num_obj), float(np.float32(cf))  # Weka stores CF as a float
        self.raising, self.collapse_tree, self.prune_tree = subtree_raising, collapse, prune
        self.n_all = X.shape[0]  # m_allData.numInstances()
        self.num_idx = np.flatnonzero(self.numeric)
        self.nom_idx = np.flatnonzero(~self.numeric)
        # multiVal: every attribute nominal with many values (>= 0.3 N); any numeric attribute ends it.
        self.multi_val = not self.numeric.any() and not np.any(self.n_values - 0.3 * self.n_all < -_EPS)
        self.v_max = int(self.n_values[self.nom_idx].max()) if len(self.nom_idx) else 0

    # --- distributions -----------------------------------------------------------

    def counts(self, part):
        idx, w = part
        return np.bincount(self.y[idx], weights=w, minlength=self.k)

    def subsets(self, part, attr):
        """Subset of each instance for split ``attr`` (-1 where the value is missing) and their number."""
        j, split_point = attr
        x = self.X[part[0], j]
        known = ~np.isnan(x)
        if split_point is None:
            sub = np.where(known, x, -1).astype(np.int64)
            return sub, int(self.n_values[j])
        return np.where(known, (x > split_point).astype(np.int64), -1), 2

    def distribution(self, part, attr, sub=None):
        """``resetDistribution``: known instances per subset plus unknowns spread by the subsets' weights.

        Returns the distribution (n_subsets, k) and the subsets' shares of the known weight.
        """
        idx, w = part
        sub, n_sub = self.subsets(part, attr) if sub is None else sub
        k = self.k
        # Bag n_sub collects the unknowns (sub == -1).
        flat = np.where(sub < 0, n_sub, sub) * k + self.y[idx]
        both = np.bincount(flat, weights=w, minlength=(n_sub + 1) * k).reshape(n_sub + 1, k)
        bags, unknown = both[:n_sub], both[n_sub]
        per_bag = bags.sum(axis=1)
        total = per_bag.sum()
        probs = np.full(n_sub, 1.0 / n_sub) if abs(total) < _EPS else per_bag / total
        return bags + probs[:, None] * unknown[None, :], probs

    def split(self, part, attr):
        """ClassifierSplitModel.split: known values to their subset, unknowns to all, weighted."""
        idx, w = part
        sub, n_sub = self.subsets(part, attr)
        missing = sub < 0
        if missing.any():
            probs = self.distribution(part, attr, (sub, n_sub))[1]
        out = []
        for b in range(n_sub):
            sel = sub == b
            if missing.any() and probs[b] > _EPS:
                out.append((np.concatenate([idx[sel], idx[missing]]),
                            np.concatenate([w[sel], w[missing] * probs[b]])))
            else:
                out.append((idx[sel], w[sel]))
        return out

    # --- model selection -----------------------------------------------------------

    def _nominal_candidates(self, idx, w, y, k, total):
        """Validity, info gain and gain ratio of every nominal attribute (``y`` coded 0..k-1)."""
        p, v = len(self.nom_idx), self.v_max
        x = self.X[np.ix_(idx, self.nom_idx)]
        codes = np.where(np.isnan(x), v, x).astype(np.int64)  # bag v collects the unknowns
        flat = (codes * k + y[:, None] + np.arange(p) * (v + 1) * k).ravel()
        bags = np.bincount(flat, weights=np.repeat(w, p), minlength=p * (v + 1) * k).reshape(p, v + 1, k)[:, :v]
        per_bag = bags.sum(axis=2)
        valid = np.count_nonzero(per_bag - self.m > -_EPS, axis=1) > 1  # Distribution.check
        gain = _info_gain(bags, total)
        ratio = _gain_ratio(bags, total, gain)
        return valid, gain, ratio

    def _numeric_candidates(self, idx, w, y, k, total):
        """C45Split.handleNumericAttribute for every numeric attribute at once.

        Returns validity, MDL-corrected info gain, gain ratio and the split
        index into the sorted known values, plus the sorted values.
        """
        x = self.X[np.ix_(idx, self.num_idx)]
        order = np.argsort(x, axis=0, kind="stable")  # NaN (missing) sorts last
        xs = np.take_along_axis(x, order, axis=0)
        wy = np.eye(k)[y] * w[:, None]  # (n, k)
        wk = np.where(np.isnan(xs), 0.0, 1.0)[:, :, None] * wy[order]  # (n, p, k)
        cum = np.cumsum(wk, axis=0)
        n_known = np.count_nonzero(~np.isnan(xs), axis=0)
        known_dist = cum[-1]  # (p, k)
        known = known_dist.sum(axis=1)
        # Minimum instances per subset: 0.1 * known / classes, clamped to [minNumObj, 25].
        min_split = 0.1 * known / self.k
        min_split = np.where(min_split - self.m < _EPS, self.m, np.where(min_split - 25 > _EPS, 25.0, min_split))
        enough = ~(n_known - 2 * min_split < -_EPS)
        # Candidate after sorted position i-1 (i = 1..n-1) where values differ by more than 1e-5.
        with np.errstate(invalid="ignore"):
            step = xs[:-1] + 1e-5 < xs[1:]
        left = cum[:-1]  # (n-1, p, k)
        pb0 = left.sum(axis=2)
        pb1 = known[None] - pb0
        ok = step & (pb0 - min_split > -_EPS) & (pb1 - min_split > -_EPS) & enough[None]
        n_index = np.count_nonzero(ok, axis=0)
        # Entropies only at the admissible cuts (r, c): rows of `left` gathered flat.
        rr, cc = np.nonzero(ok)
        lft = left[rr, cc]  # (m, k)
        rgt = known_dist[cc] - lft
        default_ent = _log_func(known) - _log_func(known_dist).sum(axis=1)
        new_ent = (_log_func(pb0[rr, cc]) + _log_func(pb1[rr, cc])) - _log_func(lft).sum(axis=1) \
            - _log_func(rgt).sum(axis=1)
        num = (1 - (total - known[cc]) / total) * (default_ent[cc] - new_ent)
        p = len(self.num_idx)
        gains = np.full((left.shape[0], p), -np.inf)
        with np.errstate(invalid="ignore", divide="ignore"):
            gains[rr, cc] = np.where(np.abs(num) < _EPS, 0.0, num / np.where(known[cc] > 0, known[cc], 1.0))
        best = np.argmax(gains, axis=0) if gains.shape[0] else np.zeros(p, dtype=np.int64)
        cols = np.arange(p)
        top = gains[best, cols] if gains.shape[0] else np.full(p, -np.inf)
        near = np.any((gains > (top - 2 * _EPS)[None]) & (gains < top[None]), axis=0)
        for c in np.flatnonzero(near & (top > _EPS)):
            # Emulate Weka's running maximum with tolerance exactly.
            cand = np.flatnonzero(ok[:, c])
            best[c] = cand[_sequential_best(gains[cand, c].tolist())]
        if gains.shape[0]:
            top = gains[best, cols]
        # A cut must beat gain 0 by Utils.SMALL; then the MDL correction log2(C) / N.
        info = top - np.log(np.maximum(n_index, 1)) / _LOG2 / total
        valid = (n_index > 0) & (top > _EPS) & ~(info - 0.0 < _EPS)
        info = np.where(valid, info, 0.0)
        if gains.shape[0]:
            bags = np.stack([left[best, cols], known_dist - left[best, cols]], axis=1)  # (p, 2, k)
            ratio = np.where(valid, _gain_ratio(bags, total, info), 0.0)
        else:
            ratio = np.zeros(p)
        cut = np.where(valid, best, -1)
        return valid, info, ratio, cut, xs

    def select(self, part):
        """C45ModelSelection.selectModel: ``(attr, dist)`` of the best split, or None for a leaf."""
        idx, w = part
        counts = self.counts(part)
        total = counts.sum()
        if total - 2 * self.m < -_EPS or abs(total - _max_count(counts)) < _EPS:
            return None
        # Only the classes present at the node enter the entropies (0 log 0 = 0).
        present = counts > 0
        y = (np.cumsum(present) - 1)[self.y[idx]]
        k = int(present.sum())
        n_att = len(self.numeric)
        valid = np.zeros(n_att, dtype=bool)
        gain, ratio = np.zeros(n_att), np.zeros(n_att)
        if len(self.nom_idx):
            valid[self.nom_idx], gain[self.nom_idx], ratio[self.nom_idx] = self._nominal_candidates(idx, w, y, k, total)
        if len(self.num_idx):
            v_num, g_num, r_num, cut, xs = self._numeric_candidates(idx, w, y, k, total)
            valid[self.num_idx], gain[self.num_idx], ratio[self.num_idx] = v_num, g_num, r_num
        in_avg = valid & (self.numeric | self.multi_val | (self.n_values - 0.3 * self.n_all < -_EPS))
        n_valid = int(np.count_nonzero(in_avg))
        if n_valid == 0:
            return None
        avg = sum(gain[in_avg].tolist()) / n_valid  # sequential sum, as Weka
        best, min_result = -1, 0.0
        for a, (ok, g, r) in enumerate(zip(valid.tolist(), gain.tolist(), ratio.tolist())):
            if ok and g >= avg - 1e-3 and r - min_result > _EPS:
                best, min_result = a, r
        if best < 0 or abs(min_result) < _EPS:
            return None
        if not self.numeric[best]:
            return (best, None)
        c = int(np.searchsorted(self.num_idx, best))
        s = int(cut[c])
        lo, hi = xs[s, c], xs[s + 1, c]
        split_point = (lo + hi) / 2
        if split_point == hi:  # numeric precision: take the smaller value
            split_point = lo
        # setSplitPoint: the largest value in the whole training data not above the midpoint.
        col = self.X[:, best]
        below = col[~np.isnan(col) & (col - split_point < _EPS)]
        return (best, float(below.max()))

    # --- growing and pruning -------------------------------------------------------

    def build(self, part):
        node = _Node()
        node.rows = part
        attr = self.select(part)
        if attr is not None:
            node.attr = attr
            node.dist = self.distribution(part, attr)[0]
            node.sons = [self.build(p) for p in self.split(part, attr)]
        else:
            node.dist = self.counts(part)[None, :]
            node.empty = abs(node.dist.sum()) < _EPS
        return node

    def est_errors_dist(self, counts):
        """``getEstimatedErrorsForDistribution`` (the base class's values, faster)."""
        total = counts.sum()
        if abs(total) < _EPS:
            return 0.0
        e = total - _max_count(counts)
        return e + add_errs(total, e, self.cf)

    def training_errors(self, node):
        if node.sons is None:
            return node.dist[0].sum() - _max_count(node.dist[0])
        return sum(self.training_errors(s) for s in node.sons)

    def collapse(self, node):
        """ClassifierTree.collapse: a subtree no better on the training data becomes a leaf."""
        if node.sons is None:
            return
        counts = node.dist.sum(axis=0)
        if self.training_errors(node) >= counts.sum() - _max_count(counts) - 1e-3:
            self.make_leaf(node)
        else:
            for s in node.sons:
                self.collapse(s)

    def est_errors_branch(self, node, rows):
        if node.sons is None:
            return self.est_errors_dist(self.counts(rows))
        parts = self.split(rows, node.attr)
        return sum(self.est_errors_branch(s, r) for s, r in zip(node.sons, parts))

    def new_distribution(self, node, rows):
        node.rows = rows
        if node.sons is None:
            node.dist = self.counts(rows)[None, :]
            if abs(node.dist.sum()) >= _EPS:
                node.empty = False
        else:
            node.dist = self.distribution(rows, node.attr)[0]
            for s, r in zip(node.sons, self.split(rows, node.attr)):
                self.new_distribution(s, r)

    def fit(self):
        n = self.X.shape[0]
        root = self.build((np.arange(n), np.ones(n)))
        if self.collapse_tree:
            self.collapse(root)
        if self.prune_tree:
            self.prune(root)
        return root


def _mixed_probs(node, X, out, rows, weight):
    """Add ``weight`` times Weka's ``ClassifierTree.getProbs`` for ``rows`` to ``out``."""
    if node.sons is None:
        counts = node.dist[0]
        total = counts.sum()
        if abs(total) >= _EPS:  # Distribution.prob is 0 for an empty distribution
            out[rows] += weight[:, None] * (counts / total)
        return
    j, split_point = node.attr
    x = X[rows, j]
    known = ~np.isnan(x)
    if split_point is None:
        sub = np.where(known, x, -1).astype(np.int64)
    else:
        sub = np.where(known, (x > split_point).astype(np.int64), -1)
    dist = node.dist
    per_bag = dist.sum(axis=1)
    total = per_bag.sum()
    for b, son in enumerate(node.sons):
        sel = sub == b
        if not sel.any():
            continue
        if son.empty:
            # C45Split.classProb for an empty son: its bag's class frequencies, else the node's.
            p = dist[b] / per_bag[b] if per_bag[b] > _EPS else dist.sum(axis=0) / total
            out[rows[sel]] += weight[sel, None] * p
        else:
            _mixed_probs(son, X, out, rows[sel], weight[sel])
    missing = ~known
    if missing.any():
        for b, son in enumerate(node.sons):
            if not son.empty:  # unknown value: every non-empty son, weighted by its share
                _mixed_probs(son, X, out, rows[missing], weight[missing] * (per_bag[b] / total))


def fit_mixed(X, y, n_classes, numeric, n_values, **options):
    """Fit a J48 tree on mixed data; ``options`` as ``c45._fit_tree``."""
    return _MixedTreeBuilder(X, y, n_classes, numeric, n_values, options["min_num_obj"], options["confidence_factor"],
                             options["subtree_raising"], options["collapse"], options["prune"]).fit()


def predict_mixed(root, X, n_classes):
    """Class probabilities (Weka's ``distributionForInstance``) for the rows of ``X``."""
    out = np.zeros((X.shape[0], n_classes))
    _mixed_probs(root, X, out, np.arange(X.shape[0]), np.ones(X.shape[0]))
    return out
