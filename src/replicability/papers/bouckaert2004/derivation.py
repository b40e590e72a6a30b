"""Section 3 of Bouckaert (2004), step by step: the estimators R̂1, R̂2 and R̂k, Lemmas 3.1-3.3, Theorems 3.1-3.2.

The steps are checked one by one in :mod:`.lemmas` (the range of r, Lemmas 3.1, A.1,
3.2 and 3.3) and :mod:`.theorems` (Theorems 3.1 and 3.2 and their proofs); each returns a
:class:`~replicability.report.steps.Step`. :func:`section3_derivation` runs them all in
the paper's order, and :func:`section3_derivation_page` makes the page of notebook
``bouckaert2004/05_section3_derivation``.

The paper: Bouckaert, R. R. (2004). Estimating replicability of classifier learning
experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338
"""

from __future__ import annotations

import numpy as np

from ..._validation import check_positive_int
from ...report.steps import Derivation
from .lemmas import (
    lemma31_binomial,
    lemma31_mean,
    lemma31_pair,
    lemma31_variance,
    lemma32,
    lemma33_members,
    lemma33_pair,
    lemma33_unbiased,
    lemma_a1,
    replicability_range,
)
from .theorems import (
    theorem31_p,
    theorem31_unbiased,
    theorem31_variance,
    theorem31_variance_order,
    theorem32_case_disjoint,
    theorem32_case_shared,
    theorem32_derivative,
    theorem32_gradient,
    theorem32_minimum,
    theorem32_stationary,
    theorem32_variance,
)

__all__ = ["DERIVATION_2004_STEPS", "section3_derivation", "section3_derivation_page"]

#: The steps in the paper's order.
DERIVATION_2004_STEPS = (
    "replicability_range", "lemma31_pair", "lemma31_mean", "lemma31_binomial", "lemma_a1", "lemma31_variance",
    "lemma32", "theorem31_p", "theorem31_unbiased", "theorem31_variance", "theorem31_variance_order",
    "lemma33_pair", "lemma33_unbiased", "lemma33_members", "theorem32_variance", "theorem32_derivative",
    "theorem32_gradient", "theorem32_case_disjoint", "theorem32_case_shared", "theorem32_stationary",
    "theorem32_minimum",
)


def section3_derivation(*, seed=2004, max_enumerated=12, n_sim=20_000, sim_n=(10, 28), gradient_n=5):
    """Every step of Section 3 (and Lemma A.1) of Bouckaert (2004), checked, in the paper's order.

    Parameters
    ----------
    seed : int
        Root seed: ``numpy.random.default_rng(seed)`` feeds, in order, the simulation
        of Lemma 3.1, that of Theorem 3.1, the random weights of Lemma 3.3 and the
        search of Theorem 3.2.
    max_enumerated : int
        Largest number of runs enumerated exactly (``2^n`` vectors).
    n_sim : int
        Simulated outcome vectors per size.
    sim_n : tuple of int
        Numbers of runs simulated for Theorem 3.1 (the paper's 10 and Figure 2's 28).
    gradient_n : int
        Runs of the symbolic check of the two cases of Theorem 3.2 (at least 5).

    Returns
    -------
    Derivation
        The steps; ``as_page()`` gives the notebook's page.

    Examples
    --------
    >>> d = section3_derivation(max_enumerated=6, n_sim=2000)
    >>> d.counts()["n_steps"], d["lemma32"].outcome, d["theorem31_variance"].outcome
    (21, 'confirmed', 'erratum')
    """
    max_enumerated = check_positive_int(max_enumerated, "max_enumerated", minimum=4)
    gradient_n = check_positive_int(gradient_n, "gradient_n", minimum=5)
    rng = np.random.default_rng(seed)
    kw = {"max_enumerated": max_enumerated}
    steps = [
        replicability_range(), lemma31_pair(), lemma31_mean(**kw), lemma31_binomial(**kw), lemma_a1(),
        lemma31_variance(**kw, n_sim=n_sim, rng=rng), lemma32(**kw), theorem31_p(), theorem31_unbiased(**kw),
        theorem31_variance(**kw, sim_n=tuple(sim_n), n_sim=n_sim, rng=rng), theorem31_variance_order(),
        lemma33_pair(), lemma33_unbiased(rng=rng), lemma33_members(**kw), theorem32_variance(),
        theorem32_derivative(), theorem32_gradient(), theorem32_case_disjoint(n=gradient_n),
        theorem32_case_shared(n=gradient_n), theorem32_stationary(), theorem32_minimum(rng=rng),
    ]
    values = {"max_enumerated": max_enumerated, "n_sim": n_sim, "gradient_n": gradient_n}
    return Derivation("bouckaert2004", "05_section3_derivation", steps, values)


def section3_derivation_page(*, seed=2004, max_enumerated=12, n_sim=20_000, sim_n=(10, 28), gradient_n=5):
    """The page of notebook ``bouckaert2004/05_section3_derivation``: every step of Section 3, checked.

    Parameters are those of :func:`section3_derivation`.

    Returns
    -------
    Page
        :meth:`~replicability.report.steps.Derivation.as_page` of the derivation.

    Examples
    --------
    >>> page = section3_derivation_page(max_enumerated=6, n_sim=2000)
    >>> page.name, page.values["n_steps"], "lemma32" in page.tables
    ('05_section3_derivation', 21, True)
    """
    der = section3_derivation(seed=seed, max_enumerated=max_enumerated, n_sim=n_sim, sim_n=sim_n,
                              gradient_n=gradient_n)
    return der.as_page()
