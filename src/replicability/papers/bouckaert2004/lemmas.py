"""Section 3 of Bouckaert (2004), step by step: the range of r and the lemmas (3.1, A.1, 3.2, 3.3).

Each function below checks one displayed step and returns a
:class:`~replicability.report.steps.Step`: the step as printed, its correction where the
printed one does not hold, the method and the result. Algebra is checked with ``sympy``
(symbolic in ``n`` and ``p`` where the step is; for a fixed small ``n`` where it needs the
``2^n`` outcome vectors), probability statements by exact enumeration of every outcome
vector of up to ``max_enumerated`` runs and by simulation at the paper's size (10 runs,
Section 4). Every function takes ``form``, the expression the step asserts (default: as
printed), so that a reader can check another one: a wrong expression is rejected. The
theorems are in :mod:`.theorems`; :func:`~.derivation.section3_derivation` runs every step
in the paper's order. Notation: :mod:`._notation`.

The paper: Bouckaert, R. R. (2004). Estimating replicability of classifier learning
experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._validation import as_generator
from ...report.steps import Step, identity
from ...stats.enumeration import enumerate_outcomes, exact_moments, outcome_probabilities, simulate_outcomes
from ...stats.estimators import (
    linear_replicability,
    probabilities_from_replicability,
    r1_weights,
    r2_weights,
)
from ...stats.measures import replicability_r1, replicability_r2
from ._notation import _WHERE, CHECK_R, _expect, _r_of_p, _rk, _symbols, _tiny, _weights, _yes

__all__ = ["lemma31_binomial", "lemma31_mean", "lemma31_pair", "lemma31_variance", "lemma32", "lemma33_members",
           "lemma33_pair", "lemma33_unbiased", "lemma_a1", "replicability_range"]


# --------------------------------------------------------------------------- #
# Section 3: the range of r
# --------------------------------------------------------------------------- #
def replicability_range(*, form=None):
    """"Replicability always lies between 50% and 100%"; normalized replicability is ``2(r - 1/2)``.

    ``form`` is the asserted lower end (default 1/2). Symbolically ``r - 1/2 = 2(p - 1/2)^2``
    and ``1 - r = 2pq``, so ``r`` ranges over ``[1/2, 1]`` on ``p`` in ``[0, 1]`` and ``2(r - 1/2)``
    over ``[0, 1]``. This needs the two outcome values of Section 3.1: with the three of
    Section 2.3 (B better, no difference, A better) ``r = sum_c p_c^2`` reaches ``1/3``.

    Examples
    --------
    >>> replicability_range().holds, replicability_range(form=0.6).holds
    (True, False)
    """
    S = _symbols()
    sp, p = S["sp"], S["p"]
    low = sp.Rational(1, 2) if form is None else sp.nsimplify(form)
    r = _r_of_p(S)
    lo, hi = sp.minimum(r, p, sp.Interval(0, 1)), sp.maximum(r, p, sp.Interval(0, 1))
    norm = [sp.minimum(2 * (r - sp.Rational(1, 2)), p, sp.Interval(0, 1)),
            sp.maximum(2 * (r - sp.Rational(1, 2)), p, sp.Interval(0, 1))]
    square, _ = identity(r - sp.Rational(1, 2), 2 * (p - sp.Rational(1, 2)) ** 2)
    grid = np.linspace(0, 1, 101)
    a, b = np.meshgrid(grid, grid)
    ok = a + b <= 1 + 1e-12
    three = (a**2 + b**2 + (1 - a - b) ** 2)[ok]
    holds = bool(lo == low and hi == 1 and square and norm == [0, 1])
    evidence = pd.DataFrame({"outcome values": [2, 3], "min r": [float(lo), float(three.min())],
                             "max r": [float(hi), float(three.max())],
                             "method": ["sympy minimum/maximum over p in [0, 1]", "grid over the simplex, step 0.01"]})
    result = (f"r - 1/2 = 2(p - 1/2)^2: {_yes(square)}; min r = {lo}, max r = {hi}; 2(r - 1/2) ranges over "
              f"[{norm[0]}, {norm[1]}]. With three outcome values (Section 2.3) min r = 1/3 (uniform), so the range "
              "needs the two values (accept, reject) of Section 3.1")
    return Step("replicability_range", _WHERE["3"], "Replicability lies between 50% and 100%; normalized "
                "replicability 2(r - 1/2) lies between 0% and 100%", r"\tfrac12 \le r \le 1,\quad 2(r - \tfrac12)",
                "sympy + exhaustive", result, holds, evidence=evidence, form=low)


# --------------------------------------------------------------------------- #
# Lemma 3.1 and Lemma A.1
# --------------------------------------------------------------------------- #
def lemma31_pair(*, form=None):
    """``E(I(e_2i = e_2i-1)) = r * 1 + (1 - r) * 0 = r``, by enumerating the four outcome pairs.

    ``form`` is the asserted expectation in ``r`` (default ``r*1 + (1-r)*0``).

    Examples
    --------
    >>> lemma31_pair().holds, lemma31_pair(form="r**2").holds
    (True, False)
    """
    S = _symbols()
    sp, r = S["sp"], S["r"]
    claim = r * 1 + (1 - r) * 0 if form is None else sp.sympify(form, locals={"r": r})
    expectation = _expect(S, 2, lambda e: int(e[0] == e[1]))
    ok, gap = identity(expectation, claim.subs(r, _r_of_p(S)))
    result = f"sum over the 4 outcome pairs of P(e) I(e1 = e2) = {sp.factor(expectation)} = r: {_yes(ok)}"
    if not ok:
        result += f" (difference {gap:.4g} at p = 3/10)"
    return Step("lemma31_pair", _WHERE["L31"], "Each pair (e_2i-1, e_2i) agrees with probability r",
                r"E(I(e_{2i}=e_{2i-1})) = r\cdot 1 + (1-r)\cdot 0 = r", "sympy + enumeration", result, ok,
                form=claim)


def lemma31_mean(*, form=None, max_enumerated=12, check_r=CHECK_R):
    """``E(R̂1) = (1/(n/2)) sum_{i=1}^{n/2} r = r``: symbolic in ``n``, and by exact enumeration.

    ``form`` is the asserted mean in ``r`` (default ``r``).

    Examples
    --------
    >>> lemma31_mean(max_enumerated=6).holds, lemma31_mean(form="r/2", max_enumerated=6).holds
    (True, False)
    """
    S = _symbols()
    sp, r, m, i = S["sp"], S["r"], S["m"], S["i"]
    claim = r if form is None else sp.sympify(form, locals={"r": r})
    mean = sp.Sum(r, (i, 1, m)).doit() / m
    ok_sym, _ = identity(mean, claim)
    rows = []
    f = sp.lambdify(r, claim, "numpy")
    for n in range(2, max_enumerated + 1, 2):
        e = enumerate_outcomes(n)
        prob = outcome_probabilities(e, probabilities_from_replicability(np.asarray(check_r)))
        exact = exact_moments(replicability_r1(e), prob).mean
        rows.append({"n": n, "max |exact E R̂1 - form|": float(np.abs(exact - f(np.asarray(check_r))).max())})
    ev = pd.DataFrame(rows)
    ok = bool(ok_sym and (ev.iloc[:, 1] < 1e-12).all())
    result = (f"(1/m) sum_(i=1)^m r = {mean} (sympy, any m = n/2): {_yes(ok_sym)}; exact enumeration of all 2^n "
              f"vectors, n = 2 ... {max_enumerated}, r in {list(check_r)}: max |E R̂1 - form| "
              f"{_tiny(ev.iloc[:, 1].max())}")
    return Step("lemma31_mean", _WHERE["L31"], "R̂1 is unbiased", r"E(\hat R_1) = \frac{1}{n/2}\sum_{i=1}^{n/2} r"
                r" = \frac{n/2}{n/2}\, r = r", "sympy + enumeration", result, ok, evidence=ev, form=claim)


def lemma31_binomial(*, form=None, max_enumerated=12, check_r=CHECK_R):
    """``P(i same pairs out of n/2)`` is binomial with probability ``r``: exact enumeration.

    ``form`` is the asserted probability in ``i``, ``m = n/2`` and ``r`` (default
    ``binomial(m, i) r^i (1-r)^(m-i)``).

    Examples
    --------
    >>> lemma31_binomial(max_enumerated=6).holds
    True
    >>> lemma31_binomial(form="binomial(m, i) * r**i * (1 - r)**(m - i + 1)", max_enumerated=6).holds
    False
    """
    S = _symbols()
    sp, r, m, i = S["sp"], S["r"], S["m"], S["i"]
    claim = (sp.binomial(m, i) * r**i * (1 - r) ** (m - i) if form is None
             else sp.sympify(form, locals={"r": r, "m": m, "i": i}))
    rows = []
    for n in range(2, max_enumerated + 1, 2):
        e = enumerate_outcomes(n)
        same = (e[:, 0::2] == e[:, 1::2]).sum(axis=1)
        for rv in check_r:
            prob = outcome_probabilities(e, probabilities_from_replicability(rv))
            exact = np.bincount(same, weights=prob, minlength=n // 2 + 1)
            claimed = np.array([float(claim.subs({m: n // 2, i: k, r: rv})) for k in range(n // 2 + 1)])
            rows.append({"n": n, "r": rv, "max |exact - form|": float(np.abs(exact - claimed).max())})
    ev = pd.DataFrame(rows).groupby("n", as_index=False)["max |exact - form|"].max()
    ok = bool((ev.iloc[:, 1] < 1e-12).all())
    result = (f"distribution of the number of agreeing pairs over all 2^n vectors, n = 2 ... {max_enumerated}, "
              f"r in {list(check_r)}: max |exact - form| {_tiny(ev.iloc[:, 1].max())}")
    return Step("lemma31_binomial", _WHERE["L31"], "The number of agreeing pairs among the n/2 disjoint pairs is "
                "binomial(n/2, r)", r"P(i \text{ same pairs out of } n/2) = \binom{n/2}{i} r^i (1-r)^{n/2-i}",
                "enumeration", result, ok, evidence=ev, form=claim)


def lemma_a1(*, form=None):
    """Lemma A.1: ``sum_i C(n,i) p^i q^(n-i) i^k`` is ``1``, ``np``, ``n^2 p^2 - n p^2 + n p`` for k = 0, 1, 2.

    Proved symbolically for every ``n`` from the moment generating function
    ``(q + p e^s)^n`` (its k-th derivative at 0), and the proof sketch's
    ``i C(n, i) = n C(n-1, i-1)``. ``form`` replaces the three right-hand sides (in ``m``, ``p``).

    Examples
    --------
    >>> lemma_a1().holds, lemma_a1(form=("1", "m*p", "m**2*p**2 + m*p")).holds
    (True, False)
    """
    S = _symbols()
    sp, p, m, s, i = S["sp"], S["p"], S["m"], S["s"], S["i"]
    claims = ((1, m * p, m**2 * p**2 - m * p**2 + m * p) if form is None
              else tuple(sp.sympify(f, locals={"m": m, "p": p}) for f in form))
    mgf = (1 - p + p * sp.exp(s)) ** m
    rows, ok = [], True
    for k, claim in enumerate(claims):
        moment = sp.simplify(sp.diff(mgf, s, k).subs(s, 0))
        good, gap = identity(moment, claim)
        ok &= good
        rows.append({"sum of C(n,i) p^i q^(n-i) i^k": f"k = {k}",
                     "from the generating function": str(sp.expand(moment)),
                     "printed": str(claim), "equal": good})
    absorb, _ = identity(sp.expand_func(i * sp.binomial(m, i) - m * sp.binomial(m - 1, i - 1)), 0)
    ok &= absorb
    result = ("k-th derivative at s = 0 of (q + p e^s)^n, symbolic in n: " + "; ".join(
        f"k = {k}: {_yes(row['equal'])}" for k, row in enumerate(rows)) + f"; i C(n,i) = n C(n-1,i-1): {_yes(absorb)}")
    return Step("lemma_a1", _WHERE["A1"], "The three binomial sums used for var(R̂1)",
                r"\sum_{i=0}^n p^i(1-p)^{n-i}\binom ni i^k = 1,\ np,\ n^2p^2 - np^2 + np \quad (k = 0, 1, 2)",
                "sympy", result, bool(ok), evidence=pd.DataFrame(rows).rename(columns={"printed": "as printed"}),
                form=claims)


def lemma31_variance(*, form=None, max_enumerated=12, check_r=CHECK_R, sim_n=10, n_sim=20_000, rng=None):
    """``var(R̂1) = (1/(n/2)^2)((n/2)^2 r^2 - r^2 n/2 + r n/2) - r^2 = (r - r^2)/(n/2)``.

    Symbolic (with Lemma A.1), by exact enumeration up to ``max_enumerated`` runs, and
    by simulation of ``n_sim`` outcome vectors of ``sim_n`` runs (the paper's 10) at
    ``r = 0.82``. ``form`` is the asserted variance in ``r`` and ``n`` (default ``(r - r^2)/(n/2)``).

    Examples
    --------
    >>> lemma31_variance(max_enumerated=6, n_sim=2000, rng=0).holds
    True
    >>> lemma31_variance(form="(r - r**2)/n", max_enumerated=6, n_sim=2000, rng=0).holds
    False
    """
    S = _symbols()
    sp, r, n = S["sp"], S["r"], S["n"]
    claim = (r - r**2) / (n / 2) if form is None else sp.sympify(form, locals={"r": r, "n": n})
    m = n / 2
    via_lemma = ((m**2 * r**2 - r**2 * m + r * m) / m**2) - r**2
    ok_sym, _ = identity(via_lemma, claim)
    f = sp.lambdify((r, n), claim, "numpy")
    rows = []
    for nn in range(2, max_enumerated + 1, 2):
        e = enumerate_outcomes(nn)
        prob = outcome_probabilities(e, probabilities_from_replicability(np.asarray(check_r)))
        exact = exact_moments(replicability_r1(e), prob).variance
        rows.append({"n": nn, "max |exact var - form|": float(np.abs(exact - f(np.asarray(check_r), nn)).max())})
    ev = pd.DataFrame(rows)
    sims = replicability_r1(simulate_outcomes(probabilities_from_replicability(0.82), sim_n, n_sim=n_sim,
                                              rng=as_generator(rng)))
    sim_var, formula = float(sims.var(ddof=1)), float(f(0.82, sim_n))
    se = float(np.sqrt((np.mean((sims - sims.mean()) ** 4) - sim_var**2) / n_sim))
    ok = bool(ok_sym and (ev.iloc[:, 1] < 1e-12).all())
    result = (f"sympy, with Lemma A.1 at m = n/2: {_yes(ok_sym)}; exact enumeration n = 2 ... {max_enumerated}: "
              f"max |difference| {_tiny(ev.iloc[:, 1].max())}; simulation, {n_sim} vectors of n = {sim_n} runs at "
              f"r = 0.82: {sim_var:.5f} (SE {se:.5f}) against {formula:.5f}")
    st = Step("lemma31_variance", _WHERE["L31"], "The variance of R̂1",
              r"\operatorname{var}(\hat R_1) = \frac{1}{(n/2)^2}\big((n/2)^2 r^2 - r^2\tfrac n2 + r\tfrac n2\big) - r^2"
              r" = \frac{r - r^2}{n/2}", "sympy + enumeration + simulation", result, ok, evidence=ev, form=claim)
    st.simulated = (sim_var, formula, se)
    return st


# --------------------------------------------------------------------------- #
# R̂2: Lemma 3.2
# --------------------------------------------------------------------------- #
def lemma32(*, form=None, max_enumerated=12):
    """Lemma 3.2: ``R̂2(e) = [i(i-1) + (n-i)(n-i-1)] / [n(n-1)]`` with ``i`` the accepting runs.

    Symbolic (``[C(i,2) + C(n-i,2)] / C(n,2)``) and exhaustive over every outcome vector
    of up to ``max_enumerated`` runs. ``form`` is the asserted value in ``i`` and ``n``.

    Examples
    --------
    >>> lemma32(max_enumerated=6).holds, lemma32(form="i*(i-1)/(n*(n-1))", max_enumerated=6).holds
    (True, False)
    """
    S = _symbols()
    sp, n, i = S["sp"], S["n"], S["i"]
    claim = ((i * (i - 1) + (n - i) * (n - i - 1)) / (n * (n - 1)) if form is None
             else sp.sympify(form, locals={"i": i, "n": n}))
    pairs = (i * (i - 1) / 2 + (n - i) * (n - i - 1) / 2) / (n * (n - 1) / 2)
    ok_sym, _ = identity(pairs, claim)
    f = sp.lambdify((i, n), claim, "numpy")
    rows = []
    for nn in range(2, max_enumerated + 1):
        e = enumerate_outcomes(nn)
        pairwise = linear_replicability(e, r2_weights(nn))
        rows.append({"n": nn, "vectors": len(e),
                     "max |pairwise - form|": float(np.abs(pairwise - f(e.sum(axis=1), nn)).max())})
    ev = pd.DataFrame(rows)
    ok = bool(ok_sym and (ev.iloc[:, 2] < 1e-12).all())
    result = (f"(C(i,2) + C(n-i,2)) / C(n,2) = form (sympy): {_yes(ok_sym)}; every vector, n = 2 ... "
              f"{max_enumerated} ({int(ev['vectors'].sum())} vectors): max |difference| "
              f"{_tiny(ev.iloc[:, 2].max())}")
    return Step("lemma32", _WHERE["L32"], "R̂2 from the number i of accepting runs",
                r"\hat R_2(i, n) = \frac{\binom i2 + \binom{n-i}2}{n(n-1)/2} = \frac{i(i-1) + (n-i)(n-i-1)}{n(n-1)}",
                "sympy + exhaustive", result, ok, evidence=ev, form=claim)


# --------------------------------------------------------------------------- #
# Lemma 3.3
# --------------------------------------------------------------------------- #
def lemma33_pair(*, form=None, n=4):
    """``sum_e P(e) k_ij I(e_i = e_j) = (p^2 + (1-p)^2) k_ij = r k_ij`` over all ``2^n`` vectors, symbolic k.

    Examples
    --------
    >>> lemma33_pair().holds, lemma33_pair(form="p**2 * k").holds
    (True, False)
    """
    S = _symbols()
    sp, p = S["sp"], S["p"]
    k = _weights(S, n, eliminate=False)
    kk = sp.Symbol("k")
    claim = (p**2 + (1 - p) ** 2) * kk if form is None else sp.sympify(form, locals={"p": p, "k": kk})
    rows, ok = [], True
    for (a, b), w in k.items():
        term = _expect(S, n, lambda e, a=a, b=b, w=w: w * int(e[a] == e[b]))
        good, _ = identity(term, claim.subs(kk, w))
        ok &= good
        rows.append({"pair": f"({a + 1}, {b + 1})", "sum_e P(e) k I(e_i = e_j)": str(sp.factor(term)), "= r k": good})
    result = f"every pair of n = {n} runs, all {2**n} vectors, symbolic p and k: {_yes(bool(ok))}"
    return Step("lemma33_pair", _WHERE["L33"], "Each term of E(R̂k) is r times its weight",
                r"\sum_e P(e)\,k_{i,j} I(e_i = e_j) = (p^2 + (1-p)^2)\,k_{i,j} = r\,k_{i,j}", "sympy + enumeration",
                result, bool(ok), evidence=pd.DataFrame(rows), form=claim)


def lemma33_unbiased(*, form=None, n=4, n_random=3, rng=None):
    """Lemma 3.3: ``E(R̂k) = r sum k_ij``, so R̂k is unbiased for every r iff ``sum k_ij = 1``.

    Symbolic for ``n`` runs with free weights, then exact enumeration with random weights of sums
    0.5, 1, 1.5 at ``n + 2`` runs. ``form`` is the asserted ``E(R̂k)`` in ``r`` and the weight sum ``K``.

    Examples
    --------
    >>> lemma33_unbiased(rng=0).holds, lemma33_unbiased(form="r * K**2", rng=0).holds
    (True, False)
    """
    S = _symbols()
    sp, r = S["sp"], S["r"]
    K = sp.Symbol("K")
    claim = r * K if form is None else sp.sympify(form, locals={"r": r, "K": K})
    k = _weights(S, n, eliminate=False)
    mean = _expect(S, n, lambda e: _rk(e, k))
    total = sum(k.values())
    ok_sym, _ = identity(mean, claim.subs({K: total, r: _r_of_p(S)}))
    solution = sp.solve(sp.Eq(claim.subs(K, K), r), K)
    gen = as_generator(rng)
    e = enumerate_outcomes(n + 2)
    check_r = np.array([0.6, 0.82, 0.95])
    prob = outcome_probabilities(e, probabilities_from_replicability(check_r))
    f = sp.lambdify((r, K), claim, "numpy")
    rows = []
    for s in (0.5, 1.0, 1.5):
        for _ in range(n_random):
            w = gen.dirichlet(np.ones((n + 2) * (n + 1) // 2)) * s
            exact = exact_moments(linear_replicability(e, w), prob).mean
            rows.append({"sum of weights": s, "max |exact E R̂k - form|": float(np.abs(exact - f(check_r, s)).max())})
    ev = pd.DataFrame(rows).groupby("sum of weights", as_index=False).max()
    ok = bool(ok_sym and (ev.iloc[:, 1] < 1e-12).all() and solution == [1])
    result = (f"E(R̂k) = r sum k for n = {n}, symbolic weights: {_yes(ok_sym)}; E(R̂k) = r solved for the sum: "
              f"{solution}; exact enumeration, n = {n + 2}, random weights: max |difference| "
              f"{_tiny(ev.iloc[:, 1].max())}")
    return Step("lemma33_unbiased", _WHERE["L33"], "R̂k is unbiased iff its weights sum to 1",
                r"E(\hat R_k) = \sum_{i<j} r\,k_{i,j} = r \;\Leftrightarrow\; \sum_{i<j} k_{i,j} = 1",
                "sympy + enumeration", result, ok, evidence=ev, form=claim)


def lemma33_members(*, form=None, max_enumerated=10):
    """R̂1 (``k_{i,i+1} = 1/(n/2)``, i odd) and R̂2 (``k_ij = 1/(n(n-1)/2)``) are in the class, weights summing to 1.

    ``form`` is the asserted sum of the weights (default 1).

    Examples
    --------
    >>> lemma33_members(max_enumerated=6).holds, lemma33_members(form=2, max_enumerated=6).holds
    (True, False)
    """
    S = _symbols()
    sp, n = S["sp"], S["n"]
    claim = 1 if form is None else sp.nsimplify(form)
    sums = [sp.simplify((n / 2) * (1 / (n / 2))), sp.simplify((n * (n - 1) / 2) / (n * (n - 1) / 2))]
    ok_sym = all(identity(s, claim)[0] for s in sums)
    rows = []
    for nn in range(2, max_enumerated + 1, 2):
        e = enumerate_outcomes(nn)
        rows.append({"n": nn, "max |R̂1 - Eq. 2|": float(np.abs(replicability_r1(e) - linear_replicability(
            e, r1_weights(nn))).max()), "max |R̂2 - Eq. 2|": float(np.abs(replicability_r2(e) - linear_replicability(
                e, r2_weights(nn))).max())})
    ev = pd.DataFrame(rows)
    ok = bool(ok_sym and (ev.iloc[:, 1:].to_numpy() < 1e-12).all())
    result = (f"weights sum to {sums} (sympy) = form: {_yes(ok_sym)}; Eq. 2 with these weights reproduces R̂1 and "
              f"R̂2 on every vector, n = 2 ... {max_enumerated}: max |difference| "
              f"{_tiny(ev.iloc[:, 1:].to_numpy().max())}")
    return Step("lemma33_members", "Section 3.3 (after Eq. 2 and Lemma 3.3)", "R̂1 and R̂2 are unbiased members of "
                "the class R̂k", r"k^{(1)}_{i,i+1} = \tfrac{1}{n/2}\ (i\text{ odd}),\quad k^{(2)}_{i,j} = "
                r"\tfrac{1}{n(n-1)/2},\quad \textstyle\sum k = 1", "sympy + exhaustive", result, ok, evidence=ev,
                form=claim)
