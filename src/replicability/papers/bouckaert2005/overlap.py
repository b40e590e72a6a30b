"""The model of Section 3 and the Appendix of Bouckaert (2005): two experiments whose test sets overlap.

A data set of ``N`` instances, each a '+' (A wins) with probability ``q`` and a '-'
otherwise (no draws, both classifiers fixed: "the classifiers produce the same outcome on
the same instances"); two experiments draw random test sets of ``n = tN`` instances and
compute ``Z = (#+ - #-)/sqrt(n)``. :func:`two_experiments` simulates it,
:func:`two_experiments_exact` enumerates it on a small data set, and
:func:`two_experiments_table` sets the simulated conditional probabilities beside the
model's large-sample limit (:func:`normal_pair`: ``Z1, Z2`` bivariate normal with
correlation ``t``, whatever ``N``) and its calibrated form (:func:`calibrated_thresholds`).
:func:`continuity_trend` simulates Task I at gap 0 with and without the continuity
correction. The step checks read these simulations
(:mod:`~replicability.papers.bouckaert2005.statistic_steps`, :mod:`~replicability.papers.bouckaert2005.type1_steps`,
:mod:`~replicability.papers.bouckaert2005.worst_case_steps`).

The paper: Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ..._validation import as_generator, check_alpha, check_positive_int
from ...report.claims import se_multiple
from ...report.steps import require_sympy
from ...report.uncertainty import rate_se
from ...sources.counts import sample_task1_counts
from ...stats.planning import QUADRATURE_NODES as _GH_NODES
from ...stats.planning import normal_quadrature as _quadrature
from .histograms import histogram_measures, outcome_histogram
from .task1 import mcnemar_outcomes

__all__ = ["APPENDIX_SIZES", "calibrated_thresholds", "continuity_trend", "normal_pair", "two_experiments",
           "two_experiments_exact", "two_experiments_table"]

#: Data set sizes and test fractions of the simulations (the paper's range: 1,000 to 200,000 instances).
APPENDIX_SIZES = {"sizes": (2_000, 20_000, 200_000), "test_sizes": (0.1, 1 / 3, 0.5)}


def _sp():
    return require_sympy()


def _yes(flag):
    return "holds" if flag else "does not hold"


def _z(alpha):
    return float(stats.norm.isf(alpha / 2))


def _test_count(size, test_size):
    n = int(round(test_size * size))
    if not 1 <= n < size:
        raise ValueError(f"`test_size` * `size` must round to 1 ... size - 1 test instances; got {n}.")
    return n


def two_experiments(size, q, test_size, *, n_sim, rng=None):
    """Counts of '+' in the test sets of two experiments on each of ``n_sim`` data sets.

    A data set has ``size`` instances, ``K ~ Binomial(size, q)`` of them '+'; each
    experiment tests on ``n = round(test_size * size)`` instances drawn without
    replacement. The test sets share ``O`` instances (hypergeometric), of which ``Y`` are
    '+'; the second test set draws its other ``n - O`` from outside the first.

    Parameters
    ----------
    size : int
        Instances in the data set.
    q : float
        Probability that an instance is a '+' (A wins).
    test_size : float
        Test fraction ``t``.
    n_sim : int, keyword-only
    rng : numpy.random.Generator, int or None, keyword-only

    Returns
    -------
    tuple of (ndarray, ndarray, int)
        ``X1``, ``X2`` (the '+' counts) and ``n``.

    Examples
    --------
    >>> x1, x2, n = two_experiments(1000, 0.5, 0.1, n_sim=5, rng=0)
    >>> n, x1.shape, bool((x1 <= n).all())
    (100, (5,), True)
    """
    size = check_positive_int(size, "size", minimum=2)
    n_sim = check_positive_int(n_sim, "n_sim")
    if not 0 <= q <= 1:
        raise ValueError(f"`q` must lie in [0, 1]; got {q!r}.")
    n = _test_count(size, test_size)
    gen = as_generator(rng)
    k = gen.binomial(size, q, n_sim)
    x1 = gen.hypergeometric(k, size - k, n)
    overlap = gen.hypergeometric(n, size - n, n, size=n_sim)
    y = gen.hypergeometric(x1, n - x1, overlap)
    w = gen.hypergeometric(k - x1, size - n - (k - x1), n - overlap)
    return x1, y + w, n


def two_experiments_exact(size, q, test_size):
    """The exact joint distribution of the '+' counts ``(X1, X2)`` of :func:`two_experiments`.

    Sums over the data set's '+' count, the overlap and the '+'s in it; use it on small
    data sets (cost ``size * n^4``).

    Returns
    -------
    tuple of (ndarray, int)
        ``P[x1, x2]`` of shape ``(n + 1, n + 1)`` and ``n``.

    Examples
    --------
    >>> joint, n = two_experiments_exact(12, 0.5, 0.5)
    >>> n, round(float(joint.sum()), 12)
    (6, 1.0)
    """
    size = check_positive_int(size, "size", minimum=2)
    n = _test_count(size, test_size)
    joint = np.zeros((n + 1, n + 1))
    xs = np.arange(n + 1)
    p_overlap = stats.hypergeom.pmf(xs, size, n, n)
    for k, pk in enumerate(stats.binom.pmf(np.arange(size + 1), size, q)):
        p_x1 = stats.hypergeom.pmf(xs, size, k, n)
        for o, po in enumerate(p_overlap):
            if po == 0:
                continue
            for x1 in xs[p_x1 > 0]:
                p_y = stats.hypergeom.pmf(np.arange(o + 1), n, x1, o)
                p_w = stats.hypergeom.pmf(np.arange(n - o + 1), size - n, k - x1, n - o)
                joint[x1] += pk * po * p_x1[x1] * np.convolve(p_y, p_w)[: n + 1]
    return joint, n


def normal_pair(effect, rho, *, alpha=0.05, thresholds=None):
    """Large-sample probabilities for two experiments whose statistics are normal with correlation ``rho``.

    ``Z_i = effect + sqrt(rho) W + sqrt(1 - rho) E_i``; an experiment rejects upwards above
    the upper threshold and downwards below the lower one (``Z_{alpha/2}`` and
    ``-Z_{alpha/2}`` unless ``thresholds`` is given). Returns the probabilities that the
    first rejects, rejects upwards, accepts, and that both reject, both reject upwards and
    both accept (Gauss-Hermite quadrature, deterministic).

    Examples
    --------
    >>> out = normal_pair(0.0, 0.0)
    >>> round(out["both reject"], 6), round(out["both accept"], 6)
    (0.0025, 0.9025)
    """
    alpha = check_alpha(alpha)
    z = _z(alpha)
    hi, lo = (z, -z) if thresholds is None else thresholds
    centre = float(effect) + np.sqrt(float(rho)) * _GH_NODES
    sd = np.sqrt(1 - float(rho))
    upper = stats.norm.sf((hi - centre) / sd)
    lower = stats.norm.cdf((lo - centre) / sd)
    middle = 1 - upper - lower
    return {"reject": float(_quadrature(upper + lower)), "reject up": float(_quadrature(upper)),
            "both reject": float(_quadrature((upper + lower) ** 2)), "both up": float(_quadrature(upper**2)),
            "both accept": float(_quadrature(middle**2)), "accept": float(_quadrature(middle))}


def calibrated_thresholds(n, q, *, alpha=0.05):
    """Thresholds of the normal model that give McNemar's exact rejection rates on ``n`` test cases.

    ``#+ ~ Binomial(n, q)`` exactly in the model, so the statistic ``Z = (2#+ - n)/sqrt(n)``
    is discrete; its exact upward and downward rejection rates ``P(Z > Z_{alpha/2})``,
    ``P(Z < -Z_{alpha/2})`` move with ``n`` by up to one binomial atom. The normal model with
    mean ``(2q - 1) sqrt(n)`` and these thresholds has the same rates.

    Returns
    -------
    tuple of (float, float)
        Upper and lower threshold (``-inf`` when the downward rate is 0).

    Examples
    --------
    >>> hi, lo = calibrated_thresholds(100_000, 0.5)  # the exact rates are a little below alpha/2
    >>> round(hi, 3), round(lo, 3)
    (1.957, -1.957)
    """
    n = check_positive_int(n, "n")
    z = _z(check_alpha(alpha))
    x = np.arange(n + 1)
    zs = (2 * x - n) / np.sqrt(n)
    pm = stats.binom.pmf(x, n, q)
    up, down = float(pm[zs > z].sum()), float(pm[zs < -z].sum())
    effect = float((2 * q - 1) * np.sqrt(n))
    lo = effect - float(stats.norm.isf(down)) if down > 0 else -float("inf")
    return effect + float(stats.norm.isf(up)), lo


def _conditionals(x1, x2, n, z):
    z1, z2 = (2 * x1 - n) / np.sqrt(n), (2 * x2 - n) / np.sqrt(n)
    r1, r2 = np.abs(z1) > z, np.abs(z2) > z
    u1, u2 = z1 > z, z2 > z
    out = {}
    for name, c1, c2 in [("P(reject2 | reject1)", r1, r2), ("P(accept2 | accept1)", ~r1, ~r2),
                         ("P(up2 | up1)", u1, u2), ("P(down2 | down1)", ~u1, ~u2)]:
        m = int(c1.sum())
        out[name] = (float(c2[c1].mean()) if m else np.nan, m)
    out["P(reject1)"] = (float(r1.mean()), len(r1))
    out["P(up1)"] = (float(u1.mean()), len(u1))
    out["P(same, two outcomes)"] = (float((r1 == r2).mean()), len(r1))
    return out


def two_experiments_table(q, *, sizes=APPENDIX_SIZES["sizes"], test_sizes=APPENDIX_SIZES["test_sizes"], alpha=0.05,
                          n_sim=400_000, seed=2005):
    """Simulated conditional probabilities of the second experiment's outcome given the first's.

    ``q`` is a number (the '+' probability, 0.5 under H0) or ``"threshold"``: the
    Appendix's ``q = 1/2 + Z_{alpha/2} / (2 sqrt(n))`` for each test set size ``n``. Each
    cell draws from ``default_rng([seed, size, j])``, ``j`` the index of the test fraction.

    Returns
    -------
    pandas.DataFrame
        One row per (size, t, quantity): simulated value, its standard error, the
        number of conditioning events, and the normal model's value.

    Examples
    --------
    >>> tab = two_experiments_table(0.5, sizes=(1000,), test_sizes=(0.5,), n_sim=2000)
    >>> sorted(tab["quantity"].unique())[:2]
    ['P(accept2 | accept1)', 'P(down2 | down1)']
    """
    alpha = check_alpha(alpha)
    z = _z(alpha)
    rows = []
    for size in sizes:
        for j, t in enumerate(test_sizes):
            n = _test_count(size, t)
            qq = 0.5 + z / (2 * np.sqrt(n)) if isinstance(q, str) and q == "threshold" else float(q)
            x1, x2, n = two_experiments(size, qq, t, n_sim=n_sim, rng=np.random.default_rng([seed, size, j]))
            effect = (2 * qq - 1) * np.sqrt(n)
            models = {"normal model": normal_pair(effect, t, alpha=alpha),
                      "calibrated model": normal_pair(effect, t, alpha=alpha,
                                                      thresholds=calibrated_thresholds(n, qq, alpha=alpha))}
            values = {}
            for label, model in models.items():
                values[label] = {
                    "P(reject2 | reject1)": model["both reject"] / model["reject"],
                    "P(accept2 | accept1)": model["both accept"] / model["accept"],
                    "P(up2 | up1)": model["both up"] / model["reject up"],
                    "P(down2 | down1)": (1 - 2 * model["reject up"] + model["both up"]) / (1 - model["reject up"]),
                    "P(reject1)": model["reject"], "P(up1)": model["reject up"],
                    "P(same, two outcomes)": model["both reject"] + model["both accept"]}
            for name, (value, m) in _conditionals(x1, x2, n, z).items():
                se = rate_se(min(max(value, 0.0), 1.0), m) if m else np.nan
                rows.append({"N": size, "t": round(t, 3), "n": n, "q": qq, "quantity": name, "simulated": value,
                             "SE": se, "events": m, "normal model": values["normal model"][name],
                             "calibrated model": values["calibrated model"][name]})
    return pd.DataFrame(rows)


def _pick(table, quantity, cols=("N", "t", "simulated", "SE", "calibrated model", "normal model")):
    return table[table["quantity"] == quantity][list(cols)].reset_index(drop=True)


_CALIBRATED = "the normal model with correlation t, thresholds at McNemar's exact rejection rates"


def _within(value, reference, se):
    """Every cell within ``z_m`` standard errors (the claims' rule for ``m`` cells, ``se_multiple``)."""
    value, reference, se = (np.asarray(v, dtype=float) for v in (value, reference, se))
    return bool(np.all(np.abs(value - reference) <= se_multiple(value.size) * se + 1e-12))


def continuity_trend(sizes=(1000, 2000, 10000, 200000), *, test_size=0.1, n_datasets=2000, alpha=0.05, seed=2005):
    """Type I replicability of McNemar's test in Task I, with and without the continuity correction.

    At gap 0, ``n_datasets`` data sets of each size are drawn as in Task I
    (:func:`~replicability.sources.counts.sample_task1_counts`) and McNemar's
    test on a random ``test_size`` test set is repeated 10 times on each, once with the
    continuity correction of Eq. (1) (as in the paper's experiments) and once without it;
    the same data sets and test sets serve both. Replicability is the normalized
    ``2 R̂2 - 1`` (the paper's reading; :func:`~replicability.papers.bouckaert2005.readings.reading_values`).

    Returns
    -------
    pandas.DataFrame
        Per size and correction: replicability and its standard error (%), and the
        rejection rate (%).

    Examples
    --------
    >>> trend = continuity_trend((1000, 20000), n_datasets=200)
    >>> list(trend.columns)
    ['N', 'correction', 'replicability %', 'SE %', 'rejection %']
    """
    rows = []
    for size in sizes:
        size = check_positive_int(size, "sizes", minimum=20)
        data = sample_task1_counts(size, 0.25, n_datasets=n_datasets, rng=np.random.default_rng([seed, size]))
        for correction in (True, False):
            out = mcnemar_outcomes(data, test_size=test_size, n_repeats=10, alpha=alpha, correction=correction,
                                   rng=np.random.default_rng([seed, size, 1]))
            m = histogram_measures(outcome_histogram(out), n_repeats=10)
            rows.append({"N": size, "correction": "with (Eq. 1)" if correction else "without",
                         "replicability %": round(100 * float(m["normalized_r2"]), 2),
                         "SE %": round(100 * float(m["normalized_r2_se"]), 2),
                         "rejection %": round(100 * float(m["rejection"]), 2)})
    return pd.DataFrame(rows)
