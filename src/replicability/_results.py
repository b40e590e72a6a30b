"""Result objects shared by every test (scipy.stats style)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["TestResult"]


@dataclass(frozen=True)
class TestResult:
    """Outcome of a significance test.

    Unpacks to ``(statistic, pvalue)`` like ``scipy.stats`` results; every other
    field is read by name.

    Attributes
    ----------
    statistic : float or ndarray
        The test statistic, one value per batch element.
    pvalue : float or ndarray
        The p-value under the null hypothesis.
    df : float, ndarray or None
        Degrees of freedom of the reference distribution, where it has one.
    alternative : str
        ``"two-sided"``, ``"less"`` or ``"greater"``.
    """

    statistic: float | np.ndarray
    pvalue: float | np.ndarray
    df: float | np.ndarray | None = None
    alternative: str = "two-sided"

    __test__ = False  # not a pytest test class despite its name

    def __iter__(self):
        return iter((self.statistic, self.pvalue))

    def __len__(self):
        return 2
