"""The experiments and readings several papers share; each paper package imports them from here.

* ``synthetic_runs``: the runs of naive Bayes against C4.5 on the synthetic sources of
  Bouckaert (2003), Bouckaert (2004) and Bouckaert & Frank (2004), stored once;
* ``network_search``: the search for the Bayesian-network sources of Bouckaert (2003);
* ``uci_runs``: the Weka-order splits and per-fold hits of naive Bayes, C4.5 and 1-NN
  on the 27 UCI data sets (Bouckaert & Frank 2004; Bouckaert 2004, Table 2; "Beyond the papers");
* ``uci_outcomes``: the tests' outcomes and the consistency tables read from them;
* ``readings``: what a sampling scheme reads out of r x k cv (:func:`experiment_sample`,
  including "resampling" and "k-fold cv"), the outcomes of a test on it, and their summaries.
"""

from ..._lazy import attach

_MODULES = {
    "readings": (
        "EXPERIMENT_PARTS", "EXPERIMENT_SCHEMES", "EXPERIMENT_TESTS", "experiment_outcomes", "experiment_sample",
        "interval_of_mean", "monotone_within", "outcome_summary",
    ),
    "synthetic_runs": ("SYNTHETIC_SOURCES", "fold_differences", "synthetic_fold_counts"),
    "network_search": ("ExpectedAccuracy", "expected_accuracies", "search_network"),
    "uci_runs": (
        "LEARNERS", "LEARNER_VERSIONS", "PAPER", "UCI_PAIRS", "UCI_SCHEMES", "cv_correct", "fold_hits",
        "uci_fold_hits", "uci_scheme_results", "weka_cv_splits", "weka_random_splits",
    ),
    "uci_outcomes": (
        "PAIR_LABELS", "UCI_TESTS", "consistency_table", "draw_counts", "fold_accuracy_differences",
        "uci_test_outcomes",
    ),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
