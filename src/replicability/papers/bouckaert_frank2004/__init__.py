"""Bouckaert & Frank (2004): the learners on the 27 UCI data sets, their fidelity to Weka, the tables.

Every notebook page is made by one page builder (notebook -> builder):

* ``00_uci_fidelity`` -> :func:`~.uci_fidelity_page.fidelity_page` (Table 1's data set
  properties, the learners against Weka 3.6.14 on 10 x 10 cv);
* ``01_table5_synthetic`` -> :func:`~.synthetic_page.table5_page` (Table 5), and its
  investigation of the 5 x 2 cv row -> :func:`~.five_by_two.five_by_two_drivers_page`;
* ``02_table1_5x2cv`` -> :func:`~.uci_pages.table1_page` (Table 1);
* ``03_table2_resampling`` -> :func:`~.uci_pages.table2_page` (Table 2 and the stratified
  check of Section 4.3);
* ``04_table3_repeated_cv`` -> :func:`~.cv_pages.table3_page` (Table 3 and the tests of
  Section 4.3);
* ``05_table4_significance`` -> :func:`~.cv_pages.table4_page` (Table 4).

Each builder returns a :class:`replicability.report.page.Page`. The pages of Tables 1-4
share their steps (long tables, published beside ours, the R figures, the rule of the
standard errors) in ``_uci_common``; the UCI runs with Weka's splits, their outcomes and
the synthetic runs are in ``replicability.papers.shared``, the standard errors in
:mod:`replicability.report.uncertainty`.
"""

from ..._lazy import attach

_MODULES = {
    "fidelity": ("fidelity_table", "read_weka_cv", "uci_cv_correct", "uci_fidelity"),
    "uci_fidelity_page": ("fidelity_page",),
    "five_by_two": (
        "DRIVERS_TABLES", "FIVE_BY_TWO_STATISTICS", "NULL_SOURCE_ROW", "UNSTRATIFIED_SIZES", "consistency",
        "five_by_two_drivers_page", "five_by_two_statistic", "null_source_counts", "unstratified_counts",
    ),
    "synthetic_page": ("SYNTHETIC_SIZES", "TABLE5_LABELS", "accuracy_gaps", "n_jobs_for", "table5_page",
                       "table5_tests"),
    "uci_pages": ("table1_page", "table2_page"),
    "cv_pages": ("table3_page", "table4_page"),
    "weka_resampling": ("read_weka_resampling", "resampling_agreement"),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
