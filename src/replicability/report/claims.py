"""Claims of the papers held to rules fixed before looking, and the scorecard that collects them.

Every claim a notebook checks carries the paper's statement (quoted, with page or
table), the measured value, the rule it is held to, and one of three verdicts:

* **holds**: the measured value satisfies the statement as written;
* **holds within tolerance**: it misses by no more than the tolerance, which is
  named in the verdict;
* **does not hold**: it misses by more.

The tolerance comes from one rule for every claim of a kind, never tuned claim by claim:

    tolerance = z_m * standard error + rounding,   z_1 = SE_MULTIPLE = 2,

where the standard error is the Monte Carlo standard error implied by the design's
size (for a rate p estimated from n independent trials, sqrt(p (1 - p) / n):
:func:`~replicability.report.uncertainty.rate_se`) and the rounding is half a unit of the last digit printed in the
paper when the claim compares with a printed number (0 otherwise). When the printed
number is itself a Monte Carlo estimate from a design of the same size (a rate over
the paper's own simulated data sets), the standard error is that of the difference of
two independent estimates, ``sqrt(2)`` times ours. Deterministic
claims (an identity, an exact enumeration, the same splits) have no tolerance.

A claim about m values at once (every cell of a table) is judged on each and gets the
worst verdict; so that a claim that is true is not failed by Monte Carlo noise more
often because it has more cells, the multiple grows with m as Bonferroni's correction
of the one-sided 2 SE tail: ``z_m = Phi^-1(1 - (1 - Phi(2)) / m)`` (2.0 for one value,
3.1 for 27, 3.5 for 100; :func:`se_multiple`).

Kinds of claims (methods of :class:`Claims`):

* ``at_most`` / ``at_least``: a value is below / above a bound (e.g. a Type I error
  at most the level);
* ``close_to``: a value equals a published one (holds when equal as printed, i.e.
  within the rounding);
* ``greater``: one value exceeds another (an ordering), with the standard error of
  their difference;
* ``exactly``: a deterministic condition.

"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ..engine.store import data_dir
from .tables import write_reproduced

__all__ = ["HOLDS", "NOT_HOLDS", "WITHIN", "SE_MULTIPLE", "Claims", "comparison_summary", "scorecard",
           "scorecard_html", "se_multiple", "verdict_counts"]

#: Multiple of the standard error in every tolerance.
SE_MULTIPLE = 2.0
HOLDS = "holds"
WITHIN = "holds within tolerance"
NOT_HOLDS = "does not hold"
# the scorecard's verdict labels: white text on these (contrast >= 4.5, WCAG AA)
_VERDICT_COLOURS = {HOLDS: "#1a7f37", WITHIN: "#9a6700", NOT_HOLDS: "#cf222e"}
_RANK = {HOLDS: 0, WITHIN: 1, NOT_HOLDS: 2}


def _fmt(value, unit, digits):
    arr = np.atleast_1d(np.asarray(value, dtype=float)).ravel()
    text = ", ".join(f"{v:.{digits}f}" for v in arr[:6]) + (" …" if arr.size > 6 else "")
    return text + (f" {unit}" if unit else "")


def se_multiple(m):
    """The multiple of the standard error in the tolerance of a claim about ``m`` values.

    Bonferroni's correction of the one-sided tail beyond 2 standard errors:
    ``Phi^-1(1 - (1 - Phi(2)) / m)``, which is 2 for ``m = 1``.

    Examples
    --------
    >>> [round(se_multiple(m), 2) for m in (1, 27, 100)]
    [2.0, 3.14, 3.51]
    """
    if not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"`m` must be a positive integer; got {m!r}.")
    tail = stats.norm.sf(SE_MULTIPLE)
    return float(stats.norm.isf(tail / m))


def _tolerance(se, rounding, m):
    return se_multiple(m) * np.asarray(se, dtype=float) + float(rounding)


def _verdict_from_margin(margin, tolerance, *, strict=False):
    """``margin`` >= 0 (> 0 if ``strict``) means the statement holds; >= -tolerance, within tolerance.

    Arrays are judged element by element; the worst verdict is returned.
    """
    margin = np.atleast_1d(np.asarray(margin, dtype=float))
    tolerance = np.broadcast_to(np.atleast_1d(tolerance), margin.shape)
    if np.all(margin > 0) if strict else np.all(margin >= 0):
        return HOLDS
    if np.all(margin >= -tolerance - 1e-12):
        return WITHIN
    return NOT_HOLDS


class Claims:
    """The claims of one notebook page, judged by the rules of this module.

    Parameters
    ----------
    paper : str
        Folder name of the paper, e.g. ``"bouckaert2003"``.
    page : str
        The notebook's stem, e.g. ``"03_table2_class_probability"``; the scorecard
        links to ``<paper>/<page>``.

    Examples
    --------
    >>> from replicability.report.uncertainty import rate_se
    >>> c = Claims("bouckaert2003", "03_table2_class_probability")
    >>> c.at_most("c_level", "Only the averaged T tests exceed the level", "p. 5, Table 2",
    ...           value=5.6, bound=5.0, se=100 * rate_se(0.05, 1000), unit="%")
    'holds within tolerance'
    >>> c.frame()[["verdict", "tolerance"]].iloc[0].tolist()
    ['holds within tolerance', '1.38 %']
    """

    def __init__(self, paper, page):
        self.paper, self.page = str(paper), str(page)
        self._rows = []

    def _add(self, key, statement, source, rule, measured, verdict, tolerance):
        if any(row["key"] == key for row in self._rows):
            raise ValueError(f"`key` must be unique on the page; {key!r} is used twice.")
        self._rows.append({"key": key, "paper": self.paper, "page": self.page, "statement": statement,
                           "source": source, "rule": rule, "measured": measured, "tolerance": tolerance,
                           "verdict": verdict})
        return verdict

    def at_most(self, key, statement, source, *, value, bound, se=0.0, rounding=0.0, unit="", digits=2):
        """``value <= bound``; within tolerance when ``value <= bound + z_m se + rounding``."""
        margin = np.asarray(bound, float) - np.asarray(value, float)
        tol = _tolerance(se, rounding, margin.size)
        verdict = _verdict_from_margin(margin, tol)
        return self._add(key, statement, source, f"value <= {_fmt(bound, unit, digits)}",
                         _fmt(value, unit, digits), verdict, _fmt(np.max(tol), unit, digits))

    def at_least(self, key, statement, source, *, value, bound, se=0.0, rounding=0.0, unit="", digits=2):
        """``value >= bound``; within tolerance when ``value >= bound - (z_m se + rounding)``."""
        margin = np.asarray(value, float) - np.asarray(bound, float)
        tol = _tolerance(se, rounding, margin.size)
        verdict = _verdict_from_margin(margin, tol)
        return self._add(key, statement, source, f"value >= {_fmt(bound, unit, digits)}",
                         _fmt(value, unit, digits), verdict, _fmt(np.max(tol), unit, digits))

    def close_to(self, key, statement, source, *, value, published, se, rounding, unit="", digits=2):
        """Equal as printed (``|value - published| <= rounding``); within ``z_m se + rounding`` otherwise."""
        gap = np.abs(np.asarray(value, float) - np.asarray(published, float))
        tol = _tolerance(se, rounding, gap.size)
        verdict = _verdict_from_margin(float(rounding) - gap, tol - float(rounding))
        return self._add(key, statement, source, f"|value - published| <= {rounding:g}{' ' + unit if unit else ''}",
                         f"|difference| up to {_fmt(np.max(gap), unit, digits)}", verdict,
                         _fmt(np.max(tol), unit, digits))

    def greater(self, key, statement, source, *, larger, smaller, se=0.0, unit="", digits=2):
        """``larger > smaller``; within tolerance when ``larger - smaller >= -z_m se`` (se of the gap)."""
        diff = np.asarray(larger, float) - np.asarray(smaller, float)
        tol = _tolerance(se, 0.0, diff.size)
        verdict = _verdict_from_margin(diff, tol, strict=True)  # a tie does not make "greater" hold
        return self._add(key, statement, source, "first > second", f"difference {_fmt(diff, unit, digits)}",
                         verdict, _fmt(np.max(tol), unit, digits))

    def exactly(self, key, statement, source, *, condition, measured, rule):
        """A deterministic condition: holds or does not hold, no tolerance."""
        if not isinstance(condition, (bool, np.bool_)):
            raise TypeError(f"`condition` must be a bool; got {type(condition).__name__}.")
        return self._add(key, statement, source, rule, str(measured), HOLDS if condition else NOT_HOLDS, "none")

    def frame(self):
        """The claims as a table: statement, source, rule, measured, tolerance, verdict."""
        columns = ["key", "paper", "page", "statement", "source", "rule", "measured", "tolerance", "verdict"]
        return pd.DataFrame(self._rows, columns=columns)

    def verdicts(self):
        """``{key: verdict}``, for the notebook to glue into its text."""
        return {row["key"]: row["verdict"] for row in self._rows}

    def summary(self):
        """``"claims held X of Y"`` (holds or holds within tolerance)."""
        held = sum(row["verdict"] != NOT_HOLDS for row in self._rows)
        return f"claims held {held} of {len(self._rows)}"

    def write(self):
        """Write the claims to ``reproduced/claims/<paper>/<page>.csv`` for the scorecard; return its name."""
        return write_reproduced(self.frame(), f"claims/{self.paper}", self.page)


def comparison_summary(published, reproduced, claims=None, *, digits=2):
    """The first line of a table page: cells compared, mean and max ``|published - ours|``, claims held.

    Parameters
    ----------
    published, reproduced : array_like
        The compared cells (NaN cells are skipped).
    claims : Claims, optional
    digits : int
        Decimals shown.

    Returns
    -------
    str

    Examples
    --------
    >>> comparison_summary([1.0, 2.0, 3.0], [1.5, 2.0, 2.0])
    '3 cells compared; |published - ours|: mean 0.50, max 1.00'
    """
    p, r = np.asarray(published, float).ravel(), np.asarray(reproduced, float).ravel()
    if p.shape != r.shape:
        raise ValueError(f"`published` and `reproduced` must have the same size; got {p.size} and {r.size}.")
    keep = ~(np.isnan(p) | np.isnan(r))
    gap = np.abs(p[keep] - r[keep])
    text = f"{int(keep.sum())} cells compared"
    if gap.size:
        text += f"; |published - ours|: mean {gap.mean():.{digits}f}, max {gap.max():.{digits}f}"
    if claims is not None:
        text += f"; {claims.summary()}"
    return text


def scorecard(root=None):
    """Every claim of every paper, from the claims files the notebooks wrote.

    Parameters
    ----------
    root : path-like, optional
        The ``reproduced`` folder (default ``data/reproduced``).

    Returns
    -------
    pandas.DataFrame
        One row per claim, sorted by paper and page.
    """
    root = Path(root) if root is not None else data_dir() / "reproduced"
    files = sorted((root / "claims").glob("*/*.csv"))
    if not files:
        raise FileNotFoundError(f"No claims files under {root / 'claims'}; execute the notebooks first.")
    frame = pd.concat([pd.read_csv(f, dtype=str, keep_default_na=False) for f in files], ignore_index=True)
    return frame.sort_values(["paper", "page"], kind="stable").reset_index(drop=True)


def scorecard_html(frame):
    """The scorecard as an HTML table a reader can scan: one row per claim, linked to its page.

    Five columns: the page (a link), the statement with its source, the rule with its
    tolerance, the measured value, and the verdict as a coloured label. Text wraps
    between words only (a page name also at its underscores), so the table fits the text
    column without breaking a word.

    Parameters
    ----------
    frame : pandas.DataFrame
        From :func:`scorecard`.

    Returns
    -------
    str
        A ``<table>`` whose rows link to ``../<paper>/<page>.html``, the built book's
        address of the claim's page (the scorecard page sits in ``notebooks/reference``).
    """
    import html

    def text(value):
        return html.escape(str(value))

    head = "".join(f"<th>{c}</th>" for c in ("page", "statement", "rule", "measured", "verdict"))
    rows = []
    for row in frame.itertuples(index=False):
        page = text(row.page).replace("_", "_<wbr>")
        link = f'<a href="../{text(row.paper)}/{text(row.page)}.html">{text(row.paper)}<br>{page}</a>'
        tolerance = "" if row.tolerance in ("", "none") else f"<br><small>tolerance {text(row.tolerance)}</small>"
        colour = _VERDICT_COLOURS.get(row.verdict, "#57606a")
        rows.append(f"<tr><td>{link}</td><td>{text(row.statement)}<br><small>{text(row.source)}</small></td>"
                    f"<td>{text(row.rule)}{tolerance}</td><td>{text(row.measured)}</td>"
                    f'<td><span class="verdict" style="background: {colour}">{text(row.verdict)}</span></td></tr>')
    style = ("<style>.scorecard {width: 100%} .scorecard td, .scorecard th {text-align: left; vertical-align: top; "
             "white-space: normal; overflow-wrap: normal; word-break: normal; font-size: 0.85em} "
             ".scorecard .verdict {display: inline-block; color: #fff; border-radius: 0.3em; padding: 0 0.4em}</style>")
    return f'{style}<table class="scorecard"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def verdict_counts(frame):
    """Claims per paper and verdict, with totals, from :func:`scorecard`."""
    table = pd.crosstab(frame["paper"], frame["verdict"]).reindex(columns=[HOLDS, WITHIN, NOT_HOLDS], fill_value=0)
    table["total"] = table.sum(axis=1)
    return table

