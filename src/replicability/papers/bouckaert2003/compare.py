"""How the Bouckaert (2003) pages lay the paper beside ours: its tables' rows, its numbers in words.

:func:`comparison_rows` lays a published table beside ours in a form that fits a page;
:func:`word_rounding` gives the rounding of a number the paper states in words ("circa 11",
"up to 90%"): half a unit of its last significant digit; :func:`worst_first` orders a
claim's values so that its measured text shows those that decide the verdict. The claims'
standard errors are those of :mod:`replicability.report.uncertainty`.
"""

from __future__ import annotations

import numpy as np

from ...report.page import beside

__all__ = ["comparison_rows", "word_rounding", "worst_first"]


def comparison_rows(both, *, index, columns, labels=None, order=None, digits=1):
    """Published, reproduced and difference one under another, per row of the paper.

    Parameters
    ----------
    both : pandas.DataFrame
        Long table with ``published``, ``reproduced`` and ``difference`` columns.
    index, columns : str
        Columns of ``both`` that make the rows and the columns of the paper's table.
    labels : dict, optional
        Display names of the row keys.
    order : sequence, optional
        Row keys in the paper's order.
    digits : int
        Decimals shown.

    Returns
    -------
    pandas.DataFrame
        :func:`~replicability.report.page.beside` of the paper's table: rows
        ``(row, "published" | "ours" | "difference")``, columns those of the paper, text.

    Examples
    --------
    >>> import pandas as pd
    >>> both = pd.DataFrame({"t": ["a", "a"], "c": [1, 2], "published": [1.0, 2.0], "reproduced": [1.02, 1.5]})
    >>> both["difference"] = both["reproduced"] - both["published"]
    >>> comparison_rows(both, index="t", columns="c").to_dict("list")
    {1: ['1.0', '1.0', '0.0'], 2: ['2.0', '1.5', '-0.5']}
    """
    wide = {c: both.pivot(index=index, columns=columns, values=c) for c in ("published", "reproduced", "difference")}
    keys = [k for k in order if k in wide["published"].index] if order is not None else list(wide["published"].index)
    wide = {c: frame.loc[keys].rename(index=labels or {}) for c, frame in wide.items()}
    frame = beside(wide["published"], wide["reproduced"], difference=wide["difference"], digits=digits)
    frame.index.names = [None, None]
    return frame


def word_rounding(value):
    """Half a unit of the last significant digit of a number stated in words.

    "circa 11" -> 0.5, "up to 90%" -> 5, "33%" -> 0.5, "0.3" -> 0.05: trailing zeros of
    a round number are not significant.

    Examples
    --------
    >>> word_rounding(11), word_rounding(90), word_rounding(10), word_rounding(0.3)
    (0.5, 5.0, 5.0, 0.05)
    """
    value = float(value)
    if value == 0:
        raise ValueError(f"`value` must be non-zero; got {value!r}.")
    text = f"{abs(value):.10g}"
    if "." in text:
        return 0.5 * 10.0 ** -len(text.split(".")[1])
    return 0.5 * 10.0 ** (len(text) - len(text.rstrip("0")))


def worst_first(margin, *arrays):
    """``arrays`` (flattened, broadcast to ``margin``) reordered by ``margin``, smallest first.

    A claim's measured text lists its first values; ordered by the margin by which each
    satisfies the claim, the text shows the values that decide the verdict.

    Examples
    --------
    >>> worst_first([3, -1, 2], [30, 10, 20], 0.5)
    [array([10., 20., 30.]), array([0.5, 0.5, 0.5])]
    """
    margin = np.asarray(margin, float)
    order = np.argsort(margin.ravel(), kind="stable")
    return [np.broadcast_to(np.asarray(a, float), margin.shape).ravel()[order] for a in arrays]
