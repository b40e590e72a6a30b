"""Linear estimators of replicability and the theory behind them (Bouckaert 2004, §3).

:mod:`replicability.stats.measures` holds the two estimators of the paper, R̂1 and R̂2,
and their closed-form variances. This module holds what is needed to *check*
the paper's Section 3 and Appendix:

* the general linear estimator R̂k (Eq. 2), ``Σ_{i<j} k_ij I(e_i = e_j)``, with
  the weights of R̂1 and R̂2 as special cases, its exact variance and the
  covariance matrix of the pair indicators it is built from (Lemma 3.3,
  Theorem 3.2);
* a numerical search for the unbiased linear estimator of least variance
  (Theorem 3.2 says it is R̂2);
* Theorem 3.1 as printed and as read in ERRATA, with ``p`` obtained from ``r``;
* the binomial sums of Lemma A.1.

Exact enumeration of outcome vectors and simulation, to check all of these,
are in :mod:`replicability.stats.enumeration`.

Outcomes are coded as in :mod:`replicability.stats.measures`: two values ``0``
(accept) and ``1`` (reject), or three values ``-1, 0, 1`` (B better, no
difference, A better). Outcome probabilities ``p`` lie on the last axis in that
order; for two values ``p[0]`` is the paper's ``p``, the probability to accept.
Weight vectors list the pairs ``i < j`` in the order of :func:`pair_indices`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize

from .._results import unwrap_scalar
from .._validation import as_float_array, check_positive_int
from .measures import _as_outcomes, _as_probabilities, _as_replicability, _power_sums

__all__ = [
    "MinimumVarianceResult",
    "binomial_power_sums",
    "binomial_power_sums_closed_form",
    "linear_estimator_variance",
    "linear_replicability",
    "minimum_variance_weights",
    "pair_agreement",
    "pair_covariance",
    "pair_indices",
    "probabilities_from_replicability",
    "r1_weights",
    "r2_variance_theorem31",
    "r2_weights",
]

# --------------------------------------------------------------------------- #
# result objects
# --------------------------------------------------------------------------- #
@dataclass(frozen=True)
class MinimumVarianceResult:
    """Weights of the unbiased linear estimator of least variance found numerically.

    Attributes
    ----------
    weights : ndarray
        Weights ``k_ij`` in the order of :func:`pair_indices`; they sum to 1.
    variance : float
        Variance of the estimator with these weights.
    success : bool
        Whether the optimizer reported convergence.
    n_iterations : int
        Iterations the optimizer used.
    """

    weights: np.ndarray
    variance: float
    success: bool
    n_iterations: int


# --------------------------------------------------------------------------- #
# validation (private)
# --------------------------------------------------------------------------- #
def _n_from_pairs(n_pairs, name):
    # n(n-1)/2 = n_pairs  =>  n = (1 + sqrt(1 + 8 n_pairs)) / 2
    n = (1 + math.isqrt(1 + 8 * n_pairs)) // 2
    if n < 2 or n * (n - 1) // 2 != n_pairs:
        raise ValueError(
            f"`{name}` must have n(n-1)/2 values on its last axis (one per pair i < j) "
            f"for some n >= 2; got {n_pairs}."
        )
    return n


def _as_weights(weights):
    w = as_float_array(weights, "weights", min_last=0)
    return w, _n_from_pairs(w.shape[-1], "weights")


def _incidence(n):
    # B[m, pair] = 1 when repetition m belongs to the pair; B.T @ B counts the
    # repetitions two pairs share (2 on the diagonal, 1 or 0 elsewhere).
    i, j = pair_indices(n)
    b = np.zeros((n, i.size))
    b[i, np.arange(i.size)] = 1.0
    b[j, np.arange(i.size)] = 1.0
    return b


# --------------------------------------------------------------------------- #
# the linear estimators R̂k (Eq. 2)
# --------------------------------------------------------------------------- #
def pair_indices(n):
    """Indices ``(i, j)``, ``i < j``, of the ``n(n-1)/2`` pairs of repetitions.

    The order (row-major upper triangle, as :func:`numpy.triu_indices`) is the
    order of every weight vector in this module. Indices are 0-based: the
    paper's ``k_{1,2}`` is entry 0.

    Parameters
    ----------
    n : int
        Number of repetitions, at least 2.

    Returns
    -------
    i, j : ndarray of int

    Examples
    --------
    >>> from replicability.stats.estimators import pair_indices
    >>> [pair.tolist() for pair in pair_indices(3)]
    [[0, 0, 1], [1, 2, 2]]
    """
    n = check_positive_int(n, "n", minimum=2)
    return np.triu_indices(n, k=1)


def pair_agreement(outcomes):
    """Indicators ``I(e_i = e_j)`` of every pair ``i < j`` of repetitions.

    Parameters
    ----------
    outcomes : array_like of int
        Values in ``{-1, 0, 1}``; ``n >= 2`` repetitions on the last axis.

    Returns
    -------
    agree : ndarray of int8
        Shape ``outcomes.shape[:-1] + (n(n-1)/2,)``, pairs in the order of
        :func:`pair_indices`.

    Examples
    --------
    >>> from replicability.stats.estimators import pair_agreement
    >>> pair_agreement([1, 1, 0]).tolist()
    [1, 0, 0]
    """
    arr = _as_outcomes(outcomes)
    i, j = pair_indices(arr.shape[-1])
    return (arr[..., i] == arr[..., j]).astype(np.int8)


def linear_replicability(outcomes, weights):
    """General linear estimator R̂k of replicability (Bouckaert 2004, Eq. 2).

    Estimates the replicability ``r`` (the probability that two runs of an
    experiment on the same data agree) by a weighted sum of the pair indicators:

    .. math:: \\hat R_k(e) = \\sum_{1 \\le i < j \\le n} k_{ij} I(e_i = e_j)

    Parameters
    ----------
    outcomes : array_like of int
        Values in ``{-1, 0, 1}``; ``n >= 2`` repetitions on the last axis.
    weights : array_like of float
        The ``n(n-1)/2`` weights ``k_ij`` on the last axis, in the order of
        :func:`pair_indices`; leading axes broadcast with those of ``outcomes``.

    Returns
    -------
    estimate : float or ndarray

    Notes
    -----
    R̂k is unbiased for every outcome distribution iff the weights sum to 1
    (Lemma 3.3): ``E R̂k = r Σ k_ij``. :func:`r1_weights` and :func:`r2_weights`
    give R̂1 and R̂2 (Eq. 1), computed from counts in
    :func:`replicability.stats.measures.replicability_r1` and
    :func:`~replicability.stats.measures.replicability_r2`.

    References
    ----------
    R. R. Bouckaert (2004). Estimating replicability of classifier learning
    experiments. ICML 2004. doi:10.1145/1015330.1015338

    Examples
    --------
    >>> from replicability.stats.estimators import linear_replicability, r2_weights
    >>> round(float(linear_replicability([1, 1, 1, 0, 0], r2_weights(5))), 4)
    0.4
    """
    agree = pair_agreement(outcomes)
    w, n = _as_weights(weights)
    if n != _n_from_pairs(agree.shape[-1], "outcomes"):
        raise ValueError(
            f"`weights` must have one value per pair of the {agree.shape[-1]} pairs of "
            f"`outcomes`; got {w.shape[-1]}."
        )
    return unwrap_scalar((agree * w).sum(axis=-1))


def r1_weights(n):
    """Weights of R̂1 in the class R̂k: ``1/(n/2)`` on the pairs ``(2i-1, 2i)``, else 0.

    Parameters
    ----------
    n : int
        Number of repetitions; even and at least 2.

    Returns
    -------
    weights : ndarray
        Length ``n(n-1)/2``, in the order of :func:`pair_indices`.

    Examples
    --------
    >>> from replicability.stats.estimators import r1_weights
    >>> r1_weights(4).tolist()
    [0.5, 0.0, 0.0, 0.0, 0.0, 0.5]
    """
    n = check_positive_int(n, "n", minimum=2)
    if n % 2:
        raise ValueError(f"`n` must be even for R̂1; got {n}.")
    i, j = pair_indices(n)
    # Section 3.3: k_{i,i+1} = 1/(n/2) for odd (1-based) i, i.e. even 0-based i.
    return np.where((j == i + 1) & (i % 2 == 0), 1 / (n / 2), 0.0)


def r2_weights(n):
    """Weights of R̂2 in the class R̂k: ``1/(n(n-1)/2)`` on every pair.

    Parameters
    ----------
    n : int
        Number of repetitions, at least 2.

    Returns
    -------
    weights : ndarray
        Length ``n(n-1)/2``.

    Examples
    --------
    >>> from replicability.stats.estimators import r2_weights
    >>> r2_weights(3).round(4).tolist()
    [0.3333, 0.3333, 0.3333]
    """
    n = check_positive_int(n, "n", minimum=2)
    n_pairs = n * (n - 1) // 2
    return np.full(n_pairs, 1 / n_pairs)


# --------------------------------------------------------------------------- #
# variances of R̂k
# --------------------------------------------------------------------------- #
def probabilities_from_replicability(r):
    """Two-valued outcome probabilities ``[p, 1 - p]`` with replicability ``r``.

    Solving ``r = p² + (1-p)²`` (Section 3.3) gives ``p = 1/2 ± √(2r − 1)/2``;
    the root ``p >= 1/2`` is returned (the variances are symmetric in ``p``).

    Parameters
    ----------
    r : array_like
        Replicability in ``[1/2, 1]``.

    Returns
    -------
    p : ndarray
        Shape ``r.shape + (2,)``.

    Examples
    --------
    >>> from replicability.stats.estimators import probabilities_from_replicability
    >>> probabilities_from_replicability(0.82).round(4).tolist()
    [0.9, 0.1]
    """
    r = _as_replicability(r)
    if np.any(r < 0.5):
        raise ValueError(
            f"`r` must be at least 1/2 for two outcome values; got {float(r[r < 0.5].flat[0])!r}."
        )
    p = 0.5 + 0.5 * np.sqrt(2 * r - 1)
    return np.stack([p, 1 - p], axis=-1)


def pair_covariance(p, n):
    """Covariance matrix of the pair indicators ``I(e_i = e_j)``.

    For independent outcomes with probabilities ``p`` and ``r = F(p, 2)``:
    ``var I(e_i = e_j) = r − r²``; two pairs that share one repetition both
    agree when three outcomes agree, covariance ``F(p, 3) − r²``; disjoint pairs
    are independent, covariance 0.

    Parameters
    ----------
    p : array_like
        Outcome probabilities on the last axis (2 or more values).
    n : int
        Number of repetitions, at least 2.

    Returns
    -------
    cov : ndarray
        Shape ``p.shape[:-1] + (n(n-1)/2, n(n-1)/2)``, pairs in the order of
        :func:`pair_indices`.

    Notes
    -----
    ``cov = c0 I + c1 BᵀB`` with ``B`` the repetition-by-pair incidence matrix,
    ``c1 = F(p,3) − r²`` and ``c0 = r − r² − 2 c1``. Its eigenvalues are ``c0``,
    ``c0 + (n−2)c1`` and ``c0 + 2(n−1)c1``; the last belongs to the all-equal
    vector, which is why equal weights (R̂2) minimize the variance among
    unbiased linear estimators (Theorem 3.2).

    Examples
    --------
    >>> from replicability.stats.estimators import pair_covariance
    >>> pair_covariance([0.9, 0.1], 3).round(4).tolist()[0]
    [0.1476, 0.0576, 0.0576]
    """
    arr = _as_probabilities(p)
    n = check_positive_int(n, "n", minimum=2)
    r, f3 = _power_sums(arr)
    b = _incidence(n)
    shared = b.T @ b
    var = (r - r**2)[..., None, None]
    cov = (f3 - r**2)[..., None, None]
    return np.where(shared == 2, var, np.where(shared == 1, cov, 0.0))


def linear_estimator_variance(weights, p):
    """Exact variance of the linear estimator R̂k for independent outcomes.

    .. math:: \\operatorname{var}(\\hat R_k) = (r - r^2) \\sum_{i<j} k_{ij}^2
              + (F(p,3) - r^2) \\Big(\\sum_m s_m^2 - 2 \\sum_{i<j} k_{ij}^2\\Big)

    with ``s_m`` the sum of the weights of the pairs containing repetition
    ``m``: the quadratic form ``kᵀ C k`` of :func:`pair_covariance`, evaluated
    without building ``C``.

    Parameters
    ----------
    weights : array_like
        The ``n(n-1)/2`` weights on the last axis (:func:`pair_indices` order).
    p : array_like
        Outcome probabilities on the last axis; leading axes broadcast with
        those of ``weights``.

    Returns
    -------
    var : float or ndarray

    Notes
    -----
    With the weights of R̂1 this is Lemma 3.1, ``(r − r²)/(n/2)``; with those of
    R̂2 it is Theorem 3.1 (:func:`replicability.stats.measures.r2_variance`).

    References
    ----------
    R. R. Bouckaert (2004). Estimating replicability of classifier learning
    experiments. ICML 2004. doi:10.1145/1015330.1015338

    Examples
    --------
    >>> from replicability.stats.estimators import linear_estimator_variance, r1_weights
    >>> round(float(linear_estimator_variance(r1_weights(10), [0.9, 0.1])), 4)
    0.0295
    """
    w, n = _as_weights(weights)
    arr = _as_probabilities(p)
    r, f3 = _power_sums(arr)
    sum_sq = (w**2).sum(axis=-1)
    # s_m summed in a fixed order (a matrix product's rounding would depend on the BLAS)
    member = _incidence(n).astype(bool)
    s = np.stack([w[..., member[m]].sum(axis=-1) for m in range(n)], axis=-1)
    return unwrap_scalar((r - r**2) * sum_sq + (f3 - r**2) * ((s**2).sum(axis=-1) - 2 * sum_sq))


def minimum_variance_weights(p, n, *, rng=None):
    """Find the unbiased linear estimator of least variance by numerical optimization.

    Minimizes ``var(R̂k) = kᵀ C k`` (:func:`pair_covariance`) over the weights
    subject to ``Σ k_ij = 1`` (unbiasedness, Lemma 3.3) with SciPy's SLSQP,
    from random starting weights. Theorem 3.2 says the minimum is at R̂2's
    weights ``1/(n(n-1)/2)``.

    Parameters
    ----------
    p : array_like
        Outcome probabilities of one distribution (1-d, 2 or more values), with
        ``r = Σ p_c² < 1``.
    n : int
        Number of repetitions, at least 2.
    rng : numpy.random.Generator, int or None, keyword-only
        Draws the starting weights (a Dirichlet(1, ..., 1) vector).

    Returns
    -------
    MinimumVarianceResult
        ``weights``, ``variance``, ``success``, ``n_iterations``.

    Notes
    -----
    The objective is divided by ``r − r²`` (the variance of one pair
    indicator) so that the optimizer works on numbers near 1. When ``r = 1``
    every unbiased estimator has variance 0 and there is no unique minimum, so
    ``r`` must be below 1.

    References
    ----------
    R. R. Bouckaert (2004). Estimating replicability of classifier learning
    experiments. ICML 2004. doi:10.1145/1015330.1015338

    Examples
    --------
    >>> from replicability.stats.estimators import minimum_variance_weights
    >>> res = minimum_variance_weights([0.8, 0.2], 4, rng=0)
    >>> res.weights.round(4).tolist()
    [0.1667, 0.1667, 0.1667, 0.1667, 0.1667, 0.1667]
    """
    arr = _as_probabilities(p)
    if arr.ndim != 1:
        raise ValueError(f"`p` must be one distribution (1-d); got shape {arr.shape}.")
    n = check_positive_int(n, "n", minimum=2)
    r = float((arr**2).sum())
    if r >= 1 - 1e-12:
        raise ValueError(f"`p` must give replicability below 1 (no unique minimum at r = 1); got r = {r!r}.")
    scale = r - r**2
    cov = pair_covariance(arr, n) / scale
    n_pairs = cov.shape[-1]
    start = np.random.default_rng(rng).dirichlet(np.ones(n_pairs))
    res = optimize.minimize(
        lambda w: w @ cov @ w,
        start,
        jac=lambda w: 2 * cov @ w,
        method="SLSQP",
        constraints=[{"type": "eq", "fun": lambda w: w.sum() - 1, "jac": lambda w: np.ones_like(w)}],
        options={"ftol": 1e-15, "maxiter": 1000},
    )
    weights = res.x / res.x.sum()  # remove the last rounding off the constraint
    return MinimumVarianceResult(
        weights=weights,
        variance=float(weights @ cov @ weights * scale),
        success=bool(res.success),
        n_iterations=int(res.nit),
    )


def r2_variance_theorem31(r, n, *, reading="errata"):
    """Theorem 3.1's variance of R̂2 as a function of ``r``, as read or as printed.

    With ``F(p, x) = p^x + (1-p)^x`` and ``p = 1/2 + √(2r − 1)/2``, ERRATA reads
    the garbled theorem as

    .. math::

        \\begin{aligned}
        \\frac{1}{n(n-1)} \\big(& 2(n-2)(n-3)F(p,4) + (4 - 2(n-3))(n-2)F(p,3) \\\\
        & + ((n-2)(n-3)+2)F(p,2)\\big) - r^2
        \\end{aligned}

    which equals :func:`replicability.stats.measures.r2_variance` for two outcome
    values. The print drops the parenthesis before ``(n−2)(n−3)+2``; taken
    literally, ``F(p,2)`` then multiplies the whole bracket:

    .. math::

        \\begin{aligned}
        \\frac{1}{n(n-1)} \\big(& 2(n-2)(n-3)F(p,4) + (4 - 2(n-3))(n-2)F(p,3) \\\\
        & + (n-2)(n-3)+2\\big) F(p,2) - r^2
        \\end{aligned}

    Parameters
    ----------
    r : array_like
        Replicability in ``[1/2, 1]``.
    n : int
        Number of repetitions, at least 2.
    reading : {"errata", "literal"}, keyword-only
        The corrected reading (default) or the print taken literally (wrong: it
        is negative for many ``r`` and ``n``; shown for comparison only).

    Returns
    -------
    var : float or ndarray

    References
    ----------
    R. R. Bouckaert (2004). Estimating replicability of classifier learning
    experiments. ICML 2004. doi:10.1145/1015330.1015338

    Examples
    --------
    >>> from replicability.stats.estimators import r2_variance_theorem31
    >>> round(float(r2_variance_theorem31(0.82, 10)), 5)
    0.02376
    >>> round(float(r2_variance_theorem31(0.82, 10, reading="literal")), 5)
    -0.00643
    """
    if reading not in ("errata", "literal"):
        raise ValueError(f"`reading` must be 'errata' or 'literal'; got {reading!r}.")
    p2 = probabilities_from_replicability(r)
    n = check_positive_int(n, "n", minimum=2)

    def f(x):
        return (p2**x).sum(axis=-1)

    r = f(2)
    head = 2 * (n - 2) * (n - 3) * f(4) + (4 - 2 * (n - 3)) * (n - 2) * f(3)
    if reading == "errata":
        total = (head + ((n - 2) * (n - 3) + 2) * f(2)) / (n * (n - 1))
    else:
        total = (head + (n - 2) * (n - 3) + 2) * f(2) / (n * (n - 1))
    return unwrap_scalar(total - r**2)


# --------------------------------------------------------------------------- #
# Appendix, Lemma A.1
# --------------------------------------------------------------------------- #
def _check_binomial(p, n):
    p = _as_replicability(p, "p")
    n = check_positive_int(n, "n", minimum=1)
    return p, n


def binomial_power_sums(p, n):
    """The three sums of Lemma A.1, summed term by term.

    ``Σ_{i=0}^n C(n,i) p^i (1-p)^{n-i} i^k`` for ``k = 0, 1, 2``: the total
    probability and the first two raw moments of a Binomial(``n``, ``p``) count.

    Parameters
    ----------
    p : array_like
        Probabilities in ``[0, 1]``.
    n : int
        Number of trials, at least 1.

    Returns
    -------
    sums : ndarray
        Shape ``p.shape + (3,)``.

    See Also
    --------
    binomial_power_sums_closed_form : the lemma's closed forms.

    Examples
    --------
    >>> from replicability.stats.estimators import binomial_power_sums
    >>> binomial_power_sums(0.5, 2).round(4).tolist()
    [1.0, 1.0, 1.5]
    """
    p, n = _check_binomial(p, n)
    i = np.arange(n + 1, dtype=float)
    binom = np.array([math.comb(n, k) for k in range(n + 1)], dtype=float)
    pk = p[..., None]
    terms = binom * pk**i * (1 - pk) ** (n - i)
    return np.stack([(terms * i**k).sum(axis=-1) for k in (0, 1, 2)], axis=-1)


def binomial_power_sums_closed_form(p, n):
    """Lemma A.1 of Bouckaert (2004): ``1``, ``np`` and ``n²p² − np² + np``.

    For ``0 <= p <= 1`` and a positive integer ``n``,
    ``Σ_i C(n,i) p^i (1-p)^{n-i} = 1`` (binomial theorem),
    ``Σ_i C(n,i) p^i (1-p)^{n-i} i = np`` and
    ``Σ_i C(n,i) p^i (1-p)^{n-i} i² = n²p² − np² + np``. The proof of Lemma 3.1
    applies the third with ``n/2`` trials and probability ``r``.

    Parameters
    ----------
    p : array_like
        Probabilities in ``[0, 1]``.
    n : int
        Number of trials, at least 1 (the paper states ``n >= 2``; the
        identities hold for ``n = 1`` as well).

    Returns
    -------
    sums : ndarray
        Shape ``p.shape + (3,)``.

    References
    ----------
    R. R. Bouckaert (2004). Estimating replicability of classifier learning
    experiments. ICML 2004. doi:10.1145/1015330.1015338

    Examples
    --------
    >>> from replicability.stats.estimators import binomial_power_sums_closed_form
    >>> binomial_power_sums_closed_form(0.5, 2).round(4).tolist()
    [1.0, 1.0, 1.5]
    """
    p, n = _check_binomial(p, n)
    return np.stack([np.ones_like(p), n * p, n**2 * p**2 - n * p**2 + n * p], axis=-1)
