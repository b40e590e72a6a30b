"""Replicability of significance tests for comparing two learning algorithms.

A reproducible compendium of Bouckaert (2003, 2004, 2005), Bouckaert & Frank
(2004) and Raschka (2018). The top level holds what a practitioner uses: the tests,
decisions and replicability measures, the result types, the learners, the data
loaders, the splitters and the runner, and ``compare``. Everything else lives in the package's
rooms, each importable as an attribute: ``rp.stats``, ``rp.learners``,
``rp.sources``, ``rp.engine``, ``rp.comparison`` and ``rp.papers.<paper>`` (each paper's own
experiments and tables). A name's module is imported on its first use (PEP 562),
so ``import replicability`` loads neither numba, xarray nor scikit-learn.
"""

from importlib.metadata import PackageNotFoundError, version

from ._lazy import attach

#: Each top-level name, under the module that defines it.
_MODULES = {
    "_results": ("TestResult",),
    "stats.ttests": (
        "alpaydin_5x2cv_ftest", "corrected_repeated_cv_ttest", "corrected_resampled_ttest",
        "dietterich_5x2cv_ttest", "kfold_cv_ttest", "paired_ttest", "resampled_ttest",
    ),
    "stats.nonparametric": ("SignTestResult", "SignedRankResult", "sign_test", "signed_rank_test"),
    "stats.contingency": (
        "McNemarResult", "bonferroni", "cochran_q_test", "holm", "looney_ftest", "mcnemar_table", "mcnemar_test",
        "proportions_ztest",
    ),
    "stats.schemes": ("SCHEMES", "scheme_test"),
    "stats.calibration": ("CalibrationResult", "calibrate_df"),
    "stats.decisions": ("Outcome", "decide"),
    "stats.bayesian": ("bayesian_correlated_ttest", "bayesian_signed_rank_test"),
    "stats.measures": (
        "almost_consistency", "consistency", "normalized_replicability", "outcome_counts", "replicability_r1",
        "replicability_r2",
    ),
    "stats.bootstrap": (
        "ConfidenceInterval", "bootstrap_632", "bootstrap_632_plus", "holdout_accuracy_interval",
        "percentile_interval", "standard_interval",
    ),
    "learners": ("C45", "IB1", "TAN", "AlwaysPredict", "CopyAttribute", "NaiveBayes", "VotedPerceptron"),
    "sources.arff": ("ArffError", "Dataset", "load_arff"),
    "sources.uci": ("ChecksumError", "download_uci", "list_uci", "load_uci"),
    "engine.splits": ("FiveByTwoCV", "RandomSubsampling", "RepeatedCV"),
    "engine.runner": ("ExperimentConfig", "run_experiment"),
    "engine.store": ("ResultStore",),
    "comparison.run": ("compare", "compare_scores"),
    "comparison.result": ("Comparison",),
    "comparison.pairwise_result": ("PairwiseComparison",),
    "comparison.sources": ("SourceVariance", "variance_by_source"),
    "comparison.planning": ("plan", "plan_datasets"),
    "stats.ranks": ("friedman_test", "nemenyi_test"),
    "stats.cv_intervals": ("corrected_cv_interval", "naive_cv_interval"),
    "stats.nested_cv": ("nested_cv_interval",),
    "comparison.many": ("compare_many", "compare_many_scores"),
    "comparison.many_result": ("ManyComparison",),
    "plotting": ("critical_difference_diagram", "multi_comparison_matrix"),
}
_ROOMS = ("stats", "learners", "sources", "engine", "comparison", "report", "papers")
__getattr__, __dir__, __all__ = attach(__name__, _MODULES, submodules=_ROOMS)

try:
    __version__ = version("replicability")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0+unknown"
__all__ = ["__version__", *__all__]
