"""Section 3 of Bouckaert (2005) step by step: the lower bound on Type I replicability and McNemar's statistic.

Each function checks one displayed step and returns a :class:`~replicability.report.steps.Step`
(printed form, correction, method, result): algebra with ``sympy``, the lower bound by an
exhaustive grid over the stated range, the rejection rule by an exact computation. Every
function takes ``form``, the expression the step asserts (default: as printed), so that
another one can be checked. :func:`~replicability.papers.bouckaert2005.derivation.appendix_derivation`
runs them in the paper's order.

The paper: Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ...report.steps import Step, identity
from .overlap import _sp, _yes, _z, normal_pair

__all__ = [
    "section3_bound_independent", "section3_bound_is_lower", "section3_t_square", "section3_two_sided",
    "section3_z_rewrite", "section3_z_sign",
]

_S3 = "Section 3"


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
