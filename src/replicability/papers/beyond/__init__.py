"""Beyond the papers: newer methods beside the seed papers' own, one module per page.

Each notebook of ``notebooks/beyond`` is made by one page builder, which returns a
:class:`~replicability.report.page.Page`:

* ``beyond/01_bayesian_comparisons`` -> :func:`bayesian_page` (``bayesian``): Bayesian
  comparisons with a region of practical equivalence (ROPE) (Benavoli, Corani, Demšar &
  Zaffalon 2017): the Bayesian correlated t-test per data set beside the corrected
  repeated cv t-test (:func:`uci_correlated_comparisons`, :func:`agreement_table`,
  :func:`decision_stability`), the Bayesian signed-rank test across the data sets
  (:func:`uci_signed_rank`, :func:`signed_rank_spread`, :func:`plot_simplex`);
* ``beyond/02_many_learners`` -> :func:`many_learners_page` (``many_learners``): many
  learners on many data sets (Demšar 2006): his worked example and the Friedman, Nemenyi
  and Holm analysis of the three learners on the 27 UCI data sets;
* ``beyond/03_cv_intervals`` -> :func:`cv_intervals_page` (``cv_intervals``): the
  coverage of cross-validation intervals for the prediction error (Bates, Hastie &
  Tibshirani 2024).

.. rubric:: References

Benavoli, A., Corani, G., Demšar, J., & Zaffalon, M. (2017). Time for a change: a
tutorial for comparing multiple classifiers through Bayesian analysis. JMLR 18(77),
1-36. https://jmlr.org/papers/v18/16-305.html

Demšar, J. (2006). Statistical comparisons of classifiers over multiple data sets.
JMLR 7, 1-30. https://jmlr.org/papers/v7/demsar06a.html
"""

from ..._lazy import attach

_MODULES = {
    "bayesian": (
        "COLUMN_LABELS", "FREQUENTIST_DECISIONS", "agreement_table", "bayesian_page", "decision_stability",
        "labelled", "plot_simplex", "signed_rank_spread", "uci_correlated_comparisons", "uci_signed_rank",
    ),
    "many_learners": ("DEMSAR_LEARNERS", "demsar_worked_example", "many_learners_page", "per_pair_tests",
                      "uci_accuracies"),
    "cv_intervals": (
        "METHODS", "SCALES", "cached_coverage", "coverage_table", "cv_intervals_page", "ols_cv_terms",
        "ols_expected_error", "ols_prediction_error", "simulate_coverage",
    ),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
