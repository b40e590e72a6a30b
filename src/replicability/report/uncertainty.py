"""The standard errors the claims' tolerances use, one implementation each.

Every tolerance of :mod:`replicability.report.claims` is a multiple of a Monte Carlo
standard error implied by the design's size:

* :func:`rate_se`: a rate estimated from ``n`` independent trials, ``sqrt(p (1 - p) / n)``;
* :func:`percent_se`: the same for a count of ``n`` trials, in percent;
* :func:`rate_difference_se`: the difference of two rates given in percent, of two
  independent estimates (ours and the paper's of the same rate, or two of ours);
* :func:`difference_se`: the difference of two independent estimates of known
  standard errors, ``sqrt(se_1^2 + se_2^2)``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["difference_se", "percent_se", "rate_difference_se", "rate_se"]


def rate_se(rate, n):
    """Monte Carlo standard error of a rate estimated from ``n`` independent trials.

    Parameters
    ----------
    rate : float or array_like
        The rate as a fraction in [0, 1] (the bound of the claim, or the measured rate).
    n : int
        Number of independent trials (e.g. data sets x randomizations).

    Returns
    -------
    float or ndarray
        ``sqrt(rate (1 - rate) / n)``.

    Examples
    --------
    >>> round(rate_se(0.05, 1000), 5)
    0.00689
    """
    rate = np.asarray(rate, dtype=float)
    if np.any((rate < 0) | (rate > 1)):
        raise ValueError(f"`rate` must lie in [0, 1]; got {rate!r}.")
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"`n` must be a positive integer; got {n!r}.")
    out = np.sqrt(rate * (1 - rate) / n)
    return float(out) if out.ndim == 0 else out


def percent_se(count, n):
    """Standard error, in percent, of the share of ``count`` out of ``n`` independent trials.

    Examples
    --------
    >>> round(float(percent_se(50, 1000)), 3)
    0.689
    """
    return 100 * rate_se(np.clip(np.asarray(count, float) / n, 0, 1), n)


def rate_difference_se(rate_1, n_1, rate_2=None, n_2=None):
    """Standard error (percentage points) of the difference of two rates given in percent.

    With one rate, the difference of two independent estimates of it on ``n_1`` trials
    each (ours and the paper's): ``sqrt(2) rate_se``; with two, ``sqrt(se_1^2 + se_2^2)``
    of their own standard errors (``n_2`` defaults to ``n_1``).

    Examples
    --------
    >>> round(float(rate_difference_se(5.0, 1000)), 3)
    0.975
    >>> round(float(rate_difference_se(50.0, 1000, 40.0, 1000)), 3)
    2.214
    """
    r1 = np.clip(np.asarray(rate_1, float) / 100, 0, 1)
    if rate_2 is None:
        return 100 * np.sqrt(2) * np.asarray(rate_se(r1, n_1))
    r2 = np.clip(np.asarray(rate_2, float) / 100, 0, 1)
    return 100 * np.sqrt(np.asarray(rate_se(r1, n_1)) ** 2 + np.asarray(rate_se(r2, n_2 or n_1)) ** 2)


def difference_se(se_1, se_2):
    """Standard error of the difference of two independent estimates: ``sqrt(se_1^2 + se_2^2)``.

    Examples
    --------
    >>> float(difference_se(3.0, 4.0))
    5.0
    """
    return np.sqrt(np.asarray(se_1, float) ** 2 + np.asarray(se_2, float) ** 2)
