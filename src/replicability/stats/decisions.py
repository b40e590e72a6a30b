"""Turn test results into the three outcomes the papers count.

Bouckaert's replicability studies record, per experiment, whether a test
found no difference, found A better or found B better; replicability is the
agreement of these outcomes across repetitions (Bouckaert 2004, ERRATA).
"""

from __future__ import annotations

import enum

import numpy as np

from .._results import TestResult, UnsignedResult
from .._validation import as_numbers, check_alpha, check_nonempty

__all__ = ["Outcome", "decide"]


class Outcome(enum.IntEnum):
    """Outcome of comparing learners A and B at a significance level."""

    B_BETTER = -1
    NO_DIFFERENCE = 0
    A_BETTER = 1


def _as_array(value, name):
    return check_nonempty(as_numbers(value, name), name)


def decide(result_or_pvalue, *, alpha, statistic=None):
    """Classify comparisons as no difference (0), A better (+1) or B better (-1).

    The null hypothesis of the underlying test (A and B perform equally well)
    is rejected where ``pvalue < alpha``; a rejection counts for A when the
    signed statistic is positive (differences ``x - y`` favour A) and for B
    when it is negative.

    Parameters
    ----------
    result_or_pvalue : TestResult or array_like
        A result of any two-learner test in this package, or bare p-values
        (then ``statistic`` is required).
    alpha : float
        Significance level in (0, 1).
    statistic : array_like, optional
        Signed statistic, broadcastable against the p-values; positive
        favours A. Overrides the direction read from a result.

    Returns
    -------
    int or ndarray of int8
        Outcomes valued as :class:`Outcome` (-1, 0, +1): a plain Python
        ``int`` for a single test, an array with the shape of the p-values
        for many (arrays in, arrays out).

    Notes
    -----
    The direction is taken from, in order: ``statistic`` if given; the
    result's ``difference`` field if it has one (McNemar, whose chi-squared
    statistic is unsigned: ``difference = b - c``); the result's
    ``statistic``. Alpaydin's F, Cochran's Q and Looney's F
    (:class:`~replicability._results.UnsignedResult`) have statistics without
    a sign: their rejection says the learners differ, not which is better, so
    ``decide`` raises unless ``statistic`` supplies the direction (e.g. the
    mean difference A - B).

    A significant p-value with a zero statistic (possible only for
    degenerate input) counts as no difference. NaN p-values or statistics
    raise rather than silently counting as "no difference".

    References
    ----------
    .. [1] Bouckaert, R. R. (2004). Estimating replicability of classifier
       learning experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338

    Examples
    --------
    >>> from replicability.stats.decisions import decide, Outcome
    >>> decide([0.01, 0.2, 0.03], alpha=0.05, statistic=[2.9, 1.3, -2.2]).tolist()
    [1, 0, -1]
    >>> decide(0.01, alpha=0.05, statistic=-3.0)
    -1
    >>> Outcome(decide(0.01, alpha=0.05, statistic=-3.0))
    <Outcome.B_BETTER: -1>
    """
    alpha = check_alpha(alpha)
    if isinstance(result_or_pvalue, TestResult):
        pname = "pvalue"
        pvalue = _as_array(result_or_pvalue.pvalue, pname)
        if statistic is None:
            if isinstance(result_or_pvalue, UnsignedResult):
                raise ValueError(
                    f"`result_or_pvalue` is a test whose statistic has no sign ({type(result_or_pvalue).__name__}: "
                    "Alpaydin's F, Cochran's Q or Looney's F), so it gives no direction; pass `statistic`, "
                    "e.g. the mean difference A - B, to say which learner a rejection favours."
                )
            statistic = getattr(result_or_pvalue, "difference", result_or_pvalue.statistic)
    else:
        pname = "result_or_pvalue"
        pvalue = _as_array(result_or_pvalue, pname)
        if statistic is None:
            raise ValueError(
                "`statistic` is required when p-values are passed; got None. "
                "Pass the signed statistic (positive favours A) or a TestResult."
            )
    stat = _as_array(statistic, "statistic")
    if np.any(np.isnan(pvalue)) or np.any((pvalue < 0) | (pvalue > 1)):
        raise ValueError(f"`{pname}` must hold p-values in [0, 1] (no NaN); got {pvalue!r}.")
    if np.any(np.isnan(stat)):
        raise ValueError(f"`statistic` must not contain NaN; got {stat!r}.")
    try:
        pvalue, stat = np.broadcast_arrays(pvalue, stat)
    except ValueError as exc:
        raise ValueError(
            f"`statistic` must broadcast against the p-values; got shapes {stat.shape} and {pvalue.shape}."
        ) from exc
    outcome = np.where(pvalue < alpha, np.sign(stat), 0.0).astype(np.int8)
    return int(outcome) if outcome.ndim == 0 else outcome
