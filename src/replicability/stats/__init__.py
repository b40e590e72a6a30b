"""Statistics: every test, sampling scheme, calibration, decision, replicability measure and estimator.

Pure functions over arrays (scipy.stats style), vectorized over leading axes. This room
imports nothing from the rest of the package but the shared private helpers. Every
public name of its modules is importable from here (``rp.stats.r1_weights``), each module
loaded on first use.
"""

from .._lazy import attach

_MODULES = {
    "ttests": (
        "TTestResult", "UnsignedResult", "alpaydin_5x2cv_ftest", "corrected_repeated_cv_ttest",
        "corrected_resampled_ttest", "dietterich_5x2cv_ttest", "kfold_cv_ttest", "paired_ttest", "resampled_ttest",
    ),
    "nonparametric": ("SignTestResult", "SignedRankResult", "sign_test", "signed_rank_test"),
    "contingency": (
        "McNemarResult", "bonferroni", "cochran_q_test", "holm", "looney_ftest", "mcnemar_table", "mcnemar_test",
        "proportions_ztest",
    ),
    "schemes": (
        "SCHEMES", "VARIANTS", "SchemeMoments", "scheme_moments", "scheme_sample", "scheme_test", "scheme_ttest",
        "scheme_ttest_from_moments",
    ),
    "scheme_grammar": ("SAMPLES", "SCHEME_ALIASES", "SplitScheme", "check_sample", "parse_scheme"),
    "calibration": ("CalibrationResult", "calibrate_df", "rejection_rate"),
    "decisions": ("Outcome", "decide"),
    "measures": (
        "OUTCOME_VALUES", "almost_consistency", "almost_consistency_from_counts", "consistency",
        "consistency_from_counts", "normalized_replicability", "outcome_counts", "r1_variance", "r2_variance",
        "replicability_from_probabilities", "replicability_r1", "replicability_r2",
        "replicability_r2_from_counts", "type1_replicability_bound",
    ),
    "estimators": (
        "MinimumVarianceResult", "binomial_power_sums", "binomial_power_sums_closed_form",
        "linear_estimator_variance", "linear_replicability", "minimum_variance_weights", "pair_agreement",
        "pair_covariance", "pair_indices", "probabilities_from_replicability", "r1_weights",
        "r2_variance_theorem31", "r2_weights",
    ),
    "enumeration": (
        "Moments", "enumerate_outcomes", "exact_moments", "outcome_probabilities", "sample_moments",
        "simulate_outcomes",
    ),
    "bootstrap": (
        "BootstrapScores", "ConfidenceInterval", "bootstrap_632", "bootstrap_632_plus", "bootstrap_oob_scores",
        "holdout_accuracy_interval", "no_information_rate", "percentile_interval", "standard_interval",
    ),
    "evaluation": (
        "LearningCurve", "learning_curve_scores", "normal_interval_coverage", "random_split_deviation_probability",
        "repeated_holdout_scores", "simulate_interval_coverage", "split_class_counts",
    ),
    "resampling": ("bootstrap_inclusion_probability", "compare_accuracy_estimates", "subsample_moments"),
    "bayesian": (
        "BAYESIAN_DECISIONS", "BayesianResult", "BayesianSignedRankResult", "BayesianTTestResult",
        "bayesian_correlated_ttest", "bayesian_signed_rank_test",
    ),
    "ranks": (
        "FriedmanResult", "NemenyiResult", "average_ranks", "critical_difference", "critical_value", "friedman_test",
        "nemenyi_test", "rank_cliques", "rank_scores",
    ),
    "control": ("ControlTestResult", "control_test"),
    "hierarchical": ("HierarchicalResult", "effective_sample_size", "hierarchical_test", "split_rhat"),
    "pairwise": ("PairwiseResult", "pairwise_test", "significance_cliques"),
    "incomplete": ("IncompleteBlockResult", "durbin_test", "is_balanced_incomplete", "skillings_mack_test"),
    "cv_intervals": (
        "CVLosses", "LOSSES", "corrected_cv_interval", "cv_fold_ids", "cv_losses", "naive_cv_interval",
    ),
    "equivalence": ("TostResult", "noninferiority", "tost"),
    "planning": ("QUADRATURE_NODES", "agreement_probability", "conditional_outcomes", "corrected_power",
                 "corrected_replicability", "normal_quadrature", "power_cap"),
    "variance_components": ("COMPONENTS", "VarianceComponents", "crossed_components"),
    "nested_cv": ("NestedCVResult", "nested_cv_from_terms", "nested_cv_interval"),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
