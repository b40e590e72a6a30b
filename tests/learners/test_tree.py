"""Tests for replicability.learners._tree: the pessimistic error estimate C4.5 prunes with."""

import math

from replicability.learners._tree import add_errs


def test_add_errs_reference_values():
    # Quinlan (1993), C4.5, Sec. 4.2: U_25%(0, 6) = 0.206, U_25%(0, 9) = 0.143,
    # U_25%(0, 1) = 0.750 (upper limits of the error rate; addErrs returns N * U - E).
    assert round(add_errs(6, 0, 0.25) / 6, 3) == 0.206
    assert round(add_errs(9, 0, 0.25) / 9, 3) == 0.143
    assert round(add_errs(1, 0, 0.25) / 1, 3) == 0.750
    # e + 0.5 >= N: Weka returns N - e.
    assert add_errs(10, 9.5, 0.25) == 0.5
    # 0 < e < 1: linear interpolation between e = 0 and e = 1 (as C4.5 does).
    base, one = add_errs(20, 0, 0.25), add_errs(20, 1, 0.25)
    assert math.isclose(add_errs(20, 0.25, 0.25), base + 0.25 * (one - base), rel_tol=1e-15)


def test_add_errs_normal_approximation():
    # Weka's Stats.addErrs for e >= 1: Wilson upper limit with continuity correction,
    # z = Phi^-1(0.75) = 0.6744897501960817 (Abramowitz & Stegun table 26.5).
    n, e, z = 16.0, 1.0, 0.6744897501960817
    f = (e + 0.5) / n
    r = (f + z * z / (2 * n) + z * math.sqrt(f / n - f * f / n + z * z / (4 * n * n))) / (1 + z * z / n)
    assert math.isclose(add_errs(n, e, 0.25), r * n - e, rel_tol=1e-12)
