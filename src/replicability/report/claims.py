"""Claims of the papers held to rules fixed before looking, and the scorecard that collects them.

Every claim a notebook checks carries the paper's statement (quoted, with page or
table), the measured value, the rule it is held to, and one of three verdicts:

* **holds**: the measured value satisfies the rule below;
* **inconclusive at this scale**: the measured value is within its uncertainty of the
  rule's boundary, so this design cannot decide; the verdict states the design size
  (a multiple of ours, assuming the standard error falls as ``1/sqrt(n)``) at which the
  observed value would be beyond its uncertainty;
* **does not hold**: the measured value is beyond its uncertainty on the wrong side.

The uncertainty of a value is ``z_m`` standard errors, one rule for every claim:

    z_1 = SE_MULTIPLE = 2: a one-sided level ALPHA = 1 - Phi(2) = 0.0228 (normal
    approximation), and for a claim about m values at once (every cell of a table,
    judged on each, worst verdict) Bonferroni's ``z_m = Phi^-1(1 - ALPHA / m)``
    (3.1 for 27, 3.5 for 100; :func:`se_multiple`).

The standard error matches the design (:mod:`~replicability.report.uncertainty`, one
implementation each): a rate from n independent trials, ``sqrt(p (1 - p) / n)``
(:func:`~replicability.report.uncertainty.rate_se`); two rates on *different* trials,
or ours against the paper's own Monte Carlo estimate (independent:
:func:`~replicability.report.uncertainty.rate_difference_se`); two rates on the *same*
data sets and splits (paired:
:func:`~replicability.report.uncertainty.paired_rate_difference_se`). A comparison with
a printed number adds half a unit of its last printed digit (the rounding).
Deterministic claims (an identity, an exact enumeration) have no uncertainty.

One rule per kind of claim (methods of :class:`Claims`):

* ``at_most`` / ``at_least``, a bound (a Type I error at most the level): holds when the
  value is on the stated side; inconclusive when on the wrong side by at most its
  uncertainty (plus the rounding); does not hold beyond.
* ``close_to``, a reproduction of a printed value: holds when equal as printed (within
  the rounding), inconclusive when the gap is within the uncertainty, does not hold beyond.
* ``greater``, an ordering ("higher", "decreases", "better"): holds only when the
  difference has the stated sign *and* exceeds its uncertainty (one-sided at ALPHA);
  a reversed difference beyond its uncertainty does not hold; anything in between is
  inconclusive, never "holds". With a qualifier ("slightly", "considerably" or
  "substantially", "much", "dramatically" or "a large gap"), the difference must exceed
  the qualifier's stated minimum effect (:data:`QUALIFIERS`) by its uncertainty, and does
  not hold when it falls short of it beyond its uncertainty.
* ``equivalent``, "close to", "similar", "insensitive": a margin fixed before looking
  and stated with the claim; holds when the two one-sided tests
  (:func:`~replicability.stats.equivalence.tost`) both reject at ALPHA (the difference plus its
  uncertainty lies inside the margin); does not hold when the difference is outside
  the margin by more than its uncertainty; inconclusive otherwise.
* ``agreement``, a count of agreeing cells: shown beside the count a trivial table
  would reach (e.g. all dots), and held to ``greater`` on the paired cells (the
  discordant cells, as McNemar's test): it holds only when the table agrees beyond
  the trivial one.
* ``exactly``: a deterministic condition.
* ``not_at_this_scale``: a claim whose measure depends on the paper's design size (a
  count out of its ten randomizations) run below it; the values are not set beside the
  paper's and the verdict is inconclusive at this scale, naming the design that decides it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from ..engine.store import data_dir
from ..stats.equivalence import tost
from .tables import write_reproduced
from .uncertainty import paired_rate_difference_se

__all__ = ["ALPHA", "HOLDS", "INCONCLUSIVE", "NOT_HOLDS", "QUALIFIERS", "SE_MULTIPLE", "Claims", "comparison_summary",
           "scorecard", "scorecard_html", "se_multiple", "verdict_counts"]

#: Multiple of the standard error in every uncertainty (one value).
SE_MULTIPLE = 2.0
#: The one-sided level of every rule, ``1 - Phi(SE_MULTIPLE)`` (0.0228).
ALPHA = float(stats.norm.sf(SE_MULTIPLE))
HOLDS = "holds"
INCONCLUSIVE = "inconclusive at this scale"
NOT_HOLDS = "does not hold"
#: The minimum effect each qualifier of a paper's text is held to, stated once:
#: ``{qualifier: (minimum effect, what it means)}``; effects of rates in percentage points.
QUALIFIERS = {
    "slightly": (0.0, "a difference of the stated sign beyond its uncertainty; no minimum"),
    "considerably": (5.0, "a difference of at least 5 percentage points, beyond its uncertainty"),
    "substantially": (5.0, "as considerably: at least 5 percentage points, beyond its uncertainty"),
    "much": (10.0, "a difference of at least 10 percentage points, beyond its uncertainty"),
    "dramatically": (10.0, "as much: at least 10 percentage points, beyond its uncertainty"),
    "large": (10.0, "a large gap, as much: at least 10 percentage points, beyond its uncertainty"),
    "high": (2.0, "a rate at least twice the nominal level (the level times 2)"),
    "close": (5.0, "an equivalence margin of 5 percentage points, judged by two one-sided tests"),
}
_EFFECTS = ("slightly", "considerably", "substantially", "much", "dramatically", "large")  # of an ordering
# the scorecard's verdict labels: white text on these (contrast >= 4.5, WCAG AA)
_VERDICT_COLOURS = {HOLDS: "#1a7f37", INCONCLUSIVE: "#9a6700", NOT_HOLDS: "#cf222e"}


def _fmt(value, unit, digits):
    arr = np.atleast_1d(np.asarray(value, dtype=float)).ravel()
    text = ", ".join(f"{v:.{digits}f}" for v in arr[:6]) + (" …" if arr.size > 6 else "")
    return text + (f" {unit}" if unit else "")


def se_multiple(m):
    """The multiple of the standard error in the uncertainty of a claim about ``m`` values.

    Bonferroni's correction of the one-sided level :data:`ALPHA` (the tail beyond 2
    standard errors): ``Phi^-1(1 - ALPHA / m)``, which is 2 for ``m = 1``.

    Examples
    --------
    >>> [round(se_multiple(m), 2) for m in (1, 27, 100)]
    [2.0, 3.14, 3.51]
    """
    if not isinstance(m, (int, np.integer)) or m < 1:
        raise ValueError(f"`m` must be a positive integer; got {m!r}.")
    return float(stats.norm.isf(ALPHA / m))


def _tolerance(se, rounding, m):
    return se_multiple(m) * np.asarray(se, dtype=float) + float(rounding)


def _decide(margin, uncertainty, *, significant):
    """The worst verdict over cells, and the design multiple that would decide an inconclusive one.

    ``margin > 0`` is the statement's side. With ``significant`` (orderings,
    equivalence) a cell holds only when ``margin > uncertainty``; otherwise (bounds,
    printed values) when ``margin >= 0``. A cell does not hold when ``margin <
    -uncertainty`` (or, without uncertainty, ``margin <= 0`` for a significant claim).
    An inconclusive cell is decided by a design ``(uncertainty / |margin|)^2`` times ours.
    """
    margin = np.atleast_1d(np.asarray(margin, dtype=float))
    u = np.broadcast_to(np.atleast_1d(np.asarray(uncertainty, dtype=float)), margin.shape)
    eps = 1e-12
    holds = margin > u + eps if significant else margin >= -eps
    fails = (margin < -u - eps) | (significant & (u <= eps) & (margin <= eps))
    if np.all(holds):
        return HOLDS, ""
    if np.any(fails):
        return NOT_HOLDS, ""
    open_ = ~holds
    with np.errstate(divide="ignore"):
        needed = np.where(np.abs(margin[open_]) > eps, (u[open_] / np.abs(margin[open_])) ** 2, np.inf)
    k = float(np.max(needed))
    if not np.isfinite(k):
        return INCONCLUSIVE, "no design size: the estimate sits on the boundary"
    return INCONCLUSIVE, f"a design {max(k, 1.0):.1f}x as large would decide it"


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
    'inconclusive at this scale'
    >>> c.frame()[["tolerance", "to_decide"]].iloc[0].tolist()
    ['1.38 %', 'a design 5.3x as large would decide it']
    """

    def __init__(self, paper, page):
        self.paper, self.page = str(paper), str(page)
        self._rows = []

    def _add(self, key, statement, source, rule, measured, decided, tolerance):
        if any(row["key"] == key for row in self._rows):
            raise ValueError(f"`key` must be unique on the page; {key!r} is used twice.")
        verdict, to_decide = decided
        self._rows.append({"key": key, "paper": self.paper, "page": self.page, "statement": statement,
                           "source": source, "rule": rule, "measured": measured, "tolerance": tolerance,
                           "verdict": verdict, "to_decide": to_decide})
        return verdict

    def at_most(self, key, statement, source, *, value, bound, se=0.0, rounding=0.0, unit="", digits=2):
        """``value <= bound``; inconclusive when ``value <= bound + z_m se + rounding``."""
        margin = np.asarray(bound, float) - np.asarray(value, float)
        tol = _tolerance(se, rounding, margin.size)
        return self._add(key, statement, source, f"value <= {_fmt(bound, unit, digits)}",
                         _fmt(value, unit, digits), _decide(margin, tol, significant=False),
                         _fmt(np.max(tol), unit, digits))

    def at_least(self, key, statement, source, *, value, bound, se=0.0, rounding=0.0, unit="", digits=2):
        """``value >= bound``; inconclusive when ``value >= bound - (z_m se + rounding)``."""
        margin = np.asarray(value, float) - np.asarray(bound, float)
        tol = _tolerance(se, rounding, margin.size)
        return self._add(key, statement, source, f"value >= {_fmt(bound, unit, digits)}",
                         _fmt(value, unit, digits), _decide(margin, tol, significant=False),
                         _fmt(np.max(tol), unit, digits))

    def close_to(self, key, statement, source, *, value, published, se, rounding, unit="", digits=2):
        """Equal as printed (``|value - published| <= rounding``); inconclusive within ``z_m se + rounding``."""
        gap = np.abs(np.asarray(value, float) - np.asarray(published, float))
        tol = _tolerance(se, rounding, gap.size)
        return self._add(key, statement, source, f"|value - published| <= {rounding:g}{' ' + unit if unit else ''}",
                         f"|difference| up to {_fmt(np.max(gap), unit, digits)}",
                         _decide(float(rounding) - gap, tol - float(rounding), significant=False),
                         _fmt(np.max(tol), unit, digits))

    def greater(self, key, statement, source, *, larger, smaller, se=0.0, qualifier=None, unit="", digits=2):
        """An ordering ``larger - smaller > minimum effect``, beyond ``z_m se`` (se of the difference).

        ``qualifier`` (an ordering's qualifier of :data:`QUALIFIERS`: "slightly",
        "considerably", "substantially", "much", "dramatically" or "large") sets the minimum
        effect, in the unit of the values (percentage points for rates); none: 0.
        Reversed beyond the uncertainty (or short of the minimum effect beyond it): does
        not hold; in between: inconclusive at this scale.
        """
        if qualifier is not None and qualifier not in _EFFECTS:
            raise ValueError(f"`qualifier` must be one of {list(_EFFECTS)}; got {qualifier!r}.")
        minimum = QUALIFIERS[qualifier][0] if qualifier else 0.0
        diff = np.asarray(larger, float) - np.asarray(smaller, float)
        tol = _tolerance(se, 0.0, diff.size)
        rule = "first > second" if not minimum else f"first - second > {minimum:g}{' ' + unit if unit else ''}"
        rule += f" beyond the uncertainty ({qualifier})" if qualifier else " beyond the uncertainty"
        return self._add(key, statement, source, rule, f"difference {_fmt(diff, unit, digits)}",
                         _decide(diff - minimum, tol, significant=True), _fmt(np.max(tol), unit, digits))

    def equivalent(self, key, statement, source, *, difference, se, margin, unit="", digits=2):
        """``|difference| < margin``, shown by two one-sided tests at ALPHA.

        The tests are :func:`~replicability.stats.equivalence.tost`; the margin is fixed before
        looking and stated in the rule. Outside the margin by more than the uncertainty: does
        not hold; otherwise inconclusive at this scale.
        """
        d = np.asarray(difference, float)
        m = max(d.size, 1)
        res = tost(d, se, margin=margin)
        tol = _tolerance(se, 0.0, m)
        inside = np.atleast_1d(np.asarray(res.pvalue) < ALPHA / m)
        verdict, to_decide = _decide(margin - np.abs(d), tol, significant=True)
        if verdict == HOLDS and not inside.all():  # the same test; guards the boundary's rounding
            verdict, to_decide = INCONCLUSIVE, "at the boundary"
        return self._add(key, statement, source,
                         f"|difference| < {margin:g}{' ' + unit if unit else ''} (margin), two one-sided tests",
                         f"difference {_fmt(d, unit, digits)}", (verdict, to_decide), _fmt(np.max(tol), unit, digits))

    def agreement(self, key, statement, source, *, agree, baseline_agree, baseline):
        """Cells that agree, beside the count a trivial table reaches; holds when beyond it (paired cells).

        Parameters
        ----------
        agree, baseline_agree : array_like of bool
            Per cell: does our table agree, does the trivial one (e.g. all dots)?
        baseline : str
            What the trivial table is, e.g. ``"an all-dot table"``.
        """
        ours, trivial = np.asarray(agree, bool), np.asarray(baseline_agree, bool)
        n = ours.size
        diff = 100 * (ours.sum() - trivial.sum()) / max(n, 1)
        se = paired_rate_difference_se(ours.ravel(), trivial.ravel())
        tol = _tolerance(se, 0.0, 1)
        return self._add(key, statement, source, f"agrees in more cells than {baseline}, beyond the uncertainty",
                         f"{int(ours.sum())}/{n} cells agree; {baseline}: {int(trivial.sum())}/{n}",
                         _decide(diff, tol, significant=True), _fmt(tol, "points", 1))

    def exactly(self, key, statement, source, *, condition, measured, rule):
        """A deterministic condition: holds or does not hold, no tolerance."""
        if not isinstance(condition, (bool, np.bool_)):
            raise TypeError(f"`condition` must be a bool; got {type(condition).__name__}.")
        return self._add(key, statement, source, rule, str(measured), (HOLDS if condition else NOT_HOLDS, ""),
                         "none")

    def not_at_this_scale(self, key, statement, source, *, design, needs):
        """A claim not comparable with the paper's at this design: inconclusive, naming the design that decides it.

        Parameters
        ----------
        design : str
            This run's design, e.g. ``"2 randomizations per data set"``.
        needs : str
            The paper's design the claim's measure depends on, e.g. ``"10 randomizations per data set"``.

        Examples
        --------
        >>> c = Claims("bouckaert_frank2004", "02_table1_5x2cv")
        >>> c.not_at_this_scale("k", "consistent in less than 50%", "Table 1", design="2 randomizations",
        ...                     needs="10 randomizations")
        'inconclusive at this scale'
        >>> c.frame()["to_decide"].iloc[0]
        "the paper's design decides it: 10 randomizations"
        """
        return self._add(key, statement, source, f"compared only at the paper's design ({needs})",
                         f"not compared: {design}", (INCONCLUSIVE, f"the paper's design decides it: {needs}"), "none")

    def frame(self):
        """The claims as a table: statement, source, rule, measured, tolerance, verdict."""
        columns = ["key", "paper", "page", "statement", "source", "rule", "measured", "tolerance", "verdict",
                   "to_decide"]
        return pd.DataFrame(self._rows, columns=columns)

    def verdicts(self):
        """``{key: verdict}``, for the notebook to glue into its text."""
        return {row["key"]: row["verdict"] for row in self._rows}

    def summary(self):
        """``"claims held X of Y"`` (verdict holds), with the inconclusive ones counted when there are any."""
        held = sum(row["verdict"] == HOLDS for row in self._rows)
        open_ = sum(row["verdict"] == INCONCLUSIVE for row in self._rows)
        return f"claims held {held} of {len(self._rows)}" + (f", {open_} inconclusive at this scale" if open_ else "")

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
    if "to_decide" not in frame:
        frame["to_decide"] = ""
    frame["to_decide"] = frame["to_decide"].fillna("")
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
        tolerance = "" if row.tolerance in ("", "none") else f"<br><small>uncertainty {text(row.tolerance)}</small>"
        decide = getattr(row, "to_decide", "")
        decide = f"<br><small>{text(decide)}</small>" if decide else ""
        colour = _VERDICT_COLOURS.get(row.verdict, "#57606a")
        rows.append(f"<tr><td>{link}</td><td>{text(row.statement)}<br><small>{text(row.source)}</small></td>"
                    f"<td>{text(row.rule)}{tolerance}</td><td>{text(row.measured)}</td>"
                    f'<td><span class="verdict" style="background: {colour}">{text(row.verdict)}</span>{decide}'
                    "</td></tr>")
    style = ("<style>.scorecard {width: 100%} .scorecard td, .scorecard th {text-align: left; vertical-align: top; "
             "white-space: normal; overflow-wrap: normal; word-break: normal; font-size: 0.85em} "
             ".scorecard .verdict {display: inline-block; color: #fff; border-radius: 0.3em; padding: 0 0.4em}</style>")
    return f'{style}<table class="scorecard"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def verdict_counts(frame):
    """Claims per paper and verdict, with totals, from :func:`scorecard`."""
    table = pd.crosstab(frame["paper"], frame["verdict"]).reindex(columns=[HOLDS, INCONCLUSIVE, NOT_HOLDS],
                                                                  fill_value=0)
    table["total"] = table.sum(axis=1)
    return table

