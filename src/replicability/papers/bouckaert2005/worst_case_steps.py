"""The Appendix of Bouckaert (2005) step by step: worst-case replicability of McNemar's test.

Each function checks one displayed step and returns a :class:`~replicability.report.steps.Step`:
algebra and integrals with ``sympy``; probability statements by exact enumeration of the
model of :mod:`~replicability.papers.bouckaert2005.overlap` on a small data set and by simulation at the
paper's sizes. Every function takes ``form``, the expression the step asserts (default: as printed), so that
another one can be checked.

The paper: Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from ...report.claims import se_multiple
from ...report.steps import Step, identity
from .overlap import (
    _CALIBRATED,
    _pick,
    _sp,
    _test_count,
    _within,
    _yes,
    _z,
    two_experiments_exact,
    two_experiments_table,
)

__all__ = [
    "appendix_conditional_mean", "appendix_drop_term", "appendix_half_rejected", "appendix_other_branch",
    "appendix_p_prime", "appendix_q_product", "appendix_q_threshold", "appendix_rejected_typo", "appendix_rescale",
    "appendix_sigma_binomial", "appendix_split_integral", "appendix_t_prime", "appendix_upper_limit",
    "appendix_worst_case", "appendix_x_plus_y",
]

_APP = "Appendix"


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

    Simulated at the paper's sizes at the Appendix's ``q`` (``table``:
    :func:`~replicability.papers.bouckaert2005.overlap.two_experiments_table` with ``q="threshold"``). The normal
    model with correlation ``t`` gives the exact large-sample value ``1/2 + arcsin(t)/pi`` (free of ``n``), of
    which ``Phi(t sqrt(2/pi))`` is the
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
