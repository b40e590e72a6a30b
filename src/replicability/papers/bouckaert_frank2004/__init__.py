"""Bouckaert & Frank (2004): the learners on the 27 UCI data sets, their fidelity to Weka, the tables."""

from ..._lazy import attach

_MODULES = {
    "fidelity": ("fidelity_table", "read_weka_cv", "uci_cv_correct", "uci_fidelity"),
    "uci_fidelity_page": ("fidelity_page",),
    "five_by_two": (
        "FIVE_BY_TWO_STATISTICS", "NULL_SOURCE_ROW", "UNSTRATIFIED_SIZES", "FiveByTwoDrivers", "consistency",
        "five_by_two_drivers", "five_by_two_statistic", "null_source_counts", "unstratified_counts",
    ),
    "synthetic_page": ("SYNTHETIC_SIZES", "TABLE5_LABELS", "accuracy_gaps", "n_jobs_for", "table5_page",
                       "table5_tests"),
    "uci_pages": ("table1_page", "table2_page"),
    "cv_pages": ("table3_page", "table4_page"),
    "weka_resampling": ("read_weka_resampling", "resampling_agreement"),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
