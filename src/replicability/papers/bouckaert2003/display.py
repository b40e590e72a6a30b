"""What a Bouckaert (2003) page shows: its result object, narrow comparison tables and the claims' rules.

Every page function of this package (:func:`~replicability.papers.bouckaert2003.section4.figure2`,
:func:`~replicability.papers.bouckaert2003.section5.table2`, ...) returns a :class:`Page`: the
tables to show, the claims judged by ``Claims`` (``replicability.papers.claims``), the
summary line and the numbers the text quotes. The helpers here lay a published table
beside the reproduced one in a form that fits a page (:func:`comparison_rows`: for each
row of the paper, the published, reproduced and difference rows one under another) and
turn any frame into an HTML table with wrapped text and numbers formatted for display
(:func:`show`).

Standard errors of the claims (one rule, see ``replicability.papers.claims``):

* a rate measured on ``n`` independent data sets and held to a bound (a level):
  ``rate_se(bound, n)``;
* a rate compared with a printed one, which the paper also measured on ``n`` data sets:
  the standard error of the difference of two independent estimates,
  ``sqrt(2) rate_se(published, n)`` (:func:`diff_se`);
* two of our rates compared with each other (an ordering): ``sqrt(se_1^2 + se_2^2)``
  of their own standard errors (:func:`diff_se` of both).

A number the paper states in words ("circa 11", "up to 90%") is compared with the
rounding of half a unit of its last significant digit (:func:`word_rounding`).
"""

from __future__ import annotations

import hashlib
import html
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..claims import Claims, rate_se
from ..tables import write_reproduced

__all__ = ["Page", "claims_table", "comparison_rows", "diff_se", "show", "word_rounding", "worst_first"]

PAPER = "bouckaert2003"


@dataclass(frozen=True)
class Page:
    """The reproduction of one table or figure of Bouckaert (2003).

    Attributes
    ----------
    name : str
        The notebook's stem, e.g. ``"03_table2_class_probability"``.
    tables : dict of str to pandas.DataFrame
        The tables the page shows, ready for :func:`show`.
    claims : Claims
        The paper's statements checked on this page.
    summary : str
        The page's first line (``comparison_summary`` (``replicability.papers.claims``)).
    values : dict
        Numbers and words the page's text quotes (glue names to rounded values).
    data : dict of str to pandas.DataFrame
        Long tables behind the figure.
    reproduced : dict of str to pandas.DataFrame
        The tables written to ``data/reproduced/bouckaert2003/<name>.csv`` by :meth:`write`.
    """

    name: str
    tables: dict
    claims: Claims
    summary: str
    values: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    reproduced: dict = field(default_factory=dict)

    def glue_values(self):
        """The summary, every claim's verdict and the quoted values, keyed by glue name."""
        return {"summary": self.summary, **self.claims.verdicts(), **self.values}

    def write(self):
        """Write the reproduced tables and the claims file; return the names written."""
        names = [write_reproduced(frame, PAPER, table) for table, frame in self.reproduced.items()]
        return names + [self.claims.write()]


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


def diff_se(rate_1, n_1, rate_2=None, n_2=None):
    """Standard error (percentage points) of the difference of two rates given in percent.

    With one rate, the difference of two independent estimates of it on ``n_1`` trials
    each (ours and the paper's): ``sqrt(2) rate_se``.

    Examples
    --------
    >>> round(float(diff_se(5.0, 1000)), 3)
    0.975
    >>> round(float(diff_se(50.0, 1000, 40.0, 1000)), 3)
    2.214
    """
    r1 = np.clip(np.asarray(rate_1, float) / 100, 0, 1)
    if rate_2 is None:
        return 100 * np.sqrt(2) * np.asarray(rate_se(r1, n_1))
    r2 = np.clip(np.asarray(rate_2, float) / 100, 0, 1)
    return 100 * np.sqrt(np.asarray(rate_se(r1, n_1)) ** 2 + np.asarray(rate_se(r2, n_2 or n_1)) ** 2)


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
        Rows ``(row, "paper" | "ours" | "difference")``, columns those of the paper,
        values as text (no ``-0.0``).

    Examples
    --------
    >>> both = pd.DataFrame({"t": ["a", "a"], "c": [1, 2], "published": [1.0, 2.0], "reproduced": [1.02, 1.5]})
    >>> both["difference"] = both["reproduced"] - both["published"]
    >>> comparison_rows(both, index="t", columns="c").to_dict("list")
    {1: ['1.0', '1.0', '0.0'], 2: ['2.0', '1.5', '-0.5']}
    """
    parts = {}
    for column, label in (("published", "paper"), ("reproduced", "ours"), ("difference", "difference")):
        wide = both.pivot(index=index, columns=columns, values=column)
        if order is not None:
            wide = wide.loc[[k for k in order if k in wide.index]]
        parts[label] = wide
    keys = list(parts["paper"].index)
    frame = pd.concat(parts, names=["", index]).swaplevel(0, 1).loc[
        pd.MultiIndex.from_product([keys, list(parts)])]
    frame = frame.map(lambda v: _number(v, digits))
    if labels:
        frame.index = frame.index.set_levels([labels.get(k, k) for k in frame.index.levels[0]], level=0)
    frame.index.names = [None, None]
    frame.columns.name = columns
    return frame


def _number(value, digits):
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return f"{round(float(value), digits) + 0.0:.{digits}f}"


def show(frame, *, digits=None, caption=None):
    """A frame as an HTML table that wraps long text and shows numbers as printed.

    Parameters
    ----------
    frame : pandas.DataFrame
    digits : int or dict, optional
        Decimals of the float columns (all, or per column); integer columns and
        whole-valued float columns of counts show as integers either way.
    caption : str, optional

    Returns
    -------
    IPython.display.HTML
        Deterministic markup (no random ids), so stored outputs do not change.
    """
    from IPython.display import HTML

    shown = frame.copy()
    for column in shown.columns:
        values = shown[column]
        if pd.api.types.is_integer_dtype(values) or pd.api.types.is_bool_dtype(values):
            if values.hasnans:  # a nullable integer column: its missing cells stay empty
                shown[column] = values.map(lambda v: "" if pd.isna(v) else str(int(v)))
            continue
        if pd.api.types.is_float_dtype(values):
            d = digits.get(column) if isinstance(digits, dict) else digits
            if d is None and values.dropna().eq(values.dropna().round()).all():
                shown[column] = values.map(lambda v: "" if np.isnan(v) else str(int(v)))
            else:
                shown[column] = values.map(lambda v, d=d: _number(v, 2 if d is None else d))
    with_index = not isinstance(shown.index, pd.RangeIndex)
    # Long text (a claim's statement, its rule) wraps in a wide, left-aligned column; the
    # class name is derived from the columns, so the markup is the same on every run.
    name = "replicability-table-" + hashlib.sha256("|".join(map(str, shown.columns)).encode()).hexdigest()[:8]
    offset = shown.index.nlevels if with_index else 0
    rules = [f".{name} td, .{name} th {{white-space: normal; vertical-align: top;}}"]
    lengths = {column: shown[column].map(lambda v: len(str(v))).max() for column in shown.columns}
    widest = max(lengths, key=lengths.get) if lengths else None
    for j, column in enumerate(shown.columns, start=1 + offset):
        if lengths[column] > 24:
            width = "16em" if column == widest else "7em"
            rules.append(f".{name} td:nth-child({j}) {{text-align: left; min-width: {width};}}")
    with pd.option_context("display.max_colwidth", None):
        markup = shown.to_html(escape=True, border=0, classes=name, na_rep="", index=with_index)
    head = f"<p><b>{html.escape(caption)}</b></p>" if caption else ""
    return HTML("<style>" + " ".join(rules) + "</style>" + head + markup)


def claims_table(claims):
    """The claims of a page for display: statement, source, rule, measured, tolerance, verdict."""
    return claims.frame()[["statement", "source", "rule", "measured", "tolerance", "verdict"]]


