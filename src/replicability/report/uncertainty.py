"""The standard errors the claims' tolerances use, one implementation each.

Every tolerance of :mod:`replicability.report.claims` is a multiple of a Monte Carlo
standard error implied by the design's size:

* :func:`rate_se`: a rate estimated from ``n`` independent trials, ``sqrt(p (1 - p) / n)``;
* :func:`percent_se`: the same for a count of ``n`` trials, in percent;
* :func:`rate_difference_se`: the difference of two rates given in percent, of two
  independent estimates (ours and the paper's of the same rate, or two of ours on
  different data);
* :func:`paired_rate_difference_se`: the difference of two rates measured on the *same*
  trials (two tests, or one test at two numbers of runs, on the same data sets): the
  paired standard error from the trials on which only one of the two counts;
* :func:`difference_se`: the difference of two independent estimates of known
  standard errors, ``sqrt(se_1^2 + se_2^2)``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["difference_se", "paired_rate_difference_se", "percent_se", "rate_difference_se", "rate_se"]


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


def paired_rate_difference_se(events_1, events_2, axis=-1, *, repeat_axis=None):
    """Standard error (percentage points) of the difference of two rates counted on the same trials.

    With ``b`` and ``c`` the shares of trials on which only the first, or only the
    second, event occurs, the difference of the rates is the mean of per-trial
    differences in {-1, 0, 1}, whose standard error is ``sqrt((b + c - (b - c)^2) / n)``
    (the standard error behind McNemar's test; Agresti 2013, Sec. 11.1.1). Two rates on
    the same data sets are positively correlated, so this is smaller than
    :func:`rate_difference_se`, which assumes independent estimates.

    When each trial is repeated (randomizations of one data set, which share it), the
    trials stay the independent units: each trial's difference is the difference of its
    two rates over the repetitions, and the standard error is ``sqrt(var(d) / n)`` of
    these ``n`` differences (variance with ddof 0, so that a single repetition gives the
    formula above).

    Parameters
    ----------
    events_1, events_2 : array_like of bool
        Whether the event (a rejection, a correct prediction) occurred, per trial; same shape.
    axis : int
        The axis of the trials.
    repeat_axis : int, optional, keyword-only
        The axis of the repetitions of each trial (another axis than ``axis``), if any.

    Returns
    -------
    float or ndarray
        ``100 sqrt((b + c - (b - c)^2) / n)``; with ``repeat_axis``, ``100 sqrt(var(d) / n)``.

    References
    ----------
    Agresti, A. (2013). *Categorical Data Analysis*, 3rd ed. Wiley.

    Examples
    --------
    >>> a = [True] * 10 + [False] * 90
    >>> b = [True] * 6 + [False] * 94
    >>> round(float(paired_rate_difference_se(a, b)), 3)
    1.96
    >>> round(float(paired_rate_difference_se([a, a], [b, b], axis=1, repeat_axis=0)), 3)
    1.96
    """
    x, y = np.asarray(events_1), np.asarray(events_2)
    if x.dtype != bool or y.dtype != bool or x.shape != y.shape or x.size == 0:
        raise ValueError("`events_1` and `events_2` must be non-empty boolean arrays of one shape; "
                         f"got {x.dtype} {x.shape} and {y.dtype} {y.shape}.")
    n = x.shape[axis]
    if repeat_axis is not None:
        if x.ndim < 2 or repeat_axis % x.ndim == axis % x.ndim:
            raise ValueError(f"`repeat_axis` must be an axis of the events other than `axis`; got {repeat_axis!r}.")
        x, y = (np.moveaxis(v, (axis, repeat_axis), (-2, -1)).mean(axis=-1) for v in (x, y))
        out = 100 * np.sqrt((x - y).var(axis=-1) / n)  # per-trial differences of rates, ddof 0
        return float(out) if np.ndim(out) == 0 else out
    only_1, only_2 = (x & ~y).mean(axis=axis), (~x & y).mean(axis=axis)
    out = 100 * np.sqrt(np.clip(only_1 + only_2 - (only_1 - only_2) ** 2, 0, None) / n)
    return float(out) if np.ndim(out) == 0 else out
