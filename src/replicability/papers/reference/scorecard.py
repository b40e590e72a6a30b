"""The scorecard page (``reference/05_scorecard``): every claim of every page, and the verdicts per paper."""

from __future__ import annotations

from ...report.claims import HOLDS, NOT_HOLDS, WITHIN, Claims, scorecard, scorecard_html, verdict_counts
from ...report.page import Page
from ._frames import AsPandas

__all__ = ["scorecard_page"]


def scorecard_page(reproduced_dir=None):
    """The claims written under ``data/reproduced/claims`` (:func:`~replicability.report.claims.scorecard`).

    Parameters
    ----------
    reproduced_dir : path-like, optional
        Folder of the reproduced tables (default ``data/reproduced``).

    Returns
    -------
    Page
        Tables ``counts`` (verdicts per paper, as pandas shows them) and ``scorecard``
        (every claim, :func:`~replicability.report.claims.scorecard_html`); value
        ``scorecard_summary`` (claims, pages, how many hold); ``data["card"]``: the claims.

    Examples
    --------
    >>> page = scorecard_page()
    >>> page.values["scorecard_summary"].split(" claims on ")[0].isdigit()
    True
    """
    from IPython.display import HTML

    card = scorecard(reproduced_dir)
    counts = verdict_counts(card)
    held = int(counts[[HOLDS, WITHIN]].to_numpy().sum())
    summary = (f"{len(card)} claims on {card['page'].nunique()} pages: {held} hold "
               f"(within tolerance for {int(counts[WITHIN].sum())}), {int(counts[NOT_HOLDS].sum())} do not.")
    return Page(Claims("reference", "05_scorecard"), values={"scorecard_summary": summary},
                tables={"counts": AsPandas(counts), "scorecard": HTML(scorecard_html(card))}, data={"card": card})
