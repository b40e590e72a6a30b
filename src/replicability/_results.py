"""Result objects shared by every test, and the 0-d unwrapping of their values (scipy.stats style)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["TestResult", "unwrap_scalar"]


def unwrap_scalar(a):
    """Return a 0-d array as a numpy scalar, as scipy.stats does; other arrays unchanged."""
    a = np.asarray(a)
    return a[()] if a.ndim == 0 else a


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
