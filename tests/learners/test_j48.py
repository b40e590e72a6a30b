"""Tests for replicability.learners._j48: the compiled J48 kernel agrees with C4.5's helpers bit for bit."""

import numpy as np
import pytest
from scipy.special import ndtri

from replicability.learners import _j48
from replicability.learners._tree import add_errs


@pytest.mark.parametrize("confidence_factor", [0.25, 0.1, 0.5, 0.01])
def test_kernel_add_errs_is_bitwise_c45_add_errs(confidence_factor):
    # The compiled Stats.addErrs against the reference for every (n, e) of the
    # experiments' training sets (n <= 300 instances, e <= n errors).
    cf = float(np.float32(confidence_factor))
    z = float(ndtri(1 - cf))
    n, e = np.meshgrid(np.arange(1, 301.0), np.arange(0, 301.0), indexing="ij")
    keep = e <= n
    n, e = n[keep], e[keep]
    got = np.array([_j48._add_errs(a, b, cf, z) for a, b in zip(n.tolist(), e.tolist())])
    want = np.array([add_errs(a, b, cf) for a, b in zip(n.tolist(), e.tolist())])
    np.testing.assert_array_equal(got, want)
