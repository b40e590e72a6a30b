"""Result objects shared by every test, and the 0-d unwrapping of their values (scipy.stats style)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

__all__ = ["ConfidenceInterval", "TestResult", "TTestResult", "UnsignedResult", "plain", "unwrap_scalar"]


def unwrap_scalar(a):
    """Return a 0-d array as a numpy scalar, as scipy.stats does; other arrays unchanged."""
    a = np.asarray(a)
    return a[()] if a.ndim == 0 else a


def plain(value):
    """A numpy scalar (or 0-d array) as the Python ``float``/``int``/``bool``; arrays and tuples kept."""
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, np.generic):
        return value.item()
    return value


@dataclass(frozen=True)
class ConfidenceInterval:
    """A confidence interval ``(low, high)``; unpacks to the two bounds (scipy.stats' ``ConfidenceInterval``)."""

    low: float | np.ndarray
    high: float | np.ndarray

    def __iter__(self):
        return iter((self.low, self.high))

    def __len__(self):
        return 2

    def __repr__(self):
        return f"ConfidenceInterval(low={plain(self.low)!r}, high={plain(self.high)!r})"


@dataclass(frozen=True)
class TestResult:
    """Outcome of a significance test.

    Unpacks to ``(statistic, pvalue)`` like ``scipy.stats`` results; every other
    field is read by name. ``_asdict()`` and :meth:`to_frame` keep every field
    (``pd.DataFrame(result)`` sees only the two unpacked values: use
    ``result.to_frame()``). The repr shows scalars as plain Python numbers.

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

    Examples
    --------
    >>> from replicability._results import TestResult
    >>> import numpy as np
    >>> res = TestResult(np.float64(2.5), np.float64(0.03), df=9.0)
    >>> res
    TestResult(statistic=2.5, pvalue=0.03, df=9.0, alternative='two-sided')
    >>> res._asdict()
    {'statistic': 2.5, 'pvalue': 0.03, 'df': 9.0, 'alternative': 'two-sided'}
    >>> res.to_frame()
       statistic  pvalue   df alternative
    0        2.5    0.03  9.0   two-sided
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

    def __repr__(self):
        # Subclasses are declared with ``repr=False`` so that this one applies.
        fields = ", ".join(f"{f.name}={plain(getattr(self, f.name))!r}" for f in dataclasses.fields(self))
        return f"{type(self).__name__}({fields})"

    def _asdict(self):
        """Every field by name (as ``namedtuple._asdict``), numpy scalars as Python numbers."""
        return {f.name: plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    def to_frame(self):
        """A :class:`pandas.DataFrame` with one row per test and one column per field.

        Array fields are broadcast to the batch shape and flattened in C order
        (a MultiIndex of positions for more than one batch axis); a tuple ``df``
        (an F distribution's two degrees of freedom) becomes columns ``df1``, ``df2``.
        """
        import pandas as pd  # pandas costs 0.3 s to import; only this method needs it

        columns = {}
        for name, value in self._asdict().items():
            if name == "df" and isinstance(value, tuple):
                columns.update({f"df{i + 1}": v for i, v in enumerate(value)})
            else:
                columns[name] = value
        arrays = {k: np.asarray(v) for k, v in columns.items() if isinstance(v, np.ndarray)}
        shape = np.broadcast_shapes(*(a.shape for a in arrays.values())) if arrays else ()
        data = {
            k: (np.broadcast_to(np.asarray(v), shape).ravel() if k in arrays else [v] * max(1, int(np.prod(shape))))
            for k, v in columns.items()
        }
        if len(shape) > 1:
            index = pd.MultiIndex.from_tuples(list(np.ndindex(shape)), names=[f"dim_{i}" for i in range(len(shape))])
            return pd.DataFrame(data, index=index)
        return pd.DataFrame(data)


@dataclass(frozen=True, repr=False)
class UnsignedResult(TestResult):
    """Result of a test whose statistic has no direction (Alpaydin's F, Cochran's Q, Looney's F).

    A rejection says that the learners differ, not which is better:
    :func:`replicability.stats.decisions.decide` refuses to give a direction
    for it unless one is passed as ``statistic`` (e.g. the mean difference).
    """


@dataclass(frozen=True, repr=False)
class TTestResult(TestResult):
    """Result of a t-test, with scipy's ``confidence_interval``.

    Attributes
    ----------
    estimate : float or ndarray
        The estimated mean difference ``m`` (A - B) that the statistic tests.
    standard_error : float or ndarray
        Its standard error, ``statistic = estimate / standard_error``.
    """

    estimate: float | np.ndarray = 0.0
    standard_error: float | np.ndarray = 0.0

    def confidence_interval(self, confidence_level=0.95):
        """Confidence interval for the mean difference, as ``scipy.stats.ttest_rel``'s.

        ``estimate ± t_q(df) standard_error`` with ``q = (1 + confidence_level)/2``
        for a two-sided test; one-sided tests give a half-infinite interval
        (``"greater"``: ``(estimate - t_c(df) standard_error, inf)``). With a
        calibrated or corrected test the interval uses that test's df and
        standard error, so it excludes 0 exactly when the test rejects at
        ``1 - confidence_level``.

        Parameters
        ----------
        confidence_level : float
            In (0, 1).

        Returns
        -------
        ConfidenceInterval
            ``low`` and ``high``, Python floats for one test, arrays for many.
        """
        from scipy import special

        if isinstance(confidence_level, bool) or not isinstance(confidence_level, (int, float, np.floating)) or not (
            0 < confidence_level < 1
        ):
            raise ValueError(f"`confidence_level` must be a number in (0, 1); got {confidence_level!r}.")
        est = np.asarray(self.estimate, dtype=float)
        se = np.asarray(self.standard_error, dtype=float)
        if self.alternative == "two-sided":
            q = special.stdtrit(self.df, 0.5 + confidence_level / 2)
            low, high = est - q * se, est + q * se
        else:
            q = special.stdtrit(self.df, confidence_level)
            if self.alternative == "greater":
                low, high = est - q * se, np.full_like(est, np.inf)
            else:
                low, high = np.full_like(est, -np.inf), est + q * se
        return ConfidenceInterval(plain(unwrap_scalar(low)), plain(unwrap_scalar(high)))
