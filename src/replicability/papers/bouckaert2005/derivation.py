"""Section 3 and the Appendix of Bouckaert (2005), step by step: McNemar's test under overlapping test sets.

Each step of the paper is checked by one function that returns a
:class:`~replicability.report.steps.Step` (printed form, correction, method, result):
Section 3's lower bound and statistic in the module ``statistic_steps``, Section 3.1's
Type I replicability in ``type1_steps`` and the Appendix's worst case in
``worst_case_steps``; the model they check against (two experiments whose test sets
overlap, simulated and enumerated exactly) is in ``overlap``.
:func:`appendix_derivation` runs every step in the paper's order, and
:func:`appendix_derivation_page` makes the page of notebook
``bouckaert2005/05_appendix_derivation``.

The paper: Bouckaert, R. R. (2005). Low replicability of machine learning experiments is
not a small data set phenomenon. ICML 2005 Workshop on Meta-learning.
"""

from __future__ import annotations

import numpy as np

from ..._validation import check_alpha, check_positive_int
from ...report.steps import Derivation
from .overlap import APPENDIX_SIZES, two_experiments_table
from .statistic_steps import (
    section3_bound_independent,
    section3_bound_is_lower,
    section3_t_square,
    section3_two_sided,
    section3_z_rewrite,
    section3_z_sign,
)
from .theory import mcnemar_epsilon, worst_case_replicability_appendix
from .type1_steps import (
    section3_accept_accept,
    section3_accept_mean,
    section3_decreases_with_n,
    section3_m_prime,
    section3_p_prime,
    section3_reject_reject,
    section3_sigma_prime,
    section3_surplus_scale,
    section3_tail_approximation,
    section3_tail_mean,
    section3_total,
)
from .worst_case_steps import (
    appendix_conditional_mean,
    appendix_drop_term,
    appendix_half_rejected,
    appendix_other_branch,
    appendix_p_prime,
    appendix_q_product,
    appendix_q_threshold,
    appendix_rejected_typo,
    appendix_rescale,
    appendix_sigma_binomial,
    appendix_split_integral,
    appendix_t_prime,
    appendix_upper_limit,
    appendix_worst_case,
    appendix_x_plus_y,
)

__all__ = ["DERIVATION_2005_STEPS", "appendix_derivation", "appendix_derivation_page"]

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


def appendix_derivation_page(*, seed=2005, alpha=0.05, sizes=APPENDIX_SIZES["sizes"],
                             test_sizes=APPENDIX_SIZES["test_sizes"], n_sim=400_000, n_sim_worst=200_000,
                             exact_size=40):
    """The page of notebook ``bouckaert2005/05_appendix_derivation``: every step of Section 3 and the Appendix.

    Parameters are those of :func:`appendix_derivation`.

    Returns
    -------
    Page
        :meth:`~replicability.report.steps.Derivation.as_page` of the derivation.

    Examples
    --------
    >>> page = appendix_derivation_page(sizes=(1000, 10000), test_sizes=(0.5,), n_sim=20_000, n_sim_worst=20_000,
    ...                                 exact_size=16)
    >>> page.name, page.values["n_steps"], "worst_case" in page.tables
    ('05_appendix_derivation', 32, True)
    """
    der = appendix_derivation(seed=seed, alpha=alpha, sizes=tuple(sizes), test_sizes=tuple(test_sizes), n_sim=n_sim,
                              n_sim_worst=n_sim_worst, exact_size=exact_size)
    page = der.as_page()
    # The errata page's numbers: epsilon(t) of the exact (bivariate normal) model at the test fractions, the
    # largest gap for t <= 1/2 between the Appendix's Phi(t sqrt(2/pi)) and the exact 1/2 + arcsin(t)/pi, and
    # Task I's replicability (%) at the smallest and largest N with and without the continuity correction.
    t = np.linspace(0.0, 0.5, 501)
    evidence = der["decreases_with_n"].evidence
    task1 = evidence[evidence["model"] == "Task I, gap 0"].sort_values("N")
    with_c, without = (100 * task1.loc[task1["correction"] == c, "simulated"] for c in ("with (Eq. 1)", "without"))
    page.values.update({
        "continuity_with_first": round(float(with_c.iloc[0]), 1),
        "continuity_with_last": round(float(with_c.iloc[-1]), 1),
        "continuity_without_last": round(float(without.iloc[-1]), 1),
        "epsilon_normal": ", ".join(f"{float(mcnemar_epsilon(x, alpha=alpha, model='normal')):.3f}"
                                    for x in test_sizes),
        "appendix_arcsin_gap": round(float(np.max(np.abs(worst_case_replicability_appendix(t)
                                                         - (0.5 + np.arcsin(t) / np.pi)))), 3)})
    return page
