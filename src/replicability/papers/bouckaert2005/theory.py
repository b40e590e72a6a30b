"""McNemar's test under overlapping test sets: Section 3 and the Appendix of Bouckaert (2005).

Bouckaert (2005) argues, for McNemar's test on a test fraction ``t`` of a
data set, that Type I replicability is ``1 - (2 - epsilon) alpha + 2 alpha^2``
with ``epsilon`` growing with ``t`` and vanishing with ``n``, and that the
worst-case replicability (at 50% power) does not depend on ``n``. This module
has the paper's steps as functions (the tail mean ``E[X | X > z]`` and its
linear approximation, epsilon, the Appendix's expression) and an exact
large-sample counterpart: two random test sets of fraction ``t`` share a
fraction ``t`` of their instances, so the McNemar z statistics of repeated
experiments are equicorrelated normals with ``rho = t``
(:func:`agreement_normal_model`).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

from ..._results import unwrap_scalar
from ..._validation import check_alpha, check_positive_int
from ...stats.planning import conditional_outcomes as _conditional_outcomes
from ...stats.planning import normal_quadrature as _quadrature

__all__ = [
    "normal_tail_mean",
    "normal_tail_mean_linear",
    "mcnemar_epsilon",
    "mcnemar_type1_replicability",
    "agreement_normal_model",
    "worst_case_replicability_appendix",
    "task1_worst_case_gap",
]


def normal_tail_mean(z):
    """Mean of a standard normal variable beyond ``z``: ``E[X | X > z] = phi(z) / (1 - Phi(z))``.

    Section 3.1 of Bouckaert (2005) computes it at ``z = Z_{alpha/2}``, where
    ``1 - Phi(z) = alpha/2``, and notes that it is "approximately z (actually,
    slightly higher)"; see :func:`normal_tail_mean_linear`.

    Examples
    --------
    >>> from replicability.papers.bouckaert2005.theory import normal_tail_mean
    >>> print(round(float(normal_tail_mean(1.959964)), 4))
    2.3378
    """
    z = np.asarray(z, dtype=float)
    # log-space ratio stays finite far in the tail (the inverse Mills ratio).
    out = np.exp(stats.norm.logpdf(z) - stats.norm.logsf(z))
    return unwrap_scalar(out)


def normal_tail_mean_linear(z):
    """The paper's linear approximation ``0.97 z + 0.33`` of :func:`normal_tail_mean` (footnote 1).

    Examples
    --------
    >>> from replicability.papers.bouckaert2005.theory import normal_tail_mean_linear
    >>> print(round(float(normal_tail_mean_linear(1.959964)), 4))
    2.2312
    """
    return 0.97 * np.asarray(z, dtype=float) + 0.33


def mcnemar_epsilon(test_size, n=None, *, alpha=0.05, model="paper"):
    """Excess ``epsilon`` of P(second experiment rejects | first rejects) over alpha, under H0.

    ``model="paper"`` follows Section 3.1: the first rejection leaves an
    expected surplus of ``Z_{alpha/2}`` '+'s in its test set, a share
    ``t`` of which the second test set shares, so ``#+ - #-`` in the second
    experiment has mean ``m' = 2 t Z_{alpha/2}`` and standard deviation
    ``sqrt(n)`` (n discordant test cases), and it rejects when
    ``|#+ - #-| > Z_{alpha/2} sqrt(n)``. Then ``epsilon > 0`` grows with ``t``
    and vanishes as ``n`` grows.

    ``model="normal"`` is the exact large-sample version: two random test
    sets of fraction ``t`` share a fraction ``t`` of their instances, so the two
    McNemar z statistics are bivariate normal with correlation ``rho = t``, and
    ``P(reject | reject) = P(|Z1| > z, |Z2| > z) / alpha``; it does not depend
    on ``n`` (pass ``n=None``).

    Parameters
    ----------
    test_size : float or array_like
        ``t`` in (0, 1).
    n : int, float or array_like, optional
        Number of discordant test cases (required for ``"paper"``).
    alpha : float, keyword-only
    model : {"paper", "normal"}, keyword-only

    Returns
    -------
    float or ndarray

    Notes
    -----
    The paper's expected surplus is ``E[x | x > z]`` on the standardized
    scale (about 2.34 at alpha = 5%), but it is then used as a count; on the
    count scale it is ``E[Z | Z > z] sqrt(n)``, which gives a shift that grows
    with ``sqrt(n)`` like the threshold, hence the ``n``-free ``"normal"``
    model. See the notebook ``bouckaert2005/01_theory``.

    Examples
    --------
    >>> from replicability.papers.bouckaert2005.theory import mcnemar_epsilon
    >>> print(round(float(mcnemar_epsilon(0.1, 100)), 5))
    0.00018
    >>> print(round(float(mcnemar_epsilon(0.1, model="normal")), 4))
    0.0053
    """
    alpha = check_alpha(alpha)
    t = np.asarray(test_size, dtype=float)
    if not np.all((t > 0) & (t < 1)):
        raise ValueError(f"`test_size` must lie in (0, 1); got {test_size!r}.")
    z = stats.norm.isf(alpha / 2)
    if model == "paper":
        if n is None:
            raise ValueError("`n` must be given for model 'paper'; got None.")
        n = np.asarray(n, dtype=float)
        if not np.all(n > 0):
            raise ValueError(f"`n` must be positive; got {n!r}.")
        shift, sd = 2 * t * z, np.sqrt(n)
        p = stats.norm.sf((z * sd - shift) / sd) + stats.norm.cdf((-z * sd - shift) / sd)
        out = p - alpha
    elif model == "normal":
        # P(both reject, either side) = E_W[(P(up | W) + P(low | W))^2], rho = t.
        upper, lower, _ = _conditional_outcomes(np.zeros_like(t), t, z)
        out = _quadrature((upper + lower) ** 2) / alpha - alpha
    else:
        raise ValueError(f"`model` must be 'paper' or 'normal'; got {model!r}.")
    return out[()] if np.ndim(out) == 0 else out


def mcnemar_type1_replicability(test_size, n=None, *, alpha=0.05, model="paper"):
    """Type I replicability of McNemar's test (Section 3.1).

    ``model="paper"``: ``(1 - alpha)^2 + alpha (alpha + epsilon)`` with the
    paper's epsilon, i.e. ``1 - (2 - epsilon) alpha + 2 alpha^2``. The paper
    prints ``+ alpha^2``; expanding its own two terms gives ``2 alpha^2``.
    ``model="normal"``: the probability that two experiments with test-set
    correlation ``rho = t`` give the same of the three outcomes, from
    :func:`agreement_normal_model` (independent of ``n``).

    Examples
    --------
    >>> from replicability.papers.bouckaert2005.theory import mcnemar_type1_replicability
    >>> print(round(float(mcnemar_type1_replicability(0.1, 100)), 4))
    0.905
    >>> print(round(float(mcnemar_type1_replicability(0.1, model="normal")), 4))
    0.9048
    """
    if model == "paper":
        eps = mcnemar_epsilon(test_size, n, alpha=alpha, model="paper")
        return (1 - alpha) ** 2 + alpha * (alpha + eps)
    if model == "normal":
        return agreement_normal_model(0.0, test_size, alpha=alpha, n_repeats=2)
    raise ValueError(f"`model` must be 'paper' or 'normal'; got {model!r}.")


def agreement_normal_model(effect, rho, *, alpha=0.05, n_repeats=2):
    """Probability that all repetitions of an experiment give the same outcome, normal model.

    The statistics of ``n_repeats`` experiments on one data set are
    modelled as equicorrelated normals, ``Z_i = effect + sqrt(rho) W +
    sqrt(1 - rho) E_i`` (W, E_i standard normal), each deciding "A better"
    above ``z = Z_{alpha/2}``, "B better" below ``-z``, no difference
    between. For McNemar on a test fraction ``t``, ``rho = t`` and
    ``effect = E[Z]``. With two repetitions this is the pairwise
    replicability (R̂2's target); with ten, the paper's "all 10 agree".

    Parameters
    ----------
    effect : float or array_like
        Mean of each statistic (standardized effect size).
    rho : float or array_like
        Correlation between repetitions, in [0, 1).
    alpha : float, keyword-only
    n_repeats : int, keyword-only

    Returns
    -------
    float or ndarray

    Notes
    -----
    Conditional on W the outcomes are independent, so the probability is
    ``E_W[sum_c P(c | W)^n]``, evaluated by 120-point Gauss-Hermite quadrature.

    Examples
    --------
    >>> from replicability.papers.bouckaert2005.theory import agreement_normal_model
    >>> print(round(float(agreement_normal_model(0.0, 0.0)), 4))  # 1 - 2a + 2a^2 - a^2/2
    0.9038
    """
    alpha = check_alpha(alpha)
    n = check_positive_int(n_repeats, "n_repeats", minimum=2)
    effect, rho = np.broadcast_arrays(np.asarray(effect, dtype=float), np.asarray(rho, dtype=float))
    if not np.all((rho >= 0) & (rho < 1)):
        raise ValueError(f"`rho` must lie in [0, 1); got {rho!r}.")
    upper, lower, middle = _conditional_outcomes(effect, rho, stats.norm.isf(alpha / 2))
    integrand = upper**n + lower**n + middle**n
    out = _quadrature(integrand)
    return unwrap_scalar(out)


def worst_case_replicability_appendix(test_size):
    """The Appendix's worst-case replicability of McNemar's test, ``Phi(t sqrt(2/pi))``.

    At the gap where ``E[Z] = Z_{alpha/2}`` (power 50%), the Appendix derives
    ``P(T' > Z | T > Z) = 1/2 + int_0^{t/sqrt(2 pi)} N(0, 1/2) dx`` with the
    second argument of N a standard deviation (as elsewhere in the paper);
    this is ``Phi(2 t / sqrt(2 pi)) = Phi(t sqrt(2/pi))``, and by symmetry the
    accept-accept case gives the same, so replicability ``X/2 + Y/2`` equals
    it. It depends on the test fraction ``t`` but not on ``n``.

    Notes
    -----
    ERRATA: the Appendix's first paragraph says "accepted" while conditioning
    on a rejection, and ``1/(2 sqrt(pi))`` should read ``1/(2 sqrt(n))``.
    Under the bivariate normal model with ``rho = t`` the exact value at the
    threshold (ignoring the far rejection region) is ``1/2 + arcsin(t)/pi``;
    both are ``1/2 + t/pi + O(t^3)``.

    Examples
    --------
    >>> from replicability.papers.bouckaert2005.theory import worst_case_replicability_appendix
    >>> print(round(float(worst_case_replicability_appendix(0.1)), 4))
    0.5318
    """
    t = np.asarray(test_size, dtype=float)
    if not np.all((t >= 0) & (t <= 1)):
        raise ValueError(f"`test_size` must lie in [0, 1]; got {test_size!r}.")
    out = stats.norm.cdf(t * np.sqrt(2 / np.pi))
    return unwrap_scalar(out)


def task1_worst_case_gap(n, test_size, *, alpha=0.05):
    """Accuracy gap at which McNemar's z statistic has mean ``Z_{alpha/2}`` in Task I.

    With ``m = t n`` test cases, ``b + c`` has mean ``m / 2`` whatever the
    gap and ``b - c`` has mean ``-m gap``, so ``|E[Z]| ~ gap sqrt(2 m)``
    (Appendix: ``q = 1/2 + Z_{alpha/2} / (2 sqrt(m))`` on the discordant
    cases). Setting it to ``Z_{alpha/2}`` gives ``gap = Z_{alpha/2} / sqrt(2 t n)``.

    Examples
    --------
    >>> from replicability.papers.bouckaert2005.theory import task1_worst_case_gap
    >>> print(round(float(task1_worst_case_gap(20_000, 0.1)), 4))
    0.031
    """
    alpha = check_alpha(alpha)
    n = np.asarray(n, dtype=float)
    t = np.asarray(test_size, dtype=float)
    if not np.all(n > 0) or not np.all((t > 0) & (t < 1)):
        raise ValueError(f"`n` must be positive and `test_size` in (0, 1); got {n!r} and {t!r}.")
    out = stats.norm.isf(alpha / 2) / np.sqrt(2 * t * n)
    return unwrap_scalar(out)
