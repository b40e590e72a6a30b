"""Compare two or k learners on one's own data, with the replicability of the decision.

:func:`compare` runs both on the same splits under several randomizations;
:func:`compare_scores` analyses scores computed elsewhere; both return a
:class:`Comparison`, or for k learners (``k_learners``) a :class:`PairwiseComparison`
(``pairwise_result``); :func:`variance_by_source` splits a comparison's variance into
what the splits and the learners' seeds contribute (``sources``); :func:`plan` the runs a
comparison needs for a power and a replicability, :func:`plan_datasets` the data sets
a benchmark of several learners needs (``planning``). This room sits above
the engine (it uses its splitters) and the statistics; ``rp.compare`` is the
practitioner's one call. Its helpers: ``seeds`` (the learners' ``random_state`` per
split), ``checks`` (what is refused before any fit, and stratification), ``inputs``
(data, splitters and fit parameters as scikit-learn takes them), ``analysis`` (the
learners fitted and scored on the same splits, a pair's tests), ``folds`` (one split
fitted and scored, failures named) and ``work`` (splits drawn as used, the data sent to
worker processes once); ``many`` compares many learners on many data sets, and
``many_result`` holds its result.
"""

from .._lazy import attach

_MODULES = {
    "run": ("compare", "compare_scores"),
    "analysis": ("QUICK_REPEATS", "QUICK_SCHEME", "ScoredRun", "analyse_pair", "fit_and_score", "pair_scores",
                 "scoring_name"),
    "seeds": ("ESTIMATOR_SEEDS", "SeedPlan", "seed_plan", "seed_text", "seeded_clone"),
    "checks": ("check_comparable", "check_estimator", "check_picklable", "stratify"),
    "folds": ("gather", "score_split", "split_name"),
    "work": ("SharedData", "SplitRecipe", "run_repeat", "split_results"),
    "inputs": ("as_data", "as_datasets", "check_cv", "cv_layout", "cv_splits", "fit_rows", "named_estimators",
               "randomizable"),
    "result": ("Comparison", "Reported"),
    "k_learners": ("compare_learners", "compare_scores_of"),
    "pairwise_result": ("CORRECTIONS", "PairwiseComparison"),
    "sources": ("SourceVariance", "variance_by_source"),
    "planning": ("DATASET_COUNTS", "DatasetPlan", "Plan", "plan", "plan_datasets"),
    "many": ("compare_many", "compare_many_scores"),
    "many_result": ("ManyComparison",),
    "command": ("compare_command",),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES, submodules=("command",))
