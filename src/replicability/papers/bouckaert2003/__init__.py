"""Bouckaert (2003): the tests applied to repeated cv, their calibration, and one page per table or figure.

Notebook -> page builder (``notebooks/bouckaert2003/``; each returns a
:class:`~replicability.report.page.Page`):

* ``01_figure1_worked_example`` -> :func:`figure1_page`
* ``02_calibration`` -> :func:`figure2_page`
* ``03_table2_class_probability`` -> :func:`table2_page`, then :func:`table2_investigation_page`
* ``04_table3_sources`` -> :func:`table3_page`
* ``05_figure4_table4`` -> :func:`figure4_table4_page`
* ``06_tables5_6_replicability`` -> :func:`tables5_6_page` (and Bouckaert & Frank's
  :func:`~replicability.papers.bouckaert_frank2004.five_by_two_drivers_page`)
* ``07_table7_learner_pairs`` -> :func:`table7_page`, then :func:`table7_investigation_page`

``study`` names the thirteen tests and counts their rejections and outcomes;
``experiments`` holds the sizes per scale and the stored experiments the pages share;
``section4`` (Figures 1 and 2), ``section5`` (Tables 2-4, Figure 4) and
``replicability_tables`` (Tables 5-7) build the pages and draw their figures;
``compare`` lays the paper's tables beside ours;
``weka_oracle`` compares Tables 2 and 7 with real Weka 3.6 run on the same folds (``data/weka``) and
``weka_pages`` builds those investigations' pages.
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
    "section4": ("figure1_page", "figure2_page", "plot_figure1", "plot_figure2"),
    "section5": (
        "figure4_table4_page", "plot_figure4", "plot_table2", "plot_table3", "plot_table4", "table2_page",
        "table3_page",
    ),
    "replicability_tables": ("plot_tables5_6", "plot_table7", "tables5_6_page", "table7_page"),
    "weka_oracle": (
        "EXPERIMENTS", "TABLE7_SETUPS", "WEKA_LEARNERS", "dataset_and_splits", "experiment_config", "fold_agreement",
        "read_weka_folds", "table2_design_probes", "table2_oracle", "table7_oracle",
    ),
    "weka_pages": ("table2_investigation_page", "table7_investigation_page"),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
