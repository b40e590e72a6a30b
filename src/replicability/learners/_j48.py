"""Compiled (numba) J48 on the distinct rows of binary attributes: grow, collapse, prune, predict.

The J48 half of :mod:`~replicability.learners._kernels`, which also describes
the data layout: distinct rows ("patterns") ``bits`` of shape (U, p), any
number of attributes, and per training set the class counts ``Wf`` (U, K) of
every pattern. :func:`_fit_c45` grows, collapses and prunes one tree on the
patterns with a non-zero count.

The code mirrors :mod:`~replicability.learners.c45` (Weka 3.6's
``C45PruneableClassifierTree``) step by step, in the same floating-point
operations and order, so trees and predictions are identical:

* a node owns a segment ``rows[start:end]`` of the training rows; growing splits
  a segment in place (row order inside a segment does not matter because the
  counts are integers and their sums exact), and a son's counts are derived
  from its parent's;
* ``num * log2(num)`` comes from a table computed by ``c45._log_func`` (numpy's
  ``log`` may differ from libm's in the last bit);
* ``Stats.addErrs`` is ``c45.add_errs`` line by line (``math.pow``,
  ``math.sqrt``: the C library's, as in CPython), with ``z = ndtri(1 - CF)``
  passed in, and memoized per (instances, errors) in a cache of fixed size;
* pruning is C45's recursion (sons first, ``maxBag``, leaf / branch / subtree
  estimates, subtree raising followed by ``newDistribution`` and a second prune
  of the raised node), run with explicit stacks: numba's cache cannot reload
  recursive functions (the process crashes), so no kernel recurses.

Three shortcuts, all exact:

* with two classes (the usual case) the loops over classes are unrolled into
  the same sums in the same order;
* a node whose subtree ``collapse`` would remove whatever it grew is not grown:
  collapse keeps a subtree only if it has fewer training errors than the node
  as a leaf, that is, only if one of its leaves has a majority other than the
  node's. That leaf needs more instances outside the node's majority class
  than inside it, and at least ``minNumObj`` instances (every son of a split
  has), so a node with ``err`` instances outside its majority class, where
  ``2 * err - 1 < minNumObj``, is a leaf of the collapsed tree (with the
  default ``minNumObj = 2``: one such instance at most). Weka grows and then
  collapses these subtrees; the collapsed trees are the same;
* the subtree-raising estimate of a node whose largest son is a leaf is the
  node's own leaf estimate (the leaf given its sibling's rows holds the node's
  integer counts), so those rows are not routed.

Nodes are numbered so that a parent precedes its children (also after subtree
raising, which only hands a node the children of a son), so bottom-up passes
run over decreasing node numbers.

Every function but the two that allocate (``_workspace``, ``_est_table``) is
compiled by ``_kernel``:

* without numba's reference counting (``_nrt=False``): they only read and write
  arrays their caller holds, and the atomic reference-count updates numba makes
  for every array argument of every call, and for every view of a row, took
  about a third of the kernel's time. For the same reason a row of a count
  array is passed as the array and the row's index;
* with numpy's error model: no divisor can be zero (instance totals of at
  least ``2 * minNumObj`` or of a non-empty leaf, split entropies tested
  against zero first, the number of admissible attributes), so numba's
  test of every divisor, to raise ``ZeroDivisionError``, is left out.

The small helpers called from many places (class counts and majority, the
leaf tests, the error estimate, partitioning, counting, prediction), split
selection and the subtree-raising estimate are inlined by LLVM
(``forceinline=True``: numba marks them ``alwaysinline``): left to its own
judgement LLVM kept them as calls, each passing its arrays' shapes and
strides by value, which cost about a sixth of the kernel's time (1.2x faster
inlined, on null data and source 4). They were first inlined by numba
(``inline="always"``), which copies and retypes the callee's IR at every call
site (Python's ``deepcopy``, a quarter of the compilation): the engine's first
call with a cold cache took 39-41 s (33-36 s without inlining selection and
the raising estimate; 27-29 s at commit d403bce, before this module's
unsigned indices and error model). Inlined by LLVM it takes 33 s, and the
kernel is 1.05-1.10x faster still (A/B medians of interleaved rounds, load 7
on 2 cores; ``evaluate_runs`` and ``evaluate_folds``, null data and source 4).
``forceinline`` is given on every kernel: a function that does not set it
inherits its first caller's.

Numba optimizes a caller's code together with all the compiled code it calls,
so the J48 code was optimized once more at every level above it:
``_fit_c45`` (a few calls) is inlined by numba into its callers instead, as
``_kernels._score_fold`` is, and no kernel is compiled for a literal argument
(each compiles one signature: ``fn.signatures``). First call with a cold
cache, engine (``bench_engine._COMPILE_SNIPPET``), CPU seconds, interleaved
runs at load 9-10 on 2 cores: 45.9 and 48.0 at commit 0461db7 (helpers
inlined by numba), 31.1 and 28.5 with both changes; this one alone kept the
warm speed (A/B medians 0.99-1.03). Inlining ``_grow``, ``_collapse`` and
``_prune`` by numba as well saved no more (30.5 s, one run).

The innermost loops (partitioning, counting, the ``num * log2(num)`` table)
index with unsigned integers (``np.uint64``): numba adds the length to a
negative signed index, a test and an add on every access whose sign LLVM
cannot prove. Without it the kernel was about 1.2x slower (A/B medians:
1.06-1.10x from partitioning, 1.05x from counting, 1.05-1.07x from the table).
"""

from __future__ import annotations

import math
from functools import partial

import numpy as np
from numba import njit

__all__: list[str] = []  # private; the public entry points are in fastpath and pairs

_EPS = 1e-6  # Weka's Utils.SMALL, as c45._EPS

_kernel = partial(njit, cache=True, error_model="numpy", _nrt=False, forceinline=False)  # see the module docstring


# --------------------------------------------------------------------------- J48 helpers
@_kernel(forceinline=True)
def _max_class(dist, i):
    """Distribution.maxClass of row ``i`` of ``dist``: first class whose count beats the best by more than 1e-6."""
    best, idx = 0.0, 0
    if dist.shape[1] == 2:  # the usual case, unrolled: the same tests
        if dist[i, 0] - best > _EPS:
            best = dist[i, 0]
        if dist[i, 1] - best > _EPS:
            idx = 1
        return idx
    for k in range(dist.shape[1]):
        if dist[i, k] - best > _EPS:
            best, idx = dist[i, k], k
    return idx


@_kernel(forceinline=True)
def _sum(dist, i):
    if dist.shape[1] == 2:  # the usual case, unrolled: the same sum
        return (0.0 + dist[i, 0]) + dist[i, 1]
    total = 0.0  # sequential, as numpy's sum of a few elements
    for k in range(dist.shape[1]):
        total += dist[i, k]
    return total


@_kernel
def _add_errs_upper(n, e, z):
    """Stats.addErrs for ``e >= 1``: the normal approximation (c45.add_errs, same order)."""
    if e + 0.5 >= n:
        return max(n - e, 0.0)
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) / (1 + z * z / n)
    return r * n - e


@_kernel
def _add_errs(n, e, cf, z):
    """Stats.addErrs, line by line as c45.add_errs (z = ndtri(1 - cf))."""
    if cf > 0.5:
        return 0.0
    if e < 1:
        base = n * (1 - math.pow(cf, 1 / n))
        if e == 0:
            return base
        return base + e * (_add_errs_upper(n, 1.0, z) - base)
    return _add_errs_upper(n, e, z)


@_kernel(forceinline=True)
def _est_dist(dist, i, cf, z, tab):
    """est_errors_dist of row ``i`` of ``dist``: observed errors plus addErrs; 0 for an empty distribution.

    ``tab`` memoizes the value per (instances, errors) of integer counts in a
    direct-mapped cache of fixed size (:func:`_est_table`): row ``h`` holds
    the instances and errors it was computed for (-1: empty) and the value.
    """
    total = _sum(dist, i)
    if abs(total) < _EPS:
        return 0.0
    e = total - dist[i, _max_class(dist, i)]
    h = (int(total) * 40503 + int(e)) & (tab.shape[0] - 1)
    if tab[h, 0] == total and tab[h, 1] == e:
        return tab[h, 2]
    v = e + _add_errs(total, e, cf, z)
    tab[h, 0], tab[h, 1], tab[h, 2] = total, e, v
    return v


@_kernel
def _row_dist(Wf, rows, start, end, out, x):
    """``out[x]``: the class counts of ``rows[start:end]``."""
    if out.shape[1] == 2:  # the usual case, unrolled (integer counts: any order gives the same sums)
        a0, a1 = 0.0, 0.0
        for i in range(start, end):
            r = rows[i]
            a0 += Wf[r, 0]
            a1 += Wf[r, 1]
        out[x, 0], out[x, 1] = a0, a1
        return
    for k in range(out.shape[1]):
        out[x, k] = 0.0
    for i in range(start, end):
        r = rows[i]
        for k in range(out.shape[1]):
            out[x, k] += Wf[r, k]


@_kernel(forceinline=True)
def _partition(bits, rows, start, end, a):
    """Rows with value 0 of attribute ``a`` first; returns the first row with value 1.

    Branch-free (the values are unpredictable): every row is swapped to the
    end of the zeros, which advances only past a zero.
    """
    i, ua = np.uint64(start), np.uint64(a)
    for j in range(np.uint64(start), np.uint64(end)):
        r = rows[j]
        rows[j] = rows[i]
        rows[i] = r
        i += np.uint64(bits[np.uint64(r), ua] == 0)
    return np.int64(i)


@_kernel(forceinline=True)
def _count_index(count):
    """An integer count held as float64, as an unsigned array index (no negative-index wraparound)."""
    return np.uint64(int(count))


@_kernel(forceinline=True)
def _select(m, logt, dist, ones, node, gains, ratios, valid):
    """C45ModelSelection.selectModel on a node's rows: best attribute, or -1 (leaf).

    ``dist[node]`` holds the node's class counts and ``ones[node, k, j]`` its
    class-``k`` count with value 1 of attribute ``j``. Arithmetic as
    c45._TreeBuilder.select.
    """
    K, p = ones.shape[1], ones.shape[2]
    if _is_leaf(dist, node, m):
        return -1
    total = _sum(dist, node)
    log_total = logt[_count_index(total)]
    s = 0.0
    for k in range(K):
        s += logt[_count_index(dist[node, k])]
    old_ent = log_total - s
    # With two values per attribute Weka's multiVal rule keeps every admissible
    # attribute in the average gain (numValues = 2 < 0.3 N, or every attribute few-valued).
    acc, n_valid = 0.0, 0
    d0, d1 = dist[node, 0], dist[node, K - 1]
    for j in range(p):
        if K == 2:  # the usual case, unrolled: the same sums in the same order
            o0, o1 = ones[node, 0, j], ones[node, 1, j]
            pb1 = (0.0 + o0) + o1
            pb0 = (0.0 + (d0 - o0)) + (d1 - o1)
        else:
            pb0, pb1 = 0.0, 0.0
            for k in range(K):
                pb1 += ones[node, k, j]
                pb0 += dist[node, k] - ones[node, k, j]
        # Distribution.check(minNoObj): both branches need min_num_obj instances.
        # Gain and ratio of other attributes are never read, so are not computed.
        valid[j] = (pb0 - m > -_EPS) and (pb1 - m > -_EPS)
        if not valid[j]:
            continue
        if K == 2:
            s1 = (0.0 + logt[_count_index(o0)]) + logt[_count_index(o1)]
            s0 = (0.0 + logt[_count_index(d0 - o0)]) + logt[_count_index(d1 - o1)]
        else:
            s0, s1 = 0.0, 0.0
            for k in range(K):
                s1 += logt[_count_index(ones[node, k, j])]
                s0 += logt[_count_index(dist[node, k] - ones[node, k, j])]
        lp0, lp1 = logt[_count_index(pb0)], logt[_count_index(pb1)]
        num = old_ent - ((lp0 - s0) + (lp1 - s1))
        gain = 0.0 if abs(num) < _EPS else num / total  # InfoGainSplitCrit
        split_ent = log_total - (lp0 + lp1)
        ratio = 0.0 if abs(split_ent) < _EPS else gain / (split_ent / total)  # GainRatioSplitCrit
        gains[j], ratios[j] = gain, ratio
        acc += gain  # sequential sum in attribute order, as Weka
        n_valid += 1
    if n_valid == 0:
        return -1
    avg = acc / n_valid
    best, min_result = -1, 0.0
    low = avg - 1e-3
    for j in range(p):  # ascending order: the first attribute wins ties; branch-free, as unpredictable
        take = valid[j] & (gains[j] >= low) & (ratios[j] - min_result > _EPS)  # gains[j] stale if not valid[j]
        best = j if take else best
        min_result = ratios[j] if take else min_result
    if abs(min_result) < _EPS:
        return -1
    return best


# --------------------------------------------------------------------------- J48 tree
@_kernel(forceinline=True)
def _is_leaf(dist, i, m):
    """Row ``i`` is grown as a leaf: C45ModelSelection's leaf tests, or its subtree would be collapsed.

    C45ModelSelection makes a leaf of fewer than 2 * minNumObj instances or of
    one class. The third test is the collapse shortcut of the module docstring:
    with ``err`` instances outside the node's majority class, a leaf of its
    subtree whose majority differs holds at most ``2 * err - 1`` instances,
    fewer than the ``minNumObj`` every son of a split has.
    """
    total = _sum(dist, i)
    err = total - dist[i, _max_class(dist, i)]
    return total - 2 * m < -_EPS or abs(err) < _EPS or 2 * err - 1 - m < -_EPS


@_kernel(forceinline=True)
def _count_ones(bits, Wf, rows, start, end, out, x):
    """``out[x, k, j]``: class-``k`` count with value 1 of attribute ``j`` over ``rows[start:end]``."""
    K, p = out.shape[1], out.shape[2]
    for k in range(K):
        for j in range(p):
            out[x, k, j] = 0.0
    if K == 2:  # the usual case: both classes in one pass over the row
        ux = np.uint64(x)
        for i in range(np.uint64(start), np.uint64(end)):
            r = np.uint64(rows[i])
            w0, w1 = Wf[r, 0], Wf[r, 1]
            for j in range(np.uint64(p)):
                b = bits[r, j]
                out[ux, 0, j] += w0 * b
                out[ux, 1, j] += w1 * b
        return
    for i in range(start, end):
        r = rows[i]
        for k in range(K):
            w = Wf[r, k]
            for j in range(p):
                out[x, k, j] += w * bits[r, j]


@_kernel
def _grow(bits, fbits, Wf, rows, n_rows, m, logt, attr, child, seg, ndist, nones, stack, gains, ratios,
          valid):
    """Grow the unpruned tree on ``rows[:n_rows]``; returns the number of nodes.

    A son's counts come from its parent's: class counts from the split
    attribute's counts, per-attribute counts by scanning the smaller son and
    subtracting it from the parent (integer sums, so exact).
    """
    seg[0, 0], seg[0, 1] = 0, n_rows
    # The root as an int64, not the literal 0: a literal argument makes numba compile a callee once more for it.
    root = np.int64(0)
    _row_dist(Wf, rows, root, n_rows, ndist, root)
    _count_ones(fbits, Wf, rows, root, n_rows, nones, root)  # naive Bayes's counts too (evaluate_folds)
    n_nodes, top = np.int64(1), 0  # not the literal 1: numba would compile _is_leaf and its helpers for it too
    stack[0] = 0
    while top >= 0:
        node = stack[top]
        top -= 1
        s, e = seg[node, 0], seg[node, 1]
        a = _select(m, logt, ndist, nones, node, gains, ratios, valid)
        attr[node] = a
        if a >= 0:
            mid = _partition(bits, rows, s, e, a)
            c = n_nodes
            child[node, 0], child[node, 1] = c, c + 1
            seg[c, 0], seg[c, 1] = s, mid
            seg[c + 1, 0], seg[c + 1, 1] = mid, e
            for k in range(ndist.shape[1]):
                ndist[c + 1, k] = nones[node, k, a]
                ndist[c, k] = ndist[node, k] - nones[node, k, a]
            leaf0, leaf1 = _is_leaf(ndist, c, m), _is_leaf(ndist, c + 1, m)
            if not (leaf0 and leaf1):
                small, large = (c, c + 1) if mid - s <= e - mid else (c + 1, c)
                _count_ones(fbits, Wf, rows, seg[small, 0], seg[small, 1], nones, small)
                for k in range(nones.shape[1]):
                    for j in range(nones.shape[2]):
                        nones[large, k, j] = nones[node, k, j] - nones[small, k, j]
            n_nodes += 2
            # A son that _select would make a leaf at once (its first tests) is not pushed.
            attr[c], attr[c + 1] = -1, -1
            if not leaf1:
                top += 1
                stack[top] = c + 1
            if not leaf0:
                top += 1
                stack[top] = c
    return n_nodes


@_kernel
def _collapse(attr, child, ndist, n_nodes, train_err):
    """C45PruneableClassifierTree.collapse (a node's test reads only its grown subtree)."""
    for node in range(n_nodes - 1, -1, -1):  # children before parents
        if attr[node] < 0:
            train_err[node] = _sum(ndist, node) - ndist[node, _max_class(ndist, node)]
        else:
            train_err[node] = train_err[child[node, 0]] + train_err[child[node, 1]]
    for node in range(n_nodes):
        if attr[node] >= 0:
            if train_err[node] >= (_sum(ndist, node) - ndist[node, _max_class(ndist, node)]) - 1e-3:
                attr[node] = -1


@_kernel(forceinline=True)
def _est_branch(top, bits, Wf, rows, start, end, attr, child, ndist, est, cf, z, tab, acc, touched,
                order, value, sib, sib_seg):
    """est_errors_branch: the subtree of ``top`` evaluated on its own rows and ``rows[start:end]``.

    ``rows[start:end]`` are the rows of ``top``'s sibling, which C45 sends down
    ``top``'s subtree together with ``top``'s rows. The rows of ``top`` itself
    reach the leaves whose counts ``ndist`` already holds (growing and
    ``newDistribution`` partition them that way), and ``top``'s subtree is
    pruned, so ``est[y]`` is C45's estimate of every node ``y`` in it on its own
    rows. Only the sibling's rows are sent down, a copy in ``sib`` partitioned
    node by node as growing does (integer counts: exact sums in any order), and
    only the nodes they reach are re-estimated, as C45's recursion does,
    ``est(son 0) + est(son 1)``; any other son contributes its ``est``, the
    same sum in the same order.
    """
    n = end - start
    for i in range(n):
        sib[i] = rows[start + i]
    order[0] = top
    touched[top] = True
    sib_seg[top, 0], sib_seg[top, 1] = 0, n
    n_reached, i = 1, 0
    while i < n_reached:  # breadth first: a parent precedes its sons in ``order``
        x = order[i]
        i += 1
        s, e = sib_seg[x, 0], sib_seg[x, 1]
        if attr[x] < 0:
            if acc.shape[1] == 2:
                a0, a1 = ndist[x, 0], ndist[x, 1]
                for t in range(s, e):
                    r = sib[t]
                    a0 += Wf[r, 0]
                    a1 += Wf[r, 1]
                acc[x, 0], acc[x, 1] = a0, a1
            else:
                for k in range(acc.shape[1]):
                    acc[x, k] = ndist[x, k]
                for t in range(s, e):
                    for k in range(acc.shape[1]):
                        acc[x, k] += Wf[sib[t], k]
            continue
        mid = _partition(bits, sib, s, e, attr[x])
        c0, c1 = child[x, 0], child[x, 1]
        if mid > s:
            touched[c0] = True
            sib_seg[c0, 0], sib_seg[c0, 1] = s, mid
            order[n_reached] = c0
            n_reached += 1
        if e > mid:
            touched[c1] = True
            sib_seg[c1, 0], sib_seg[c1, 1] = mid, e
            order[n_reached] = c1
            n_reached += 1
    for i in range(n_reached - 1, -1, -1):  # sons before their parent
        x = order[i]
        if attr[x] < 0:
            value[x] = _est_dist(acc, x, cf, z, tab)
        else:
            c0, c1 = child[x, 0], child[x, 1]
            value[x] = (value[c0] if touched[c0] else est[c0]) + (value[c1] if touched[c1] else est[c1])
    for i in range(n_reached):
        touched[order[i]] = False
    return value[top]


@_kernel
def _new_distribution(top, bits, Wf, rows, attr, child, seg, ndist, stack):
    """newDistribution: hand the rows of ``seg[top]`` down the subtree of ``top``."""
    stack[0] = top
    sp = 0
    while sp >= 0:
        x = stack[sp]
        sp -= 1
        s, e = seg[x, 0], seg[x, 1]
        _row_dist(Wf, rows, s, e, ndist, x)
        if attr[x] >= 0:
            mid = _partition(bits, rows, s, e, attr[x])
            c0, c1 = child[x, 0], child[x, 1]
            seg[c0, 0], seg[c0, 1] = s, mid
            seg[c1, 0], seg[c1, 1] = mid, e
            stack[sp + 1], stack[sp + 2] = c1, c0
            sp += 2


@_kernel
def _prune(bits, Wf, rows, attr, child, seg, ndist, cf, z, tab, raising, est, phase, stack, acc,
           touched, order, value, sib, sib_seg):
    """C45PruneableClassifierTree.prune of the root, with an explicit stack.

    ``est[x]`` holds est_errors of node ``x`` once ``x`` is pruned (C45
    recomputes the same sums in the same order). A raised node is pushed again,
    as C45 prunes it again, which re-prunes its new sons.
    """
    stack[0] = 0
    phase[0] = 0
    sp = 0
    while sp >= 0:
        x = stack[sp]
        if attr[x] < 0:
            est[x] = _est_dist(ndist, x, cf, z, tab)
            sp -= 1
            continue
        c0, c1 = child[x, 0], child[x, 1]
        if phase[x] == 0:  # prune the sons first
            phase[x] = 1
            phase[c0], phase[c1] = 0, 0
            stack[sp + 1], stack[sp + 2] = c1, c0
            sp += 2
            continue
        sp -= 1
        # Distribution.maxBag: the last bag with the largest weight.
        largest = c1 if _sum(ndist, c1) - _sum(ndist, c0) > -_EPS else c0
        err_leaf = _est_dist(ndist, x, cf, z, tab)
        if not raising:
            err_branch = np.inf
        elif attr[largest] < 0:
            # A leaf given its sibling's rows holds the node's class counts
            # (integers, so the same sums): its estimate is the node's, and
            # _est_dist's value depends only on the counts.
            err_branch = err_leaf
        else:
            other = c0 + c1 - largest
            err_branch = _est_branch(largest, bits, Wf, rows, seg[other, 0], seg[other, 1], attr, child,
                                     ndist, est, cf, z, tab, acc, touched, order, value, sib, sib_seg)
        err_tree = est[c0] + est[c1]
        if err_leaf - (err_tree + 0.1) <= _EPS and err_leaf - (err_branch + 0.1) <= _EPS:
            attr[x] = -1
            est[x] = err_leaf
        elif err_branch - (err_tree + 0.1) <= _EPS:
            # Subtree raising: the largest branch takes the node's place with
            # all of the node's instances, and the node is pruned again.
            attr[x] = attr[largest]
            child[x, 0], child[x, 1] = child[largest, 0], child[largest, 1]
            _new_distribution(x, bits, Wf, rows, attr, child, seg, ndist, order)
            phase[x] = 0
            sp += 1
            stack[sp] = x
        else:
            est[x] = err_tree


@_kernel(inline="always")
def _fit_c45(bits, fbits, Wf, m, logt, cf, z, tab, raising, work):
    """Fit J48 on one training set; the tree is left in ``attr, child, ndist`` (root 0).

    ``bits`` holds the patterns' values (U, p) as integers 0/1 and ``fbits``
    the same as float64 (they multiply counts in ``_count_ones``). The root's
    per-attribute counts are left in ``work[5][0]``.
    """
    rows, attr, child, seg, ndist, ones, stack, train_err, phase, order, acc, value, gains, ratios, \
        valid, touched, sib, sib_seg = work
    U = bits.shape[0]
    n_rows = np.int64(0)  # not the literal 0: numba would compile _grow a second time for it
    for u in range(U):
        if _sum(Wf, u) > 0:
            rows[n_rows] = u
            n_rows += 1
    n_nodes = _grow(bits, fbits, Wf, rows, n_rows, m, logt, attr, child, seg, ndist, ones, stack, gains,
                    ratios, valid)
    _collapse(attr, child, ndist, n_nodes, train_err)
    _prune(bits, Wf, rows, attr, child, seg, ndist, cf, z, tab, raising, train_err, phase, stack,
           acc, touched, order, value, sib, sib_seg)


@_kernel(forceinline=True)
def _c45_predict(bits, u, attr, child, ndist):
    """Class of pattern ``u``: first majority class of its leaf (class 0 if emptied)."""
    node = 0
    while attr[node] >= 0:
        node = child[node, bits[u, attr[node]]]
    best, arg = -np.inf, 0
    for k in range(ndist.shape[1]):
        if ndist[node, k] > best:
            best, arg = ndist[node, k], k
    return arg


@njit(cache=True)
def _workspace(U, p, K):
    """Arrays of one fit, reused across folds (``train_err`` doubles as the pruning estimates)."""
    n = 2 * U + 3  # a binary split leaves both sons non-empty: at most 2U - 1 nodes
    attr = np.empty(n, np.int64)
    for i in range(n):  # not np.full: one allocation routine fewer to compile
        attr[i] = -1
    return (np.empty(U, np.int64), attr, np.zeros((n, 2), np.int64),
            np.zeros((n, 2), np.int64), np.zeros((n, K)), np.empty((n, K, p)), np.empty(n, np.int64),
            np.empty(n), np.zeros(n, np.int64), np.empty(n, np.int64), np.zeros((n, K)), np.empty(n),
            np.empty(p), np.empty(p), np.zeros(p, np.bool_), np.zeros(n, np.bool_), np.empty(U, np.int64),
            np.zeros((n, 2), np.int64))


@njit(cache=True)
def _est_table():
    """Empty memo of est_errors_dist: a direct-mapped cache of 4096 entries (any number of instances)."""
    tab = np.empty((4096, 3))
    tab[:, 0] = -1.0
    return tab
