"""Bouckaert (2005): Task I designs, the adaptive design, the theory of Section 3 and the Appendix, and the pages.

``task1``, ``histograms``, ``adaptive`` and ``theory`` simulate and model Task I;
``theory_checks`` (Section 3 against simulation), ``curves`` (Figures 1-4),
``in_text`` (the in-text numbers of Section 4), ``readings`` (which reading of
"replicability" and of the x-axis gives them), ``beyond`` (a million instances, an
adaptive design) and ``derivation`` (Section 3 and the Appendix step by step: the
steps are in ``statistic_steps``, ``type1_steps`` and ``worst_case_steps``, the
model they are checked against in ``overlap``) compute the pages.

Every notebook page is made by one page builder (notebook -> builder):

* ``01_theory`` -> ``section3_page`` (Section 3 and the Appendix beside simulation);
* ``02_task1_curves`` -> ``task1_curves_page`` (Figures 1-4);
* ``03_in_text_numbers`` -> ``in_text_page`` (the in-text numbers of Section 4), and
  its investigation of the readings of "replicability" -> ``replicability_readings_page``;
* ``04_beyond`` -> ``beyond_page`` (a million instances, an adaptive design);
* ``05_appendix_derivation`` -> ``appendix_derivation_page`` (Section 3 and the
  Appendix step by step).

Each builder calls the module's computation (``section3``, ``task1_curves``,
``mcnemar_type1``/``mcnemar_worst_case``/``designs_at_equal_cost``,
``replicability_readings``, ``million``/``adaptive_design``, ``appendix_derivation``)
and its claims (``*_claims``, held to the rules of :mod:`replicability.report.claims`)
and returns a :class:`replicability.report.page.Page`.
"""

from ..._lazy import attach

_MODULES = {
    "task1": (
        "TASK1_DESIGNS", "Task1Design", "cached_task1", "cv_outcomes", "design_outcomes", "mcnemar_outcomes",
        "resampling_outcomes", "simulate_task1",
    ),
    "histograms": ("REPEATS_ATTR", "histogram_measures", "outcome_cells", "outcome_histogram", "stored_measures"),
    "adaptive": ("adaptive_cv_outcomes", "simulate_adaptive"),
    "theory": (
        "agreement_normal_model", "mcnemar_epsilon", "mcnemar_type1_replicability", "normal_tail_mean",
        "normal_tail_mean_linear", "task1_worst_case_gap", "worst_case_replicability_appendix",
    ),
    "theory_checks": ("Section3", "section3", "section3_claims", "section3_page"),
    "curves": (
        "FIGURES", "GROUPS", "SCALE_CAPS", "curve_summary", "curves_claims", "summary_tables", "task1_curves",
        "task1_curves_page",
    ),
    "readings": (
        "READINGS", "X_AXES", "Readings", "reading_values", "replicability_readings", "replicability_readings_page",
    ),
    "in_text": (
        "designs_at_equal_cost", "equal_cost_claims", "equal_cost_readings", "in_text_claims", "in_text_page",
        "mcnemar_type1", "mcnemar_worst_case",
    ),
    "beyond": (
        "ADAPTIVE", "GROUPS_LARGE", "adaptive_design", "beyond_claims", "beyond_page", "key_numbers", "million",
    ),
    "overlap": (
        "APPENDIX_SIZES", "calibrated_thresholds", "continuity_trend", "normal_pair", "two_experiments",
        "two_experiments_exact", "two_experiments_table",
    ),
    "statistic_steps": (
        "section3_bound_independent", "section3_bound_is_lower", "section3_t_square", "section3_two_sided",
        "section3_z_rewrite", "section3_z_sign",
    ),
    "type1_steps": (
        "section3_accept_accept", "section3_accept_mean", "section3_decreases_with_n", "section3_m_prime",
        "section3_p_prime", "section3_reject_reject", "section3_sigma_prime", "section3_surplus_scale",
        "section3_tail_approximation", "section3_tail_mean", "section3_total",
    ),
    "worst_case_steps": (
        "appendix_conditional_mean", "appendix_drop_term", "appendix_half_rejected", "appendix_other_branch",
        "appendix_p_prime", "appendix_q_product", "appendix_q_threshold", "appendix_rejected_typo",
        "appendix_rescale", "appendix_sigma_binomial", "appendix_split_integral", "appendix_t_prime",
        "appendix_upper_limit", "appendix_worst_case", "appendix_x_plus_y",
    ),
    "derivation": ("DERIVATION_2005_STEPS", "appendix_derivation", "appendix_derivation_page"),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
