"""Raschka (2018): the simulation studies of Sections 3 and 4 and everything its notebooks show.

``studies`` holds the reusable loops (:func:`cv_bias_variance_study`,
:func:`tuning_bias_study`, :func:`algorithm_test_study`, ...); one module per notebook
computes that page's tables, figures, claims and reproduced tables, each page builder
returning a :class:`~replicability.report.page.Page` that the notebook only displays
and writes:

* ``raschka2018/01_holdout`` -> :func:`holdout_page` (``holdout``);
* ``raschka2018/02_resampling_bootstrap`` -> :func:`resampling_page` (``resampling``);
* ``raschka2018/03_cross_validation`` -> :func:`cross_validation_page` (``cross_validation``);
* ``raschka2018/04_comparing_algorithms`` -> :func:`comparing_page` (``comparing``).
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
