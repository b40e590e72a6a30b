"""Raschka (2018): the simulation studies of Sections 3 and 4 and everything its notebooks show.

``studies`` holds the reusable loops (:func:`cv_bias_variance_study`,
:func:`tuning_bias_study`, :func:`algorithm_test_study`, ...); one module per notebook
computes that page's tables, figures and claims (:func:`holdout_page`,
:func:`resampling_page`, :func:`cross_validation_page`, :func:`comparing_page`), each
returning a :class:`Page` that the notebook only displays.
"""

from ..._lazy import attach

_MODULES = {
    "studies": (
        "ALGORITHM_TESTS", "PairedScores", "paired_split_scores", "one_standard_error_rule", "cv_bias_variance_study",
        "tuning_bias_study", "algorithm_test_study",
    ),
    "holdout": ("HOLDOUT_SIZES", "holdout_page", "published_beside_ours"),
    "resampling": ("RESAMPLING_SIZES", "quantile_se", "resampling_page"),
    "cross_validation": ("CV_DATASETS", "cross_validation_page"),
    "comparing": ("TEST_LABELS", "comparing_page"),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES)
