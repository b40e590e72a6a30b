"""Section 3 and the Appendix of Bouckaert (2005), step by step: McNemar's test under overlapping test sets.

Each function below checks one displayed step and returns a
:class:`~replicability.report.steps.Step` (printed form, correction, method, result):
algebra and integrals with ``sympy``; probability statements by exact enumeration of
the paper's model on a small data set and by simulation at the paper's sizes (data
sets of 1,000 to 200,000 instances, test fractions 10%, 33% and 50%); the lower bound
by an exhaustive grid over the stated range. Every function takes ``form``, the
expression the step asserts (default: as printed), so that another one can be checked.
:func:`appendix_derivation` runs them all in the paper's order.

The model of the derivation, simulated and enumerated exactly by
:func:`two_experiments` and :func:`two_experiments_exact`: a data set of ``N``
instances, each a '+' (A wins) with probability ``q`` and a '-' otherwise (no draws,
both classifiers fixed: "the classifiers produce the same outcome on the same
instances"); two experiments draw random test sets of ``n = tN`` instances and compute
``Z = (#+ - #-)/sqrt(n)``. Its large-sample limit: ``Z1, Z2`` bivariate normal with
correlation ``t`` (the shared fraction of a test set), whatever ``N``.

The paper: Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ..._validation import as_generator, check_alpha, check_positive_int
from ...report.claims import se_multiple
from ...report.steps import Derivation, Step, identity, require_sympy
from ...report.uncertainty import rate_se
from .theory import _GH_NODES, _quadrature, normal_tail_mean, normal_tail_mean_linear

__all__ = [
    "APPENDIX_SIZES", "DERIVATION_2005_STEPS", "appendix_conditional_mean", "appendix_derivation",
    "appendix_drop_term", "appendix_half_rejected", "appendix_other_branch", "appendix_p_prime", "appendix_q_product",
    "appendix_q_threshold", "appendix_rejected_typo", "appendix_rescale", "appendix_sigma_binomial",
    "appendix_split_integral", "appendix_t_prime", "appendix_upper_limit", "appendix_worst_case", "appendix_x_plus_y",
    "calibrated_thresholds", "continuity_trend", "normal_pair", "section3_accept_accept", "section3_accept_mean",
    "section3_bound_independent", "section3_bound_is_lower", "section3_decreases_with_n", "section3_m_prime",
    "section3_p_prime", "section3_reject_reject", "section3_sigma_prime", "section3_surplus_scale",
    "section3_t_square", "section3_tail_approximation", "section3_tail_mean", "section3_total", "section3_two_sided",
    "section3_z_rewrite", "section3_z_sign", "two_experiments", "two_experiments_exact", "two_experiments_table",
]

#: Data set sizes and test fractions of the simulations (the paper's range: 1,000 to 200,000 instances).
APPENDIX_SIZES = {"sizes": (2_000, 20_000, 200_000), "test_sizes": (0.1, 1 / 3, 0.5)}
_S3, _S31, _APP = "Section 3", "Section 3.1", "Appendix"


def _sp():
    return require_sympy()


def _yes(flag):
    return "holds" if flag else "does not hold"


def _z(alpha):
    return float(stats.norm.isf(alpha / 2))


# --------------------------------------------------------------------------- #
# the model: two experiments on one data set
# --------------------------------------------------------------------------- #
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


# --------------------------------------------------------------------------- #
# Section 3
# --------------------------------------------------------------------------- #
def section3_bound_independent(*, form=None, alpha=0.05):
    """Independent experiments agree with probability ``alpha alpha + (1-alpha)(1-alpha) = 1 - 2alpha + 2alpha^2``.

    Printed: both accept with probability ``(1 - alpha)(alpha - 1)``. ``form`` replaces the
    printed both-accept term (in ``a`` = alpha).

    Examples
    --------
    >>> st = section3_bound_independent()
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    sp = _sp()
    a = sp.Symbol("a", positive=True)
    accept = (1 - a) * (a - 1) if form is None else sp.sympify(form, locals={"a": a})
    total = 1 - 2 * a + 2 * a**2
    ok_p, gap = identity(a * a + accept, total, {a: sp.Rational(1, 20)})
    ok_c, _ = identity(a * a + (1 - a) * (1 - a), total)
    pct = 100 * float(total.subs(a, sp.nsimplify(alpha)))
    result = (f"alpha^2 + printed term = 1 - 2alpha + 2alpha^2 (sympy): {_yes(ok_p)} (difference {gap:.4f} at "
              f"alpha = 0.05); with (1-alpha)(1-alpha): {_yes(ok_c)}; at alpha = {alpha}: {pct:.1f}% (printed 90.5%)")
    return Step("bound_independent", _S3, "Two independent experiments agree with probability 1 - 2α + 2α²",
                r"\alpha\cdot\alpha + (1-\alpha)\cdot(\alpha-1) = 1 - 2\alpha + 2\alpha^2",
                "sympy", result, ok_p, corrected=r"\alpha\cdot\alpha + (1-\alpha)\cdot(1-\alpha) = 1 - 2\alpha + "
                r"2\alpha^2", corrected_holds=bool(ok_c and round(pct, 1) == 90.5), form=accept, known=True)


def section3_bound_is_lower(*, form=None, alphas=(0.01, 0.025, 0.05, 0.1), n_rho=100):
    """"which is the lower bound on Type I replicability": exhaustive over correlations ``rho`` in [0, 1).

    Two experiments whose statistics are normal with correlation ``rho >= 0`` (overlapping
    data) agree (both accept or both reject) with probability at least ``1 - 2alpha + 2alpha^2``:
    both accept ``>= (1-alpha)^2`` by Sidak's inequality, and both reject
    ``= 1 - 2(1-alpha) + P(both accept)``. Checked on a grid of ``n_rho`` correlations per alpha.
    With three outcomes (a rejection for A or for B) independent experiments agree with
    ``1 - 2alpha + 1.5alpha^2``, below the bound. ``form`` is the asserted bound (a function of alpha).

    Examples
    --------
    >>> section3_bound_is_lower(n_rho=10).holds, section3_bound_is_lower(form=lambda a: 1 - a, n_rho=10).holds
    (True, False)
    """
    bound = (lambda a: 1 - 2 * a + 2 * a**2) if form is None else form
    rows = []
    for a in alphas:
        rhos = np.linspace(0, 0.99, n_rho)
        same = np.array([(lambda o: o["both reject"] + o["both accept"])(normal_pair(0.0, rho, alpha=a))
                         for rho in rhos])
        rows.append({"alpha": a, "bound": bound(a), "min over rho": float(same.min()),
                     "min - bound": float(same.min() - bound(a)), "argmin rho": float(rhos[np.argmin(same)]),
                     "three outcomes, independent": 1 - 2 * a + 1.5 * a**2})
    ev = pd.DataFrame(rows)
    ok = bool((ev["min - bound"] >= -1e-9).all())
    low = float(ev["min - bound"].min())
    shown = ">= 0 (to 1e-12)" if low > -1e-12 else f"{low:.2e}"
    result = (f"minimum over rho = 0 ... 0.99 ({n_rho} values) of P(agree) - bound, alpha in {list(alphas)}: "
              f"{shown}, attained at rho = {ev['argmin rho'].max():.2f}; with three outcomes independent experiments "
              f"agree with 1 - 2α + 1.5α² = {100 * (1 - 0.1 + 1.5 * 0.0025):.2f}% at α = 5%, below the bound")
    return Step("bound_is_lower", _S3, "1 - 2α + 2α² is the lower bound on Type I replicability",
                r"1 - 2\alpha + 2\alpha^2 \le P(\text{same outcome}) \quad (90.5\%\ \text{at}\ \alpha = 5\%)",
                "exhaustive", result, ok, evidence=ev, form=bound)


def section3_z_rewrite(*, form=None):
    """The rewriting of Z: ``(p(+) - 0.5)/sqrt(1/4/n) = 2(#+/n - 1)/sqrt(1/n) = ... = (#+ - #-)/sqrt(n)``.

    ``form`` replaces the printed second member (in ``a`` = #+, ``b`` = #-, ``n = a + b``).

    Examples
    --------
    >>> st = section3_z_rewrite()
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    sp = _sp()
    a, b = sp.symbols("a b", positive=True)
    n = a + b
    half = sp.Rational(1, 2)
    start = (a / n - half) / sp.sqrt(half * half / n)
    second = 2 * (a / n - 1) / sp.sqrt(1 / n) if form is None else sp.sympify(form, locals={"a": a, "b": b})
    third = (1 / n) * (2 * a - a - b) / sp.sqrt(1 / n)
    last = (a - b) / sp.sqrt(n)
    ok_p, gap = identity(start, second, {a: 60, b: 40})
    ok_c, _ = identity(start, 2 * (a / n - half) / sp.sqrt(1 / n))
    ok_rest = identity(start, third)[0] and identity(third, last)[0]
    result = (f"first = second (printed 2(#+/n - 1)): {_yes(ok_p)} (difference {gap:.2f} at #+ = 60, #- = 40); with "
              f"2(#+/n - 1/2): {_yes(ok_c)}; third = fourth = (#+ - #-)/sqrt(n): {_yes(ok_rest)}")
    return Step("z_rewrite", _S3, "Z rewritten as (#+ - #-)/√n",
                r"\frac{p(+) - 0.5}{\sqrt{\frac12\cdot\frac12/n}} = \frac{2(\frac{\#+}{n} - 1)}{\sqrt{1/n}} = "
                r"\frac{1/n(2(\#+) - (\#+) - (\#-))}{\sqrt{1/n}} = \frac{(\#+) - (\#-)}{\sqrt n}", "sympy", result,
                bool(ok_p and ok_rest), corrected=r"\frac{2(\frac{\#+}{n} - \frac12)}{\sqrt{1/n}}",
                corrected_holds=bool(ok_c and ok_rest), form=second, known=True)


def section3_z_sign(*, form=None):
    """The last member: ``(#+ - #-)/sqrt(n) = (n01 - n10)/sqrt(n01 + n10)``.

    Section 2.1 defines ``n10`` as the cases where A is right and B wrong, and Section 3
    counts a '+' when A wins: ``#+ = n10``, so the difference is ``n10 - n01`` (the sign
    does not matter for the two-sided test or for ``T = Z^2``). ``form`` replaces the
    printed member (in ``n10``, ``n01``).

    Examples
    --------
    >>> st = section3_z_sign()
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    sp = _sp()
    n10, n01 = sp.symbols("n10 n01", positive=True)
    stated = (n01 - n10) / sp.sqrt(n01 + n10) if form is None else sp.sympify(form, locals={"n10": n10, "n01": n01})
    z = (n10 - n01) / sp.sqrt(n10 + n01)  # #+ = n10, #- = n01
    ok_p, gap = identity(z, stated, {n10: 60, n01: 40})
    ok_c, _ = identity(z, (n10 - n01) / sp.sqrt(n10 + n01))
    squares, _ = identity(z**2, stated**2)
    result = (f"with #+ = n10 (A right, B wrong), #- = n01: equal {_yes(ok_p)} (difference {gap:.1f} at n10 = 60, "
              f"n01 = 40); the squares agree: {_yes(squares)}")
    return Step("z_sign", _S3, "Z in McNemar's counts", r"\frac{(\#+) - (\#-)}{\sqrt n} = (n_{01} - n_{10})/"
                r"\sqrt{n_{01} + n_{10}}", "sympy", result, ok_p,
                corrected=r"(n_{10} - n_{01})/\sqrt{n_{10} + n_{01}}", corrected_holds=ok_c, form=stated)


def section3_t_square(*, form=None):
    """``T`` is the square of ``Z`` without the continuity correction, whose influence vanishes with large data sets.

    Symbolic: ``(|d| - 1)^2/n`` against ``(d/sqrt(n))^2``; at a fixed ``Z`` (``d = Z sqrt(n)``)
    their ratio tends to 1 as ``n`` grows. ``form`` is the asserted limit of the ratio.

    Examples
    --------
    >>> section3_t_square().holds, section3_t_square(form=2).holds
    (True, False)
    """
    sp = _sp()
    d, n, zz = sp.symbols("d n Z", positive=True)
    claim = 1 if form is None else sp.nsimplify(form)
    square, _ = identity((d / sp.sqrt(n)) ** 2, d**2 / n)
    ratio = ((zz * sp.sqrt(n) - 1) ** 2 / n) / zz**2
    lim = sp.limit(ratio, n, sp.oo)
    ok = bool(square and sp.simplify(lim - claim) == 0)
    result = f"Z^2 = (n10 - n01)^2/(n10 + n01): {_yes(square)}; T/Z^2 at fixed Z tends to {lim} as n grows"
    return Step("t_square", _S3, "T is Z² when the continuity correction is ignored (it vanishes for large n)",
                r"T = \frac{(|n_{10} - n_{01}| - 1)^2}{n_{10} + n_{01}} \approx Z^2", "sympy", result, ok, form=claim)


def section3_two_sided(*, form=None, alpha=0.05):
    """"We can reject the null hypothesis in a two sided test if Z > Z_{alpha/2} = N_{alpha/2}(0, 1) = 1.96".

    A two-sided test rejects when ``|Z| > Z_{alpha/2}``; ``Z > Z_{alpha/2}`` alone has
    probability ``alpha/2`` under H0. ``form`` is the asserted rejection probability of the printed rule.

    Examples
    --------
    >>> st = section3_two_sided()
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    z = _z(alpha)
    printed_rate = float(stats.norm.sf(z)) if form is None else float(form)
    two = float(2 * stats.norm.sf(z))
    ok_p = bool(np.isclose(printed_rate, alpha, rtol=1e-12))
    ok_c = bool(np.isclose(two, alpha, rtol=1e-12) and round(z, 2) == 1.96)
    result = (f"Z_(alpha/2) = {z:.6f} (printed 1.96); P(Z > Z_(alpha/2)) = {printed_rate:.4f}, P(|Z| > Z_(alpha/2)) "
              f"= {two:.4f} against alpha = {alpha}")
    return Step("two_sided", _S3, "The two-sided rejection rule", r"Z > Z_{\alpha/2} = N_{\alpha/2}(0,1) = 1.96",
                "exhaustive", result, ok_p, corrected=r"|Z| > Z_{\alpha/2} = \Phi^{-1}(1 - \alpha/2) = 1.96",
                corrected_holds=ok_c, form=printed_rate)


# --------------------------------------------------------------------------- #
# Section 3.1: Type I replicability
# --------------------------------------------------------------------------- #
def section3_accept_mean(*, form=None):
    """After an acceptance the expected sum of '+'s and '-'s is ``int_{-Z}^{Z} x N(0, 1/2) dx = 0`` (symmetry).

    Symbolic for any threshold and any spread. ``form`` is the asserted value.

    Examples
    --------
    >>> section3_accept_mean().holds, section3_accept_mean(form="Z").holds
    (True, False)
    """
    sp = _sp()
    x, zz, s = sp.Symbol("x", real=True), sp.Symbol("Z", positive=True), sp.Symbol("sigma", positive=True)
    claim = 0 if form is None else sp.sympify(form, locals={"Z": zz})
    density = sp.exp(-x**2 / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)
    value = sp.integrate(x * density, (x, -zz, zz))
    ok, _ = identity(value, claim)
    return Step("accept_mean", _S31, "After an acceptance the '+' surplus has mean 0",
                r"\int_{-Z_{\alpha/2}}^{Z_{\alpha/2}} x\cdot N(0,\tfrac12)\,dx = 0", "sympy",
                f"integral of x times the N(0, sigma) density over (-Z, Z), any Z and sigma: {value} = form: "
                f"{_yes(ok)}", ok, form=claim)


_CALIBRATED = "the normal model with correlation t, thresholds at McNemar's exact rejection rates"


def _within(value, reference, se):
    """Every cell within ``z_m`` standard errors (the claims' rule for ``m`` cells, :func:`se_multiple`)."""
    value, reference, se = (np.asarray(v, dtype=float) for v in (value, reference, se))
    return bool(np.all(np.abs(value - reference) <= se_multiple(value.size) * se + 1e-12))


def section3_accept_accept(*, form=None, table=None, alpha=0.05, exact_size=40, exact_test_size=0.5, n_sim=400_000,
                  seed=2005):
    """"Therefore, the probability that the second experiment accepts given that the first did is 1 - alpha".

    A zero mean surplus does not make the second experiment independent of the first: an
    acceptance also confines the shared part, so ``P(accept2 | accept1) = P(both accept)/P(accept)``,
    above ``P(accept) = 1 - alpha`` for ``t > 0`` (Sidak). Checked by exact enumeration of the
    model on ``exact_size`` instances (against a simulation of the same, which validates the
    simulator) and by simulation at the paper's sizes (``table``: :func:`two_experiments_table`
    at ``q = 0.5``) against the normal model with correlation ``t``. ``form`` is the asserted
    conditional probability.

    Examples
    --------
    >>> tab = two_experiments_table(0.5, sizes=(20_000,), test_sizes=(0.5,), n_sim=20_000)
    >>> st = section3_accept_accept(table=tab, exact_size=16, n_sim=20_000)
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    z = _z(alpha)
    claim = 1 - alpha if form is None else float(form)
    table = two_experiments_table(0.5, alpha=alpha, n_sim=n_sim, seed=seed) if table is None else table
    joint, n = two_experiments_exact(exact_size, 0.5, exact_test_size)
    zs = (2 * np.arange(n + 1) - n) / np.sqrt(n)
    acc = np.abs(zs) <= z
    exact = float(joint[np.ix_(acc, acc)].sum() / joint[acc].sum())
    marginal = float(joint[acc].sum())
    x1, x2, _ = two_experiments(exact_size, 0.5, exact_test_size, n_sim=n_sim, rng=np.random.default_rng([seed, 0]))
    small, small_events = _conditionals(x1, x2, n, z)["P(accept2 | accept1)"]
    small_se = rate_se(small, small_events)
    ev = _pick(table, "P(accept2 | accept1)")
    ev["printed"] = claim
    worst = ev.loc[(ev["t"] == ev["t"].max()) & (ev["N"] == ev["N"].max())].iloc[0]
    ok_p = _within(ev["simulated"], ev["printed"], ev["SE"])
    ok_c = bool(_within(ev["simulated"], ev["calibrated model"], ev["SE"]) and abs(small - exact) <= 2 * small_se)
    result = (f"exact enumeration, {exact_size} instances, t = {exact_test_size}: P(accept2 | accept1) = {exact:.4f} "
              f"against P(accept) = {marginal:.4f} (a simulation of the same, {n_sim} data sets: {small:.4f}, SE "
              f"{small_se:.4f}). At the paper's sizes, t = {worst['t']}, N = {int(worst['N']):,}: "
              f"{worst['simulated']:.4f} (SE {worst['SE']:.4f}) against the printed {claim:.4f} and the normal model's "
              f"{worst['normal model']:.4f}"
              f"; every cell within z_m SE of {_CALIBRATED}: {_yes(ok_c)}")
    st = Step("accept_accept", _S31, "After an acceptance the second experiment accepts with probability 1 - α",
              r"P(\text{accept}_2 \mid \text{accept}_1) = 1 - \alpha", "enumeration + simulation", result, ok_p,
              corrected=r"P(\text{accept}_2 \mid \text{accept}_1) = \frac{P(|Z_1| \le z, |Z_2| \le z)}{1-\alpha} > "
              r"1 - \alpha,\ \operatorname{corr}(Z_1, Z_2) = t", corrected_holds=ok_c, evidence=ev, form=claim)
    st.simulated = (ev["simulated"].to_numpy(), ev["calibrated model"].to_numpy(), ev["SE"].to_numpy(), _CALIBRATED)
    return st


def section3_tail_mean(*, form=None, alpha=0.05):
    """``E(x | x > Z) = int_Z^inf x N(0,1) dx / (alpha/2) = phi(Z)/(alpha/2)`` (symbolic integral).

    ``form`` is the asserted value of ``int_Z^inf x phi(x) dx`` (in ``Z``).

    Examples
    --------
    >>> section3_tail_mean().holds, section3_tail_mean(form="Z").holds
    (True, False)
    """
    sp = _sp()
    x, zz = sp.Symbol("x", real=True), sp.Symbol("Z", positive=True)
    phi = sp.exp(-zz**2 / 2) / sp.sqrt(2 * sp.pi)
    claim = phi if form is None else sp.sympify(form, locals={"Z": zz})
    value = sp.integrate(x * sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi), (x, zz, sp.oo))
    ok, _ = identity(value, claim)
    z = _z(alpha)
    result = (f"int_Z^inf x phi(x) dx = {value} = form: {_yes(ok)}; E(x | x > Z_(alpha/2)) = phi(Z)/(alpha/2) = "
              f"{float(normal_tail_mean(z)):.4f} at alpha = {alpha}")
    return Step("tail_mean", _S31, "The mean of the statistic after an upward rejection",
                r"E(x \mid x > Z_{\alpha/2}) = \int_{Z_{\alpha/2}}^\infty x\cdot N(0,1)/(\alpha/2)\,dx = "
                r"\frac{1}{\sqrt{2\pi}}e^{-Z_{\alpha/2}^2/2}/(\alpha/2)", "sympy", result, ok, form=claim)


def section3_tail_approximation(*, form=None, alpha=0.05):
    """"which is approximately Z_{alpha/2} (actually, slightly higher)", footnote 1's line ``0.97x + 0.33``.

    ``g(z) = phi(z) - z(1 - Phi(z))`` has ``g'(z) = -(1 - Phi(z)) < 0`` and ``g -> 0`` at
    infinity, so ``g > 0``: the tail mean exceeds ``z`` for every ``z`` (symbolic). ``form`` is
    the asserted ``g'(z)``.

    Examples
    --------
    >>> section3_tail_approximation().holds, section3_tail_approximation(form="0").holds
    (True, False)
    """
    sp = _sp()
    zz = sp.Symbol("z", real=True)
    phi = sp.exp(-zz**2 / 2) / sp.sqrt(2 * sp.pi)
    tail = sp.erfc(zz / sp.sqrt(2)) / 2
    claim = -tail if form is None else sp.sympify(form, locals={"z": zz})
    g = phi - zz * tail
    ok_d, _ = identity(sp.diff(g, zz), claim)
    lim = sp.limit(g, zz, sp.oo)
    z = _z(alpha)
    grid = np.linspace(0, 8, 161)
    gap_line = np.abs(normal_tail_mean(grid) - normal_tail_mean_linear(grid))
    ok = bool(ok_d and lim == 0 and normal_tail_mean(z) > z)
    result = (f"g'(z) = form: {_yes(ok_d)}; lim g = {lim}; so E(x | x > z) > z for every z. At Z_(alpha/2) = {z:.3f}: "
              f"{float(normal_tail_mean(z)):.3f} ({float(normal_tail_mean(z) / z - 1):.0%} higher). Footnote 1's line "
              f"0.97z + 0.33 gives {float(normal_tail_mean_linear(z)):.3f} there; over z in [0, 8] it is off by up to "
              f"{gap_line.max():.2f} (at z = 0)")
    return Step("tail_approximation", _S31 + ", footnote 1", "The tail mean is slightly above the threshold",
                r"\frac{1}{\sqrt{2\pi}}e^{-Z_{\alpha/2}^2/2}/(\alpha/2) \approx Z_{\alpha/2}\ \text{(slightly higher)}",
                "sympy + exhaustive", result, ok, form=claim)


def section3_surplus_scale(*, form=None, table_sizes=APPENDIX_SIZES["sizes"], test_size=0.1, alpha=0.05, n_sim=400_000,
                  seed=2005):
    """"So, the expected number of '+'s in D_t2 ∩ D_t1 is Z_{alpha/2}".

    ``x`` above is the standardized statistic; in counts the surplus ``#+ - #-`` of the first
    test set after an upward rejection is ``sqrt(n) E(x | x > Z)``, and the shared instances
    carry a share ``t`` of it: ``t sqrt(n) E(x | x > Z)``, which grows with ``sqrt(n)``.
    Simulated at the paper's sizes under H0. ``form`` is a function ``(n, t, Z) -> count``
    of the asserted surplus.

    Examples
    --------
    >>> st = section3_surplus_scale(table_sizes=(20_000,), n_sim=20_000)
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    z = _z(alpha)
    claim = (lambda n, t, zz: zz) if form is None else form
    tm = float(normal_tail_mean(z))
    rows = []
    for size in table_sizes:
        n = _test_count(size, test_size)
        gen = np.random.default_rng([seed, size, 7])
        k = gen.binomial(size, 0.5, n_sim)
        x1 = gen.hypergeometric(k, size - k, n)
        overlap = gen.hypergeometric(n, size - n, n, size=n_sim)
        y = gen.hypergeometric(x1, n - x1, overlap)
        up = (2 * x1 - n) / np.sqrt(n) > z
        surplus = (2 * y - overlap)[up]
        xs = np.arange(n + 1)
        pm = stats.binom.pmf(xs, n, 0.5)
        hit = (2 * xs - n) / np.sqrt(n) > z
        exact = float(test_size * ((2 * xs - n) * pm)[hit].sum() / pm[hit].sum())
        rows.append({"N": size, "n": n, "simulated surplus": float(surplus.mean()),
                     "SE": float(surplus.std(ddof=1) / np.sqrt(surplus.size)), "printed": float(claim(n, test_size, z)),
                     "exact t E(#+ - # - | x > Z)": exact, "t sqrt(n) E(x | x > Z)": test_size * np.sqrt(n) * tm})
    ev = pd.DataFrame(rows)
    ok_p = _within(ev["simulated surplus"], ev["printed"], ev["SE"])
    ok_c = _within(ev["simulated surplus"], ev["exact t E(#+ - # - | x > Z)"], ev["SE"])
    result = (f"surplus #+ - #- on the shared instances after an upward rejection, t = {test_size}, H0, "
              f"{n_sim} data sets per size: " + ", ".join(
                  f"N = {r.N:,}: {r._3:.2f} (SE {r.SE:.2f}) against t E(#+ - #- | x > Z) = {r._6:.2f} (exact, "
                  f"binomial; large-sample t sqrt(n) E(x | x > Z) = {r._7:.2f})" for r in ev.itertuples()) +
              f"; the printed value is {claim(1, test_size, z):.2f} at every size. Exact, because given the first "
              "test set the shared part is a random subset of mean size tn: every cell within z_m SE of the exact "
              "value: " + _yes(ok_c))
    return Step("surplus_scale", _S31, "The '+' surplus the shared instances carry after a rejection",
                r"E(\#+ \text{ in } D_{t,2}\cap D_{t,1}) - \tfrac12|D_{t,2}\cap D_{t,1}| = Z_{\alpha/2}", "simulation",
                result, ok_p, corrected=r"E\big((\#+) - (\#-) \text{ in } D_{t,2}\cap D_{t,1} \mid x > Z_{\alpha/2}"
                r"\big) = t\,E\big((\#+) - (\#-) \mid x > Z_{\alpha/2}\big) \approx t\sqrt n\, "
                r"E(x \mid x > Z_{\alpha/2})",
                corrected_holds=ok_c, evidence=ev, form=claim)


def section3_p_prime(*, form=None):
    """``t(1/2 + Z/n) + (1 - t) 1/2 = 1/2 + tZ/n`` (the algebra, given the previous step).

    With the corrected surplus the '+' rate of the second test set is
    ``1/2 + t E(x | x > Z) / (2 sqrt(n))``. ``form`` is the asserted right-hand side (in ``t``, ``Z``, ``n``).

    Examples
    --------
    >>> section3_p_prime().holds, section3_p_prime(form="1/2 + Z/n").holds
    (True, False)
    """
    sp = _sp()
    t, zz, n = sp.symbols("t Z n", positive=True)
    half = sp.Rational(1, 2)
    claim = half + t * zz / n if form is None else sp.sympify(form, locals={"t": t, "Z": zz, "n": n})
    ok, _ = identity(t * (half + zz / n) + (1 - t) * half, claim)
    return Step("p_prime", _S31, "The '+' rate of the second test set", r"t\cdot(\tfrac12 + Z_{\alpha/2}/n) + "
                r"(1-t)\cdot\tfrac12 = p' = \tfrac12 + t\cdot Z_{\alpha/2}/n", "sympy",
                f"the algebra (sympy): {_yes(ok)}; it inherits the scale of the previous step (the corrected rate is "
                "1/2 + t E(x | x > Z)/(2 sqrt(n)))", ok, form=claim)


def section3_m_prime(*, form=None):
    """``m' = E{n01 - n10} = np' - n(1 - p') = 2tZ`` for ``p' = 1/2 + tZ/n`` (the algebra).

    With the corrected ``p'`` it is ``t sqrt(n) E(x | x > Z)``, i.e. ``t E(x | x > Z)`` on the
    scale of ``Z``: the regression of one statistic on the other with correlation ``t``.
    ``form`` is the asserted value (in ``t``, ``Z``, ``n``).

    Examples
    --------
    >>> section3_m_prime().holds, section3_m_prime(form="t*Z").holds
    (True, False)
    """
    sp = _sp()
    t, zz, n, e = sp.symbols("t Z n E", positive=True)
    half = sp.Rational(1, 2)
    claim = 2 * t * zz if form is None else sp.sympify(form, locals={"t": t, "Z": zz, "n": n})
    pp = half + t * zz / n
    ok, _ = identity(n * pp - n * (1 - pp), claim)
    pc = half + t * e / (2 * sp.sqrt(n))
    corrected, _ = identity(n * pc - n * (1 - pc), t * sp.sqrt(n) * e)
    return Step("m_prime", _S31, "The mean of #+ - #- in the second experiment",
                r"m' = E\{n_{01} - n_{10}\} = np' - n(1-p') = 2\cdot t\cdot Z_{\alpha/2}", "sympy",
                f"the algebra (sympy): {_yes(ok)}; with the corrected p' = 1/2 + t E/(2 sqrt(n)): m' = t sqrt(n) E "
                f"{_yes(corrected)} (E = E(x | x > Z))", ok, form=claim)


def section3_sigma_prime(*, form=None, n_values=(100, 1000, 10000)):
    """"and variance sigma' = sqrt(np'(1 - p'))", used as the spread of ``n01 - n10`` (``≈ sqrt(n)/2``).

    ``sqrt(np'(1-p'))`` is the standard deviation of ``#+``; that of ``#+ - #- = 2(#+) - n``,
    whose mean ``m'`` is, is twice it, about ``sqrt(n)``. Symbolic (``var(2X - n) = 4 var X``)
    and by exact enumeration of the binomial. ``form`` is the asserted standard deviation of
    ``#+ - #-`` (in ``n``, ``p``).

    Examples
    --------
    >>> st = section3_sigma_prime()
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    sp = _sp()
    n, p = sp.symbols("n p", positive=True)
    claim = sp.sqrt(n * p * (1 - p)) if form is None else sp.sympify(form, locals={"n": n, "p": p})
    sd_diff = 2 * sp.sqrt(n * p * (1 - p))
    ok_sym, gap = identity(sd_diff, claim, {n: 100, p: sp.Rational(1, 2)})
    rows = []
    f = sp.lambdify((n, p), claim, "numpy")
    for nn in n_values:
        x = np.arange(nn + 1)
        pm = stats.binom.pmf(x, nn, 0.5)
        d = 2 * x - nn
        sd = float(np.sqrt((pm * d**2).sum() - (pm * d).sum() ** 2))
        rows.append({"n": nn, "exact sd of #+ - #-": sd, "printed": float(f(nn, 0.5)), "2 sqrt(np'(1-p'))":
                     float(2 * np.sqrt(nn * 0.25))})
    ev = pd.DataFrame(rows)
    ok_p = bool(ok_sym and np.allclose(ev["exact sd of #+ - #-"], ev["printed"], rtol=1e-9))
    ok_c = bool(np.allclose(ev["exact sd of #+ - #-"], ev["2 sqrt(np'(1-p'))"], rtol=1e-9))
    result = (f"sd of #+ - #- = 2 sqrt(np(1-p)) (sympy) = form: {_yes(ok_sym)} (difference {gap:.1f} at n = 100, "
              f"p = 1/2); exact binomial enumeration, n = {list(n_values)}, p = 1/2: sd = " + ", ".join(
                  f"{v:.2f}" for v in ev["exact sd of #+ - #-"]) + " against the printed " + ", ".join(
                  f"{v:.2f}" for v in ev["printed"]))
    return Step("sigma_prime", _S31, "The spread of #+ - #- in the second experiment",
                r"\sigma' = \sqrt{np'(1-p')} \approx \tfrac12\sqrt n", "sympy + enumeration", result, ok_p,
                corrected=r"\sigma' = 2\sqrt{np'(1-p')} \approx \sqrt n", corrected_holds=ok_c, evidence=ev, form=claim)


def section3_reject_reject(*, form=None, table=None, alpha=0.05, n_sim=400_000, seed=2005):
    """"P(reject2 | reject1) = N(2tZ, sqrt(n)/2) > Z ... goes to alpha + epsilon ... epsilon -> 0 with increasing n".

    Taken as printed (mean ``2tZ`` and threshold ``Z`` on the count scale) the probability
    tends to 1/2; read consistently it is ``P(|Z1| > z, |Z2| > z)/alpha`` with correlation ``t``,
    ``alpha + epsilon(t)``, which does not vanish as ``n`` grows. ``table``:
    :func:`two_experiments_table` at ``q = 0.5``. ``form`` is a function ``(n, t, z) -> probability``
    of the asserted value.

    Examples
    --------
    >>> tab = two_experiments_table(0.5, sizes=(20_000, 200_000), test_sizes=(0.5,), n_sim=20_000)
    >>> st = section3_reject_reject(table=tab)
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    z = _z(alpha)
    table = two_experiments_table(0.5, alpha=alpha, n_sim=n_sim, seed=seed) if table is None else table
    claim = ((lambda n, t, zz: float(stats.norm.sf((zz - 2 * t * zz) / (0.5 * np.sqrt(n))))) if form is None
             else form)
    ev = _pick(table, "P(reject2 | reject1)")
    n_of = table.drop_duplicates(["N", "t"]).set_index(["N", "t"])["n"]
    ev["printed"] = [claim(int(n_of[(r.N, r.t)]), r.t, z) for r in ev.itertuples()]
    ev["epsilon simulated"] = ev["simulated"] - alpha
    ok_p = _within(ev["simulated"], ev["printed"], ev["SE"])
    ok_c = _within(ev["simulated"], ev["calibrated model"], ev["SE"])
    by_t = ev.groupby("t")["epsilon simulated"].agg(["min", "max"])
    limit = ev.groupby("t")["normal model"].first() - alpha
    result = (f"simulated P(reject2 | reject1) under H0 ({len(ev)} cells, N = "
              f"{', '.join(f'{int(v):,}' for v in sorted(ev['N'].unique()))}): epsilon by t: " + "; ".join(
                  f"t = {t}: {r['min']:.3f} ... {r['max']:.3f} (limit {limit[t]:.3f})" for t, r in by_t.iterrows()) +
              f"; the printed expression gives {ev['printed'].min():.3f} ... {ev['printed'].max():.3f}; every cell "
              f"within z_m SE of {_CALIBRATED}: {_yes(ok_c)}")
    st = Step("reject_reject", _S31, "After a rejection the second experiment rejects with probability α + ε, "
              "ε → 0 as n grows", r"N(2tZ_{\alpha/2}, \tfrac12\sqrt n) > Z_{\alpha/2}:\ P \to \alpha + \epsilon,\ "
              r"\epsilon \to 0\ (n \to \infty)", "simulation", result, ok_p,
              corrected=r"P(\text{reject}_2 \mid \text{reject}_1) = \frac{P(|Z_1| > z, |Z_2| > z)}{\alpha} = "
              r"\alpha + \epsilon(t),\ \operatorname{corr}(Z_1, Z_2) = t", corrected_holds=ok_c, evidence=ev,
              form=claim)
    st.simulated = (ev["simulated"].to_numpy(), ev["calibrated model"].to_numpy(), ev["SE"].to_numpy(), _CALIBRATED)
    return st


def section3_total(*, form=None):
    """``(1-alpha)(1-alpha) + alpha(alpha + epsilon) = 1 - (2 - epsilon)alpha + alpha^2`` (printed).

    ``form`` replaces the printed right-hand side (in ``a`` = alpha, ``e`` = epsilon).

    Examples
    --------
    >>> st = section3_total()
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    sp = _sp()
    a, e = sp.symbols("a e", positive=True)
    claim = 1 - (2 - e) * a + a**2 if form is None else sp.sympify(form, locals={"a": a, "e": e})
    lhs = (1 - a) * (1 - a) + a * (a + e)
    ok_p, gap = identity(lhs, claim, {a: sp.Rational(1, 20), e: 0})
    ok_c, _ = identity(lhs, 1 - (2 - e) * a + 2 * a**2)
    result = (f"expanding (sympy): {sp.expand(lhs)}; equal to the printed form {_yes(ok_p)} (difference {gap:.4f} = "
              f"alpha^2 at alpha = 0.05); to 1 - (2 - e)alpha + 2alpha^2 {_yes(ok_c)}")
    return Step("total", _S31, "Type I replicability in total", r"(1-\alpha)\cdot(1-\alpha) + \alpha\cdot(\alpha + "
                r"\epsilon) = 1 - (2-\epsilon)\alpha + \alpha^2", "sympy", result, ok_p,
                corrected=r"(1-\alpha)^2 + \alpha(\alpha + \epsilon) = 1 - (2-\epsilon)\alpha + 2\alpha^2",
                corrected_holds=ok_c, form=claim)


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
    from .histograms import histogram_measures, outcome_histogram
    from .task1 import mcnemar_outcomes, sample_task1_counts

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


def section3_decreases_with_n(*, form=None, table=None, trend=None, alpha=0.05, n_sim=400_000, seed=2005):
    """"Surprisingly, Type I replicability decreases with increasing data set size".

    The printed argument: ``1 - (2 - epsilon) alpha + alpha^2`` with ``epsilon -> 0`` as ``n``
    grows. Simulated pairwise Type I replicability (both accept or both reject) of the
    Section 3 model at the paper's sizes does not fall with ``N``: ``epsilon(t)`` is free of
    ``n``, and what moves at finite ``N`` is the discreteness of the statistic (the
    calibrated model). The decrease the paper observes in Section 4.1 is real, but it comes
    from the continuity correction of Eq. (1), which makes McNemar's test conservative on
    small test sets (:func:`continuity_trend`): with it, replicability falls with ``N``;
    without it, it is flat. ``form`` is a function ``(trend) -> bool`` of the asserted trend
    of the model (default: falls from the smallest to the largest ``N`` by more than ``z_m``
    standard errors at every ``t``).

    Examples
    --------
    >>> tab = two_experiments_table(0.5, sizes=(20_000, 200_000), test_sizes=(0.5,), n_sim=20_000)
    >>> st = section3_decreases_with_n(table=tab, trend=continuity_trend((1000, 200000), n_datasets=1000))
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    table = two_experiments_table(0.5, alpha=alpha, n_sim=n_sim, seed=seed) if table is None else table
    trend_t1 = continuity_trend(alpha=alpha, seed=seed) if trend is None else trend
    ev = _pick(table, "P(same, two outcomes)")
    rows = []
    for t, part in ev.groupby("t"):
        part = part.sort_values("N")
        first, last = part.iloc[0], part.iloc[-1]
        rows.append({"t": t, "smallest N": first["simulated"], "largest N": last["simulated"],
                     "change": last["simulated"] - first["simulated"],
                     "SE of change": float(np.hypot(first["SE"], last["SE"])),
                     "limit (normal model)": last["normal model"]})
    model_trend = pd.DataFrame(rows)
    zm = se_multiple(len(model_trend))
    claim = ((lambda tr: bool(np.all(tr["change"] < -zm * tr["SE of change"]))) if form is None else form)
    ok_p = bool(claim(model_trend))
    ok_model = _within(ev["simulated"], ev["calibrated model"], ev["SE"])
    change = {}
    for correction, part in trend_t1.groupby("correction"):
        part = part.sort_values("N")
        first, last = part.iloc[0], part.iloc[-1]
        change[correction] = (last["replicability %"] - first["replicability %"],
                              float(np.hypot(first["SE %"], last["SE %"])), first, last)
    z2 = se_multiple(2)
    falls_with = change["with (Eq. 1)"][0] < -z2 * change["with (Eq. 1)"][1]
    flat_without = abs(change["without"][0]) <= z2 * change["without"][1]
    ok_c = bool(ok_model and falls_with and flat_without)
    result = ("simulated pairwise Type I replicability of the Section 3 model, smallest against largest N per t: "
              + "; ".join(f"t = {r.t}: {r._2:.4f} -> {r._3:.4f} (change {r.change:+.4f}, SE {r._5:.4f}; limit "
                          f"{r._6:.4f})" for r in model_trend.itertuples())
              + f"; every cell within z_m SE of {_CALIBRATED}: {_yes(ok_model)}. Task I at gap 0 (McNemar 90/10, "
              + "2 R2 - 1): " + "; ".join(f"{k} the continuity correction {v[2]['replicability %']:.1f} -> "
                                         f"{v[3]['replicability %']:.1f}% (N = {int(v[2]['N']):,} -> {int(v[3]['N']):,}"
                                         f", change {v[0]:+.1f}, SE {v[1]:.1f}; rejection {v[2]['rejection %']:.1f} -> "
                                         f"{v[3]['rejection %']:.1f}%)" for k, v in change.items()))
    evidence = pd.concat([ev.assign(model="Section 3 model"),
                          trend_t1.rename(columns={"replicability %": "simulated", "SE %": "SE"})
                          .assign(model="Task I, gap 0", simulated=lambda f: f["simulated"] / 100,
                                  SE=lambda f: f["SE"] / 100)], ignore_index=True)
    return Step("decreases_with_n", _S31, "Type I replicability decreases with the data set size",
                r"1 - (2-\epsilon)\alpha + \alpha^2\ \text{decreases with}\ n\ (\epsilon \to 0)", "simulation", result,
                ok_p, corrected=r"\begin{aligned}&1 - (2-\epsilon(t))\alpha + 2\alpha^2,\ \epsilon(t)\ "
                r"\text{free of}\ n;\\ &\text{the decrease comes from the continuity correction}"
                r"\text{ of Eq. (1)}\end{aligned}",
                corrected_holds=ok_c, evidence=evidence, form=claim)


# --------------------------------------------------------------------------- #
# Appendix: worst-case replicability
# --------------------------------------------------------------------------- #
def appendix_q_threshold(*, form=None):
    """``(nq - n/2)/sqrt(n/4) = Z`` gives ``q = 1/2 + Z/(2 sqrt(n))`` (sympy ``solve``).

    Examples
    --------
    >>> appendix_q_threshold().holds, appendix_q_threshold(form="1/2 + Z/sqrt(n)").holds
    (True, False)
    """
    sp = _sp()
    n, q, zz = sp.symbols("n q Z", positive=True)
    claim = sp.Rational(1, 2) + zz / (2 * sp.sqrt(n)) if form is None else sp.sympify(form, locals={"n": n, "Z": zz})
    sol = sp.solve(sp.Eq((n * q - n / 2) / sp.sqrt(n / 4), zz), q)
    ok = len(sol) == 1 and identity(sol[0], claim)[0]
    return Step("q_threshold", _APP, "The '+' probability at which E{Z} is the threshold",
                r"(n\cdot q - n\cdot\tfrac12)/\sqrt{n\cdot\tfrac14} = Z_{\alpha/2} \;\Rightarrow\; q = \tfrac12 + "
                r"\frac{1}{2\sqrt n} Z_{\alpha/2}", "sympy", f"sympy.solve: q = {sol}; equal to form: {_yes(ok)}",
                ok, form=claim)


def appendix_half_rejected(*, form=None, n_values=(100, 1_000, 10_000, 100_000), alpha=0.05):
    """"Z follows approximately a normal distribution with mean Z_{alpha/2}, 50% of the time ... rejected".

    Exact binomial enumeration of ``P(|Z| > Z_{alpha/2})`` at ``q`` of the previous step, and
    the normal value ``1/2 + Phi(-2 Z_{alpha/2})``. ``form`` is the asserted probability.

    Examples
    --------
    >>> appendix_half_rejected(n_values=(1000,)).holds, appendix_half_rejected(form=0.6, n_values=(1000,)).holds
    (True, False)
    """
    z = _z(alpha)
    claim = 0.5 if form is None else float(form)
    rows = []
    for n in n_values:
        q = 0.5 + z / (2 * np.sqrt(n))
        x = np.arange(n + 1)
        zs = (2 * x - n) / np.sqrt(n)
        pm = stats.binom.pmf(x, n, q)
        rows.append({"n": n, "exact P(reject)": float(pm[np.abs(zs) > z].sum())})
    ev = pd.DataFrame(rows)
    normal = 0.5 + float(stats.norm.cdf(-2 * z))
    tol = 1 / np.sqrt(2 * np.pi * np.asarray(n_values) * 0.25)  # the probability of one binomial atom near n/2
    ok = bool(np.all(np.abs(ev["exact P(reject)"] - claim) <= tol) and abs(normal - claim) < 1e-4)
    result = ("exact binomial P(|Z| > Z_(alpha/2)) at q = 1/2 + Z/(2 sqrt(n)): " + ", ".join(
        f"n = {r.n}: {r._2:.4f}" for r in ev.itertuples()) + f"; normal limit 1/2 + Phi(-2Z) = {normal:.5f}; each "
        "within the probability of one binomial atom at the threshold of the form")
    return Step("half_rejected", _APP, "At that q half of the experiments reject",
                r"P(Z > Z_{\alpha/2}) = 50\%", "enumeration", result, ok, evidence=ev, form=claim)


def appendix_x_plus_y(*, form=None, size=40, test_size=0.5, alpha=0.05):
    """"So, replicability is X/2 + Y/2": X (Y) is the probability of repeating a rejection (an acceptance).

    Exact enumeration of the model at the Appendix's ``q`` on ``size`` instances:
    ``P(same) = P(R1) X + P(A1) Y`` exactly, and ``X/2 + Y/2`` equals it when ``P(R1) = 1/2``;
    with ``P(R1)`` of the finite case the difference is ``(P(R1) - 1/2)(X - Y)``. ``form`` is a
    function ``(X, Y, P(R1)) -> replicability``.

    Examples
    --------
    >>> appendix_x_plus_y(size=20).holds, appendix_x_plus_y(form=lambda x, y, pr: x * y, size=20).holds
    (True, False)
    """
    z = _z(alpha)
    claim = (lambda x, y, pr: x / 2 + y / 2) if form is None else form
    joint, n = two_experiments_exact(size, 0.5 + z / (2 * np.sqrt(_test_count(size, test_size))), test_size)
    zs = (2 * np.arange(n + 1) - n) / np.sqrt(n)
    rej = np.abs(zs) > z
    pr = float(joint[rej].sum())
    x = float(joint[np.ix_(rej, rej)].sum()) / pr
    y = float(joint[np.ix_(~rej, ~rej)].sum()) / (1 - pr)
    same = float(joint[np.ix_(rej, rej)].sum() + joint[np.ix_(~rej, ~rej)].sum())
    total_law = pr * x + (1 - pr) * y
    ok = bool(abs(same - total_law) < 1e-12 and abs(claim(x, y, 0.5) - 0.5 * (x + y)) < 1e-12
              and abs(claim(x, y, pr) - same) <= abs((pr - 0.5) * (x - y)) + 1e-12)
    result = (f"exact enumeration, {size} instances, t = {test_size}: P(R1) = {pr:.4f}, X = {x:.4f}, Y = {y:.4f}; "
              f"P(same) = {same:.4f} = P(R1) X + P(A1) Y; X/2 + Y/2 = {0.5 * (x + y):.4f}, off by "
              f"(P(R1) - 1/2)(X - Y) = {(pr - 0.5) * (x - y):+.4f}")
    return Step("x_plus_y", _APP, "Replicability is the average of the two conditional agreements",
                r"\text{replicability} = \tfrac12 X + \tfrac12 Y", "enumeration", result, ok, form=claim)


def appendix_rejected_typo(*, form=None, n=1000, alpha=0.05):
    """"If in the first experiment the null hypothesis is accepted, the expected number of '+'s is E(x | T > Z)".

    The condition ``T > Z`` is a rejection: ``E(x | x > nq) > nq`` while ``E(x | x <= nq) < nq``
    (exact binomial). ``form`` is the asserted sign of ``E(x | T > Z) - nq`` for an acceptance (-1).

    Examples
    --------
    >>> st = appendix_rejected_typo()
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    z = _z(alpha)
    claim = -1 if form is None else int(form)
    q = 0.5 + z / (2 * np.sqrt(n))
    x = np.arange(n + 1)
    pm = stats.binom.pmf(x, n, q)
    up = x > n * q
    above = float((pm * x)[up].sum() / pm[up].sum() - n * q)
    below = float((pm * x)[~up].sum() / pm[~up].sum() - n * q)
    ok_p = bool(np.sign(above) == claim)
    ok_c = bool(above > 0 > below)
    result = (f"exact binomial, n = {n}: E(x | T > Z) - nq = {above:+.2f} (a rejection), E(x | T <= Z) - nq = "
              f"{below:+.2f} (an acceptance)")
    return Step("rejected_typo", _APP, "The branch computed first is the rejection",
                r"\text{If in the first experiment the null hypothesis is accepted}\ldots E(x \mid T > Z_{\alpha/2})",
                "enumeration", result, ok_p, corrected=r"\text{If \ldots is rejected}\ldots E(x \mid T > Z_{\alpha/2})",
                corrected_holds=ok_c, form=claim, known=True)


def appendix_conditional_mean(*, form=None, n_values=(100, 1_000, 10_000, 100_000), alpha=0.05):
    """``E(x | T > Z) ≈ int_{Z}^{inf} x N(nq, sigma)/(1/2) dx = ... = qn + 2 sigma/sqrt(2 pi)``.

    The integral's lower limit must be ``nq`` (the threshold on the count scale of ``x``),
    as the next member's substitution ``x -> x + nq`` with lower limit 0 assumes. Symbolic
    integral with either limit; exact binomial conditional mean for ``n`` in ``n_values``.
    ``form`` is the asserted value (in ``n``, ``q``, ``sigma``).

    Examples
    --------
    >>> st = appendix_conditional_mean(n_values=(1000,))
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    sp = _sp()
    x = sp.Symbol("x", real=True)
    n, q, s, zz = sp.symbols("n q sigma Z", positive=True)
    claim = q * n + 2 * s / sp.sqrt(2 * sp.pi) if form is None else sp.sympify(
        form, locals={"n": n, "q": q, "sigma": s})
    density = sp.exp(-(x - n * q) ** 2 / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)
    corrected = sp.simplify(sp.integrate(x * density, (x, n * q, sp.oo)) / sp.Rational(1, 2))
    ok_c, _ = identity(corrected, claim)
    printed = sp.integrate(x * density, (x, zz, sp.oo)) / sp.Rational(1, 2)
    pt = {n: 1000, q: sp.Rational(11, 20), s: sp.sqrt(sp.Rational(1000 * 11 * 9, 400)), zz: sp.Rational(196, 100)}
    gap = float(sp.N((printed - claim).subs(pt)))
    rows = []
    zt = _z(alpha)
    for nn in n_values:
        qq = 0.5 + zt / (2 * np.sqrt(nn))
        xs = np.arange(nn + 1)
        pm = stats.binom.pmf(xs, nn, qq)
        up = xs > nn * qq
        sd = np.sqrt(nn * qq * (1 - qq))
        rows.append({"n": nn, "exact E(x | T > Z) - nq": float((pm * xs)[up].sum() / pm[up].sum() - nn * qq),
                     "2 sigma / sqrt(2 pi)": float(2 * sd / np.sqrt(2 * np.pi))})
    ev = pd.DataFrame(rows)
    ev["ratio"] = ev.iloc[:, 1] / ev.iloc[:, 2]
    ok_enum = bool(np.all(np.abs(ev["ratio"] - 1) <= 1 / np.sqrt(ev["n"])))  # the binomial's O(1/sqrt(n))
    result = (f"int_(nq)^inf x N(nq, sigma) dx / (1/2) = {corrected} (sympy) = form: {_yes(ok_c)}; with the printed "
              f"lower limit Z_(alpha/2) the integral differs (by {gap:.1f} at n = 1000); exact binomial: ratio to "
              "2 sigma/sqrt(2 pi) " + ", ".join(f"{r.ratio:.3f} (n = {r.n})" for r in ev.itertuples()) +
              f", within 1/sqrt(n) of 1: {_yes(ok_enum)}")
    return Step("conditional_mean", _APP, "The mean '+' count after a rejection",
                r"E(x \mid T > Z_{\alpha/2}) \approx \int_{Z_{\alpha/2}}^\infty x\cdot N(n\cdot q,\sigma)/(1/2)\,dx = "
                r"q\cdot n + \frac{2\sigma}{\sqrt{2\pi}}", "sympy + enumeration", result, False,
                corrected=r"E(x \mid T > Z_{\alpha/2}) \approx \int_{n\cdot q}^\infty x\cdot N(n\cdot q,\sigma)"
                r"/(1/2)\,dx"
                r" = q\cdot n + \frac{2\sigma}{\sqrt{2\pi}}", corrected_holds=bool(ok_c and ok_enum), evidence=ev,
                form=claim)


def appendix_sigma_binomial(*, form=None):
    """``sigma^2 = n q (1 - q)``: the variance of the binomial '+' count (generating function, symbolic n).

    Examples
    --------
    >>> appendix_sigma_binomial().holds, appendix_sigma_binomial(form="n*q").holds
    (True, False)
    """
    sp = _sp()
    n, q, s = sp.symbols("n q s", positive=True)
    claim = n * q * (1 - q) if form is None else sp.sympify(form, locals={"n": n, "q": q})
    mgf = (1 - q + q * sp.exp(s)) ** n
    m1, m2 = (sp.simplify(sp.diff(mgf, s, k).subs(s, 0)) for k in (1, 2))
    ok, _ = identity(m2 - m1**2, claim)
    return Step("sigma_binomial", _APP, "The variance of the '+' count", r"\sigma^2 = n\cdot q(1-q)", "sympy",
                f"E X^2 - (E X)^2 from (1 - q + q e^s)^n, symbolic n: {sp.factor(m2 - m1**2)} = form: {_yes(ok)}",
                ok, form=claim)


def appendix_p_prime(*, form=None, size=1000, test_size=0.1):
    """``p' = (1-t) q + t (q + 2 sqrt(q(1-q))/sqrt(2 pi n))``: the '+' rate of the second test set.

    A share ``t`` of it is shared (the mean overlap of two random test sets of ``n = tN``
    out of ``N`` is ``n^2/N = tn``, exact), at the first test set's rate
    ``q + 2 sqrt(nq(1-q))/(n sqrt(2 pi))``. ``form`` is the asserted ``p'`` (in ``t``, ``q``, ``n``).

    Examples
    --------
    >>> appendix_p_prime().holds, appendix_p_prime(form="q + t*sqrt(q*(1-q))/sqrt(n)").holds
    (True, False)
    """
    sp = _sp()
    t, q, n = sp.symbols("t q n", positive=True)
    claim = ((1 - t) * q + t * (q + 2 * sp.sqrt(q * (1 - q)) / sp.sqrt(2 * sp.pi * n)) if form is None
             else sp.sympify(form, locals={"t": t, "q": q, "n": n}))
    rate = q * n / n + 2 * sp.sqrt(n * q * (1 - q)) / (n * sp.sqrt(2 * sp.pi))
    ok, _ = identity(t * rate + (1 - t) * q, claim)
    m = _test_count(size, test_size)
    overlap = float(stats.hypergeom.mean(size, m, m))
    ok_o = bool(np.isclose(overlap, test_size * m, rtol=1e-12))
    return Step("p_prime_appendix", _APP, "The '+' rate of the second test set",
                r"p' = (1-t)q + t\Big(q + \frac{2\sqrt{q(1-q)}}{\sqrt{2\pi n}}\Big)", "sympy + enumeration",
                f"t x (rate of D_t1) + (1 - t) q = form (sympy): {_yes(ok)}; mean overlap of two test sets of {m} out "
                f"of {size} = {overlap:.1f} = t n: {_yes(ok_o)}", bool(ok and ok_o), form=claim)


def appendix_t_prime(*, form=None):
    """``P(T' > Z) = P((np' - n/2)/sqrt(n/2) > Z)``: the printed scale ``sqrt(n/2)`` is not the sd of ``#+``.

    Under H0 ``#+`` has standard deviation ``sqrt(n/4)`` (as the Appendix's first line and the
    next member's ``N(np', sqrt(n)/2)`` use); with ``sqrt(n/2)`` the rule ``T' > Z`` would reject
    at ``#+ > n/2 + Z sqrt(n/2)``, not at ``nq``. ``form`` is the asserted denominator (in ``n``).

    Examples
    --------
    >>> st = appendix_t_prime()
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    sp = _sp()
    n, zz, x = sp.symbols("n Z x", positive=True)
    den = sp.sqrt(n / 2) if form is None else sp.sympify(form, locals={"n": n})
    q = sp.Rational(1, 2) + zz / (2 * sp.sqrt(n))
    cut = sp.solve(sp.Eq((x - n / 2) / den, zz), x)
    ok_p = len(cut) == 1 and identity(cut[0], n * q)[0]
    cut_c = sp.solve(sp.Eq((x - n / 2) / sp.sqrt(n / 4), zz), x)
    ok_c = len(cut_c) == 1 and identity(cut_c[0], n * q)[0]
    result = (f"the rule rejects above #+ = {cut} (printed) and {cut_c} (with sqrt(n/4)); the derivation integrates "
              f"from nq = {sp.expand(n * q)}: printed {_yes(ok_p)}, corrected {_yes(ok_c)}")
    return Step("t_prime", _APP, "The second experiment's rejection rule",
                r"P(T' > Z_{\alpha/2}) = P\Big(\frac{np' - n/2}{\sqrt{\frac12 n}} > Z_{\alpha/2}\Big)", "sympy", result,
                bool(ok_p), corrected=r"P\Big(\frac{X' - n/2}{\sqrt{\frac14 n}} > Z_{\alpha/2}\Big) = P(X' > nq),\ "
                r"X' \sim \mathrm{Bin}(n, p')", corrected_holds=bool(ok_c), form=den)


def appendix_split_integral(*, form=None):
    """``int_{nq}^inf N(np', s) = int_{nq}^{np'} N(np', s) + int_{np'}^inf N(np', s) = int_0^{n(p'-q)} N(0, s) + 1/2``.

    Symbolic with the normal density (``s = sqrt(n)/2``, any ``p' > q``). ``form`` is the
    asserted value of the upper half (default 1/2).

    Examples
    --------
    >>> appendix_split_integral().holds, appendix_split_integral(form="1/4").holds
    (True, False)
    """
    sp = _sp()
    x = sp.Symbol("x", real=True)
    mu, lo, s, d = sp.symbols("mu lo s d", positive=True)
    claim = sp.Rational(1, 2) if form is None else sp.sympify(form)

    def pdf(c):
        return sp.exp(-(x - c) ** 2 / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)

    upper = sp.integrate(pdf(mu), (x, mu, sp.oo))
    lower = sp.integrate(pdf(mu).subs(mu, lo + d), (x, lo, lo + d))
    shifted = sp.integrate(pdf(0), (x, 0, d))
    ok_u, _ = identity(upper, claim)
    ok_l, _ = identity(lower, shifted)
    ok = bool(ok_u and ok_l)
    return Step("split_integral", _APP, "The probability of a second rejection split at the mean",
                r"\int_{nq}^\infty N(np', \tfrac12\sqrt n)\,dx = \int_0^{n(p'-q)} N(0, \tfrac12\sqrt n)\,dx + \tfrac12",
                "sympy", f"upper half = form: {_yes(ok_u)}; the lower part shifted by np' - the width d = n(p' - q): "
                f"{_yes(ok_l)}", ok, form=claim)


def appendix_upper_limit(*, form=None):
    """``n t 2 sqrt(q(1-q))/sqrt(2 pi n) = t sqrt(2 n q(1-q))/sqrt(pi)`` (algebra).

    Examples
    --------
    >>> appendix_upper_limit().holds, appendix_upper_limit(form="t*sqrt(n*q*(1-q))/sqrt(pi)").holds
    (True, False)
    """
    sp = _sp()
    n, t, q = sp.symbols("n t q", positive=True)
    claim = t * sp.sqrt(2 * n * q * (1 - q)) / sp.sqrt(sp.pi) if form is None else sp.sympify(
        form, locals={"n": n, "t": t, "q": q})
    ok, _ = identity(n * t * 2 * sp.sqrt(q * (1 - q)) / sp.sqrt(2 * sp.pi * n), claim)
    return Step("upper_limit", _APP, "The integral's upper limit simplified",
                r"n\cdot t\frac{2\sqrt{q(1-q)}}{\sqrt{2\pi n}} = t\frac{\sqrt{2n\cdot q(1-q)}}{\sqrt\pi}", "sympy",
                f"the algebra (sympy, q < 1): {_yes(ok)}", ok, form=claim)


def appendix_q_product(*, form=None):
    """``q(1 - q) = (1/2 + Z/(2 sqrt(pi)))(1/2 - Z/(2 sqrt(pi))) = 1/4 - Z^2/(4n)``: ``sqrt(pi)`` for ``sqrt(n)``.

    ``form`` replaces the printed ``q`` (in ``Z``, ``n``).

    Examples
    --------
    >>> st = appendix_q_product()
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    sp = _sp()
    zz, n = sp.symbols("Z n", positive=True)
    half = sp.Rational(1, 2)
    q = half + zz / (2 * sp.sqrt(sp.pi)) if form is None else sp.sympify(form, locals={"Z": zz, "n": n})
    target = sp.Rational(1, 4) - zz**2 / (4 * n)
    ok_p, gap = identity(q * (1 - q), target, {zz: sp.Rational(196, 100), n: 1000})
    qc = half + zz / (2 * sp.sqrt(n))
    ok_c, _ = identity(qc * (1 - qc), target)
    return Step("q_product", _APP, "q(1 - q) at the threshold q",
                r"\big(\tfrac12 + \tfrac{1}{2\sqrt\pi}Z_{\alpha/2}\big)\big(\tfrac12 - \tfrac{1}{2\sqrt\pi}Z_{\alpha/2}"
                r"\big) = \tfrac14 - \tfrac{1}{4n}Z_{\alpha/2}^2", "sympy",
                f"printed q: {_yes(ok_p)} (difference {gap:.4f} at Z = 1.96, n = 1000); q = 1/2 + Z/(2 sqrt(n)): "
                f"{_yes(ok_c)}", ok_p, corrected=r"\big(\tfrac12 + \tfrac{1}{2\sqrt n}Z_{\alpha/2}\big)\big(\tfrac12 - "
                r"\tfrac{1}{2\sqrt n}Z_{\alpha/2}\big) = \tfrac14 - \tfrac{1}{4n}Z_{\alpha/2}^2", corrected_holds=ok_c,
                form=q, known=True)


def appendix_drop_term(*, form=None, alpha=0.05, n_values=(1_000, 20_000)):
    """``t sqrt(2n(1/4 - Z^2/(4n)))/sqrt(pi) ≈ t sqrt(n/2)/sqrt(pi) = t sqrt(n)/sqrt(2 pi)``: the ratio tends to 1.

    ``form`` is the asserted approximation (in ``t``, ``n``).

    Examples
    --------
    >>> appendix_drop_term().holds, appendix_drop_term(form="t*sqrt(n)/sqrt(pi)").holds
    (True, False)
    """
    sp = _sp()
    t, n, zz = sp.symbols("t n Z", positive=True)
    claim = t * sp.sqrt(n) / sp.sqrt(2 * sp.pi) if form is None else sp.sympify(form, locals={"t": t, "n": n})
    exact = t * sp.sqrt(2 * n * (sp.Rational(1, 4) - zz**2 / (4 * n))) / sp.sqrt(sp.pi)
    lim = sp.limit(exact / claim, n, sp.oo)
    middle, _ = identity(t * sp.sqrt(n / 2) / sp.sqrt(sp.pi), t * sp.sqrt(n) / sp.sqrt(2 * sp.pi))
    z = _z(alpha)
    rel = [float(1 - sp.N((exact / claim).subs({n: k, zz: z, t: sp.Rational(1, 10)}))) for k in n_values]
    ok = bool(lim == 1 and middle)
    result = (f"ratio exact / form tends to {lim} as n grows; t sqrt(n/2)/sqrt(pi) = t sqrt(n)/sqrt(2 pi): "
              f"{_yes(middle)}; relative error at Z = {z:.2f}: " + ", ".join(
                  f"{e:.1e} (n = {k})" for e, k in zip(rel, n_values)))
    return Step("drop_term", _APP, "Dropping Z²/(4n)", r"t\frac{\sqrt{2n(\frac14 - \frac{1}{4n}Z_{\alpha/2}^2)}}"
                r"{\sqrt\pi} \approx t\frac{\sqrt{n\cdot\frac12}}{\sqrt\pi} = t\frac{\sqrt n}{\sqrt{2\pi}}", "sympy",
                result, ok, form=claim)


def appendix_rescale(*, form=None):
    """``int_0^{t sqrt(n)/sqrt(2 pi)} N(0, sqrt(n)/2) dx = int_0^{t/sqrt(2 pi)} N(0, 1/2) dx``: free of n.

    Symbolic with the normal density (second argument a standard deviation); both equal
    ``Phi(t sqrt(2/pi)) - 1/2``. ``form`` is the asserted value (in ``t``).

    Examples
    --------
    >>> appendix_rescale().holds, appendix_rescale(form="t/pi").holds
    (True, False)
    """
    sp = _sp()
    x = sp.Symbol("x", real=True)
    t, n = sp.symbols("t n", positive=True)

    def pdf(s):
        return sp.exp(-x**2 / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)

    big = sp.integrate(pdf(sp.sqrt(n) / 2), (x, 0, t * sp.sqrt(n) / sp.sqrt(2 * sp.pi)))
    small = sp.integrate(pdf(sp.Rational(1, 2)), (x, 0, t / sp.sqrt(2 * sp.pi)))
    claim = small if form is None else sp.sympify(form, locals={"t": t})
    ok_n, _ = identity(big, small)
    ok, _ = identity(big, claim)
    phi_form, _ = identity(small, (1 + sp.erf(t * sp.sqrt(2 / sp.pi) / sp.sqrt(2))) / 2 - sp.Rational(1, 2))
    return Step("rescale", _APP, "The data set size cancels",
                r"\int_0^{t\frac{\sqrt n}{\sqrt{2\pi}}} N(0,\tfrac12\sqrt n)\,dx + \tfrac12 = "
                r"\int_0^{t\frac{1}{\sqrt{2\pi}}} N(0,\tfrac12)\,dx + \tfrac12", "sympy",
                f"both integrals equal (sympy, any n): {_yes(ok_n)}; = form: {_yes(ok)}; = Phi(t sqrt(2/pi)) - 1/2: "
                f"{_yes(phi_form)}", bool(ok and phi_form), form=claim)


def appendix_other_branch(*, form=None):
    """"The situation where the first experiment rejected the null hypothesis follows a similar line of reasoning".

    The branch derived above is the rejection (see :func:`appendix_rejected_typo`); the other one is
    the acceptance. Reflecting ``x -> 2nq - x`` maps one onto the other: after an acceptance
    ``E(x | x < nq) = nq - 2 sigma/sqrt(2 pi)`` and the second experiment accepts with the same
    probability (symbolic). ``form`` is the asserted acceptance-branch conditional mean.

    Examples
    --------
    >>> st = appendix_other_branch()
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    sp = _sp()
    x = sp.Symbol("x", real=True)
    n, q, s, d = sp.symbols("n q sigma d", positive=True)
    claim = q * n - 2 * s / sp.sqrt(2 * sp.pi) if form is None else sp.sympify(form, locals={
        "n": n, "q": q, "sigma": s})
    density = sp.exp(-(x - n * q) ** 2 / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)
    mean_acc = sp.simplify(sp.integrate(x * density, (x, -sp.oo, n * q)) / sp.Rational(1, 2))
    ok_m, _ = identity(mean_acc, claim)
    # the second experiment's statistic centred d below (accept branch) or above (reject branch) the threshold
    pdf = sp.exp(-x**2 / (2 * s**2)) / sp.sqrt(2 * sp.pi * s**2)
    p_acc = sp.integrate(pdf, (x, -sp.oo, d))
    p_rej = sp.integrate(pdf, (x, -d, sp.oo))
    ok_p, _ = identity(p_acc, p_rej)
    ok = bool(ok_m and ok_p)
    return Step("other_branch", _APP, "The acceptance branch follows by symmetry",
                r"\text{The situation where the first experiment rejected } H_0 \text{ follows a similar line}",
                "sympy", f"E(x | x < nq) = {mean_acc} = form: {_yes(ok_m)}; P(accept2 | accept1) = "
                f"P(reject2 | reject1) by reflection: {_yes(ok_p)}. The branch left to the reader is the acceptance "
                "(the first paragraph's 'accepted' and this 'rejected' are swapped)", False,
                corrected=r"\text{The situation where the first experiment accepted } H_0"
                r" \text{ follows a similar line}",
                corrected_holds=ok, form=claim)


def appendix_worst_case(*, form=None, table=None, alpha=0.05, n_sim=200_000, seed=2005):
    """The Appendix's result: ``P(T' > Z | T > Z) ≈ Phi(t sqrt(2/pi))``, which "does not contain the data set size n".

    Simulated at the paper's sizes at the Appendix's ``q`` (``table``: :func:`two_experiments_table`
    with ``q="threshold"``). The normal model with correlation ``t`` gives the exact
    large-sample value ``1/2 + arcsin(t)/pi`` (free of ``n``), of which ``Phi(t sqrt(2/pi))`` is the
    first-order approximation (both ``1/2 + t/pi + O(t^3)``). Judged: every cell within ``z_m``
    standard errors of the normal model with McNemar's exact rejection rates (the finite-``n``
    discreteness), and at the largest ``N`` within ``z_m`` SE plus the approximation's own error
    of ``form`` (a function of ``t``, default ``Phi(t sqrt(2/pi))``).

    Examples
    --------
    >>> tab = two_experiments_table("threshold", sizes=(20_000, 200_000), test_sizes=(0.1,), n_sim=20_000)
    >>> appendix_worst_case(table=tab).holds
    True
    """
    table = (two_experiments_table("threshold", alpha=alpha, n_sim=n_sim, seed=seed) if table is None else table)
    claim = (lambda t: float(stats.norm.cdf(t * np.sqrt(2 / np.pi)))) if form is None else form
    ev = _pick(table, "P(up2 | up1)")
    ev["Appendix"] = [claim(t) for t in ev["t"]]
    ev["1/2 + arcsin(t)/pi"] = 0.5 + np.arcsin(ev["t"]) / np.pi
    # the allowance is the printed approximation's own error, whatever form is judged
    approx = np.abs(stats.norm.cdf(ev["t"] * np.sqrt(2 / np.pi)) - ev["1/2 + arcsin(t)/pi"])
    largest = ev["N"] == ev["N"].max()
    model_ok = _within(ev["simulated"], ev["calibrated model"], ev["SE"])
    zm = se_multiple(int(largest.sum()))
    near = bool(np.all(np.abs(ev["simulated"] - ev["Appendix"])[largest]
                       <= zm * ev["SE"][largest] + approx[largest] + 1e-12))
    spread = ev.groupby("t")["simulated"].agg(lambda v: v.max() - v.min())
    spread_model = ev.groupby("t")["calibrated model"].agg(lambda v: v.max() - v.min())
    ok = bool(model_ok and near)
    result = ("simulated P(T' > Z | T > Z) at q = 1/2 + Z/(2 sqrt(n)), spread over N per t: " + "; ".join(
        f"t = {t}: {spread[t]:.4f} (model with exact rates {spread_model[t]:.4f})" for t in spread.index) +
        f"; every cell within z_m SE of {_CALIBRATED}: {_yes(model_ok)}; at the largest N within z_m SE plus the "
        f"approximation's error (at most {approx.max():.4f}) of Phi(t sqrt(2/pi)): {_yes(near)}")
    st = Step("worst_case", _APP, "Worst-case replicability does not depend on the data set size",
              r"P(T' > Z_{\alpha/2} \mid T > Z_{\alpha/2}) \approx \int_0^{t\frac{1}{\sqrt{2\pi}}} N(0,\tfrac12)\,dx"
              r" + \tfrac12 = \Phi\big(t\sqrt{2/\pi}\big)", "simulation", result, ok, evidence=ev, form=claim)
    st.simulated = (ev["simulated"].to_numpy(), ev["calibrated model"].to_numpy(), ev["SE"].to_numpy(), _CALIBRATED)
    return st


#: The steps in the paper's order.
DERIVATION_2005_STEPS = (
    "section3_bound_independent", "section3_bound_is_lower", "section3_z_rewrite", "section3_z_sign",
    "section3_t_square", "section3_two_sided", "section3_accept_mean", "section3_accept_accept", "section3_tail_mean",
    "section3_tail_approximation", "section3_surplus_scale", "section3_p_prime", "section3_m_prime",
    "section3_sigma_prime", "section3_reject_reject", "section3_total", "section3_decreases_with_n",
    "appendix_q_threshold", "appendix_half_rejected", "appendix_x_plus_y", "appendix_rejected_typo",
    "appendix_conditional_mean", "appendix_sigma_binomial", "appendix_p_prime", "appendix_t_prime",
    "appendix_split_integral", "appendix_upper_limit", "appendix_q_product", "appendix_drop_term", "appendix_rescale",
    "appendix_other_branch", "appendix_worst_case",
)


def appendix_derivation(*, seed=2005, alpha=0.05, sizes=APPENDIX_SIZES["sizes"],
                        test_sizes=APPENDIX_SIZES["test_sizes"], n_sim=400_000, n_sim_worst=200_000, exact_size=40):
    """Every step of Section 3 and the Appendix of Bouckaert (2005), checked, in the paper's order.

    Parameters
    ----------
    seed : int
        Root seed; each simulated cell draws from ``default_rng([seed, size, j])``.
    alpha : float
    sizes, test_sizes : sequence
        Data set sizes ``N`` and test fractions ``t`` simulated (the paper's range).
    n_sim, n_sim_worst : int
        Simulated data sets per cell under H0 and at the worst case.
    exact_size : int
        Instances of the data set enumerated exactly.

    Returns
    -------
    Derivation

    Examples
    --------
    >>> d = appendix_derivation(sizes=(1000, 10000), test_sizes=(0.5,), n_sim=20_000, n_sim_worst=20_000,
    ...                         exact_size=16)
    >>> d.counts()["n_steps"], d["z_rewrite"].outcome, d["rescale"].outcome
    (32, 'erratum', 'confirmed')
    """
    alpha = check_alpha(alpha)
    exact_size = check_positive_int(exact_size, "exact_size", minimum=4)
    h0 = two_experiments_table(0.5, sizes=sizes, test_sizes=test_sizes, alpha=alpha, n_sim=n_sim, seed=seed)
    worst = two_experiments_table("threshold", sizes=sizes, test_sizes=test_sizes, alpha=alpha, n_sim=n_sim_worst,
                                  seed=seed + 1)
    t_max = max(test_sizes)
    steps = [
        section3_bound_independent(alpha=alpha), section3_bound_is_lower(), section3_z_rewrite(), section3_z_sign(),
        section3_t_square(), section3_two_sided(alpha=alpha), section3_accept_mean(),
        section3_accept_accept(table=h0, alpha=alpha, exact_size=exact_size, exact_test_size=t_max, n_sim=n_sim,
                               seed=seed),
        section3_tail_mean(alpha=alpha), section3_tail_approximation(alpha=alpha),
        section3_surplus_scale(table_sizes=sizes, test_size=min(test_sizes), alpha=alpha, n_sim=n_sim, seed=seed),
        section3_p_prime(), section3_m_prime(), section3_sigma_prime(), section3_reject_reject(table=h0, alpha=alpha),
        section3_total(), section3_decreases_with_n(table=h0, alpha=alpha), appendix_q_threshold(),
        appendix_half_rejected(alpha=alpha), appendix_x_plus_y(size=exact_size, test_size=t_max, alpha=alpha),
        appendix_rejected_typo(alpha=alpha), appendix_conditional_mean(alpha=alpha), appendix_sigma_binomial(),
        appendix_p_prime(), appendix_t_prime(), appendix_split_integral(), appendix_upper_limit(),
        appendix_q_product(), appendix_drop_term(alpha=alpha), appendix_rescale(), appendix_other_branch(),
        appendix_worst_case(table=worst, alpha=alpha),
    ]
    values = {"alpha": alpha, "n_sim": n_sim, "n_sim_worst": n_sim_worst, "exact_size": exact_size,
              "sizes": ", ".join(f"{s:,}" for s in sizes),
              "test_sizes": ", ".join(f"{t:.2f}" for t in test_sizes)}
    return Derivation("bouckaert2005", "05_appendix_derivation", steps, values, data={"h0": h0, "worst": worst})
