"""The notation shared by the steps of Section 3 of Bouckaert (2004) (:mod:`.lemmas`, :mod:`.theorems`).

Two outcome values (accept, reject) with probabilities ``p`` and ``q = 1 - p``;
``r = p^2 + q^2``; ``F(p, x) = p^x + q^x``; ``m = n/2``. The symbols, the weights
``k_ij`` of R̂k, the expectation over the ``2^n`` outcome vectors, and how a step's
result is worded.
"""

from __future__ import annotations

import itertools

from ...report.steps import require_sympy

__all__ = ["CHECK_R", "_WHERE", "_expect", "_pairs", "_r_of_p", "_rk", "_symbols", "_tiny", "_weights", "_yes"]

_WHERE = {"3": "Section 3", "L31": "Section 3.1, Lemma 3.1, proof", "A1": "Appendix, Lemma A.1",
          "L32": "Section 3.2, Lemma 3.2", "T31": "Section 3.2, Theorem 3.1", "L33": "Section 3.3, Lemma 3.3, proof",
          "T32": "Section 3.3, Theorem 3.2, proof"}
#: The replicabilities at which the numeric checks are run (two outcome values).
CHECK_R = (0.5, 0.6, 0.7, 0.82, 0.9, 0.95, 1.0)


def _sp():
    return require_sympy()


def _symbols():
    sp = _sp()
    p = sp.Symbol("p", positive=True)
    return {"sp": sp, "p": p, "q": 1 - p, "r": sp.Symbol("r", positive=True), "n": sp.Symbol("n", positive=True),
            "m": sp.Symbol("m", positive=True, integer=True), "i": sp.Symbol("i", integer=True, nonnegative=True),
            "s": sp.Symbol("s")}


def _r_of_p(S):
    return S["p"] ** 2 + S["q"] ** 2


def _tiny(value):
    """A difference at the level of round-off shown as a bound (the same text on every machine)."""
    return "< 1e-12" if value < 1e-12 else f"{value:.1e}"


def _yes(flag):
    return "holds" if flag else "does not hold"


def _pairs(n):
    return list(itertools.combinations(range(n), 2))


def _weights(S, n, eliminate=True):
    """Symbolic weights k_ij of R̂k on n runs; with ``eliminate`` k_12 = 1 - (sum of the others) (Eq. 3)."""
    sp = S["sp"]
    k = {pr: sp.Symbol(f"k{pr[0] + 1}{pr[1] + 1}") for pr in _pairs(n)}
    if eliminate:
        k[(0, 1)] = 1 - sum(v for pr, v in k.items() if pr != (0, 1))
    return k


def _expect(S, n, f):
    """``sum_e P(e) f(e)`` over the 2^n outcome vectors (1 = accept with probability p), symbolic."""
    sp = S["sp"]
    total = 0
    for e in itertools.product((1, 0), repeat=n):
        total += sp.Mul(*[S["p"] if x else S["q"] for x in e]) * f(e)
    return sp.expand(total)


def _rk(e, k):
    return sum(w for (a, b), w in k.items() if e[a] == e[b])
