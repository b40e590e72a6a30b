"""The search for the Bayesian-network sources of Bouckaert (2003), Table 3.

The papers' networks were not published. :func:`search_network` draws random
BAN networks (:func:`~replicability.sources.bayesnet.random_network`) until one
gives naive Bayes and C4.5 the expected accuracies of a row of Table 3
(:data:`~replicability.sources.bayesnet.BOUCKAERT2003_TARGETS`), scoring the two
learners with their batched fast paths (:mod:`replicability.learners.fastpath`)
against the exact joint distribution, :func:`expected_accuracies`. The four
networks found are package data (``sources/bouckaert2003_sources.json``);
``benchmarks/search_bayesnet_sources.py`` reruns the search.
"""

from __future__ import annotations

import dataclasses
import numbers

import numpy as np

from ..._patterns import pattern_matrix
from ..._validation import as_generator, check_positive_int
from ...learners.fastpath import c45_patterns, naive_bayes_patterns, pattern_counts
from ...sources.bayesnet import BayesNet, bayes_optimal_accuracy, exact_accuracy, random_network

__all__ = ["ExpectedAccuracy", "expected_accuracies", "search_network"]


def _asymptotic_nb_accuracy(joint):
    """Exact accuracy of naive Bayes fitted to the true marginals P(x_j | y) (infinite training data)."""
    n_pat = joint.shape[0]
    B = pattern_matrix(n_pat.bit_length() - 1)
    py = joint.sum(axis=0)
    # P(x_j = 1 | y), shape (n_attributes, 2); sums in a fixed order, not a BLAS product
    p1 = np.stack([joint[B[:, j] == 1].sum(axis=0) for j in range(B.shape[1])]) / py
    with np.errstate(divide="ignore"):
        log1, log0 = np.log(p1), np.log1p(-p1)
        logp = np.log(py) + np.zeros((n_pat, 1))
        # where(), not a matrix product: a marginal of exactly 0 or 1 gives -inf, and 0 * -inf is NaN.
        for j in range(B.shape[1]):
            logp = logp + np.where(B[:, j, None] == 1, log1[j], log0[j])
    pred = (logp[:, 1] > logp[:, 0]).astype(np.int64)  # ties to class 0, as Weka
    return float(np.where(pred == 1, joint[:, 1], joint[:, 0]).sum())


@dataclasses.dataclass(frozen=True)
class ExpectedAccuracy:
    """Expected accuracy of naive Bayes and C4.5 trained on ``n_train`` instances.

    Attributes
    ----------
    naive_bayes, c45, difference : float
        Means over the sampled training sets of the exact accuracy (the
        expectation over all patterns under the joint distribution);
        ``difference = c45 - naive_bayes``.
    naive_bayes_se, c45_se, difference_se : float
        Monte Carlo standard errors of those means (``std / sqrt(n_train_sets)``).
    test_naive_bayes, test_c45 : float or None
        Mean accuracy on one sampled test set of ``n_test`` instances, as the
        papers measured it; None when ``n_test`` was not given.
    n_train, n_train_sets, n_test : int or None
    """

    naive_bayes: float
    c45: float
    difference: float
    naive_bayes_se: float
    c45_se: float
    difference_se: float
    test_naive_bayes: float | None
    test_c45: float | None
    n_train: int
    n_train_sets: int
    n_test: int | None

    def to_dict(self):
        return dataclasses.asdict(self)


def _standard_error(values):
    """Standard error of the mean of ``values`` (``std(ddof=1) / sqrt(n)``)."""
    return float(values.std(ddof=1) / np.sqrt(values.shape[0]))


def expected_accuracies(network, *, n_train=300, n_train_sets=100, n_test=None, rng=None):
    """Expected accuracy of Weka's naive Bayes and C4.5 (J48) trained on a network's data.

    Draws ``n_train_sets`` training sets of ``n_train`` instances, fits both
    learners on each (the batched :mod:`~replicability.learners.fastpath`,
    identical to the instance-level estimators) and scores each fitted model
    against the exact joint distribution over all patterns, so the only Monte
    Carlo error is over training sets. With ``n_test``, each model is also
    scored on one sampled test set, as in Bouckaert (2003, 10,000 instances)
    and Bouckaert & Frank (2004, 20,000).

    Parameters
    ----------
    network : BayesNet or dict
    n_train, n_train_sets, n_test : int, keyword-only
        Training-set size, number of training sets (at least 2, for the
        standard error) and test-set size (None: no test set).
    rng : numpy.random.Generator, int or None, keyword-only

    Returns
    -------
    ExpectedAccuracy
        Accuracies as fractions (not percentages).

    Examples
    --------
    >>> from replicability.papers.shared.network_search import expected_accuracies
    >>> from replicability.sources.bayesnet import independent_network
    >>> res = expected_accuracies(independent_network(), n_train_sets=2, rng=0)
    >>> print(round(res.naive_bayes, 6), round(res.c45, 6), res.c45_se)
    0.5 0.5 0.0
    """
    network = BayesNet.coerce(network)
    n_train = check_positive_int(n_train, "n_train")
    n_train_sets = check_positive_int(n_train_sets, "n_train_sets", minimum=2)
    if n_test is not None:
        n_test = check_positive_int(n_test, "n_test")
    rng = as_generator(rng)
    X, y = network.sample(n_train, size=(n_train_sets,), rng=rng)
    counts = pattern_counts(X, y, n_classes=2)
    pred = np.stack([naive_bayes_patterns(counts), c45_patterns(counts)])  # (2, m, n_patterns)
    acc = exact_accuracy(network, pred)  # (2, m)
    diff = acc[1] - acc[0]
    test = (None, None)
    if n_test is not None:
        Xt, yt = network.sample(n_test, rng=rng)
        tc = pattern_counts(Xt, yt, n_classes=2)
        test_acc = np.where(pred == 1, tc[:, 1], tc[:, 0]).sum(axis=-1) / n_test
        test = tuple(float(v) for v in test_acc.mean(axis=1))
    return ExpectedAccuracy(
        naive_bayes=float(acc[0].mean()), c45=float(acc[1].mean()), difference=float(diff.mean()),
        naive_bayes_se=_standard_error(acc[0]), c45_se=_standard_error(acc[1]), difference_se=_standard_error(diff),
        test_naive_bayes=test[0], test_c45=test[1],
        n_train=n_train, n_train_sets=n_train_sets, n_test=n_test,
    )


def _strength_for_nb(base, target):
    """Smallest CPT strength at which naive Bayes with exact marginals reaches ``target`` (bisection)."""
    lo, hi = 0.0, 1.0
    for _ in range(40):
        mid = 0.5 * (lo + hi)
        if _asymptotic_nb_accuracy(base.scaled(mid).joint()) < target:
            lo = mid
        else:
            hi = mid
    return hi


def search_network(naive_bayes, c45, *, seed, n_attributes=10, n_train=300, tolerance=0.005,
                   arcs_range=(0, 30), concentration_range=(0.1, 2.0), n_screen=8, n_confirm=200,
                   n_test=None, max_trials=500):
    """Seeded search for a random BAN whose NB and C4.5 expected accuracies hit targets.

    Trial ``t`` draws the number of arcs uniformly in ``arcs_range`` (inclusive), a
    Beta concentration log-uniformly in ``concentration_range`` and a
    :func:`~replicability.sources.bayesnet.random_network`, all from ``numpy.random.default_rng([seed, t])``.
    The CPT strength (:meth:`~replicability.sources.bayesnet.BayesNet.scaled`) is then set by bisection so that
    naive Bayes with exact marginals has accuracy ``naive_bayes``, corrected once
    for the small-sample loss measured on ``n_screen`` training sets. Networks
    whose Bayes-optimal accuracy is below the C4.5 target are skipped without
    training. A candidate is checked on 50 training sets (within ``tolerance``
    plus two standard errors), then confirmed on ``n_confirm`` fresh training
    sets and accepted when both expected accuracies lie within ``tolerance`` of
    their targets.

    Parameters
    ----------
    naive_bayes, c45 : float
        Target expected accuracies (fractions) of naive Bayes and C4.5.
    seed : int, keyword-only
        Root seed of the search (non-negative).
    n_attributes, n_train, max_trials : int, keyword-only
    tolerance : float, keyword-only
        Largest accepted absolute deviation (a fraction: 0.005 is half a point).
    arcs_range, concentration_range : pairs (low, high), keyword-only
        Number of arcs and Beta parameter of the CPT entries (:func:`~replicability.sources.bayesnet.random_network`).
    n_screen, n_confirm, n_test : int, keyword-only
        Training sets to screen and to confirm a candidate; test-set size of
        the confirming :func:`expected_accuracies` (None: no test set).

    Returns
    -------
    network : BayesNet
    info : dict
        ``seed``, ``trial``, ``n_arcs``, ``concentration``, ``strength`` (enough
        to regenerate the network) and ``accuracy`` (the confirming
        :class:`ExpectedAccuracy` as a dict). RuntimeError if no trial of
        ``max_trials`` is accepted.

    Examples
    --------
    >>> from replicability.papers.shared.network_search import search_network
    >>> net, info = search_network(0.75, 0.75, seed=0, n_attributes=4, arcs_range=(0, 3),
    ...                            tolerance=0.03, n_confirm=20)
    >>> abs(info["accuracy"]["naive_bayes"] - 0.75) < 0.03, abs(info["accuracy"]["c45"] - 0.75) < 0.03
    (True, True)
    """
    targets = {}
    for name, value in (("naive_bayes", naive_bayes), ("c45", c45)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not 0.5 <= value < 1:
            raise ValueError(f"`{name}` must be a target accuracy in [0.5, 1); got {value!r}.")
        targets[name] = float(value)
    seed = check_positive_int(seed, "seed", minimum=0)
    if isinstance(tolerance, bool) or not isinstance(tolerance, numbers.Real) or not 0 < tolerance < 0.5:
        raise ValueError(f"`tolerance` must be a number in (0, 0.5); got {tolerance!r}.")
    n_attributes = check_positive_int(n_attributes, "n_attributes")
    n_pairs = n_attributes * (n_attributes - 1) // 2
    arc_low, arc_high = (check_positive_int(v, "arcs_range", minimum=0) for v in arcs_range)
    if not arc_low <= arc_high <= n_pairs:
        raise ValueError(f"`arcs_range` must be (low, high) with low <= high <= {n_pairs}; got {arcs_range!r}.")
    max_trials = check_positive_int(max_trials, "max_trials")
    low, high = (float(v) for v in concentration_range)
    if not 0 < low <= high:
        raise ValueError(
            f"`concentration_range` must be (low, high) with 0 < low <= high; got {concentration_range!r}."
        )
    for trial in range(max_trials):
        rng = np.random.default_rng([seed, trial])
        n_arcs = int(rng.integers(arc_low, arc_high + 1))
        concentration = float(np.exp(rng.uniform(np.log(low), np.log(high))))
        base = random_network(n_attributes=n_attributes, n_arcs=n_arcs, concentration=concentration, rng=rng)
        if _asymptotic_nb_accuracy(base.joint()) < targets["naive_bayes"]:
            continue  # even the full-strength network is too hard for naive Bayes
        strength = _strength_for_nb(base, targets["naive_bayes"])
        if bayes_optimal_accuracy(base.scaled(strength)) < targets["c45"]:
            continue  # no learner can reach the C4.5 target
        screen = expected_accuracies(base.scaled(strength), n_train=n_train, n_train_sets=n_screen, rng=rng)
        # C4.5 moves with the strength too; only near misses are worth correcting.
        if abs(screen.c45 - targets["c45"]) > 3 * tolerance + 0.01:
            continue
        # Naive Bayes trained on n_train instances loses (or gains) a little against its
        # exact-marginal version; aim the bisection past the target by that amount.
        shifted = targets["naive_bayes"] + (targets["naive_bayes"] - screen.naive_bayes)
        if _asymptotic_nb_accuracy(base.joint()) < shifted:
            continue
        strength = _strength_for_nb(base, shifted)
        network = base.scaled(strength)
        check = expected_accuracies(network, n_train=n_train, n_train_sets=50, rng=rng)
        if (abs(check.naive_bayes - targets["naive_bayes"]) > tolerance + 2 * check.naive_bayes_se
                or abs(check.c45 - targets["c45"]) > tolerance + 2 * check.c45_se):
            continue
        confirm = expected_accuracies(network, n_train=n_train, n_train_sets=n_confirm, n_test=n_test, rng=rng)
        if (abs(confirm.naive_bayes - targets["naive_bayes"]) < tolerance
                and abs(confirm.c45 - targets["c45"]) < tolerance):
            info = {"seed": seed, "trial": trial, "n_arcs": n_arcs, "concentration": concentration,
                    "strength": strength, "accuracy": confirm.to_dict()}
            return network, info
    raise RuntimeError(f"no network within {tolerance} of the targets in {max_trials} trials (seed {seed}).")
