"""The book's reference pages: conventions, agreement with Weka, performance, reproducibility, scorecard.

Each notebook of ``notebooks/reference`` is made by one page builder (two for the
reproducibility page), which returns a :class:`~replicability.report.page.Page` with
tables and glued values but no claims, and writes nothing:

* ``reference/01_degenerate_cases`` -> :func:`degenerate_cases_page` (``checks``);
* ``reference/02_weka_agreement`` -> :func:`weka_agreement_page` (``checks``);
* ``reference/03_performance`` -> :func:`performance_page` (``performance``);
* ``reference/04_reproducibility`` -> :func:`committed_results_page` and
  :func:`command_times_page` (``provenance``);
* ``reference/05_scorecard`` -> :func:`scorecard_page` and :func:`changed_verdicts` (``scorecard``).
"""

from ..._lazy import attach

_MODULES = {
    "checks": ("degenerate_cases", "degenerate_cases_page", "weka_agreement", "weka_agreement_page"),
    "performance": ("BENCHMARK_TITLES", "SECTIONS", "PerformanceReport", "performance_page", "performance_report",
                    "read_benchmarks"),
    "provenance": ("command_times", "command_times_page", "committed_results", "committed_results_page"),
    "scorecard": ("changed_verdicts", "scorecard_page"),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
