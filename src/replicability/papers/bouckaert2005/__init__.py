"""Bouckaert (2005): Task I designs, the adaptive design, the theory of Section 3 and the Appendix, and the pages.

``task1``, ``histograms``, ``adaptive`` and ``theory`` simulate and model Task I;
``theory_checks`` (Section 3 against simulation), ``curves`` (Figures 1-4),
``in_text`` (the in-text numbers of Section 4), ``readings`` (which reading of
"replicability" and of the x-axis gives them) and ``beyond`` (a million
instances, an adaptive design) compute the pages of the 2005 notebooks.
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
    "theory_checks": ("Section3", "section3", "section3_claims", "tail_mean_figure", "worst_case_figure"),
    "curves": (
        "FIGURES", "GROUPS", "SCALE_CAPS", "curve_summary", "curves_claims", "curves_figures", "summary_tables",
        "task1_curves",
    ),
    "readings": ("READINGS", "X_AXES", "Readings", "reading_values", "replicability_readings"),
    "in_text": (
        "designs_at_equal_cost", "equal_cost_claims", "equal_cost_readings", "in_text_claims", "in_text_figure",
        "mcnemar_type1", "mcnemar_worst_case",
    ),
    "beyond": (
        "ADAPTIVE", "GROUPS_LARGE", "adaptive_design", "adaptive_figure", "beyond_claims", "key_numbers", "million",
        "million_figure",
    ),
    "derivation": (
        "APPENDIX_SIZES", "DERIVATION_2005_STEPS", "appendix_conditional_mean", "appendix_derivation",
        "appendix_drop_term", "appendix_half_rejected", "appendix_other_branch", "appendix_p_prime",
        "appendix_q_product", "appendix_q_threshold", "appendix_rejected_typo", "appendix_rescale",
        "appendix_sigma_binomial", "appendix_split_integral", "appendix_t_prime", "appendix_upper_limit",
        "appendix_worst_case", "appendix_x_plus_y", "calibrated_thresholds", "normal_pair", "section3_accept_accept",
        "continuity_trend", "section3_accept_mean", "section3_bound_independent", "section3_bound_is_lower",
        "section3_decreases_with_n",
        "section3_m_prime", "section3_p_prime", "section3_reject_reject", "section3_sigma_prime",
        "section3_surplus_scale", "section3_t_square", "section3_tail_approximation", "section3_tail_mean",
        "section3_total", "section3_two_sided", "section3_z_rewrite", "section3_z_sign", "two_experiments",
        "two_experiments_exact", "two_experiments_table",
    ),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
