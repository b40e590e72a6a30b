"""What a notebook page of the compendium shows: one page object, one table renderer, one number format.

Every page function of ``replicability.papers.<paper>`` computes what its notebook
shows and returns a :class:`Page`: the summary line
(:func:`~replicability.report.claims.comparison_summary`), the claims
(:class:`~replicability.report.claims.Claims`), the tables to show, the values the
text quotes, the reproduced tables to write and the figures. The notebook only
calls the page function and asks the page for its parts::

    page = table1_page(...)
    page.glue()      # summary, values and verdicts, for the {glue:text} roles of the text
    page.write()     # data/reproduced/<paper>/<table>.csv and the claims file
    page.show("table1")
    page.plot("figure")
    page.verdicts()

Conventions, the same on every page:

* numbers (:func:`format_number`): a fixed number of decimals, never ``-0.0``, counts
  (whole-valued columns) as integers, a missing value as an empty cell;
* tables (:class:`Table`): HTML whose text wraps so that the table fits the book's
  text column, styled under one CSS class per table (derived from its content, so
  the markup is the same on every run and styles do not leak to other tables);
* a published table beside ours (:func:`beside`): published, ours and their
  difference, one under another (narrow) or side by side;
* claims (:func:`claims_table`): claim, verdict and how it was judged, text wrapped;
* glue: every value as plain text (strings unquoted), for ``{glue:text}``.
"""

from __future__ import annotations

import hashlib
import html
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._results import plain as plain_value
from .claims import Claims
from .tables import write_reproduced

__all__ = ["Page", "Table", "beside", "claims_table", "format_frame", "format_number", "plain", "show"]


def format_number(value, digits=3, *, signed=False):
    """A number as shown on a page: ``digits`` decimals, never ``-0.0``; a missing value as ``""``.

    Parameters
    ----------
    value : float, int, bool, str or None
        Integers show without decimals, booleans as ``yes``/``no``, text as it is.
    digits : int
        Decimals of a float; 0 shows it as an integer (a count).
    signed : bool, keyword-only
        Put ``+`` before a positive value (a difference).

    Returns
    -------
    str

    Examples
    --------
    >>> format_number(-0.00004, 4), format_number(1000.0, 0), format_number(2.0, 0, signed=True)
    ('0.0000', '1000', '+2')
    >>> format_number(7), format_number(float("nan")), format_number(True), format_number(0.12345, 3)
    ('7', '', 'yes', '0.123')
    """
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if value is None or pd.isna(value):
        return ""
    if isinstance(value, (int, np.integer)):
        value, digits = float(value), 0
    value = float(value)
    if math.isinf(value):
        return "∞" if value > 0 else "-∞"
    rounded = round(value, int(digits)) + 0.0  # + 0.0 turns -0.0 into 0.0
    return f"{rounded:+.{digits}f}" if signed and rounded != 0 else f"{rounded:.{digits}f}"


def _is_count(values):
    """Whether a column holds counts: integers, or floats that are all whole numbers."""
    if pd.api.types.is_bool_dtype(values):
        return False
    if pd.api.types.is_integer_dtype(values):
        return True
    if not pd.api.types.is_float_dtype(values):
        return False
    v = values.dropna().to_numpy(dtype=float)
    return bool(v.size) and bool(np.all(np.isfinite(v))) and bool(np.all(v == np.round(v)))


def format_frame(frame, digits=3):
    """Every cell of ``frame`` as text (:func:`format_number`): counts as integers, floats to ``digits``.

    Parameters
    ----------
    frame : pandas.DataFrame
    digits : int or dict
        Decimals of every float column, or per column name (others: 3).

    Returns
    -------
    pandas.DataFrame
        Strings, same index and columns.

    Examples
    --------
    >>> format_frame(pd.DataFrame({"n": [1000.0, 10.0], "x": [-0.00001, 0.12345]}), 2).to_dict("list")
    {'n': ['1000', '10'], 'x': ['0.00', '0.12']}
    """
    out = frame.copy()
    for j, column in enumerate(frame.columns):
        values = frame.iloc[:, j]
        d = digits.get(column, 3) if isinstance(digits, dict) else digits
        d = 0 if _is_count(values) else d
        out.isetitem(j, [format_number(v, d) for v in values])
    return out


def _numeric_text(text):
    try:
        float(str(text).replace("±", "").replace("%", "").replace("−", "-") or "x")
    except ValueError:
        return False
    return True


class Table:
    """A table for a book page: HTML that wraps its text to fit the column, numbers as printed.

    Parameters
    ----------
    frame : pandas.DataFrame
        Any values; numbers are formatted by :func:`format_frame`.
    digits : int or dict
        Decimals of the float columns (all, or per column).
    caption : str, optional
    index : bool, optional
        Show the index (default: unless it is a plain range).

    Notes
    -----
    The markup is deterministic: its CSS class is a hash of the table's text, so a
    notebook's stored output does not change from run to run, and its style rules
    apply to this table only. Columns of text (a claim's statement) are left-aligned
    and may break anywhere; columns of numbers are right-aligned and never break.

    Examples
    --------
    >>> t = Table(pd.DataFrame({"claim": ["x" * 80], "n": [3.0]}))
    >>> "x" * 80 in t._repr_html_() and "x" * 80 in repr(t) and "<td>3</td>" in t._repr_html_()
    True
    """

    def __init__(self, frame, digits=3, *, caption=None, index=None):
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(f"`frame` must be a pandas DataFrame; got {type(frame).__name__}.")
        self.frame, self.digits, self.caption = frame, digits, caption
        self.index = not isinstance(frame.index, pd.RangeIndex) if index is None else bool(index)

    def shown(self):
        """The table's cells as the page shows them (strings)."""
        return format_frame(self.frame, self.digits)

    def __repr__(self):
        with pd.option_context("display.max_colwidth", None, "display.width", 200, "display.max_rows", None,
                               "display.max_columns", None):
            text = self.shown().to_string(index=self.index)
        return f"{self.caption}\n{text}" if self.caption else text

    def _repr_html_(self):
        shown = self.shown()
        with pd.option_context("display.max_colwidth", None, "display.max_rows", None, "display.max_columns", None):
            markup = shown.to_html(escape=True, border=0, na_rep="", index=self.index, classes="rp-table")
        name = "rp-" + hashlib.sha256((markup + str(self.caption)).encode()).hexdigest()[:10]
        offset = shown.index.nlevels if self.index else 0
        rules = [f".{name} table {{font-size: 0.85em; max-width: 100%; margin: 0 0 0.5em 0;}}",
                 f".{name} th, .{name} td {{white-space: normal; overflow-wrap: break-word; vertical-align: top;"
                 f" padding: 2px 6px;}}",
                 f".{name} td {{text-align: right; white-space: nowrap;}}"]
        for j in range(1 + offset, 1 + offset + shown.shape[1]):
            cells = shown.iloc[:, j - 1 - offset]
            if not all(_numeric_text(c) for c in cells if c != ""):
                rules.append(f".{name} td:nth-child({j}) {{text-align: left; white-space: normal;"
                             f" overflow-wrap: anywhere;{' min-width: 12em;' if cells.map(len).max() > 60 else ''}}}")
        head = f"<p><em>{html.escape(self.caption)}</em></p>" if self.caption else ""
        return f'<div class="{name}"><style>{" ".join(rules)}</style>{head}{markup}</div>'


def show(frame, digits=3, *, caption=None, index=None):
    """Display ``frame`` as a :class:`Table` (a :class:`Table` as it is); for cells that show several tables."""
    from IPython.display import display

    display(frame if isinstance(frame, Table) else Table(frame, digits, caption=caption, index=index))


def beside(published, ours, *, digits, difference=None, labels=("published", "ours", "difference"), stack=True):
    """Published, ours and ours - published for the same cells, as text.

    Parameters
    ----------
    published, ours : pandas.DataFrame or pandas.Series
        Same index (and columns), e.g. rows = tests, columns = levels. A Series is one
        column: the three versions are then shown side by side.
    digits : int or array_like
        Decimals (0: counts), for every row or one per row of ``published``.
    difference : pandas.DataFrame, optional
        The difference to show (default ``ours - published``).
    labels : tuple of str
        Names of the three versions.
    stack : bool, keyword-only
        True: the three versions one under another for every row (a narrow table, the
        index gains a last level); False: side by side (the columns gain a first level,
        or are the three labels when there is one column).

    Returns
    -------
    pandas.DataFrame
        Strings (:func:`format_number`; differences signed).

    Examples
    --------
    >>> pub = pd.DataFrame({"10": [15.0, 0.801]}, index=["consistent", "R"])
    >>> ours = pd.DataFrame({"10": [11.0, 0.7997]}, index=["consistent", "R"])
    >>> beside(pub, ours, digits=[0, 3])["10"].tolist()
    ['15', '11', '-4', '0.801', '0.800', '-0.001']
    >>> beside(pub["10"], ours["10"], digits=1).loc["R"].tolist()
    ['0.8', '0.8', '0.0']
    """
    if isinstance(published, pd.Series):
        published, ours, stack = published.to_frame("value"), ours.to_frame("value"), False
        difference = None if difference is None else difference.to_frame("value")
    if not published.index.equals(ours.index) or not published.columns.equals(ours.columns):
        raise ValueError("`published` and `ours` must have the same index and columns.")
    difference = ours - published if difference is None else difference.loc[published.index, published.columns]
    digits = np.broadcast_to(np.asarray(digits, dtype=int), (len(published),))
    parts = {}
    for label, frame, signed in zip(labels, (published, ours, difference), (False, False, True)):
        cells = [[format_number(v, d, signed=signed) for v in row] for row, d in zip(frame.to_numpy(), digits)]
        parts[label] = pd.DataFrame(cells, index=published.index, columns=published.columns)
    if not stack:
        if published.shape[1] == 1:
            return pd.DataFrame({label: part.iloc[:, 0] for label, part in parts.items()})
        return pd.concat(parts, axis=1).swaplevel(0, 1, axis=1)[published.columns]
    rows, keys = [], []
    for i, key in enumerate(published.index):
        for label in labels:
            rows.append(parts[label].iloc[i].tolist())
            keys.append((*key, label) if isinstance(key, tuple) else (key, label))
    names = [*(published.index.names if published.index.nlevels > 1 else [published.index.name]), ""]
    return pd.DataFrame(rows, index=pd.MultiIndex.from_tuples(keys, names=names), columns=published.columns)


def claims_table(claims):
    """The claims of a page for display: the claim (key, statement, source), its verdict, how it was judged.

    Three columns, so that the statement has most of the page's width.

    Examples
    --------
    >>> c = Claims("bouckaert2004", "demo")
    >>> _ = c.exactly("k", "A statement", "p. 1", condition=True, measured="yes", rule="identity")
    >>> claims_table(c).frame["verdict"].tolist()
    ['holds']
    """
    frame = claims.frame()
    shown = pd.DataFrame({
        "claim": [f"{r.key}: {r.statement} ({r.source})" for r in frame.itertuples()],
        "verdict": frame["verdict"],
        "judged by": [f"rule: {r.rule}; measured: {r.measured}; uncertainty: {r.tolerance}"
                      + (f"; {r.to_decide}" if r.to_decide else "") for r in frame.itertuples()],
    })
    return Table(shown, index=False)


def plain(values):
    """Values as plain Python numbers, strings and booleans (no ``np.float64(...)``, no ``-0.0``).

    Examples
    --------
    >>> plain({"x": np.float64(0.5), "n": np.int64(3), "ok": np.bool_(True), "s": "holds", "z": -0.0})
    {'x': 0.5, 'n': 3, 'ok': True, 's': 'holds', 'z': 0.0}
    """
    out = {key: plain_value(value) for key, value in values.items()}
    return {key: value + 0.0 if isinstance(value, float) else value for key, value in out.items()}


@dataclass
class Page:
    """Everything one notebook page shows, computed by the package.

    Attributes
    ----------
    claims : Claims
        The paper's statements checked on the page; its ``paper`` and ``page`` name the
        page and the files :meth:`write` writes.
    values : dict
        Numbers and words the page's text quotes, glued under their names (rounded as shown).
    summary : str
        The page's first line (:func:`~replicability.report.claims.comparison_summary`); may be empty.
    tables : dict of str to Table, pandas.DataFrame, list of Table, or HTML
        The tables shown, by name (a frame is shown as a :class:`Table`, a list one after another,
        an object with ``_repr_html_`` such as ``IPython.display.HTML`` as it is).
    reproduced : dict of str to pandas.DataFrame
        Tables written to ``data/reproduced/<paper>/<name>.csv``; a name ``"<other>/<table>"``
        is a table of another publication (``data/reproduced/<other>/<table>.csv``), e.g. the
        worked example of Demšar (2006) that a "Beyond the papers" page reproduces.
    figures : dict of str to callable
        Functions that draw a figure (and return it, or leave it current).
    data : dict
        Long tables behind the figures.
    """

    claims: Claims
    values: dict = field(default_factory=dict)
    summary: str = ""
    tables: dict = field(default_factory=dict)
    reproduced: dict = field(default_factory=dict)
    figures: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)

    @property
    def paper(self):
        """The paper's folder name, from the claims."""
        return self.claims.paper

    @property
    def name(self):
        """The notebook's stem, from the claims."""
        return self.claims.page

    def glue_values(self):
        """The summary, the values and every claim's verdict, keyed by glue name, as plain values."""
        summary = {"summary": self.summary} if self.summary else {}
        return plain({**summary, **self.values, **self.claims.verdicts()})

    def glue(self):
        """Glue :meth:`glue_values` (not displayed) for the page's ``{glue:text}`` roles."""
        from myst_nb import glue

        for key, value in self.glue_values().items():
            glue(key, value, display=False)

    def write(self):
        """Write the reproduced tables and the claims file; return nothing, so a notebook shows nothing."""
        for table, frame in self.reproduced.items():
            write_reproduced(frame, *(table.split("/", 1) if "/" in table else (self.paper, table)))
        self.claims.write()

    def show(self, name, digits=None, *, caption=None):
        """The table ``name`` as a :class:`Table` (``digits``, ``caption``: override the page's)."""
        if name not in self.tables:
            raise KeyError(f"`name` must be one of {sorted(self.tables)}; got {name!r}.")
        table = self.tables[name]
        if isinstance(table, (list, tuple)):  # several tables under one name, each with its caption
            from IPython.display import HTML

            return HTML("".join(t._repr_html_() for t in table))
        if not isinstance(table, (Table, pd.DataFrame)) and hasattr(table, "_repr_html_"):
            return table
        if not isinstance(table, Table):
            table = Table(table)
        if digits is None and caption is None:
            return table
        return Table(table.frame, table.digits if digits is None else digits, index=table.index,
                     caption=table.caption if caption is None else caption)

    def plot(self, name=None):
        """Draw the figure ``name`` (the only one if None) and display it once."""
        import matplotlib.pyplot as plt
        from IPython.display import display

        if name is None:
            if len(self.figures) != 1:
                raise ValueError(f"`name` must be one of {sorted(self.figures)} on this page.")
            name = next(iter(self.figures))
        if name not in self.figures:
            raise KeyError(f"`name` must be one of {sorted(self.figures)}; got {name!r}.")
        fig = self.figures[name]()
        fig = fig if isinstance(fig, plt.Figure) else plt.gcf()
        display(fig)
        plt.close(fig)

    def verdicts(self):
        """The claims for display (:func:`claims_table`)."""
        return claims_table(self.claims)
