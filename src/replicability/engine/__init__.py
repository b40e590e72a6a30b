"""The experiment engine: splitters, the runner, its registry of versioned components, the store.

The registry (:mod:`replicability.engine.registry`) declares every learner, source,
scheme and pair evaluator the runner can name, with the version of its code. Every
public name of the engine's modules is importable from here.
"""

from .._lazy import attach

_MODULES = {
    "splits": ("FiveByTwoCV", "RandomSubsampling", "RepeatedCV", "experimenter_training_order", "rxk_cv_splits"),
    "runner": ("ExperimentConfig", "pair_counts", "run_experiment", "slice_datasets", "stack_sources"),
    "slices": ("SliceJoin", "join_slices", "slices_command"),
    "parallel": ("BACKENDS", "parallel_map"),
    "registry": (
        "LEARNERS", "PAIR_EVALUATORS", "SCHEMES", "SOURCES", "VERSIONS", "code_fingerprint", "code_versions",
        "register_learner", "register_pair_evaluator", "register_scheme", "register_source", "resolve_scheme",
    ),
    "store": (
        "CacheWarning", "RecomputeRefusedError", "ResultStore", "ResultUnavailableError", "StoreFullError",
        "cached_result", "data_dir",
        "dataset_checksum",
        "default_cache_dir", "paper_results_dir", "provenance", "remove_stale_temporaries", "write_netcdf_atomic",
    ),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
