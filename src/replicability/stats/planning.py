r"""Power and replicability of the corrected repeated cv t-test by the size of the experiment.

:func:`~replicability.comparison.planning.plan` turns them into the runs of r x k cv
needed for a power *and* a replicability.

The model is the corrected repeated cv t-test's own (Nadeau & Bengio 2003 [1]_; Bouckaert &
Frank 2004): the ``n = r k`` per-split differences A - B have mean :math:`\delta`,
variance :math:`\sigma^2` and correlation :math:`\rho` between any two (they share the
data set). Their mean is :math:`N(\delta, \sigma^2(\rho + (1-\rho)/n))` and, independent
of it, :math:`s^2/(\sigma^2(1-\rho)) \sim \chi^2_{n-1}/(n-1)` (the covariance is
:math:`\sigma^2[(1-\rho)I + \rho J]`: the mean lies along :math:`\mathbf 1`, :math:`s^2` in
its complement). The test divides the mean by :math:`\sqrt{(1/n + c)s^2}` with
:math:`c = n_\text{test}/n_\text{train}`, so its statistic is :math:`\lambda T'`, with
:math:`T'` noncentral t on :math:`n - 1` df and noncentrality
:math:`\delta/(\sigma\sqrt{\rho + (1-\rho)/n})`, and
:math:`\lambda^2 = (\rho + (1-\rho)/n)/((1-\rho)(1/n + c))`; Nadeau and Bengio's
heuristic :math:`\rho = c/(1+c)` (the default) makes :math:`\lambda = 1`. The power is
then exact under the model (:func:`corrected_power`). As :math:`n \to \infty` the
noncentrality tends to :math:`\delta/(\sigma\sqrt\rho)`: **more runs cannot raise the
power above a cap**, which only more data (or a smaller test fraction) moves.

Replicability (Bouckaert 2004, 2005) is the probability that two randomizations of the
splits of the *same* data set reach the same decision. The data set fixes the shared
part of the differences, :math:`\theta`, with variance :math:`\rho\sigma^2` over data
sets, and each randomization adds independent noise to the mean, of variance
:math:`v/r` for :math:`r` runs, where :math:`v` is the variance of one run's mean between
randomizations of one data set; the repeated statistics are then nearly equicorrelated
normals, the model of Bouckaert (2005) [2]_, Section 3 (:func:`agreement_probability`), and
:func:`corrected_replicability` computes the probability exactly (each randomization's
own :math:`s^2` included). A run's folds partition the data, so :math:`v` is smaller than
:math:`\sigma^2(1-\rho)/k`; a pilot with several randomizations estimates it.
Replicability rises to 1 with :math:`r`; it is lowest near 50% power, where the decision
is a coin toss (Bouckaert 2005).

Checked against statsmodels' ``TTestPower`` (no correction, :math:`\rho = 0`), by
simulation of the model, and against the committed Bouckaert (2004) experiment: naive
Bayes against C4.5 on 1000 data sets of each synthetic source under 10 randomizations of
10 x 10 cv (``tests/stats/test_planning.py``): with the model's parameters estimated from
the 1000 data sets, planned power is within 5 points of the achieved for 2, 5 and 10 runs
(for one run of 10-fold cv it is off by up to 6.4 points), planned replicability within 5
points for 1, 2, 5 and 10 runs.

References
----------
.. [1] Nadeau, C., & Bengio, Y. (2003). Inference for the generalization error. Machine
   Learning 52(3), 239-281. https://doi.org/10.1023/A:1024068626366
.. [2] Bouckaert, R. R. (2005). Low replicability of machine learning experiments is not
   a small data set phenomenon. ICML 2005 workshop on meta-learning.
"""

from __future__ import annotations

import numpy as np
from scipy import special, stats

from .._results import unwrap_scalar
from .._validation import check_alpha, check_positive_int

__all__ = ["QUADRATURE_NODES", "agreement_probability", "conditional_outcomes", "corrected_power",
           "corrected_replicability", "normal_quadrature", "power_cap"]

#: Nodes of the 120-point Gauss-Hermite (probabilists') rule for ``E_W[f(W)]``, W standard normal.
#:
#: :meta hide-value:
QUADRATURE_NODES, _QUADRATURE_WEIGHTS = special.roots_hermitenorm(120)


def normal_quadrature(values):
    """``E_W[f(W)]`` for W standard normal from ``f`` at :data:`QUADRATURE_NODES` (last axis).

    A sum in a fixed order rather than a matrix product, whose rounding would depend on the BLAS.
    """
    return (values * _QUADRATURE_WEIGHTS).sum(axis=-1) / np.sqrt(2 * np.pi)


def conditional_outcomes(effect, rho, z):
    """P(A better), P(B better), P(no difference) given the shared factor W at the quadrature nodes.

    Statistics ``effect + sqrt(rho) W + sqrt(1 - rho) E`` decided above ``z`` and below ``-z``.
    """
    centre = effect[..., None] + np.sqrt(rho)[..., None] * QUADRATURE_NODES
    sd, z = np.sqrt(1 - rho)[..., None], np.asarray(z, dtype=float)[..., None]
    upper = stats.norm.sf((z - centre) / sd)
    lower = stats.norm.cdf((-z - centre) / sd)
    return upper, lower, 1 - upper - lower


def agreement_probability(effect, rho, threshold, *, n_repeats=2):
    """Probability that ``n_repeats`` equicorrelated normal statistics all reach the same decision.

    ``Z_i = effect + sqrt(rho) W + sqrt(1 - rho) E_i``, each deciding "A better" above
    ``threshold``, "B better" below ``-threshold``; with two repeats, R̂2's target
    (Bouckaert 2005, Section 3). Conditional on W the decisions are independent, so it
    is ``E_W[sum_c P(c | W)^n]`` by 120-point Gauss-Hermite quadrature.
    """
    n = check_positive_int(n_repeats, "n_repeats", minimum=2)
    effect, rho = np.broadcast_arrays(np.asarray(effect, dtype=float), np.asarray(rho, dtype=float))
    if not np.all((rho >= 0) & (rho < 1)):
        raise ValueError(f"`rho` must lie in [0, 1); got {rho!r}.")
    upper, lower, middle = conditional_outcomes(effect, rho, threshold)
    return unwrap_scalar(normal_quadrature(upper**n + lower**n + middle**n))


def _model(effect, sd, n, test_ratio, correlation, alpha):
    """Noncentrality of T' and the test's threshold on it for ``n`` differences (see the module docstring)."""
    if sd <= 0 or not np.isfinite(sd):
        raise ValueError(f"`sd` must be a positive number; got {sd!r}.")
    if test_ratio < 0 or not np.isfinite(test_ratio):
        raise ValueError(f"`test_ratio` (n_test / n_train) must be >= 0 (0: the uncorrected t-test); "
                         f"got {test_ratio!r}.")
    rho = test_ratio / (1 + test_ratio) if correlation is None else correlation
    if not 0 <= rho < 1:
        raise ValueError(f"`correlation` must lie in [0, 1); got {correlation!r}.")
    n = np.asarray(n, dtype=float)
    spread = rho + (1 - rho) / n
    nc = effect / (sd * np.sqrt(spread))
    lam = np.sqrt(spread / ((1 - rho) * (1 / n + test_ratio)))
    return nc, stats.t.isf(alpha / 2, n - 1) / lam


def corrected_power(effect, sd, *, n_runs, n_folds=10, test_ratio, correlation=None, alpha=0.05):
    """Power of the two-sided corrected repeated cv t-test under the equicorrelated model (exact).

    Parameters
    ----------
    effect : float
        Expected difference A - B on the scale of the score.
    sd : float
        Standard deviation of one split's difference over data sets and splits (``sigma``).
    n_runs : int or array_like
        Runs of ``n_folds``-fold cv (``n = n_runs n_folds`` differences, at least 2).
    n_folds : int, default 10
    test_ratio : float
        ``n_test / n_train`` of a split, the test's correction (0: the uncorrected paired t-test).
    correlation : float, optional
        ``rho`` between two splits' differences; default Nadeau and Bengio's
        ``test_ratio / (1 + test_ratio)``, under which the corrected test is exact.
    alpha : float, default 0.05

    Returns
    -------
    float or ndarray

    Examples
    --------
    >>> round(float(corrected_power(0.02, 0.05, n_runs=10, test_ratio=1 / 9)), 4)
    0.2244
    """
    alpha = check_alpha(alpha)
    n = np.asarray(n_runs) * check_positive_int(n_folds, "n_folds", minimum=1)
    if np.any(n < 2):
        raise ValueError(f"The test needs at least 2 differences; got n_runs x n_folds = {n}.")
    nc, threshold = _model(effect, sd, n, test_ratio, correlation, alpha)
    return unwrap_scalar(stats.nct.sf(threshold, n - 1, nc) + stats.nct.sf(threshold, n - 1, -nc))


def corrected_replicability(effect, sd, *, n_runs, n_folds=10, test_ratio, correlation=None, randomization_var=None,
                            fixed_var=0.0, alpha=0.05):
    """Probability that two randomizations of the splits of one data set give the same decision (R2's target).

    Parameters
    ----------
    effect, sd, n_runs, n_folds, test_ratio, correlation, alpha
        As in :func:`corrected_power`.
    randomization_var : float, optional
        Variance of one run's mean difference between randomizations of the splits of
        one data set. Default ``sd^2 (1 - correlation) / n_folds``, as if a run's folds
        were independent given the data; they partition it, so the true value is
        smaller (a third to a sixth of it in Bouckaert's 2004 experiment) and the
        default understates replicability. :func:`~replicability.comparison.planning.plan` estimates it from a pilot's
        randomizations.
    fixed_var : float, default 0
        Variance of one run's mean due to a source of randomness the two randomizations
        *share*: the splits when only the learners' seeds change, or the seeds when only
        the splits do (:func:`~replicability.comparison.planning.plan` of a
        :class:`~replicability.comparison.sources.SourceVariance`). It joins the shared
        part, ``fixed_var / n_runs``; ``randomization_var`` is then the variance of the
        source that changes.

    Notes
    -----
    Given the data set's shared part ``theta ~ N(effect, correlation sd^2 + fixed_var /
    n_runs)``, a randomization's mean difference is ``theta + e`` with ``e ~ N(0,
    randomization_var / n_runs)`` and, independently, ``s^2 ~ sd^2 (1 - correlation)
    chi^2_{n-1} / (n - 1)``; the statistic is then a scaled noncentral t, independent
    between randomizations, and ``E_theta[sum_c P(c | theta)^2]`` is computed by
    Gauss-Hermite quadrature over theta. With ``fixed_var > 0`` the two randomizations'
    ``s^2`` share the fixed source's part of the spread and are not independent: the
    formula then approximates (checked by simulation in ``tests/stats/test_planning.py``).

    Examples
    --------
    >>> round(float(corrected_replicability(0.02, 0.05, n_runs=10, test_ratio=1 / 9)), 4)
    0.8919
    """
    alpha = check_alpha(alpha)
    folds = check_positive_int(n_folds, "n_folds", minimum=1)
    n = np.asarray(n_runs) * folds
    _model(effect, sd, n, test_ratio, correlation, alpha)  # checks the parameters
    rho = test_ratio / (1 + test_ratio) if correlation is None else correlation
    if randomization_var is None:
        randomization_var = sd**2 * (1 - rho) / folds
    elif not randomization_var > 0:
        raise ValueError(f"`randomization_var` must be positive; got {randomization_var!r}.")
    if not fixed_var >= 0:
        raise ValueError(f"`fixed_var` must be >= 0; got {fixed_var!r}.")
    runs, n = np.asarray(n_runs, dtype=float)[..., None], np.asarray(n, dtype=float)[..., None]
    noise = np.sqrt(randomization_var / runs)  # sd of a randomization's mean given the data
    nc = (effect + np.sqrt(rho * sd**2 + fixed_var / runs) * QUADRATURE_NODES) / noise
    threshold = stats.t.isf(alpha / 2, n - 1) * sd * np.sqrt((1 - rho) * (1 / n + test_ratio)) / noise
    # the lower tail by symmetry: scipy's nct.cdf far in the tail of a large noncentrality is NaN
    upper, lower = stats.nct.sf(threshold, n - 1, nc), stats.nct.sf(threshold, n - 1, -nc)
    return unwrap_scalar(normal_quadrature(upper**2 + lower**2 + (1 - upper - lower) ** 2))


def power_cap(effect, sd, test_ratio, correlation=None, alpha=0.05):
    """Power as the runs grow without bound: the normal limit of :func:`corrected_power`.

    Examples
    --------
    >>> round(power_cap(0.02, 0.05, 1 / 9), 3)
    0.244
    """
    rho = test_ratio / (1 + test_ratio) if correlation is None else correlation
    if rho == 0:
        return 1.0 if effect != 0 else alpha
    nc, lam = effect / (sd * np.sqrt(rho)), np.sqrt(rho / ((1 - rho) * test_ratio))
    z = stats.norm.isf(alpha / 2) / lam
    return float(stats.norm.sf(z - nc) + stats.norm.cdf(-z - nc))
