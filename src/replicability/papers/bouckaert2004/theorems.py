"""Section 3 of Bouckaert (2004), step by step: Theorem 3.1 (the variance of R̂2) and Theorem 3.2 (its optimality).

Each function below checks one displayed step of the two theorems and their proofs and
returns a :class:`~replicability.report.steps.Step` (as :mod:`.lemmas` does): symbolic
algebra with ``sympy``, exact enumeration of every outcome vector of up to
``max_enumerated`` runs, simulation at the paper's sizes (10 runs, Section 4; up to 28,
Figure 2), and inequalities symbolically over the stated range. Every function takes
``form``, the expression the step asserts (default: as printed); a wrong expression is
rejected. Notation: :mod:`._notation`.

The paper: Bouckaert, R. R. (2004). Estimating replicability of classifier learning
experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from ..._validation import as_generator
from ...report.steps import Step, identity
from ...stats.enumeration import enumerate_outcomes, exact_moments, outcome_probabilities, simulate_outcomes
from ...stats.estimators import (
    linear_estimator_variance,
    minimum_variance_weights,
    probabilities_from_replicability,
)
from ...stats.measures import r2_variance, replicability_r2
from ._notation import _WHERE, CHECK_R, _expect, _pairs, _r_of_p, _rk, _symbols, _tiny, _weights, _yes

__all__ = ["theorem31_p", "theorem31_unbiased", "theorem31_variance", "theorem31_variance_order",
           "theorem32_case_disjoint", "theorem32_case_shared", "theorem32_derivative", "theorem32_gradient",
           "theorem32_minimum", "theorem32_stationary", "theorem32_variance"]


# --------------------------------------------------------------------------- #
# R̂2: Theorem 3.1
# --------------------------------------------------------------------------- #
def theorem31_p(*, form=None):
    """``p = 1/2 + (1/2) sqrt(2r - 1)`` solves ``r = p^2 + (1-p)^2`` (Theorem 3.1, Lemma 3.3's proof).

    Both roots ``1/2 ± sqrt(2r - 1)/2`` solve it and ``F(p, x) = p^x + (1-p)^x`` is symmetric
    in ``p <-> 1 - p``, so the root does not matter. ``form`` is the asserted ``p(r)``.

    Examples
    --------
    >>> theorem31_p().holds, theorem31_p(form="1/2 + sqrt(2*r - 1)").holds
    (True, False)
    """
    S = _symbols()
    sp, p, r = S["sp"], S["p"], S["r"]
    half = sp.Rational(1, 2)
    claim = half + half * sp.sqrt(2 * r - 1) if form is None else sp.sympify(form, locals={"r": r})
    ok, gap = identity(_r_of_p(S).subs(p, claim), r)
    roots = sp.solve(sp.Eq(p**2 + (1 - p) ** 2, r), p)
    symmetric = all(identity(p**x + (1 - p) ** x, (1 - p) ** x + p**x)[0] for x in (2, 3, 4))
    result = (f"p^2 + (1-p)^2 at p = form equals r: {_yes(ok)}; sympy.solve gives the roots {roots}; F(p, x) "
              f"symmetric in p <-> 1-p: {_yes(symmetric)}")
    return Step("theorem31_p", _WHERE["T31"] + "; Lemma 3.3, proof", "The probability of accepting from r",
                r"r = p\cdot p + (1-p)\cdot(1-p) \;\Rightarrow\; p = \tfrac12 \pm \tfrac12\sqrt{2r-1}", "sympy",
                result, bool(ok and symmetric), form=claim)


def theorem31_unbiased(*, form=None, max_enumerated=12, check_r=CHECK_R):
    """``E(R̂2) = r``: ``C(n,2)`` pairs each agreeing with probability ``r``, weights ``1/C(n,2)``; enumeration.

    Examples
    --------
    >>> theorem31_unbiased(max_enumerated=6).holds, theorem31_unbiased(form="r**2", max_enumerated=6).holds
    (True, False)
    """
    S = _symbols()
    sp, r, n = S["sp"], S["r"], S["n"]
    claim = r if form is None else sp.sympify(form, locals={"r": r, "n": n})
    ok_sym, _ = identity((n * (n - 1) / 2) * r / (n * (n - 1) / 2), claim)
    f = sp.lambdify((r, n), claim, "numpy")
    rows = []
    for nn in range(2, max_enumerated + 1):
        e = enumerate_outcomes(nn)
        prob = outcome_probabilities(e, probabilities_from_replicability(np.asarray(check_r)))
        exact = exact_moments(replicability_r2(e), prob).mean
        rows.append({"n": nn, "max |exact E R̂2 - form|": float(np.abs(exact - f(np.asarray(check_r), nn)).max())})
    ev = pd.DataFrame(rows)
    ok = bool(ok_sym and (ev.iloc[:, 1] < 1e-12).all())
    result = (f"C(n,2) r / C(n,2) = form (sympy): {_yes(ok_sym)}; exact enumeration n = 2 ... {max_enumerated}: "
              f"max |difference| {_tiny(ev.iloc[:, 1].max())}")
    return Step("theorem31_unbiased", _WHERE["T31"], "R̂2 is unbiased", r"E(\hat R_2) = r", "sympy + enumeration",
                result, ok, evidence=ev, form=claim)


def _theorem31_forms(S, literal):
    p, n = S["p"], S["n"]

    def F(x):
        return p**x + (1 - p) ** x

    head = 2 * (n - 2) * (n - 3) * F(4) + (4 - 2 * (n - 3)) * (n - 2) * F(3)
    if literal:
        return (head + (n - 2) * (n - 3) + 2) * F(2) / (n * (n - 1)) - F(2) ** 2
    return (head + ((n - 2) * (n - 3) + 2) * F(2)) / (n * (n - 1)) - F(2) ** 2


def theorem31_variance(*, form=None, max_enumerated=12, check_r=CHECK_R, sim_n=(10, 28), n_sim=20_000, rng=None):
    """Theorem 3.1's variance of R̂2: as printed (garbled) and as read in ERRATA.

    The reference is the pair count: of the ``C(n,2)^2`` ordered pairs of pairs,
    ``C(n,2)`` are the same pair (agree with probability ``r``), ``C(n,2) 2(n-2)`` share
    one run (``F(p,3)``), the rest are disjoint (``r^2``):
    ``var = [r + 2(n-2)F(p,3) + C(n-2,2) r^2]/C(n,2) - r^2``. ``form`` is the asserted
    variance in ``p`` and ``n`` (default: the print taken literally).

    Examples
    --------
    >>> st = theorem31_variance(max_enumerated=6, n_sim=2000, rng=0)
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    S = _symbols()
    sp, p, n = S["sp"], S["p"], S["n"]
    r, f3 = _r_of_p(S), p**3 + (1 - p) ** 3
    reference = (r + 2 * (n - 2) * f3 + (n - 2) * (n - 3) / 2 * r**2) / (n * (n - 1) / 2) - r**2
    printed = _theorem31_forms(S, literal=True) if form is None else sp.sympify(form, locals={"p": p, "n": n})
    corrected = _theorem31_forms(S, literal=False)
    ok_p, gap_p = identity(printed, reference, {p: sp.Rational(9, 10), n: 10})
    ok_c, _ = identity(corrected, reference)
    f_p, f_c = sp.lambdify((p, n), printed, "numpy"), sp.lambdify((p, n), corrected, "numpy")
    pv = probabilities_from_replicability(np.asarray(check_r))[:, 0]
    rows = []
    for nn in range(2, max_enumerated + 1):
        e = enumerate_outcomes(nn)
        exact = exact_moments(replicability_r2(e), outcome_probabilities(e, probabilities_from_replicability(
            np.asarray(check_r)))).variance
        rows.append({"n": nn, "max |exact - printed|": float(np.abs(exact - f_p(pv, nn)).max()),
                     "max |exact - corrected|": float(np.abs(exact - f_c(pv, nn)).max()),
                     "printed < 0 (cells)": int((f_p(pv, nn) < -1e-15).sum())})
    ev = pd.DataFrame(rows)
    gen = as_generator(rng)
    sims = []
    for nn in sim_n:
        v = replicability_r2(simulate_outcomes(probabilities_from_replicability(0.82), nn, n_sim=n_sim, rng=gen))
        var = float(v.var(ddof=1))
        sims.append((var, float(f_c(0.9, nn)), float(np.sqrt((np.mean((v - v.mean()) ** 4) - var**2) / n_sim))))
    enum_p = bool((ev["max |exact - printed|"] < 1e-12).all())
    enum_c = bool((ev["max |exact - corrected|"] < 1e-12).all())
    result = (f"as printed: equal to the pair count (sympy) {_yes(ok_p)} (difference {gap_p:.5f} at r = 0.82, n = 10),"
              f" negative in {int(ev['printed < 0 (cells)'].sum())} of {len(ev) * len(check_r)} enumerated cells; "
              f"ERRATA reading: equal to the pair count for every n and p (sympy) {_yes(ok_c)}, equal to exact "
              f"enumeration n = 2 ... {max_enumerated} {_yes(enum_c)} (max difference "
              f"{_tiny(ev['max |exact - corrected|'].max())});"
              " simulation at r = 0.82, " + ", ".join(
                  f"n = {nn}: {v:.5f} (SE {s:.5f}) against {c:.5f}" for nn, (v, c, s) in zip(sim_n, sims)))
    st = Step("theorem31_variance", _WHERE["T31"], "The variance of R̂2 (Theorem 3.1)",
              r"\frac{1}{n(n-1)}\cdot\big(2(n-2)(n-3)F(p,4) + (4-2(n-3))(n-2)F(p,3) + (n-2)(n-3)+2\big)F(p,2) - r^2",
              "sympy + enumeration + simulation", result, bool(ok_p and enum_p),
              corrected=r"\frac{2(n-2)(n-3)F(p,4) + (4-2(n-3))(n-2)F(p,3) + ((n-2)(n-3)+2)F(p,2)}{n(n-1)} - r^2",
              corrected_holds=bool(ok_c and enum_c), evidence=ev, form=printed, known=True)
    st.simulated = tuple(np.array(x) for x in zip(*sims))
    return st


def theorem31_variance_order(*, form=None, n_max=28):
    """"The variance of R̂2 is equal to that of R̂1 when r = 1 ... for other values of r always below" (Figure 2).

    Symbolically ``var(R̂1) - var(R̂2) = 2(n-2)(1-r)^2 / (n(n-1))``: zero at ``r = 1`` and,
    note, at ``n = 2`` (the two estimators coincide), positive for ``r < 1`` and ``n >= 4``
    (Figure 2's range, n = 4 ... 28). ``form`` replaces the variance of R̂2 (in ``r``, ``n``).

    Examples
    --------
    >>> theorem31_variance_order().holds, theorem31_variance_order(form="r - r**2").holds
    (True, False)
    """
    S = _symbols()
    sp, r, n = S["sp"], S["r"], S["n"]
    f3 = (3 * r - 1) / 2  # F(p, 3) = r - pq with pq = (1 - r)/2
    v1 = (r - r**2) / (n / 2)
    v2 = ((r + 2 * (n - 2) * f3 + (n - 2) * (n - 3) / 2 * r**2) / (n * (n - 1) / 2) - r**2 if form is None
          else sp.sympify(form, locals={"r": r, "n": n}))
    gap = sp.factor(sp.simplify(v1 - v2))
    rr = np.linspace(0.5, 1, 51)
    nn = np.arange(4, n_max + 1, 2)
    g = sp.lambdify((r, n), gap, "numpy")
    grid = np.array([g(rr, k) * np.ones_like(rr) for k in nn])
    below = rr < 1
    ok = bool(np.all(grid[:, below] > 0) and np.allclose(grid[:, ~below], 0, atol=1e-15))
    ev = pd.DataFrame({"n": nn, "min gap, r < 1": grid[:, below].min(axis=1), "gap at r = 1": grid[:, ~below][:, 0]})
    result = (f"var(R̂1) - var(R̂2) = {gap} (sympy); over Figure 2's grid (r = 0.5 ... 1, n = 4 ... {n_max}) "
              f"positive for r < 1 {_yes(bool(np.all(grid[:, below] > 0)))}, zero at r = 1; the factor (n - 2) makes "
              "the two equal at n = 2, where R̂1 = R̂2")
    return Step("theorem31_variance_order", _WHERE["T31"] + " and Figure 2", "var(R̂2) is below var(R̂1) for r < 1, "
                "equal at r = 1", r"\operatorname{var}(\hat R_2) < \operatorname{var}(\hat R_1)\ (r < 1),\quad"
                r" = 0\ (r = 1)", "sympy + exhaustive", result, ok, evidence=ev, form=v2)


# --------------------------------------------------------------------------- #
# Theorem 3.2
# --------------------------------------------------------------------------- #
def theorem32_variance(*, form=None, n=4):
    """``var(R̂k) = E(R̂k^2) - E(R̂k)^2 = sum_e P(e) R̂k(e)^2 - r^2`` for unbiased R̂k (symbolic, n runs).

    ``form`` is the asserted ``E(R̂k)^2`` (default ``r^2``).

    Examples
    --------
    >>> theorem32_variance().holds, theorem32_variance(form="r").holds
    (True, False)
    """
    S = _symbols()
    sp, r = S["sp"], S["r"]
    claim = r**2 if form is None else sp.sympify(form, locals={"r": r})
    k = _weights(S, n)
    mean = _expect(S, n, lambda e: _rk(e, k))
    ok, _ = identity(mean**2, claim.subs(r, _r_of_p(S)))
    result = f"with k_12 = 1 - sum of the others, E(R̂k)^2 = form for n = {n}, symbolic p and k: {_yes(ok)}"
    return Step("theorem32_variance", _WHERE["T32"], "The variance of an unbiased R̂k",
                r"\operatorname{var}(\hat R_k) = E(\hat R_k^2) - E(\hat R_k)^2 = \sum_e P(e)\hat R_k^2(e) - r^2",
                "sympy", result, ok, form=claim)


def theorem32_derivative(*, form=None, n=4):
    """With ``k_12 = 1 - sum of the others``, ``dR̂k(e)/dk_ab = I(e_a = e_b) - I(e_1 = e_2)`` on every vector.

    ``form`` is a function ``(e, a, b) -> value`` giving the asserted derivative.

    Examples
    --------
    >>> theorem32_derivative().holds
    True
    >>> theorem32_derivative(form=lambda e, a, b: int(e[a] == e[b])).holds
    False
    """
    S = _symbols()
    sp = S["sp"]
    k = _weights(S, n)
    claim = (lambda e, a, b: int(e[a] == e[b]) - int(e[0] == e[1])) if form is None else form
    free = [pr for pr in _pairs(n) if pr != (0, 1)]
    bad = 0
    for e in itertools.product((1, 0), repeat=n):
        rk = _rk(e, k)
        for a, b in free:
            bad += sp.simplify(sp.diff(rk, k[(a, b)]) - claim(e, a, b)) != 0
    ok = bad == 0
    result = f"{2**n} vectors x {len(free)} free weights (n = {n}): {bad} derivatives differ from the form"
    return Step("theorem32_derivative", _WHERE["T32"], "The derivative of R̂k after eliminating k_12",
                r"\frac{d\hat R_k(e)}{dk_{a,b}} = I(e_a = e_b) - I(e_1 = e_2)", "sympy + enumeration", result, ok,
                form=claim)


def theorem32_gradient(*, form=None, n=4):
    """``dvar(R̂k)/dk_ab = sum_e P(e) 2 R̂k(e) (I(e_a = e_b) - I(e_1 = e_2))`` (symbolic, n runs).

    ``form`` is a function ``(e, a, b, rk) -> value`` whose expectation is the asserted derivative.

    Examples
    --------
    >>> theorem32_gradient().holds
    True
    >>> theorem32_gradient(form=lambda e, a, b, rk: rk * int(e[a] == e[b])).holds
    False
    """
    S = _symbols()
    sp = S["sp"]
    k = _weights(S, n)
    claim = ((lambda e, a, b, rk: 2 * rk * (int(e[a] == e[b]) - int(e[0] == e[1]))) if form is None else form)
    var = _expect(S, n, lambda e: _rk(e, k) ** 2) - _r_of_p(S) ** 2
    bad = 0
    for a, b in [pr for pr in _pairs(n) if pr != (0, 1)]:
        stated = _expect(S, n, lambda e, a=a, b=b: claim(e, a, b, _rk(e, k)))
        bad += not identity(sp.diff(var, k[(a, b)]), stated)[0]
    ok = bad == 0
    result = f"d var/dk_ab against the stated sum for every free weight (n = {n}, symbolic p and k): {bad} differ"
    return Step("theorem32_gradient", _WHERE["T32"], "The derivative of var(R̂k)",
                r"\frac{d\operatorname{var}(\hat R_k)}{dk_{a,b}} = \sum_e P(e)\,2\hat R_k(e)\,"
                r"(I(e_a=e_b) - I(e_1=e_2))",
                "sympy", result, ok, form=claim)


def _point(S, k):
    """A point at which two gradient forms are compared: p = 3/10, free weights 1/60, 2/60, ..."""
    sp = S["sp"]
    free = sorted(k[(0, 1)].free_symbols, key=str)
    return {**{w: sp.Rational(j + 1, 60) for j, w in enumerate(free)}, S["p"]: sp.Rational(3, 10)}


def _gradient_forms(S, n, k, a, b):
    """The exact gradient and its corrected closed form ``2[(C k)_ab - (C k)_12]``."""
    p, q = S["p"], S["q"]
    r, f3 = p**2 + q**2, p**3 + q**3
    var = _expect(S, n, lambda e: _rk(e, k) ** 2) - r**2
    exact = S["sp"].diff(var, S["sp"].Symbol(f"k{a + 1}{b + 1}"))

    def ak(pair):  # sum of the weights of the pairs sharing exactly one run with ``pair``
        return sum(w for pr, w in k.items() if len(set(pr) & set(pair)) == 1)

    corrected = 2 * (r - r**2) * (k[(a, b)] - k[(0, 1)]) + 2 * (f3 - r**2) * (ak((a, b)) - ak((0, 1)))
    return exact, corrected


def _gradient_case(form, n, pair, *, power):
    """The exact derivative w.r.t. ``k_pair`` against the asserted one and against the corrected form.

    The printed reduction is ``2k_ab c - 2k_12 c`` with ``c = p(1-p)^power + p^power(1-p)``;
    ``form`` replaces it. Returns the symbols, the asserted function, whether it equals the
    exact derivative with the gap at the test point, and whether the corrected form does.
    """
    S = _symbols()
    k = _weights(S, n)

    def printed_fn(kab, k12, p_):
        c = p_ * (1 - p_) ** power + p_**power * (1 - p_)
        return 2 * kab * c - 2 * k12 * c

    claim = printed_fn if form is None else form
    exact, corrected = _gradient_forms(S, n, k, *pair)
    ok_p, gap = identity(exact, claim(k[pair], k[(0, 1)], S["p"]), _point(S, k))
    ok_c, _ = identity(exact, corrected)
    return S, claim, ok_p, gap, ok_c


def theorem32_case_disjoint(*, form=None, n=5):
    """Case ``a > 2``: printed ``2k_ab(p(1-p)^3 + p^3(1-p)) - 2k_12(p(1-p)^3 + p^3(1-p))``.

    The exact derivative (symbolic, ``n`` runs, ``n >= 5`` so that some pair shares one run
    with ``(a, b)`` and none with ``(1, 2)``) is ``2[(Ck)_ab - (Ck)_12]`` with ``C`` the covariance
    of the pair indicators: ``2(r - r^2)(k_ab - k_12) + 2(F(p,3) - r^2)(S_ab - S_12)``,
    ``S_ab`` the weights of the pairs sharing exactly one run with ``(a, b)``. The print
    drops the second term and halves the first (``r - r^2 = 2p(1-p)(p^2 + (1-p)^2)``).
    ``form`` is a function ``(k_ab, k_12, p) -> expression`` of the asserted derivative.

    Examples
    --------
    >>> st = theorem32_case_disjoint()
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    S, claim, ok_p, gap, ok_c = _gradient_case(form, n, (2, 3), power=3)
    p, q = S["p"], S["q"]
    f3r = S["sp"].factor((p**3 + q**3) - (p**2 + q**2) ** 2)
    result = (f"exact derivative w.r.t. k_34 for n = {n} (sympy): equals the printed reduction {_yes(ok_p)} "
              f"(difference {gap:.4f} at p = 0.3, free weights 1/60, 2/60, ...); equals 2(r - r^2)(k_ab - k_12) + "
              f"2(F(p,3) - r^2)(S_ab - S_12) {_yes(ok_c)}, with F(p,3) - r^2 = {f3r}, zero only at p in "
              "{0, 1/2, 1}")
    return Step("theorem32_case_disjoint", _WHERE["T32"] + ", case a > 2", "The derivative for a pair disjoint from "
                "(1, 2)", r"2k_{a,b}\big(p(1-p)^3 + p^3(1-p)\big) - 2k_{1,2}\big(p(1-p)^3 + p^3(1-p)\big)",
                "sympy", result, ok_p, corrected=r"2(r - r^2)(k_{a,b} - k_{1,2}) + 2\big(F(p,3) - r^2\big)"
                r"(S_{a,b} - S_{1,2})", corrected_holds=ok_c, form=claim)


def theorem32_case_shared(*, form=None, n=5):
    """Case ``a <= 2``: printed ``2k_ab(p(1-p)^2 + p^2(1-p)) - 2k_12(p(1-p)^2 + p^2(1-p))``.

    Here ``(Ck)_ab - (Ck)_12 = (r - F(p,3))(k_ab - k_12) + (F(p,3) - r^2)(S'_ab - S'_12)``
    with ``r - F(p,3) = p(1-p)`` (the printed coefficient is right) and ``S'`` the sums of
    ``S`` without the two pairs themselves; the print again drops the second term.

    Examples
    --------
    >>> st = theorem32_case_shared()
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    S, claim, ok_p, gap, ok_c = _gradient_case(form, n, (0, 2), power=2)
    p = S["p"]
    coef, _ = identity((p**2 + (1 - p) ** 2) - (p**3 + (1 - p) ** 3), p * (1 - p))
    result = (f"exact derivative w.r.t. k_13 for n = {n} (sympy): equals the printed reduction {_yes(ok_p)} "
              f"(difference {gap:.4f} at p = 0.3, free weights 1/60, 2/60, ...); equals 2[(Ck)_ab - (Ck)_12] "
              f"{_yes(ok_c)}; r - F(p,3) = p(1-p): {_yes(coef)}")
    return Step("theorem32_case_shared", _WHERE["T32"] + ", case a <= 2", "The derivative for a pair sharing a run "
                "with (1, 2)", r"2k_{a,b}\big(p(1-p)^2 + p^2(1-p)\big) - 2k_{1,2}\big(p(1-p)^2 + p^2(1-p)\big)",
                "sympy", result, ok_p, corrected=r"2(r - r^2)(k_{a,b} - k_{1,2}) + 2\big(F(p,3) - r^2\big)"
                r"(S_{a,b} - S_{1,2})", corrected_holds=ok_c, form=claim)


def theorem32_stationary(*, form=None, n_values=(4, 5, 6)):
    """All weights equal, ``k_ab = 1/(n(n-1)/2)``, make every derivative zero (symbolic p, n = 4, 5, 6).

    The conclusion of the proof holds although its two reductions do not: at equal weights
    ``S_ab = S_12`` for every pair. ``form`` is the asserted common weight in ``n``.

    Examples
    --------
    >>> theorem32_stationary(n_values=(4,)).holds, theorem32_stationary(form="1/n", n_values=(4,)).holds
    (True, False)
    """
    S = _symbols()
    sp, n = S["sp"], S["n"]
    claim = 2 / (n * (n - 1)) if form is None else sp.sympify(form, locals={"n": n})
    rows = []
    for nn in n_values:
        k = _weights(S, nn)
        var = _expect(S, nn, lambda e, k=k: _rk(e, k) ** 2)
        at = {w: claim.subs(n, nn) for pr, w in k.items() if pr != (0, 1)}
        grads = [sp.simplify(sp.diff(var, k[pr]).subs(at)) for pr in _pairs(nn) if pr != (0, 1)]
        rows.append({"n": nn, "free weights": len(grads), "non-zero derivatives": int(sum(g != 0 for g in grads))})
    ev = pd.DataFrame(rows)
    ok = bool((ev["non-zero derivatives"] == 0).all())
    result = (f"gradient at k = form, symbolic p, n = {list(n_values)}: "
              f"{int(ev['non-zero derivatives'].sum())} non-zero derivatives")
    return Step("theorem32_stationary", _WHERE["T32"], "Equal weights are a stationary point of var(R̂k)",
                r"k_{a,b} = k_{1,2}\ \forall a,b \;\Rightarrow\; k_{a,b} = \frac{1}{n(n-1)/2}", "sympy", result, ok,
                evidence=ev, form=claim)


def theorem32_minimum(*, form=None, n_values=range(4, 13), check_r=(0.6, 0.82, 0.95), search_n=(4, 6),
                      n_random=200, rng=None):
    """"The optimum is a minimum, as Figure 2 shows": Figure 2 compares R̂1 with R̂2 only.

    The argument that does hold: ``var(R̂k) = k^T C k`` with ``C = (r - r^2) I + (F(p,3) - r^2) A``,
    ``A`` the adjacency of the Johnson graph J(n, 2) (pairs sharing one run), whose
    eigenvalues are ``2(n-2)``, ``n - 4`` and ``-2``. ``C 1 = c 1``, so for ``k = k2 + d``
    with ``sum d = 0``: ``var(R̂k) - var(R̂2) = d^T C d >= lambda_min(C) |d|^2``, and
    ``lambda_min(C) = (r - r^2) - 2(F(p,3) - r^2) = 4p^2(1-p)^2 > 0`` for ``r < 1``, ``n >= 4``.
    Checked: ``A``'s spectrum for ``n`` in ``n_values``, ``lambda_min`` symbolically, and a
    numerical search (SLSQP and random unbiased weights). ``form`` is the asserted ``lambda_min`` in ``p``.

    Examples
    --------
    >>> st = theorem32_minimum(n_values=range(4, 7), search_n=(4,), n_random=20, rng=0)
    >>> st.holds, st.corrected_holds
    (False, True)
    """
    S = _symbols()
    sp, p, q = S["sp"], S["p"], S["q"]
    claim = 4 * p**2 * q**2 if form is None else sp.sympify(form, locals={"p": p})
    r, f3 = p**2 + q**2, p**3 + q**3
    lam = sp.factor(sp.expand((r - r**2) - 2 * (f3 - r**2)))
    ok_lam, _ = identity(lam, claim)
    rows = []
    for nn in n_values:
        pairs = _pairs(nn)
        adj = np.array([[len(set(x) & set(y)) == 1 for y in pairs] for x in pairs], dtype=float)
        eig = np.linalg.eigvalsh(adj)
        spectrum = sorted({int(round(v)) for v in eig})
        rows.append({"n": nn, "eigenvalues of A": str(spectrum),
                     "as stated": spectrum == sorted({2 * (nn - 2), nn - 4, -2}),
                     "rows of C sum alike": bool(np.allclose(adj.sum(axis=1), 2 * (nn - 2)))})
    gen = as_generator(rng)
    search = []
    for rv in check_r:
        pv = probabilities_from_replicability(rv)
        for nn in search_n:
            best = minimum_variance_weights(pv, nn, rng=gen)
            v2 = r2_variance(pv, nn)
            rand = linear_estimator_variance(gen.dirichlet(np.ones(nn * (nn - 1) // 2), size=n_random), pv)
            search.append({"r": rv, "n": nn, "optimum / var R̂2": round(float(best.variance / v2), 4),
                           "best random / var R̂2": round(float(rand.min() / v2), 4)})
    sr = pd.DataFrame(search)
    ev = pd.DataFrame(rows)
    ok_c = bool(ok_lam and ev["as stated"].all() and ev["rows of C sum alike"].all()
                and np.allclose(sr["optimum / var R̂2"], 1, atol=1e-5) and (sr["best random / var R̂2"] >= 1).all())
    result = (f"the figure plots var(R̂1) and var(R̂2) only, not var(R̂k) near the stationary point, so it cannot show "
              f"a minimum. Corrected: lambda_min(C) = {lam} (sympy) = form {_yes(ok_lam)}; spectrum of A = "
              f"{{2(n-2), n-4, -2}} for n = {min(n_values)} ... {max(n_values)} {_yes(bool(ev['as stated'].all()))}; "
              f"numerical search ({len(sr)} cells): optimum / var R̂2 = 1 to 1e-5 and best of {n_random} random "
              f"unbiased estimators / var R̂2 >= {sr['best random / var R̂2'].min():.4f}")
    return Step("theorem32_minimum", _WHERE["T32"], "The stationary point is the minimum",
                r"\text{The optimum is a minimum, as Figure 2 shows.}", "sympy + exhaustive", result, False,
                corrected=r"\operatorname{var}(\hat R_k) - \operatorname{var}(\hat R_2) = d^\top C d \ge "
                r"4p^2(1-p)^2\,\lVert d\rVert^2,\ d = k - k^{(2)}", corrected_holds=ok_c,
                evidence=pd.concat([ev, sr], axis=1), form=claim)
