"""Replicability of significance tests for comparing two learning algorithms.

A reproducible compendium of Bouckaert (2003, 2004, 2005), Bouckaert & Frank
(2004) and Raschka (2018). Every public name is importable from here; the module
that defines it is imported on first use (PEP 562), so ``import replicability``
stays light. The package's rooms: ``stats``, ``learners``, ``sources``, ``engine``
and ``papers``.
"""

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version

#: Each public name, under the module that defines it.
_MODULES = {
    "_results": ("TestResult",),
    "sources.arff": ("ArffError", "Dataset", "load_arff", "parse_arff",),
    "sources.bayesnet": (
        "BOUCKAERT2003_TARGETS", "BayesNet", "ExpectedAccuracy", "bayes_optimal_accuracy",
        "bouckaert2003_source", "exact_accuracy", "expected_accuracies", "independent_network",
        "load_bouckaert2003_networks", "random_network", "sample_bayesnet", "search_network",
    ),
    "stats.bootstrap": (
        "BootstrapScores", "ConfidenceInterval", "bootstrap_632", "bootstrap_632_plus", "bootstrap_oob_scores",
        "holdout_accuracy_interval", "no_information_rate", "percentile_interval", "standard_interval",
    ),
    "papers.bouckaert2003": (
        "CALIBRATED_TESTS", "FIGURE2_RUNS", "STUDY_TESTS", "TEST_LABELS", "null_calibration",
        "rejection_counts", "replicability_summary", "select_calibrated_df", "study_outcomes", "study_test",
    ),
    "stats.calibration": ("CalibrationResult", "calibrate_df", "rejection_rate",),
    "stats.contingency": (
        "McNemarResult", "bonferroni", "cochran_q_test", "holm", "looney_ftest", "mcnemar_test",
        "proportions_ztest",
    ),
    "sources.counts": (
        "FoldStatistics", "cv_fold_counts", "holdout_fold_counts", "sample_task1_counts",
        "task1_fold_statistics",
    ),
    "sources.uci": ("OPENML_URL", "ChecksumError", "download_uci", "list_uci", "load_uci",),
    "stats.decisions": ("Outcome", "decide",),
    "engine.pairs": ("evaluate_nb_c45", "evaluate_pair_fast", "evaluate_pair_loop", "register_all",),
    "stats.enumeration": (
        "Moments", "enumerate_outcomes", "exact_moments", "outcome_probabilities", "sample_moments",
        "simulate_outcomes",
    ),
    "stats.estimators": (
        "MinimumVarianceResult", "binomial_power_sums", "binomial_power_sums_closed_form",
        "linear_estimator_variance", "linear_replicability", "minimum_variance_weights", "pair_agreement",
        "pair_covariance", "pair_indices", "probabilities_from_replicability", "r1_weights",
        "r2_variance_theorem31", "r2_weights",
    ),
    "stats.evaluation": (
        "LearningCurve", "bootstrap_inclusion_probability", "compare_accuracy_estimates",
        "learning_curve_scores", "normal_interval_coverage", "random_split_deviation_probability",
        "repeated_holdout_scores", "simulate_interval_coverage", "split_class_counts", "subsample_moments",
    ),
    "engine.runner": (
        "ExperimentConfig", "register_learner", "register_pair_evaluator", "register_scheme", "register_source",
        "run_experiment", "stack_sources",
    ),
    "papers.bouckaert_frank2004.fidelity": (
        "LEARNERS", "cv_correct", "fidelity_table", "fold_hits", "read_weka_cv", "uci_cv_correct",
        "uci_fidelity", "weka_cv_splits",
    ),
    "learners": (
        "C45", "IB1", "TAN", "AlwaysPredict", "CopyAttribute", "NaiveBayes", "VotedPerceptron", "c45_patterns",
        "naive_bayes_patterns", "pattern_counts", "pattern_index", "pattern_matrix",
    ),
    "stats.measures": (
        "OUTCOME_VALUES", "almost_consistency", "almost_consistency_from_counts", "consistency",
        "consistency_from_counts", "normalized_replicability", "outcome_counts", "r1_variance", "r2_variance",
        "replicability_from_probabilities", "replicability_r1", "replicability_r2",
        "replicability_r2_from_counts", "type1_replicability_bound",
    ),
    "stats.nonparametric": ("SignedRankResult", "SignTestResult", "sign_test", "signed_rank_test",),
    "papers.bouckaert2004": (
        "EXPERIMENT_SCHEMES", "EXPERIMENT_TESTS", "experiment_outcomes", "experiment_sample",
        "interval_of_mean", "monotone_within", "outcome_summary",
    ),
    "stats.schemes": ("SCHEMES", "VARIANTS", "scheme_sample", "scheme_test", "scheme_ttest",),
    "engine.splits": ("FiveByTwoCV", "RandomSubsampling", "RepeatedCV", "rxk_cv_splits",),
    "engine.store": (
        "CacheWarning", "ResultStore", "cached_result", "dataset_checksum", "default_cache_dir",
        "paper_results_dir", "provenance", "write_netcdf_atomic",
    ),
    "papers.raschka2018": (
        "ALGORITHM_TESTS", "PairedScores", "algorithm_test_study", "bayes_accuracy", "cv_bias_variance_study",
        "one_standard_error_rule", "paired_split_scores", "sample_gaussian_classes", "tuning_bias_study",
    ),
    "sources.synthetic": ("TASK1_CELLS", "sample_independent_binary", "sample_task1", "task1_probabilities",),
    "papers.synthetic_runs": ("SYNTHETIC_SOURCES", "fold_differences", "synthetic_fold_counts",),
    "engine.tables": ("data_dir", "read_published", "write_reproduced",),
    "papers.bouckaert2005.task1": (
        "TASK1_DESIGNS", "Task1Design", "cached_task1", "cv_outcomes", "design_outcomes", "histogram_measures",
        "mcnemar_outcomes", "outcome_cells", "outcome_histogram", "resampling_outcomes", "simulate_task1",
    ),
    "papers.bouckaert2005.adaptive": ("adaptive_cv_outcomes", "simulate_adaptive",),
    "papers.bouckaert2005.theory": (
        "agreement_normal_model", "mcnemar_epsilon", "mcnemar_type1_replicability", "normal_tail_mean",
        "normal_tail_mean_linear", "task1_worst_case_gap", "worst_case_replicability_appendix",
    ),
    "stats.ttests": (
        "alpaydin_5x2cv_ftest", "corrected_repeated_cv_ttest", "corrected_resampled_ttest",
        "dietterich_5x2cv_ttest", "kfold_cv_ttest", "paired_ttest", "resampled_ttest",
    ),
    "papers.bouckaert_frank2004.uci_runs": (
        "UCI_PAIRS", "UCI_SCHEMES", "uci_fold_hits", "uci_scheme_results",
    ),
    "papers.bouckaert_frank2004.uci_tables": (
        "PAIR_LABELS", "UCI_TESTS", "consistency_table", "draw_counts", "fold_accuracy_differences",
        "uci_test_outcomes",
    ),
}
_ROOMS = ("stats", "learners", "sources", "engine", "papers")
_WHERE = {name: module for module, names in _MODULES.items() for name in names}


def __getattr__(name):
    if name in _ROOMS:
        return import_module(f".{name}", __name__)
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))


try:
    __version__ = version("replicability")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0+unknown"

__all__ = ["__version__", *_WHERE]
