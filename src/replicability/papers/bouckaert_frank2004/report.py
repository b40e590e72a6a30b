"""What a notebook page of Bouckaert & Frank (2004) shows: its tables, figure, claims and summary.

Every page of the paper's notebooks is one call of a ``*_page`` function of
:mod:`~replicability.papers.bouckaert_frank2004.uci_pages`,
:mod:`~replicability.papers.bouckaert_frank2004.fidelity_page` or
:mod:`~replicability.papers.bouckaert_frank2004.synthetic_page`, which returns a
:class:`Page`: the tables to show (formatted for display, narrow enough for a
book page), the reproduced tables to write to ``data/reproduced``, the claims
(:class:`~replicability.papers.claims.Claims`), the first-line summary and the
figure. This module holds :class:`Page` and the formatting helpers.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..claims import Claims
from ..tables import write_reproduced

__all__ = ["PAPER", "Page", "ShownTable", "format_count", "format_value", "side_by_side"]

#: Folder name of the paper under ``data/published`` and ``data/reproduced``.
PAPER = "bouckaert_frank2004"


def format_value(value, digits=3, *, signed=False):
    """A number as shown on a page: ``digits`` decimals, never ``-0.000``; NaN as an empty string.

    Parameters
    ----------
    value : float
    digits : int
        Decimals; 0 shows an integer (a count).
    signed : bool, keyword-only
        Show a ``+`` before positive values (differences).

    Returns
    -------
    str

    Examples
    --------
    >>> format_value(-0.00004, 4), format_value(1000.0, 0), format_value(2.0, 0, signed=True)
    ('0.0000', '1000', '+2')
    """
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return ""
    rounded = round(float(value), digits) + 0.0  # + 0.0 turns -0.0 into 0.0
    text = f"{rounded:+.{digits}f}" if signed and rounded != 0 else f"{rounded:.{digits}f}"
    return text


def format_count(value, *, signed=False):
    """A count as an integer string (``1000``, never ``1000.0``); NaN as an empty string."""
    return format_value(value, 0, signed=signed)


class ShownTable:
    """A table for a book page: every cell text in full, rows that wrap, no truncation.

    Parameters
    ----------
    frame : pandas.DataFrame
        Cells already formatted as strings (see :func:`format_value`), or any values.
    caption : str, optional
    index : bool, keyword-only
        Show the frame's index (default True).
    text : bool, keyword-only
        Cells are text (claims): left-aligned and top-aligned in HTML.

    Examples
    --------
    >>> t = ShownTable(pd.DataFrame({"claim": ["x" * 80]}))
    >>> "x" * 80 in t._repr_html_() and "x" * 80 in repr(t)
    True
    """

    def __init__(self, frame, caption=None, *, index=True, text=False):
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"`frame` must be a pandas DataFrame; got {type(frame).__name__}.")
        self.frame, self.caption, self.index, self.text = frame, caption, bool(index), bool(text)

    def __repr__(self):
        with pd.option_context("display.max_colwidth", None, "display.width", 200, "display.max_rows", None,
                               "display.max_columns", None):
            text = self.frame.to_string(index=self.index)
        return f"{self.caption}\n{text}" if self.caption else text

    def _repr_html_(self):
        with pd.option_context("display.max_colwidth", None, "display.max_rows", None, "display.max_columns", None):
            table = self.frame.to_html(escape=True, na_rep="", border=0, index=self.index,
                                       classes="dataframe replicability-text" if self.text else "dataframe")
        caption = f"<p><em>{html.escape(self.caption)}</em></p>" if self.caption else ""
        if self.text:
            caption += ("<style>table.replicability-text td, table.replicability-text th "
                        "{text-align: left !important; vertical-align: top}</style>")
        # Long text wraps inside its cell instead of widening the table past the page.
        return f'<div style="overflow-x: auto; white-space: normal">{caption}{table}</div>'


def side_by_side(published, ours, *, digits, labels=("published", "ours", "difference")):
    """Published, ours and ours - published, one row each, for the same cells.

    Parameters
    ----------
    published, ours : pandas.DataFrame
        Same index and columns (e.g. rows = pairs, columns = numbers of runs).
    digits : int or pandas.Series
        Decimals shown (0: counts), one for all rows or one per row of ``published``.
    labels : tuple of str
        Names of the three rows per row of the input.

    Returns
    -------
    pandas.DataFrame
        Strings; the index gains a last level with ``labels``. A narrow table:
        as many columns as the input.

    Examples
    --------
    >>> pub = pd.DataFrame({"10": [15.0, 0.801]}, index=["consistent", "R"])
    >>> ours = pd.DataFrame({"10": [11.0, 0.7997]}, index=["consistent", "R"])
    >>> side_by_side(pub, ours, digits=pd.Series({"consistent": 0, "R": 3}))["10"].tolist()
    ['15', '11', '-4', '0.801', '0.800', '-0.001']
    """
    if not published.index.equals(ours.index) or not published.columns.equals(ours.columns):
        raise ValueError("`published` and `ours` must have the same index and columns.")
    if not isinstance(digits, pd.Series):
        digits = pd.Series(int(digits), index=published.index)
    rows, keys = [], []
    for key in published.index:
        d = int(digits.loc[key])
        pub, rep = published.loc[key], ours.loc[key]
        for label, values, signed in zip(labels, (pub, rep, rep - pub), (False, False, True)):
            rows.append([format_value(v, d, signed=signed) for v in values])
            keys.append((*key, label) if isinstance(key, tuple) else (key, label))
    names = [*(published.index.names if published.index.nlevels > 1 else [published.index.name]), ""]
    return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(keys, names=names), columns=published.columns)


@dataclass
class Page:
    """Everything one notebook page shows, computed by the package.

    Attributes
    ----------
    name : str
        The notebook's stem (also the claims file's name).
    summary : str
        The page's first line: cells compared, mean and max |published - ours|,
        claims held (:func:`~replicability.papers.claims.comparison_summary`).
    claims : Claims
    tables : dict of str to ShownTable
        The tables shown, by name.
    values : dict
        Numbers the text quotes, glued under their names (rounded as shown).
    reproduced : dict of str to pandas.DataFrame
        Tables written to ``data/reproduced/bouckaert_frank2004/<name>.csv``.
    plot : callable
        Draws the page's figure and returns it.
    """

    name: str
    summary: str
    claims: Claims
    tables: dict = field(default_factory=dict)
    values: dict = field(default_factory=dict)
    reproduced: dict = field(default_factory=dict)
    plot: object = None

    def glue(self):
        """Glue the summary, the values and the claims' verdicts (by key) for the page's text."""
        from myst_nb import glue

        glue("summary", self.summary, display=False)
        for key, value in {**self.values, **self.claims.verdicts()}.items():
            glue(key, value, display=False)

    def write(self):
        """Write the reproduced tables and the claims file; return their names."""
        names = [write_reproduced(frame, PAPER, table) for table, frame in self.reproduced.items()]
        return [*names, self.claims.write()]

    def show(self, name):
        """The table ``name``, for display."""
        if name not in self.tables:
            raise KeyError(f"`name` must be one of {sorted(self.tables)}; got {name!r}.")
        return self.tables[name]

    def figure(self):
        """Draw the page's figure and display it once (then close it, so that no backend shows it again)."""
        import matplotlib.pyplot as plt
        from IPython.display import display

        fig = self.plot()
        display(fig)
        plt.close(fig)

    def verdicts(self):
        """The claims for display: three columns, so that the statement has the page's width.

        ``claim``: key, the paper's statement and its source; ``verdict``; ``judged by``:
        the rule, the measured value and the tolerance.
        """
        frame = self.claims.frame()
        shown = pd.DataFrame({
            "claim": [f"{r.key}: {r.statement} ({r.source})" for r in frame.itertuples()],
            "verdict": frame["verdict"],
            "judged by": [f"rule: {r.rule}; measured: {r.measured}; tolerance: {r.tolerance}"
                          for r in frame.itertuples()],
        })
        return ShownTable(shown, index=False, text=True)
