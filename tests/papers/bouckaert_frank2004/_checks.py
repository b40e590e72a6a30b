"""A check the page tests of Bouckaert & Frank (2004) share."""

import numpy as np

from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS, SE_MULTIPLE


def verdict_at_least(value, bound, se):
    """The verdict of ``value >= bound`` by the claims' rule, recomputed independently."""
    value, bound = np.asarray(value, float), np.asarray(bound, float)
    if np.all(value >= bound):
        return HOLDS
    return INCONCLUSIVE if np.all(value >= bound - SE_MULTIPLE * np.asarray(se)) else NOT_HOLDS
