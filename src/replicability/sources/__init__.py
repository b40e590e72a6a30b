"""Data sources: the ARFF reader, the UCI data sets, synthetic sources, Bayesian networks, count sampling.

Every public name of its modules is importable from here, each module loaded on first use.
"""

from .._lazy import attach

_MODULES = {
    "arff": ("MAX_SPARSE_CELLS", "ArffError", "Dataset", "load_arff", "parse_arff"),
    "uci": ("ChecksumError", "OPENML_URL", "download_uci", "list_uci", "load_uci"),
    "uci_fetch": (
        "GITHUB_RAW_URL", "WEKA_DEB", "WEKA_DEB_SHA256", "WEKA_DEB_URL", "deb_files", "fetch_uci", "source_url",
    ),
    "gaussian": ("bayes_accuracy", "sample_gaussian_classes"),
    "synthetic": ("TASK1_CELLS", "sample_independent_binary", "sample_task1", "task1_probabilities"),
    "bayesnet": (
        "BOUCKAERT2003_TARGETS", "BayesNet", "bayes_optimal_accuracy", "bouckaert2003_source", "exact_accuracy",
        "independent_network", "load_bouckaert2003_networks", "random_network", "sample_bayesnet",
    ),
    "counts": (
        "FoldStatistics", "cv_fold_counts", "draw_folds", "holdout_fold_counts", "multivariate_hypergeometric",
        "sample_task1_counts", "task1_fold_statistics",
    ),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
