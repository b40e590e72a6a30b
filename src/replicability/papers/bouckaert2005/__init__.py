"""Bouckaert (2005): Task I designs, the adaptive design, and the theory of Section 3 and the Appendix."""

from ..._lazy import attach

_MODULES = {
    "task1": (
        "TASK1_DESIGNS", "Task1Design", "cached_task1", "cv_outcomes", "design_outcomes", "mcnemar_outcomes",
        "resampling_outcomes", "simulate_task1",
    ),
    "histograms": ("histogram_measures", "outcome_cells", "outcome_histogram"),
    "adaptive": ("adaptive_cv_outcomes", "simulate_adaptive"),
    "theory": (
        "agreement_normal_model", "mcnemar_epsilon", "mcnemar_type1_replicability", "normal_tail_mean",
        "normal_tail_mean_linear", "task1_worst_case_gap", "worst_case_replicability_appendix",
    ),
}
# The pages of the notebooks, reachable as attributes: rp.papers.bouckaert2005.curves.task1_curves(...).
_PAGES = ("beyond", "curves", "in_text", "section3")
__getattr__, __dir__, __all__ = attach(__name__, _MODULES, submodules=_PAGES)
