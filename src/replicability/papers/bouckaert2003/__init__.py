"""Bouckaert (2003): the tests applied to repeated cv, their calibration, and one page per table or figure.

``study`` names the thirteen tests and counts their rejections and outcomes;
``experiments`` holds the sizes per scale and the stored experiments the pages share;
``section4`` (Figures 1 and 2), ``section5`` (Tables 2-4, Figure 4) and
``replicability_tables`` (Tables 5-7) compute each page's tables and claims;
``compare`` holds the claims' standard errors and lays the paper's tables beside ours;
``weka_oracle`` compares Tables 2 and 7 with real Weka 3.6 run on the same folds (``data/weka``) and
``weka_pages`` lays out those investigations;
every page is a :class:`~replicability.report.page.Page`.
"""

from ..._lazy import attach

_MODULES = {
    "study": (
        "CALIBRATED_TESTS", "FIGURE2_RUNS", "STUDY_TESTS", "TEST_LABELS", "null_calibration", "rejection_counts",
        "replicability_summary", "select_calibrated_df", "study_outcomes", "study_test",
    ),
    "experiments": (
        "CALIBRATION_ALPHAS", "LEVELS", "NULL_DATASETS", "PAIR_DATASETS", "SOURCE_SIZES", "TRAIN_SETS",
        "calibrated_df", "n_jobs_for", "section4_calibration", "set1_calibration", "source_counts", "stacked_runs",
    ),
    "compare": ("comparison_rows", "word_rounding", "worst_first"),
    "section4": ("figure1", "figure2", "plot_figure1", "plot_figure2"),
    "section5": ("figure4_table4", "plot_figure4", "plot_table2", "plot_table3", "plot_table4", "table2", "table3"),
    "replicability_tables": ("plot_tables5_6", "plot_table7", "tables5_6", "table7"),
    "weka_oracle": (
        "EXPERIMENTS", "TABLE7_SETUPS", "WEKA_LEARNERS", "dataset_and_splits", "experiment_config", "fold_agreement",
        "read_weka_folds", "table2_design_probes", "table2_oracle", "table7_oracle",
    ),
    "weka_pages": ("table2_investigation", "table7_investigation"),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
