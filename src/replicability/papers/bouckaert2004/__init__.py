"""Bouckaert (2004): the estimators of replicability, Table 1, the Section 4 sweep and Table 2 (UCI).

Every notebook page is made by one page builder (notebook -> builder):

* ``01_estimators`` -> ``section3_page`` (Section 3, Figure 2, Lemma A.1);
* ``02_table1`` -> ``table1_page`` (Table 1), and its investigation of the
  sign-test row -> ``sign_test_variants_page``;
* ``03_sweep`` -> ``sweep_page`` (the Section 4 sweep);
* ``04_table2_uci`` -> ``table2_page`` (Table 2);
* ``05_section3_derivation`` -> ``section3_derivation_page`` (Section 3 step
  by step: the steps are in ``lemmas`` and ``theorems``).

Each builder calls the module's computation (``section3``, ``table1``, ``sign_test_variants``
and ``sign_rules_on_table2``, ``sweep``, ``table2``, ``section3_derivation``) and its claims
(``*_claims``, held to the rules of :mod:`replicability.report.claims`) and returns a
:class:`replicability.report.page.Page`. The sampling schemes, outcomes and summaries it
shares with Bouckaert & Frank (2004) are in :mod:`replicability.papers.shared.readings`.
"""

from ..._lazy import attach

_MODULES = {
    "theory": ("SECTION3_SIZES", "Section3", "section3", "section3_claims", "section3_page"),
    "synthetic": (
        "TABLE1_COLUMNS", "TABLE1_LABELS", "TABLE1_ROWS", "TABLE1_SIZES", "Table1", "table1", "table1_claims",
        "table1_differences", "table1_page",
    ),
    "sorted_runs": (
        "SWEEP_LEARNER_PAIRS", "SWEEP_SIZES", "SWEEP_TESTS", "Sweep", "sweep", "sweep_claims", "sweep_page",
    ),
    "sign_rules": (
        "SIGN_VARIANTS", "VERY_CLOSE", "SignVariants", "sign_counts", "sign_rules_on_table2", "sign_test_variants",
        "sign_test_variants_page", "sign_variant_outcomes",
    ),
    "uci": ("TABLE2_TESTS", "Table2", "normalized", "table2", "table2_claims", "table2_page"),
    "lemmas": (
        "lemma31_binomial", "lemma31_mean", "lemma31_pair", "lemma31_variance", "lemma32", "lemma33_members",
        "lemma33_pair", "lemma33_unbiased", "lemma_a1", "replicability_range",
    ),
    "theorems": (
        "theorem31_p", "theorem31_unbiased", "theorem31_variance", "theorem31_variance_order",
        "theorem32_case_disjoint", "theorem32_case_shared", "theorem32_derivative", "theorem32_gradient",
        "theorem32_minimum", "theorem32_stationary", "theorem32_variance",
    ),
    "derivation": ("DERIVATION_2004_STEPS", "section3_derivation", "section3_derivation_page"),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
