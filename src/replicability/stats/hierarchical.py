"""The hierarchical Bayesian comparison of two learners on many data sets, from every fold (Corani et al. 2017).

The Bayesian signed-rank test (:mod:`replicability.stats.bayesian`) uses one mean
difference per data set and throws the folds away. Corani, Benavoli, Demšar, Mangili &
Zaffalon (2017) model the folds: on data set ``i`` the ``n`` cross-validated
differences are correlated normal around the data set's own mean difference
:math:`\\delta_i`, and the :math:`\\delta_i` are Student-t around a mean
:math:`\\delta_0` over data sets. The posterior of the next data set's difference,
:math:`t(\\nu, \\delta_0, \\sigma_0)`, answers "is A better, equivalent (ROPE) or worse
on a data set like these?". baycomp's ``HierarchicalTest`` fits it with Stan; here a
Gibbs sampler written with numpy and scipy (no compiler) fits the same model, and
reports its convergence (split R-hat and effective sample size).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
from scipy import special

from .._validation import as_generator, check_positive_int, check_rope
from .bayesian import BayesianResult

__all__ = ["HierarchicalResult", "effective_sample_size", "hierarchical_test", "split_rhat"]

_PARAMETERS = ("delta0", "std0", "nu")


@dataclass(frozen=True, repr=False)
class HierarchicalResult(BayesianResult):
    """Result of :func:`hierarchical_test`.

    ``p_a_better``, ``p_equivalent`` and ``p_b_better`` are, as in baycomp, the shares
    of posterior draws in which A better, equivalence or B better is the most probable
    outcome on the next data set.

    Attributes
    ----------
    rhat : dict of str to float
        Split R-hat of ``delta0``, ``std0`` and ``nu`` (near 1 when the chains agree;
        above 1.01 asks for more draws).
    ess : dict of str to float
        Their effective sample sizes, over all chains.
    n_chains, n_draws : int
        Chains and kept draws per chain.
    samples : ndarray, shape (n_chains, n_draws, 3)
        Draws of ``(delta0, std0, nu)``, ``delta0`` and ``std0`` on the scale of the
        scores. Not in the repr.
    next_probabilities : ndarray, shape (n_chains, n_draws, 3)
        Per draw, the probabilities that the next data set's difference is above the
        ROPE, in it, below it. Not in the repr.
    """

    rhat: dict = field(default_factory=dict)
    ess: dict = field(default_factory=dict)
    n_chains: int = 0
    n_draws: int = 0
    samples: np.ndarray | None = field(default=None, repr=False)
    next_probabilities: np.ndarray | None = field(default=None, repr=False)


# --------------------------------------------------------------------------
# convergence diagnostics
# --------------------------------------------------------------------------


def _as_chains(draws):
    draws = np.asarray(draws, dtype=float)
    if draws.ndim != 2 or draws.shape[1] < 4 or not np.all(np.isfinite(draws)):
        raise ValueError(f"`draws` must be finite, shape (n_chains, n_draws) with n_draws >= 4; got shape "
                         f"{draws.shape}.")
    return draws


def split_rhat(draws):
    r"""Split R-hat of one quantity: the chains cut in halves, between- against within-half variance.

    :math:`\hat R = \sqrt{(\frac{n-1}{n} W + \frac{1}{n} B) / W}` over the ``2 m``
    half-chains of ``n`` draws (Gelman et al. 2013, Sec. 11.4); 1 when every half-chain
    is constant and they agree.

    Parameters
    ----------
    draws : array_like, shape (n_chains, n_draws)

    Returns
    -------
    float

    References
    ----------
    .. [1] Gelman, A., Carlin, J. B., Stern, H. S., Dunson, D. B., Vehtari, A., &
       Rubin, D. B. (2013). Bayesian Data Analysis, 3rd ed. CRC Press, Sec. 11.4.

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.stats.hierarchical import split_rhat
    >>> rng = np.random.default_rng(0)
    >>> print(round(split_rhat(rng.normal(size=(4, 1000))), 2))
    1.0
    >>> print(split_rhat(rng.normal(size=(4, 1000)) + np.arange(4)[:, None]) > 1.1)
    True
    """
    draws = _as_chains(draws)
    half = draws.shape[1] // 2
    halves = np.concatenate([draws[:, :half], draws[:, half:2 * half]])
    n = halves.shape[1]
    within = halves.var(axis=1, ddof=1).mean()
    between = n * halves.mean(axis=1).var(ddof=1)
    if within == 0:
        return 1.0 if between == 0 else float("inf")
    return float(np.sqrt(((n - 1) / n * within + between / n) / within))


def effective_sample_size(draws):
    r"""Effective sample size of one quantity over several chains.

    :math:`m n / (1 + 2 \sum_t \hat\rho_t)` with the autocorrelations combined over
    chains and summed in pairs while positive (Geyer's initial positive sequence), as
    Gelman et al. (2013, Sec. 11.5) and Stan compute it.

    Parameters
    ----------
    draws : array_like, shape (n_chains, n_draws)

    Returns
    -------
    float
        Between 0 and ``n_chains * n_draws`` (more for antithetic chains is capped
        there); ``n_chains * n_draws`` for constant draws.

    References
    ----------
    .. [1] Gelman, A., et al. (2013). Bayesian Data Analysis, 3rd ed., Sec. 11.5.
    .. [2] Geyer, C. J. (1992). Practical Markov chain Monte Carlo. Statistical
       Science 7(4), 473-483. https://doi.org/10.1214/ss/1177011137

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.stats.hierarchical import effective_sample_size
    >>> rng = np.random.default_rng(1)
    >>> 3000 < effective_sample_size(rng.normal(size=(4, 1000))) <= 4000
    True
    """
    draws = _as_chains(draws)
    m, n = draws.shape
    centred = draws - draws.mean(axis=1, keepdims=True)
    size = 1 << int(np.ceil(np.log2(2 * n)))
    spectrum = np.fft.rfft(centred, n=size, axis=1)
    acov = np.fft.irfft(spectrum * np.conj(spectrum), n=size, axis=1)[:, :n] / n
    within = acov[:, 0].mean() * n / (n - 1)
    var_plus = within * (n - 1) / n + (draws.mean(axis=1).var(ddof=1) if m > 1 else 0.0)
    if var_plus == 0:
        return float(m * n)
    rho = 1.0 - (within - acov.mean(axis=0)) / var_plus
    rho[0] = 1.0
    total, t = 0.0, 0
    while t + 1 < n:
        pair = rho[t] + rho[t + 1]
        if pair < 0:
            break
        total += pair
        t += 2
    return float(min(m * n, m * n / (2 * total - 1)))


# --------------------------------------------------------------------------
# the Gibbs sampler
# --------------------------------------------------------------------------


def _truncated_gamma_above(shape, rate, lower, rng):
    """Gamma(shape, rate) draws above ``lower``, by the inverse distribution function."""
    low = special.gammainc(shape, rate * lower)
    u = low + rng.uniform(size=np.shape(rate)) * (1.0 - low)
    return special.gammaincinv(shape, np.minimum(u, 1.0 - 1e-16)) / rate


def _truncated_normal(mean, sd, low, high, rng):
    a, b = special.ndtr((low - mean) / sd), special.ndtr((high - mean) / sd)
    u = a + rng.uniform(size=np.shape(mean)) * (b - a)
    return np.clip(mean + sd * special.ndtri(np.clip(u, 1e-300, 1 - 1e-16)), low, high)


def _slice(log_density, x, low, high, width, rng):
    """One slice-sampling update per chain (Neal 2003): stepping out, then shrinking, within [low, high]."""
    level = log_density(x) - rng.exponential(size=x.shape)
    left = np.maximum(x - width * rng.uniform(size=x.shape), low)
    right = np.minimum(left + width, high)
    for _ in range(50):
        out = (left > low) & (log_density(left) > level)
        if not out.any():
            break
        left = np.where(out, np.maximum(left - width, low), left)
    for _ in range(50):
        out = (right < high) & (log_density(right) > level)
        if not out.any():
            break
        right = np.where(out, np.minimum(right + width, high), right)
    new = x.copy()
    pending = np.ones(x.shape, dtype=bool)
    for _ in range(200):
        proposal = left + rng.uniform(size=x.shape) * (right - left)
        accept = pending & (log_density(proposal) > level)
        new = np.where(accept, proposal, new)
        pending &= ~accept
        if not pending.any():
            break
        left = np.where(pending & (proposal < x), proposal, left)
        right = np.where(pending & (proposal >= x), proposal, right)
    return new


def _log_nu(u, *, a, b, q, log_lam, sum_lam):
    """Log density of u = log(nu - 1) given the mixing weights: Gamma(a, b) prior on nu - 1, Jacobian e^u."""
    v = np.exp(u) + 1.0
    return ((a - 1.0) * u - b * np.exp(u) + u + q * (v / 2.0 * np.log(v / 2.0) - special.gammaln(v / 2.0))
            + (v / 2.0 - 1.0) * log_lam - v / 2.0 * sum_lam)


def _log_shape(s, *, b, m):
    """Log density of the Gamma prior's shape given nu - 1 = m (uniform prior)."""
    return s * np.log(b) - special.gammaln(s) + (s - 1.0) * np.log(m)


def _log_rate(s, *, a, m):
    """Log density of the Gamma prior's rate given nu - 1 = m (uniform prior)."""
    return a * np.log(s) - s * m


def _gibbs(d, rho, bounds, n_chains, n_warmup, n_draws, rng):
    """Draws of (delta0, std0, nu) from Corani et al.'s model, the Student-t as a scale mixture of normals."""
    q, n = d.shape
    mean, ss = d.mean(axis=1), ((d - d.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    inflate = 1.0 + (n - 1) * rho  # Var(mean of a data set's folds) = sigma^2 (1 + (n - 1) rho) / n
    (d_low, d_high), std_high, std0_high, (a_low, a_high), (b_low, b_high) = bounds
    c = n_chains
    delta = mean + 0.1 * rng.normal(size=(c, q)) * (d.std(axis=1) + 1e-3)
    sigma = np.broadcast_to(np.maximum(d.std(axis=1), 1e-3), (c, q)).copy()
    delta0 = np.clip(mean.mean() + 0.5 * rng.normal(size=c) * (mean.std() + 1e-3), d_low, d_high)
    std0 = np.full(c, mean.std() + 1e-3) * rng.uniform(0.5, 2.0, size=c)
    m, a, b = rng.uniform(1.0, 30.0, size=c), rng.uniform(a_low, a_high, size=c), rng.uniform(b_low, b_high, size=c)
    out = np.empty((c, n_draws, 3))
    for it in range(n_warmup + n_draws):
        nu = m + 1.0
        z = (delta - delta0[:, None]) / std0[:, None]
        lam = rng.gamma((nu[:, None] + 1.0) / 2.0, 2.0 / (nu[:, None] + z ** 2))
        prior_prec = lam / std0[:, None] ** 2
        lik_prec = n / (sigma ** 2 * inflate)
        post_var = 1.0 / (prior_prec + lik_prec)
        delta = post_var * (prior_prec * delta0[:, None] + lik_prec * mean) + np.sqrt(post_var) * rng.normal(
            size=(c, q))
        # uniform prior on sigma: 1/sigma^2 ~ Gamma((n - 1)/2, Q/2), Q the Mahalanobis form of the folds
        quad = ss / (1.0 - rho) + n * (mean - delta) ** 2 / inflate
        sigma = _truncated_gamma_above((n - 1) / 2.0, quad / 2.0, 1.0 / std_high ** 2, rng) ** -0.5
        weights = lam.sum(axis=1)
        delta0 = _truncated_normal((lam * delta).sum(axis=1) / weights, std0 / np.sqrt(weights), d_low, d_high, rng)
        spread = (lam * (delta - delta0[:, None]) ** 2).sum(axis=1)
        std0 = _truncated_gamma_above((q - 1) / 2.0, spread / 2.0, 1.0 / std0_high ** 2, rng) ** -0.5
        log_nu = functools.partial(_log_nu, a=a, b=b, q=q, log_lam=np.log(lam).sum(axis=1), sum_lam=lam.sum(axis=1))
        m = np.exp(_slice(log_nu, np.log(m), -30.0, 30.0, 1.0, rng))
        a = _slice(functools.partial(_log_shape, b=b, m=m), a, a_low, a_high, 1.0, rng)
        b = _slice(functools.partial(_log_rate, a=a, m=m), b, b_low, b_high, b_high - b_low, rng)
        if it >= n_warmup:
            out[:, it - n_warmup] = np.stack([delta0, std0, m + 1.0], axis=1)
    return out


def hierarchical_test(x, y=None, *, rope, n_folds, n_draws=2000, n_warmup=1000, n_chains=4, rng=None,
                      alpha_bounds=(1.0, 2.0), beta_bounds=(0.01, 0.1), upper_sigma=1000.0):
    r"""Corani et al.'s (2017) hierarchical Bayesian comparison of A and B from the folds of many data sets.

    The model, with :math:`d_{ij}` the ``j``-th of ``n`` cross-validated differences
    A - B on data set ``i`` (rescaled as baycomp does, by the mean over data sets of
    their standard deviations):

    .. math::

        d_{i\cdot} \sim \mathrm{MVN}(\delta_i \mathbf 1, \sigma_i^2 M),\quad
        M = (1-\rho) I + \rho \mathbf 1 \mathbf 1^\top,\quad \rho = 1/K,

        \delta_i \sim t(\nu, \delta_0, \sigma_0),\quad
        \sigma_i \sim U(0, \bar s \cdot 1000),

        \delta_0 \sim U(-\max|d|, \max|d|),\quad \sigma_0 \sim U(0, s_\delta \cdot 1000),

        \nu - 1 \sim \mathrm{Gamma}(a, b),\quad a \sim U(1, 2),\quad b \sim U(0.01, 0.1)

    (``K`` folds, :math:`\bar s` the mean within-data-set and :math:`s_\delta` the
    among-data-set standard deviation; baycomp's priors and bounds). For every posterior
    draw the next data set's difference is :math:`t(\nu, \delta_0, \sigma_0)`, with its
    probabilities above, in and below the ROPE; the result gives the share of draws in
    which each is the largest, as baycomp does.

    Parameters
    ----------
    x : array_like, shape (q, n)
        Per-fold scores of A on ``q`` data sets (``n`` = runs x folds), or the
        differences A - B when ``y`` is None; at least 2 data sets.
    y : array_like, optional
        Per-fold scores of B, same shape.
    rope : float
        Half-width of the region of practical equivalence, on the scale of the scores.
    n_folds : int
        Folds ``K`` of the cross-validation; the correlation is :math:`\rho = 1/K`
        (Nadeau & Bengio's heuristic, as baycomp).
    n_draws, n_warmup, n_chains : int, optional
        Kept draws per chain, discarded draws per chain, chains.
    rng : numpy.random.Generator, int or None
    alpha_bounds, beta_bounds : tuple of float, optional
        Bounds of the uniform priors of the Gamma prior's shape and rate.
    upper_sigma : float, optional
        Factor of the upper bounds of :math:`\sigma_i` and :math:`\sigma_0`.

    Returns
    -------
    HierarchicalResult
        ``p_a_better``, ``p_equivalent``, ``p_b_better``, ``rope``, ``rhat``, ``ess``,
        ``samples`` and ``next_probabilities``.

    Notes
    -----
    *Sampler.* Gibbs sampling with the Student-t written as a scale mixture of normals
    (:math:`\delta_i \mid \lambda_i \sim N(\delta_0, \sigma_0^2/\lambda_i)`,
    :math:`\lambda_i \sim \Gamma(\nu/2, \nu/2)`): :math:`\lambda_i`, :math:`\delta_i`,
    :math:`1/\sigma_i^2`, :math:`\delta_0` and :math:`1/\sigma_0^2` from their
    (truncated) conditionals in closed form, :math:`\log(\nu - 1)` and ``a``, ``b`` by
    slice sampling (Neal 2003). The marginal posterior of the model's parameters is
    that of baycomp's Stan program; only the algorithm differs. Check ``rhat`` (near 1)
    and ``ess`` before reading the probabilities.

    *Degenerate data.* A data set whose differences are all equal gets, as in baycomp,
    its first half of differences drawn uniformly in the ROPE and its second half
    their negatives (a zero-variance data set has no likelihood); refused when every
    data set is constant and ``rope`` is 0.

    References
    ----------
    .. [1] Corani, G., Benavoli, A., Demšar, J., Mangili, F., & Zaffalon, M. (2017).
       Statistical comparison of classifiers through Bayesian hierarchical modelling.
       Machine Learning 106(11), 1817-1837. https://doi.org/10.1007/s10994-017-5641-9
    .. [2] Neal, R. M. (2003). Slice sampling. Annals of Statistics 31(3), 705-767.
       https://doi.org/10.1214/aos/1056562461

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.stats.hierarchical import hierarchical_test
    >>> rng = np.random.default_rng(0)
    >>> d = 0.02 + 0.01 * rng.normal(size=(1, 8)).T + 0.02 * rng.normal(size=(8, 30))  # A better by 2 points
    >>> res = hierarchical_test(d, rope=0.01, n_folds=10, n_draws=500, n_warmup=300, rng=1)
    >>> res.decision(), max(res.rhat.values()) < 1.05
    ('A better', True)
    """
    d = np.asarray(x, dtype=float) if y is None else np.asarray(x, dtype=float) - np.asarray(y, dtype=float)
    if d.ndim != 2 or d.shape[0] < 2 or d.shape[1] < 2 or not np.all(np.isfinite(d)):
        raise ValueError(f"`x` (and `y`) must be finite per-fold scores of shape (q, n) with q >= 2 data sets and "
                         f"n >= 2 folds; got shape {d.shape}.")
    rope = check_rope(rope)
    k = check_positive_int(n_folds, "n_folds", minimum=2)
    n_draws, n_warmup = check_positive_int(n_draws, "n_draws", minimum=4), check_positive_int(n_warmup, "n_warmup")
    n_chains = check_positive_int(n_chains, "n_chains", minimum=2)
    for name, (low, high) in (("alpha_bounds", alpha_bounds), ("beta_bounds", beta_bounds)):
        if not 0 < low < high < np.inf:
            raise ValueError(f"`{name}` must be two positive numbers, low < high; got {(low, high)!r}.")
    if not upper_sigma > 1:
        raise ValueError(f"`upper_sigma` must be a number above 1; got {upper_sigma!r}.")
    rng = as_generator(rng)
    d = d.copy()
    constant = d.var(axis=1) == 0
    if constant.all() and rope == 0:
        raise ValueError("`x`: every data set's differences are constant and `rope` is 0: there is nothing to "
                         "model; compare the constants.")
    half = d.shape[1] // 2
    for i in np.flatnonzero(constant):  # baycomp's treatment of zero variance
        d[i, :half] = rng.uniform(-rope, rope, half)
        d[i, half:2 * half] = -d[i, :half]
    scale = float(d.std(axis=1).mean())
    d, scaled_rope = d / scale, rope / scale
    bounds = ((-np.abs(d).max(), np.abs(d).max()), d.std(axis=1).mean() * upper_sigma,
              d.mean(axis=1).std() * upper_sigma, tuple(alpha_bounds), tuple(beta_bounds))
    draws = _gibbs(d, 1.0 / k, bounds, n_chains, n_warmup, n_draws, rng)
    delta0, std0, nu = draws[..., 0], draws[..., 1], draws[..., 2]
    from scipy import stats

    below = stats.t.cdf(-scaled_rope, nu, delta0, std0)
    above = stats.t.sf(scaled_rope, nu, delta0, std0)
    nxt = np.stack([above, 1.0 - above - below, below], axis=-1)
    shares = np.bincount(nxt.reshape(-1, 3).argmax(axis=1), minlength=3) / nxt[..., 0].size
    rhat = {name: split_rhat(draws[..., j]) for j, name in enumerate(_PARAMETERS)}
    ess = {name: effective_sample_size(draws[..., j]) for j, name in enumerate(_PARAMETERS)}
    samples = draws * np.array([scale, scale, 1.0])
    return HierarchicalResult(
        p_a_better=float(shares[0]), p_equivalent=float(shares[1]), p_b_better=float(shares[2]), rope=rope,
        rhat=rhat, ess=ess, n_chains=n_chains, n_draws=n_draws, samples=samples, next_probabilities=nxt,
    )
