"""What a Raschka (2018) notebook page shows, computed by the package and displayed by the notebook.

A page function (e.g. :func:`~replicability.papers.raschka2018.holdout_page`) computes
everything a notebook shows and returns a :class:`Page`: its tables (already formatted
for display), its figures (drawn on request), the values glued into its prose, its
:class:`~replicability.papers.claims.Claims` and the summary line. The notebook only
calls the page function and asks the page to show its parts.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..claims import comparison_summary

__all__ = ["Page", "display_number", "display_frame", "html_table"]


def display_number(value, digits=4):
    """A number as shown on a page: integers without decimals, no ``-0``, NaN as an em dash.

    Parameters
    ----------
    value : float, int, bool or str
    digits : int
        Decimals kept (trailing zeros dropped).

    Returns
    -------
    str

    Examples
    --------
    >>> display_number(1000.0), display_number(-0.00001), display_number(0.12345, 3), display_number(float("nan"))
    ('1000', '0', '0.123', '—')
    """
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    value = float(value)
    if math.isnan(value):
        return "—"
    if math.isinf(value):
        return "∞" if value > 0 else "−∞"
    if value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    # numpy rounding, as pandas rounds a table: the digits shown before the pages moved here.
    text = f"{float(np.round(value, digits)) + 0.0:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def display_frame(frame, digits=4, *, columns=None):
    """Every cell of ``frame`` through :func:`display_number` (per-column ``digits`` in a dict)."""
    out = frame.copy()
    for column in columns if columns is not None else out.columns:
        d = digits.get(column, 4) if isinstance(digits, dict) else digits
        out[column] = [display_number(v, d) for v in out[column]]
    return out


def html_table(frame, *, index=True, wrap=(), uuid="t"):
    """A table as HTML that wraps long text and is byte-identical from run to run.

    Parameters
    ----------
    frame : pandas.DataFrame
        Already formatted for display (see :func:`display_frame`).
    index : bool
        Show the index.
    wrap : sequence of str
        Columns of long text, left-aligned and given a maximal width so that they wrap;
        the first of them also gets a minimal width.
    uuid : str
        Identifier of the table in the page's HTML: its CSS applies to this table only,
        so every table of a page needs its own.

    Returns
    -------
    IPython.display.HTML
    """
    from IPython.display import HTML

    styler = frame.style.set_uuid(uuid)
    if not index:
        styler = styler.hide(axis="index")
    styler = styler.set_table_styles([
        {"selector": "td, th", "props": "text-align: right; white-space: normal; padding: 2px 6px;"},
    ])
    wrapped = [c for c in wrap if c in frame.columns]
    if wrapped:
        # !important: the table-wide right alignment has the higher CSS specificity.
        styler = styler.set_properties(subset=wrapped, **{"text-align": "left !important", "max-width": "18em"})
        styler = styler.set_properties(subset=wrapped[:1], **{"min-width": "12em"})
    return HTML(styler.to_html())


class Page:
    """The tables, figures, glued values and claims of one notebook page.

    Parameters
    ----------
    claims : Claims
        The page's claims.
    published, reproduced : array_like
        The cells compared with the paper, for :meth:`summary`.
    """

    def __init__(self, claims, published=(), reproduced=()):
        self.claims = claims
        self.published = np.asarray(published, dtype=float)
        self.reproduced = np.asarray(reproduced, dtype=float)
        self.tables = {}
        self.figures = {}
        self.values = {}

    def summary(self):
        """``comparison_summary`` of the compared cells and the claims."""
        return comparison_summary(self.published, self.reproduced, self.claims)

    def glue(self):
        """Glue the summary line (displayed) and every value of the prose (not displayed).

        Text values (verdicts) are glued as Markdown, for the ``{glue:md}`` role, so that
        the page shows them without quotes.
        """
        from IPython.display import Markdown
        from myst_nb import glue

        for name, value in self.values.items():
            if isinstance(value, float):
                value += 0.0  # a rounded -0.0 is shown as 0.0
            glue(name, Markdown(value) if isinstance(value, str) else value, display=False)
        glue("summary", Markdown(f"**Summary:** {self.summary()}."))

    def show(self, name):
        """The table ``name``, as HTML."""
        frame, options = self.tables[name]
        return html_table(frame, uuid=name, **options)

    def plot(self, name):
        """Draw the figure ``name``."""
        import matplotlib.pyplot as plt

        self.figures[name]()
        plt.show()

    def verdicts(self):
        """The claims: statement, source, rule, measured, tolerance and verdict, text wrapped."""
        frame = self.claims.frame()[["statement", "source", "rule", "measured", "tolerance", "verdict"]]
        return html_table(frame, index=False, wrap=("statement", "source", "rule", "measured"), uuid="claims")

    def add_table(self, name, frame, *, index=True, wrap=()):
        """Register a display table."""
        self.tables[name] = (frame, {"index": index, "wrap": tuple(wrap)})
        return frame


def published_beside_ours(published, reproduced, *, keys, digits, labels=None):
    """Published / ours / difference for a long table of ``keys`` and ``value``.

    ``digits`` is a Series (or scalar) of decimals per row: both values are rounded to
    the printed digits before the difference is taken. ``labels`` maps the keys of the
    transcription (e.g. ``"mean_accuracy_50_50"``) to the words shown.
    """
    out = published[list(keys)].copy()
    if labels:
        out = out.replace(labels)
    digits = pd.Series(digits, index=published.index) if np.isscalar(digits) else pd.Series(digits,
                                                                                            index=published.index)
    ours = np.array([round(float(v), int(d)) for v, d in zip(reproduced["value"], digits)])
    out["published"] = [display_number(v, int(d)) for v, d in zip(published["value"], digits)]
    out["ours"] = [display_number(v, int(d)) for v, d in zip(ours, digits)]
    diff = ours - published["value"].to_numpy(dtype=float)
    out["difference"] = [display_number(round(v, int(d)), int(d)) for v, d in zip(diff, digits)]
    return out
