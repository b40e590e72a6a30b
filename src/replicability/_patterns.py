"""Binary attribute patterns: the coding shared by the Bayesian-network sources and the learners' fast paths.

Pattern ``i`` of ``n_attributes`` binary attributes has attribute ``j`` at bit
``n_attributes - 1 - j`` of ``i`` (lexicographic order). Public as
:func:`replicability.learners.fastpath.pattern_matrix`.
"""

import numpy as np

from ._validation import check_positive_int


def pattern_matrix(n_attributes):
    """All ``2**n_attributes`` binary patterns, in lexicographic order.

    Parameters
    ----------
    n_attributes : int
        Number of binary attributes.

    Returns
    -------
    ndarray of shape (2**n_attributes, n_attributes), dtype int64

    Examples
    --------
    >>> from replicability.learners.fastpath import pattern_matrix
    >>> pattern_matrix(2)
    array([[0, 0],
           [0, 1],
           [1, 0],
           [1, 1]])
    """
    p = check_positive_int(n_attributes, "n_attributes")
    shifts = np.arange(p - 1, -1, -1)
    return (np.arange(2**p)[:, None] >> shifts) & 1
