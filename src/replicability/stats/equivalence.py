"""Equivalence: two one-sided tests (TOST) of a difference against a margin fixed beforehand.

The null hypothesis is that the true difference lies *outside* the margin,
``|delta| >= margin``; rejecting it shows the difference is inside. TOST rejects when
both one-sided tests do, ``H0: delta <= -margin`` and ``H0: delta >= margin``, each at
level alpha; its p-value is the larger of the two (Schuirmann 1987). One implementation,
for the claims of the book ("close to", "similar", "insensitive") and for a
practitioner's equivalence test. :func:`noninferiority` is one of its two one-sided
tests on its own: "A is no worse than B by ``margin`` or more".

Reference: Schuirmann, D. J. (1987). A comparison of the two one-sided tests procedure and the power
approach for assessing the equivalence of average bioavailability. *Journal of
Pharmacokinetics and Biopharmaceutics* 15(6), 657-680. https://doi.org/10.1007/BF01068419
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from .._results import TestResult, unwrap_scalar

__all__ = ["TostResult", "noninferiority", "tost"]


def _checked(estimate, se, margin):
    """``estimate`` and ``se`` as broadcast float arrays, after checking them and ``margin``."""
    if isinstance(margin, bool) or not np.isscalar(margin) or not np.isfinite(margin) or margin <= 0:
        raise ValueError(f"`margin` must be a positive number; got {margin!r}.")
    d, s = np.broadcast_arrays(np.asarray(estimate, float), np.asarray(se, float))
    if np.any(np.isnan(d)) or np.any(np.isnan(s)) or np.any(s < 0):
        raise ValueError(f"`se` must be >= 0 and `estimate` a number; got se={se!r}, estimate={estimate!r}.")
    return d, s


@dataclass(frozen=True, repr=False)
class TostResult(TestResult):
    """Outcome of :func:`tost`; unpacks to ``(statistic, pvalue)``.

    Attributes
    ----------
    statistic : float or ndarray
        The smaller of the two one-sided statistics, ``min((d + margin) / se, (margin - d) / se)``.
    pvalue : float or ndarray
        The larger of the two one-sided p-values: equivalence is shown at level alpha when
        ``pvalue < alpha``.
    df : float, ndarray or None
        Degrees of freedom of the t reference distribution (None: the normal).
    alternative : str
        ``"equivalence"`` (:func:`tost`) or ``"noninferiority"`` (:func:`noninferiority`).
    margin : float
        The margin the difference was tested against.
    """

    margin: float = 0.0


def tost(estimate, se, *, margin, df=None):
    """Two one-sided tests that a difference lies within ``(-margin, margin)``.

    Parameters
    ----------
    estimate : float or array_like
        Estimated difference(s), e.g. the mean of paired differences.
    se : float or array_like
        Their standard error(s), >= 0 (the design decides which: paired or independent).
    margin : float
        The equivalence margin, > 0, fixed before looking, on the scale of ``estimate``.
    df : float or array_like, optional
        Degrees of freedom of a t reference distribution; None (default) uses the normal.

    Returns
    -------
    TostResult
        ``statistic = min(t_lower, t_upper)`` with ``t_lower = (estimate + margin) / se``
        and ``t_upper = (margin - estimate) / se``; ``pvalue`` the larger one-sided p-value.

    Notes
    -----
    A zero standard error is an exact difference: p = 0 inside the margin (statistic
    +inf) and p = 1 on or outside it (statistic -inf).

    Examples
    --------
    >>> res = tost(0.5, 1.0, margin=3.0)
    >>> round(float(res.statistic), 3), round(float(res.pvalue), 4)
    (2.5, 0.0062)
    >>> bool(tost(2.5, 1.0, margin=3.0).pvalue < 0.05)
    False
    """
    d, s = _checked(estimate, se, margin)
    with np.errstate(divide="ignore", invalid="ignore"):
        lower = np.where(s > 0, (d + margin) / s, np.where(d > -margin, np.inf, -np.inf))
        upper = np.where(s > 0, (margin - d) / s, np.where(d < margin, np.inf, -np.inf))
    statistic = np.minimum(lower, upper)
    pvalue = stats.norm.sf(statistic) if df is None else stats.t.sf(statistic, df)
    return TostResult(unwrap_scalar(statistic), unwrap_scalar(pvalue), df=df, alternative="equivalence",
                      margin=float(margin))


def noninferiority(estimate, se, *, margin, df=None):
    """One-sided test that a difference is above ``-margin``: non-inferiority.

    The null hypothesis is ``delta <= -margin`` (A worse than B by the margin or more);
    rejecting it shows A is no worse than B by ``margin``. It is the lower of the two
    one-sided tests of :func:`tost`; the mirrored question ("B no worse than A") is
    ``noninferiority(-estimate, se, margin=margin)``, and :func:`tost`'s p-value is the
    larger of the two.

    Parameters
    ----------
    estimate, se, margin, df
        As in :func:`tost`.

    Returns
    -------
    TostResult
        ``statistic = (estimate + margin) / se``, ``pvalue`` its upper tail,
        ``alternative = "noninferiority"``.

    References
    ----------
    .. [1] Wellek, S. (2010). *Testing Statistical Hypotheses of Equivalence and
       Noninferiority*, 2nd ed. Chapman & Hall/CRC, Chapter 2.

    Examples
    --------
    >>> res = noninferiority(-0.5, 1.0, margin=3.0)
    >>> round(float(res.statistic), 3), round(float(res.pvalue), 4)
    (2.5, 0.0062)
    """
    d, s = _checked(estimate, se, margin)
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = np.where(s > 0, (d + margin) / s, np.where(d > -margin, np.inf, -np.inf))
    pvalue = stats.norm.sf(statistic) if df is None else stats.t.sf(statistic, df)
    return TostResult(unwrap_scalar(statistic), unwrap_scalar(pvalue), df=df, alternative="noninferiority",
                      margin=float(margin))
