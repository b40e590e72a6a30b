"""Compare two learners on one's own data, with the replicability of the decision.

:func:`compare` runs both on the same splits under several randomizations;
:func:`compare_scores` analyses scores computed elsewhere; both return a
:class:`Comparison`. This room sits above the engine (it uses its splitters) and the
statistics; ``rp.compare`` is the practitioner's one call.
"""

from .._lazy import attach

_MODULES = {
    "run": ("compare", "compare_scores"),
    "seeds": ("SeedPlan", "seed_plan"),
    "result": ("Comparison",),
    "many": ("ManyComparison", "compare_many", "compare_many_scores"),
    "command": ("compare_command",),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES, submodules=("command",))
