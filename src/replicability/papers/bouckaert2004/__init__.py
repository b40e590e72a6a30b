"""Bouckaert (2004): the estimators of replicability, Table 1, the Section 4 sweep and Table 2 (UCI).

The sampling schemes, outcomes and summaries it shares with Bouckaert & Frank (2004)
are in :mod:`replicability.papers.shared.readings`; ``theory`` (Section 3, Figure 2, Lemma A.1),
``synthetic`` (Table 1), ``sign_rules`` (which sign test gives Table 1's
sign-test row), ``sorted_runs`` (the Section 4 sweep) and ``uci``
(Table 2) compute the pages of the 2004 notebooks, their tables, figures and
claims (shown by ``replicability.report.page``).
"""

from ..._lazy import attach

_MODULES = {
    "theory": ("SECTION3_SIZES", "Section3", "figure2", "section3", "section3_claims", "theorem31_figure"),
    "synthetic": (
        "TABLE1_COLUMNS", "TABLE1_LABELS", "TABLE1_ROWS", "TABLE1_SIZES", "Table1", "table1", "table1_claims",
        "table1_differences", "table1_figure",
    ),
    "sorted_runs": (
        "SWEEP_LEARNER_PAIRS", "SWEEP_SIZES", "SWEEP_TESTS", "Sweep", "class_probability_figure", "runs_figure",
        "sweep", "sweep_claims",
    ),
    "sign_rules": (
        "SIGN_VARIANTS", "VERY_CLOSE", "SignVariants", "sign_counts", "sign_rules_on_table2", "sign_test_variants",
        "sign_variant_outcomes",
    ),
    "uci": ("TABLE2_TESTS", "Table2", "normalized", "table2", "table2_claims", "table2_figure"),
    "derivation": (
        "DERIVATION_2004_STEPS", "lemma31_binomial", "lemma31_mean", "lemma31_pair", "lemma31_variance", "lemma32",
        "lemma33_members", "lemma33_pair", "lemma33_unbiased", "lemma_a1", "replicability_range",
        "section3_derivation", "theorem31_p", "theorem31_unbiased", "theorem31_variance", "theorem31_variance_order",
        "theorem32_case_disjoint", "theorem32_case_shared", "theorem32_derivative", "theorem32_gradient",
        "theorem32_minimum", "theorem32_stationary", "theorem32_variance",
    ),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
