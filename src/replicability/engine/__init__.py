"""The experiment engine: splitters, the runner and its registry of learners and sources, the store, the CLI.

Importing the engine registers the package's learners, sources, schemes and pair
evaluators with the runner (:mod:`replicability.engine.registry`). Every public name of
its modules but the CLI is importable from here.
"""

from .._lazy import attach
from . import registry  # noqa: F401  (fills the runner's registries)

_MODULES = {
    "splits": ("FiveByTwoCV", "RandomSubsampling", "RepeatedCV", "rxk_cv_splits"),
    "runner": (
        "ExperimentConfig", "register_learner", "register_pair_evaluator", "register_scheme", "register_source",
        "run_experiment", "stack_sources",
    ),
    "registry": ("register_all",),
    "store": (
        "CacheWarning", "ResultStore", "cached_result", "data_dir", "dataset_checksum", "default_cache_dir",
        "paper_results_dir", "provenance", "write_netcdf_atomic",
    ),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
