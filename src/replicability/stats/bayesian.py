"""Bayesian comparisons of two learners with a region of practical equivalence (ROPE).

Instead of a p-value, a Bayesian comparison gives the posterior probabilities of
three statements about the difference A - B (positive favours A, as everywhere in
the package):

* ``p_a_better``: the difference exceeds the ROPE, ``P(delta > rope)``;
* ``p_equivalent``: it lies within the ROPE, ``P(-rope <= delta <= rope)``;
* ``p_b_better``: it lies below it, ``P(delta < -rope)``.

The ROPE is the analyst's statement of which differences do not matter in
practice (e.g. one accuracy point, ``rope=0.01`` on the accuracy scale). It has
no default: every result carries the ``rope`` it was computed with, and
``rope=0`` (no equivalence region, ``p_equivalent = 0``) must be asked for.
baycomp's ``(p_left, p_rope, p_right)`` for scores ``x`` of A and ``y`` of B are
``(p_a_better, p_equivalent, p_b_better)`` here.

=============================  ================================================  =====================
test                           posterior                                         input
=============================  ================================================  =====================
Bayesian correlated t-test     Student t(n - 1, m, sqrt((1/n + n_test/n_train)   per-fold differences
                               s^2)), closed form (Corani & Benavoli 2015)       on one data set
Bayesian signed-rank test      Dirichlet process with a pseudo-observation at    mean differences
                               0 of weight ``prior``, Monte Carlo (Benavoli       across data sets
                               et al. 2014, 2017)
=============================  ================================================  =====================

References
----------
Benavoli, A., Corani, G., Demšar, J., & Zaffalon, M. (2017). Time for a change: a
tutorial for comparing multiple classifiers through Bayesian analysis. Journal of
Machine Learning Research 18(77), 1-36. https://jmlr.org/papers/v18/16-305.html

Corani, G., & Benavoli, A. (2015). A Bayesian approach for comparing
cross-validated algorithms on multiple data sets. Machine Learning 100(2-3),
285-304. https://doi.org/10.1007/s10994-015-5486-z
"""

from __future__ import annotations

import dataclasses
import numbers
from dataclasses import dataclass

import numpy as np
from scipy import special

from .._results import TestResult, plain, unwrap_scalar
from .._validation import as_differences, as_generator, check_nonnegative, check_positive_int, check_rope
from .ttests import corrected_repeated_cv_ttest

__all__ = [
    "BAYESIAN_DECISIONS",
    "BayesianResult",
    "BayesianTTestResult",
    "BayesianSignedRankResult",
    "bayesian_correlated_ttest",
    "bayesian_signed_rank_test",
]

#: The labels of :meth:`BayesianResult.decision`, in the order of the three regions, then "undecided".
BAYESIAN_DECISIONS = ("A better", "equivalent", "B better", "undecided")


# --------------------------------------------------------------------------
# result objects
# --------------------------------------------------------------------------
@dataclass(frozen=True)
class BayesianResult:
    """Posterior probabilities that A is better, equivalent to, or worse than B.

    Unpacks to ``(p_a_better, p_equivalent, p_b_better)``, always three values
    (baycomp returns two when ``rope = 0``); every other field is read by name.
    The three sum to 1 for every comparison.

    Attributes
    ----------
    p_a_better : float or ndarray
        ``P(delta > rope)``: A better than B by more than the ROPE (baycomp's ``p_left``).
    p_equivalent : float or ndarray
        ``P(-rope <= delta <= rope)``: practically equivalent (baycomp's ``p_rope``);
        0 for a continuous posterior with ``rope = 0``.
    p_b_better : float or ndarray
        ``P(delta < -rope)``: B better than A by more than the ROPE (baycomp's ``p_right``).
    rope : float
        Half-width of the region of practical equivalence, on the scale of the scores.
    """

    p_a_better: float | np.ndarray
    p_equivalent: float | np.ndarray
    p_b_better: float | np.ndarray
    rope: float

    def __iter__(self):
        return iter((self.p_a_better, self.p_equivalent, self.p_b_better))

    def __len__(self):
        return 3

    def _fields(self):
        return [f for f in dataclasses.fields(self) if f.repr]

    def __repr__(self):
        fields = ", ".join(f"{f.name}={plain(getattr(self, f.name))!r}" for f in self._fields())
        return f"{type(self).__name__}({fields})"

    def _asdict(self):
        """Every summary field by name, numpy scalars as Python numbers (posterior samples left out)."""
        return {f.name: plain(getattr(self, f.name)) for f in self._fields()}

    def to_frame(self):
        """A :class:`pandas.DataFrame` with one row per comparison and one column per summary field."""
        # the same layout as the significance tests' results (one row per batch element)
        return TestResult.to_frame(self)

    def decision(self, threshold=0.95):
        """The statement whose posterior probability exceeds ``threshold``, else ``"undecided"``.

        Benavoli et al. (2017, Section 3) decide when one of the three
        probabilities is above 0.95: ``"A better"``, ``"equivalent"`` or
        ``"B better"``; otherwise the data do not decide (``"undecided"``),
        which is not the same as equivalence.

        Parameters
        ----------
        threshold : float, default 0.95
            In [0.5, 1): at most one probability can exceed it.

        Returns
        -------
        str or ndarray of str
            One of :data:`BAYESIAN_DECISIONS` per comparison.
        """
        if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real) or not 0.5 <= threshold < 1:
            raise ValueError(f"`threshold` must be a number in [0.5, 1); got {threshold!r}.")
        probs = np.stack(np.broadcast_arrays(*(np.asarray(p, dtype=float) for p in self)), axis=-1)
        index = np.where(probs.max(axis=-1) > threshold, probs.argmax(axis=-1), 3)
        labels = np.asarray(BAYESIAN_DECISIONS)[index]
        return str(labels) if labels.ndim == 0 else labels


@dataclass(frozen=True, repr=False)
class BayesianTTestResult(BayesianResult):
    """Result of the Bayesian correlated t-test: the three probabilities and the posterior.

    The posterior of the expected difference A - B is Student's t with ``df``
    degrees of freedom, location ``estimate`` and scale ``scale``.

    Attributes
    ----------
    estimate : float or ndarray
        Posterior location: the mean difference ``m`` of the splits (A - B).
    scale : float or ndarray
        Posterior scale ``sqrt((1/n + n_test/n_train) s^2)``: the standard error
        of the corrected t-tests; 0 when every difference is equal.
    df : float
        Degrees of freedom, ``n - 1``.
    """

    estimate: float | np.ndarray = 0.0
    scale: float | np.ndarray = 0.0
    df: float = 1.0

    def sample(self, size, *, rng=None):
        """Draws from the posterior of the difference, shape ``(size,) + batch shape``.

        Parameters
        ----------
        size : int
            Number of draws.
        rng : numpy.random.Generator, int or None
            Source of randomness.

        Returns
        -------
        ndarray
            ``estimate + scale * T`` with ``T`` standard t(df) draws.
        """
        size = check_positive_int(size, "size")
        rng = as_generator(rng)
        loc, scale = np.broadcast_arrays(np.asarray(self.estimate, float), np.asarray(self.scale, float))
        return loc + scale * rng.standard_t(self.df, size=(size,) + loc.shape)


@dataclass(frozen=True, repr=False)
class BayesianSignedRankResult(BayesianResult):
    """Result of the Bayesian signed-rank test.

    Attributes
    ----------
    prior : float
        Weight of the Dirichlet process' prior pseudo-observation at 0.
    n_draws : int
        Monte Carlo draws from the posterior.
    samples : ndarray, shape (..., n_draws, 3)
        The draws of ``(theta_a, theta_rope, theta_b)``: the posterior
        probability that a Walsh average of the differences lies above the
        ROPE, in it, below it. Not in the repr nor in :meth:`BayesianResult.to_frame`.
    """

    prior: float = 0.5
    n_draws: int = 50000
    samples: np.ndarray | None = dataclasses.field(default=None, repr=False, compare=False)


# --------------------------------------------------------------------------
# maths
# --------------------------------------------------------------------------
def _t_region_probabilities(m, scale, df, rope):
    """``P(delta > rope)``, ``P(|delta| <= rope)``, ``P(delta < -rope)`` for delta ~ t(df, m, scale).

    A zero scale (every difference equal) is a point mass at ``m``: each
    probability is 0 or 1, and ``m`` inside the closed ROPE counts as
    equivalent (so a zero difference with ``rope = 0`` is "equivalent").
    """
    m, scale = np.broadcast_arrays(np.asarray(m, float), np.asarray(scale, float))
    degenerate = scale == 0
    safe = np.where(degenerate, 1.0, scale)
    # P(delta > rope) = F_t((m - rope) / scale); P(delta < -rope) = F_t((-rope - m) / scale)
    p_a = special.stdtr(df, (m - rope) / safe)
    p_b = special.stdtr(df, (-rope - m) / safe)
    p_a = np.where(degenerate, (m > rope).astype(float), p_a)
    p_b = np.where(degenerate, (m < -rope).astype(float), p_b)
    p_eq = 1.0 - (p_a + p_b)
    if rope == 0:  # a continuous posterior puts no mass on the single point 0
        p_eq = np.where(degenerate, p_eq, 0.0)
    return p_a, np.clip(p_eq, 0.0, 1.0), p_b


def _walsh_indicators(z, rope):
    """Matrices ``H_a``, ``H_b`` of (z_i + z_j)/2 above / below the ROPE, half at the boundary.

    ``z`` is ``(0, d_1, ..., d_n)``: the prior pseudo-observation first.
    """
    sums = z[:, None] + z[None, :]
    above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    below = (sums < -2 * rope) + 0.5 * (sums == -2 * rope)
    return above, below


def _signed_rank_samples(d, rope, weights):
    """Posterior draws ``(theta_a, theta_rope, theta_b)`` for one vector of differences ``d``.

    ``theta_a = sum_ij w_i w_j H_a[i, j]`` for every row ``w`` of ``weights``
    (Benavoli et al. 2014, eq. 8; 2017, Section 4.2), evaluated for all draws at
    once as a row-wise quadratic form.
    """
    above, below = _walsh_indicators(np.concatenate(([0.0], d)), rope)
    theta_a = np.einsum("ni,ij,nj->n", weights, above, weights)
    theta_b = np.einsum("ni,ij,nj->n", weights, below, weights)
    # with rope = 0 above + below = 1 for every pair: theta_rope is 0, not a rounding residue
    # (and 1 - (a + b) is symmetric in a and b, so swapping A and B swaps the draws exactly)
    theta_rope = np.zeros_like(theta_a) if rope == 0 else 1.0 - (theta_a + theta_b)
    return np.stack([theta_a, theta_rope, theta_b], axis=-1)


def _winner_shares(samples):
    """Share of draws in which each of the three thetas is the largest; a tie splits its draw evenly."""
    is_max = samples == samples.max(axis=-1, keepdims=True)
    return (is_max / is_max.sum(axis=-1, keepdims=True)).mean(axis=-2)


# --------------------------------------------------------------------------
# public tests
# --------------------------------------------------------------------------
def bayesian_correlated_ttest(x, y=None, *, rope, n_train, n_test, n_folds=None):
    """Bayesian correlated t-test of two learners on one data set (Corani & Benavoli 2015).

    The per-split differences ``d = x - y`` (positive favours A) of r runs of
    k-fold cv, or of random subsampling, are correlated because the training
    sets overlap. With the Nadeau & Bengio correlation ``rho = n_test /
    (n_train + n_test)`` between any two differences, a flat prior gives the
    posterior of the expected difference ``delta`` as Student's t

    .. math::

        \\delta \\mid d \\sim t\\left(n - 1,\\; m,\\;
        \\sqrt{\\left(\\tfrac{1}{n} + \\tfrac{\\rho}{1 - \\rho}\\right) s^2}\\right),
        \\qquad \\frac{\\rho}{1-\\rho} = \\frac{n_\\text{test}}{n_\\text{train}},

    with ``m`` the mean and ``s^2`` the unbiased variance of the ``n = r k``
    differences: location and scale are the estimate and the standard error of
    :func:`~replicability.stats.ttests.corrected_repeated_cv_ttest`, whose input
    conventions this function shares. The three probabilities come from the t
    CDF ``F`` in closed form:

    * ``p_a_better = P(delta > rope) = F((m - rope) / scale)``,
    * ``p_b_better = P(delta < -rope) = F((-rope - m) / scale)``,
    * ``p_equivalent = 1 - p_a_better - p_b_better`` (0 when ``rope = 0``).

    Parameters
    ----------
    x : array_like, shape (..., r, k), (n,) or (..., r k)
        Scores of learner A per run and fold, or the differences when ``y`` is
        None; read as by :func:`~replicability.stats.ttests.corrected_repeated_cv_ttest`
        (a 1-d array is the ``n`` splits of one experiment, e.g. random subsampling).
    y : array_like, same shape as ``x``, optional
        Scores of learner B.
    rope : float
        Half-width of the region of practical equivalence, on the scale of the
        scores (``0.01`` = one accuracy point for accuracies in [0, 1]). No
        default: choose it before looking at the data; ``0`` is allowed.
    n_train, n_test : float or array_like
        Training and test set sizes of one split (only ``n_test / n_train``
        enters), one per experiment if arrays.
    n_folds : int, optional
        Number of folds k when the last axis holds the ``r k`` values of each
        experiment run by run.

    Returns
    -------
    BayesianTTestResult
        ``p_a_better``, ``p_equivalent``, ``p_b_better``, ``rope``, and the
        posterior: ``estimate`` (location), ``scale``, ``df``; with
        ``decision(threshold=0.95)`` and ``sample(size, rng=...)``.

    Notes
    -----
    Zero variance (every difference equal to ``m``): the posterior is a point
    mass at ``m``, so each probability is 0 or 1 and ``m`` inside the closed
    ROPE ``[-rope, rope]`` is "equivalent" -- every difference zero gives
    ``p_equivalent = 1`` even with ``rope = 0``. baycomp agrees for ``rope > 0``
    but splits ``m = 0, rope = 0`` as 1/2 - 1/2; here no difference at all is
    the package's "no difference" (Weka's p = 1).

    Corani & Benavoli write the correlation ``rho`` as the test fraction and
    the variance factor as ``1/n + rho/(1 - rho)``; ``rho/(1 - rho)`` is
    ``n_test/n_train``, the corrected t-tests' factor (baycomp's
    ``1/(k - 1)`` for k-fold cv).

    References
    ----------
    .. [1] Corani, G., & Benavoli, A. (2015). A Bayesian approach for comparing
       cross-validated algorithms on multiple data sets. Machine Learning
       100(2-3), 285-304. https://doi.org/10.1007/s10994-015-5486-z
    .. [2] Benavoli, A., Corani, G., Demšar, J., & Zaffalon, M. (2017). Time for
       a change: a tutorial for comparing multiple classifiers through Bayesian
       analysis. JMLR 18(77), 1-36. https://jmlr.org/papers/v18/16-305.html
    .. [3] Nadeau, C., & Bengio, Y. (2003). Inference for the generalization
       error. Machine Learning 52(3), 239-281.
       https://doi.org/10.1023/A:1024068626366

    Examples
    --------
    >>> from replicability.stats.bayesian import bayesian_correlated_ttest
    >>> d = [[0.02, 0.01, 0.03], [0.00, 0.02, 0.01]]  # 2 runs x 3 folds, A - B
    >>> res = bayesian_correlated_ttest(d, rope=0.01, n_train=200, n_test=100)
    >>> print(round(float(res.p_a_better), 4), round(float(res.p_equivalent), 4), round(float(res.p_b_better), 4))
    0.7077 0.2758 0.0165
    >>> res.decision()
    'undecided'
    >>> round(float(res.scale), 6), res.df
    (0.008563, 5.0)
    """
    rope = check_rope(rope)
    res = corrected_repeated_cv_ttest(x, y, n_train=n_train, n_test=n_test, n_folds=n_folds)
    p_a, p_eq, p_b = _t_region_probabilities(res.estimate, res.standard_error, res.df, rope)
    return BayesianTTestResult(
        unwrap_scalar(p_a), unwrap_scalar(p_eq), unwrap_scalar(p_b), rope,
        estimate=res.estimate, scale=res.standard_error, df=res.df,
    )


def bayesian_signed_rank_test(x, y=None, *, rope, prior=0.5, n_draws=50000, rng=None):
    """Bayesian signed-rank test of two learners across data sets (Benavoli et al. 2014, 2017).

    The mean differences ``d_1, ..., d_n`` of A - B on ``n`` data sets are draws
    from an unknown distribution with a Dirichlet process prior of strength
    ``prior`` centred on a pseudo-observation at 0. Its posterior puts weights
    ``(w_0, w_1, ..., w_n) ~ Dirichlet(prior, 1, ..., 1)`` on ``(0, d_1, ..., d_n)``,
    and the probability that a Walsh average ``(z_i + z_j) / 2`` of two draws
    lies above, in or below the ROPE is

    .. math::

        \\begin{aligned}
        \\theta_a &= \\sum_{i,j=0}^{n} w_i w_j\\, H\\!\\left(\\tfrac{z_i + z_j}{2} - r\\right), \\\\
        \\theta_b &= \\sum_{i,j=0}^{n} w_i w_j\\, H\\!\\left(-\\tfrac{z_i + z_j}{2} - r\\right), \\\\
        \\theta_\\text{rope} &= 1 - \\theta_a - \\theta_b,
        \\end{aligned}

    with ``H`` the Heaviside step (1/2 at 0) and ``r`` the ROPE. ``n_draws``
    Monte Carlo draws of the weights give draws of ``(theta_a, theta_rope,
    theta_b)``; ``p_a_better`` is the share of draws in which ``theta_a`` is the
    largest of the three (likewise ``p_equivalent``, ``p_b_better``), as in
    Benavoli et al. (2017, Section 4.2) and baycomp.

    Parameters
    ----------
    x : array_like, shape (..., n)
        Mean score of learner A on each of ``n >= 2`` data sets, or the
        differences A - B when ``y`` is None. Leading axes are separate
        comparisons.
    y : array_like, shape (..., n), optional
        Mean score of learner B on each data set.
    rope : float
        Half-width of the region of practical equivalence on the scale of the
        scores; no default, ``0`` allowed (then ``p_equivalent = 0``).
    prior : float, default 0.5
        Strength ``s`` of the Dirichlet process prior, the weight of the
        pseudo-observation at 0 (baycomp's default; ``> 0``).
    n_draws : int, default 50000
        Monte Carlo draws; the probabilities' standard errors are at most
        ``0.5 / sqrt(n_draws)`` (0.0022 for the default).
    rng : numpy.random.Generator, int or None
        Source of the Dirichlet draws. The same draws of the weights serve every
        comparison of a batch, so a slice of a batched call equals the call on
        that slice with the same ``rng``.

    Returns
    -------
    BayesianSignedRankResult
        ``p_a_better``, ``p_equivalent``, ``p_b_better``, ``rope``, ``prior``,
        ``n_draws`` and the posterior ``samples`` of shape
        ``(..., n_draws, 3)``; with ``decision(threshold=0.95)``.

    Notes
    -----
    A draw in which two thetas tie for the largest counts half for each (with
    baycomp's ``argmax`` it would go to the first, A): with every difference
    zero and ``rope = 0``, ``theta_a = theta_b`` in every draw and the result is
    1/2 - 1/2, symmetric in A and B; with ``rope > 0`` it is equivalence with
    probability 1. Swapping A and B swaps ``p_a_better`` and ``p_b_better``
    exactly for the same ``rng``.

    References
    ----------
    .. [1] Benavoli, A., Corani, G., Mangili, F., Zaffalon, M., & Ruggeri, F.
       (2014). A Bayesian Wilcoxon signed-rank test based on the Dirichlet
       process. ICML 2014, PMLR 32(2), 1026-1034.
       https://proceedings.mlr.press/v32/benavoli14.html
    .. [2] Benavoli, A., Corani, G., Demšar, J., & Zaffalon, M. (2017). Time for
       a change: a tutorial for comparing multiple classifiers through Bayesian
       analysis. JMLR 18(77), 1-36. https://jmlr.org/papers/v18/16-305.html

    Examples
    --------
    >>> from replicability.stats.bayesian import bayesian_signed_rank_test
    >>> d = [0.031, 0.012, 0.024, -0.004, 0.018, 0.027, 0.009, 0.015]  # A - B on 8 data sets
    >>> res = bayesian_signed_rank_test(d, rope=0.01, n_draws=20000, rng=0)
    >>> print(round(float(res.p_a_better), 2), round(float(res.p_equivalent), 2), round(float(res.p_b_better), 2))
    0.94 0.06 0.0
    >>> res.samples.shape
    (20000, 3)
    """
    rope = check_rope(rope)
    prior = check_nonnegative(prior, "prior")
    if prior == 0:
        raise ValueError(f"`prior` must be a positive finite number; got {prior!r}.")
    n_draws = check_positive_int(n_draws, "n_draws")
    d = as_differences(x, y, min_last=2)
    generator = as_generator(rng)
    alpha = np.ones(d.shape[-1] + 1)
    alpha[0] = prior
    weights = generator.dirichlet(alpha, size=n_draws)
    batch = d.shape[:-1]
    flat = d.reshape(-1, d.shape[-1])
    samples = np.stack([_signed_rank_samples(row, rope, weights) for row in flat])
    samples = samples.reshape(batch + (n_draws, 3))
    shares = _winner_shares(samples)
    return BayesianSignedRankResult(
        unwrap_scalar(shares[..., 0]), unwrap_scalar(shares[..., 1]), unwrap_scalar(shares[..., 2]), rope,
        prior=prior, n_draws=n_draws, samples=samples,
    )
