"""Replicability of significance tests for comparing two learning algorithms.

A reproducible compendium of Bouckaert (2003, 2004, 2005), Bouckaert & Frank
(2004) and Raschka (2018). Every public name is importable from here.
"""

from importlib.metadata import PackageNotFoundError, version

from ._results import TestResult
from .arff import ArffError, Dataset, load_arff, parse_arff
from .bootstrap import (
    BootstrapScores,
    ConfidenceInterval,
    bootstrap_632,
    bootstrap_632_plus,
    bootstrap_oob_scores,
    holdout_accuracy_interval,
    no_information_rate,
    percentile_interval,
    standard_interval,
)
from .calibration import CalibrationResult, calibrate_df, rejection_rate
from .contingency import (
    McNemarResult,
    bonferroni,
    cochran_q_test,
    holm,
    looney_ftest,
    mcnemar_test,
    proportions_ztest,
)
from .counts import (
    FoldStatistics,
    cv_fold_counts,
    holdout_fold_counts,
    sample_task1_counts,
    task1_fold_statistics,
)
from .datasets import OPENML_URL, ChecksumError, download_uci, list_uci, load_uci
from .decisions import Outcome, decide
from .experiments import (
    ExperimentConfig,
    register_learner,
    register_pair_evaluator,
    register_scheme,
    register_source,
    run_experiment,
    stack_sources,
)
from .learners import (
    C45,
    IB1,
    TAN,
    AlwaysPredict,
    CopyAttribute,
    NaiveBayes,
    VotedPerceptron,
    c45_patterns,
    naive_bayes_patterns,
    pattern_counts,
    pattern_index,
    pattern_matrix,
)
from .measures import (
    OUTCOME_VALUES,
    almost_consistency,
    almost_consistency_from_counts,
    consistency,
    consistency_from_counts,
    normalized_replicability,
    outcome_counts,
    r1_variance,
    r2_variance,
    replicability_from_probabilities,
    replicability_r1,
    replicability_r2,
    replicability_r2_from_counts,
    type1_replicability_bound,
)
from .nonparametric import SignedRankResult, SignTestResult, sign_test, signed_rank_test
from .schemes import SCHEMES, VARIANTS, scheme_sample, scheme_test, scheme_ttest
from .splits import FiveByTwoCV, RandomSubsampling, RepeatedCV, rxk_cv_splits
from .store import (
    CacheWarning,
    ResultStore,
    cached_result,
    dataset_checksum,
    default_cache_dir,
    paper_results_dir,
    provenance,
    write_netcdf_atomic,
)
from .synthetic import TASK1_CELLS, sample_independent_binary, sample_task1, task1_probabilities
from .tables import data_dir, read_published, write_reproduced
from .ttests import (
    alpaydin_5x2cv_ftest,
    corrected_repeated_cv_ttest,
    corrected_resampled_ttest,
    dietterich_5x2cv_ttest,
    kfold_cv_ttest,
    paired_ttest,
    resampled_ttest,
)

try:
    __version__ = version("replicability")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0+unknown"

__all__ = [
    "__version__",
    # results and decisions
    "TestResult",
    "Outcome",
    "decide",
    # t-type tests and Bouckaert's sampling schemes
    "paired_ttest",
    "resampled_ttest",
    "corrected_resampled_ttest",
    "corrected_repeated_cv_ttest",
    "kfold_cv_ttest",
    "dietterich_5x2cv_ttest",
    "alpaydin_5x2cv_ftest",
    "SCHEMES",
    "VARIANTS",
    "scheme_sample",
    "scheme_ttest",
    "scheme_test",
    "CalibrationResult",
    "calibrate_df",
    "rejection_rate",
    # non-parametric and contingency tests
    "SignTestResult",
    "SignedRankResult",
    "sign_test",
    "signed_rank_test",
    "McNemarResult",
    "mcnemar_test",
    "proportions_ztest",
    "cochran_q_test",
    "looney_ftest",
    "bonferroni",
    "holm",
    # replicability measures
    "OUTCOME_VALUES",
    "outcome_counts",
    "replicability_r1",
    "replicability_r2",
    "replicability_r2_from_counts",
    "r1_variance",
    "r2_variance",
    "replicability_from_probabilities",
    "consistency",
    "consistency_from_counts",
    "almost_consistency",
    "almost_consistency_from_counts",
    "normalized_replicability",
    "type1_replicability_bound",
    # bootstrap and intervals
    "BootstrapScores",
    "ConfidenceInterval",
    "bootstrap_oob_scores",
    "bootstrap_632",
    "bootstrap_632_plus",
    "no_information_rate",
    "percentile_interval",
    "standard_interval",
    "holdout_accuracy_interval",
    # data sources
    "TASK1_CELLS",
    "task1_probabilities",
    "sample_task1",
    "sample_independent_binary",
    "FoldStatistics",
    "sample_task1_counts",
    "holdout_fold_counts",
    "cv_fold_counts",
    "task1_fold_statistics",
    # learners and their batched fast paths
    "NaiveBayes",
    "C45",
    "IB1",
    "TAN",
    "VotedPerceptron",
    "AlwaysPredict",
    "CopyAttribute",
    "pattern_matrix",
    "pattern_index",
    "pattern_counts",
    "naive_bayes_patterns",
    "c45_patterns",
    # splits
    "RandomSubsampling",
    "RepeatedCV",
    "FiveByTwoCV",
    "rxk_cv_splits",
    # experiment runner
    "ExperimentConfig",
    "run_experiment",
    "stack_sources",
    "register_source",
    "register_learner",
    "register_scheme",
    "register_pair_evaluator",
    # result store
    "ResultStore",
    "CacheWarning",
    "cached_result",
    "provenance",
    "paper_results_dir",
    "default_cache_dir",
    "dataset_checksum",
    "write_netcdf_atomic",
    # UCI data sets (Weka ARFF)
    "Dataset",
    "ArffError",
    "ChecksumError",
    "load_arff",
    "parse_arff",
    "list_uci",
    "load_uci",
    "download_uci",
    "OPENML_URL",
    # published and reproduced tables
    "data_dir",
    "read_published",
    "write_reproduced",
]
