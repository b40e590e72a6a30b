"""Bouckaert (2004): the estimators of replicability, Table 1, the Section 4 sweep and Table 2 (UCI).

``experiments`` holds the sampling schemes, outcomes and summaries shared with
Bouckaert & Frank (2004); the other modules compute the pages of the 2004 notebooks
(their tables, figures and claims), so that each notebook stays a few package calls.
"""

from ..._lazy import attach

_MODULES = {
    "experiments": (
        "EXPERIMENT_SCHEMES", "EXPERIMENT_TESTS", "experiment_outcomes", "experiment_sample", "interval_of_mean",
        "monotone_within", "outcome_summary",
    ),
}
# The pages of the notebooks, reachable as attributes: rp.papers.bouckaert2004.table1.table1(...).
_PAGES = ("display", "section3", "sweep", "table1", "table2")
__getattr__, __dir__, __all__ = attach(__name__, _MODULES, submodules=_PAGES)
