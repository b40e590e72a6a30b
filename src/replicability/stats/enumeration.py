"""Outcome vectors of repeated experiments: exact enumeration and simulation.

The theory of Bouckaert (2004, Section 3) assumes that the ``n`` repetitions of
an experiment on one data set give independent outcomes with the same
probabilities ``p``. These helpers check such claims two ways: by enumerating
every outcome vector with its probability (exact), and by drawing vectors at
random (Monte Carlo); :func:`exact_moments` and :func:`sample_moments` turn the
values of an estimator into its mean and variance.

Outcomes are coded as in :mod:`replicability.stats.measures`: two values ``0``
(accept) and ``1`` (reject), or three values ``-1, 0, 1`` (B better, no
difference, A better); probabilities ``p`` lie on the last axis in that order.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._results import unwrap_scalar
from .._validation import check_positive_int
from .measures import _as_outcomes, _as_probabilities

__all__ = [
    "Moments",
    "enumerate_outcomes",
    "exact_moments",
    "outcome_probabilities",
    "sample_moments",
    "simulate_outcomes",
]

#: Largest number of outcome vectors :func:`enumerate_outcomes` builds (2**22).
_MAX_VECTORS = 2**22


@dataclass(frozen=True)
class Moments:
    """Mean and variance of an estimator, with their standard errors.

    Attributes
    ----------
    mean, variance : float or ndarray
        Expectation and variance of the estimator.
    mean_se, variance_se : float or ndarray
        Standard errors of ``mean`` and ``variance``; zero when they are exact
        (:func:`exact_moments`), Monte Carlo errors for :func:`sample_moments`.
    """

    mean: float | np.ndarray
    variance: float | np.ndarray
    mean_se: float | np.ndarray
    variance_se: float | np.ndarray



def _values_for(n_values):
    return np.array([0, 1] if n_values == 2 else [-1, 0, 1], dtype=np.int8)


def _check_n_values(n_values, name):
    if isinstance(n_values, bool) or n_values not in (2, 3):
        raise ValueError(f"`{name}` must be 2 or 3 outcome values; got {n_values!r}.")
    return int(n_values)



# --------------------------------------------------------------------------- #
# exact enumeration and simulation
# --------------------------------------------------------------------------- #
def enumerate_outcomes(n, *, n_values=2):
    """All ``n_values**n`` outcome vectors of ``n`` repetitions.

    Parameters
    ----------
    n : int
        Number of repetitions, at least 1.
    n_values : {2, 3}, keyword-only
        Two values ``0, 1`` (accept, reject) or three ``-1, 0, 1``.

    Returns
    -------
    outcomes : ndarray of int8
        Shape ``(n_values**n, n)``, in lexicographic order.

    Examples
    --------
    >>> from replicability.stats.enumeration import enumerate_outcomes
    >>> enumerate_outcomes(2).tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1]]
    """
    n = check_positive_int(n, "n")
    n_values = _check_n_values(n_values, "n_values")
    if n_values**n > _MAX_VECTORS:
        raise ValueError(
            f"`n` must keep n_values**n at most {_MAX_VECTORS} vectors; got n = {n} "
            f"({n_values}**{n} vectors)."
        )
    codes = np.indices((n_values,) * n, dtype=np.int8).reshape(n, -1).T
    return _values_for(n_values)[codes]


def outcome_probabilities(outcomes, p):
    """Probability of each outcome vector when repetitions are independent.

    ``P(e) = Π_c p_c^{n_c}`` with ``n_c`` the number of repetitions with
    outcome ``c``.

    Parameters
    ----------
    outcomes : array_like of int
        Outcome vectors, repetitions on the last axis (e.g. from
        :func:`enumerate_outcomes`).
    p : array_like
        Probabilities of the 2 values ``0, 1`` or of the 3 values ``-1, 0, 1``
        on the last axis; leading axes form a batch of distributions.

    Returns
    -------
    prob : ndarray
        Shape ``p.shape[:-1] + outcomes.shape[:-1]``.

    Examples
    --------
    >>> from replicability.stats.enumeration import enumerate_outcomes, outcome_probabilities
    >>> outcome_probabilities(enumerate_outcomes(2), [0.9, 0.1]).round(4).tolist()
    [0.81, 0.09, 0.09, 0.01]
    """
    arr = _as_outcomes(outcomes, min_last=1)
    prob = _as_probabilities(p)
    n_values = _check_n_values(prob.shape[-1], "p")
    values = _values_for(n_values)
    if not np.all(np.isin(arr, values)):
        raise ValueError(f"`outcomes` must contain only the values {values.tolist()} for {n_values} probabilities.")
    counts = np.stack([(arr == v).sum(axis=-1) for v in values], axis=-1).astype(float)
    batch = prob.shape[:-1]
    flat = prob.reshape(-1, n_values)
    # product over values of p_c^{n_c}; 0^0 = 1 by numpy's power
    out = np.prod(flat[:, None, :] ** counts.reshape(1, -1, n_values), axis=-1)
    return out.reshape(batch + arr.shape[:-1])


def simulate_outcomes(p, n, *, n_sim, rng=None):
    """Draw outcome vectors of ``n`` independent repetitions.

    Parameters
    ----------
    p : array_like
        Probabilities of the values ``0, 1`` or ``-1, 0, 1`` on the last axis;
        leading axes form a batch of distributions.
    n : int
        Repetitions per vector, at least 1.
    n_sim : int, keyword-only
        Vectors per distribution.
    rng : numpy.random.Generator, int or None, keyword-only

    Returns
    -------
    outcomes : ndarray of int8
        Shape ``p.shape[:-1] + (n_sim, n)``.

    Examples
    --------
    >>> from replicability.stats.enumeration import simulate_outcomes
    >>> simulate_outcomes([0.5, 0.5], 4, n_sim=3, rng=1).shape
    (3, 4)
    """
    prob = _as_probabilities(p)
    n_values = _check_n_values(prob.shape[-1], "p")
    n = check_positive_int(n, "n")
    n_sim = check_positive_int(n_sim, "n_sim")
    u = np.random.default_rng(rng).random(prob.shape[:-1] + (n_sim, n))
    # inverse CDF: the code is the number of cumulative probabilities <= u
    cdf = np.cumsum(prob, axis=-1)[..., None, None, :-1]
    codes = (u[..., None] >= cdf).sum(axis=-1)
    return _values_for(n_values)[codes]


def exact_moments(values, probabilities):
    """Mean and variance of an estimator from its value on every outcome vector.

    ``E X = Σ_e P(e) X(e)`` and ``var X = Σ_e P(e) (X(e) − E X)²``.

    Parameters
    ----------
    values : array_like
        The estimator on each outcome vector (last axis).
    probabilities : array_like
        ``P(e)`` on the last axis (e.g. :func:`outcome_probabilities`), summing
        to 1; leading axes broadcast with those of ``values``.

    Returns
    -------
    Moments
        Standard errors are 0.

    Examples
    --------
    >>> from replicability.stats.enumeration import exact_moments
    >>> m = exact_moments([0.0, 1.0], [0.25, 0.75])
    >>> float(m.mean), float(m.variance)
    (0.75, 0.1875)
    """
    x = np.asarray(values, dtype=float)
    prob = np.asarray(probabilities, dtype=float)
    if x.shape[-1:] != prob.shape[-1:]:
        raise ValueError(
            f"`values` and `probabilities` must have the same last axis; got {x.shape} and {prob.shape}."
        )
    if not np.allclose(prob.sum(axis=-1), 1.0, rtol=0, atol=1e-9):
        raise ValueError(f"`probabilities` must sum to 1 on the last axis; got {prob.sum(axis=-1).ravel()[:6]!r}.")
    mean = (prob * x).sum(axis=-1)
    var = (prob * (x - mean[..., None]) ** 2).sum(axis=-1)
    zero = np.zeros_like(mean)
    return Moments(unwrap_scalar(mean), unwrap_scalar(var), unwrap_scalar(zero), unwrap_scalar(zero.copy()))


def sample_moments(values):
    """Sample mean and variance of simulated estimates, with Monte Carlo errors.

    The variance is the unbiased sample variance ``s²``; its standard error is
    ``√((m₄ − s⁴)/N)`` with ``m₄`` the fourth central sample moment, the
    large-sample standard deviation of ``s²``.

    Parameters
    ----------
    values : array_like
        Estimates on the last axis (``N >= 2`` draws).

    Returns
    -------
    Moments

    Examples
    --------
    >>> from replicability.stats.enumeration import sample_moments
    >>> m = sample_moments([0.0, 1.0, 1.0, 0.0])
    >>> round(float(m.mean), 4), round(float(m.variance), 4)
    (0.5, 0.3333)
    """
    x = np.asarray(values, dtype=float)
    if x.ndim < 1 or x.shape[-1] < 2:
        raise ValueError(f"`values` must have at least 2 draws on its last axis; got shape {x.shape}.")
    n_draws = x.shape[-1]
    mean = x.mean(axis=-1)
    dev = x - mean[..., None]
    var = (dev**2).sum(axis=-1) / (n_draws - 1)
    m4 = (dev**4).mean(axis=-1)
    return Moments(
        unwrap_scalar(mean),
        unwrap_scalar(var),
        unwrap_scalar(np.sqrt(var / n_draws)),
        unwrap_scalar(np.sqrt(np.maximum(m4 - var**2, 0.0) / n_draws)),
    )
