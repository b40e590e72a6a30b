"""The scorecard page (``reference/05_scorecard``): every claim of every page, the verdicts per paper,
the qualifiers' minimum effects, and the verdicts that changed when the rules were made able to fail."""

from __future__ import annotations

import pandas as pd

from ...engine.store import data_dir
from ...report.claims import (
    ALPHA,
    HOLDS,
    INCONCLUSIVE,
    NOT_HOLDS,
    QUALIFIERS,
    SE_MULTIPLE,
    Claims,
    scorecard,
    scorecard_html,
    verdict_counts,
)
from ...report.page import Page, Table
from ._frames import AsPandas

__all__ = ["changed_verdicts", "scorecard_page"]

#: The verdicts before issue 40's rules (recorded from the claims files of that commit).
PREVIOUS = "scorecard_previous.csv"


def changed_verdicts(card, previous):
    """Every claim whose verdict differs from ``previous``: old -> new, with the reason.

    Parameters
    ----------
    card : pandas.DataFrame
        From :func:`~replicability.report.claims.scorecard`.
    previous : pandas.DataFrame
        Columns ``paper, page, key, verdict`` (the recorded old verdicts).

    Returns
    -------
    pandas.DataFrame
        Columns ``claim`` (page: key), ``old``, ``new`` and ``reason`` (the new rule, the
        measured value and, when inconclusive, the design that would decide it); a claim
        new on its page shows ``old`` as "(new claim)".

    Examples
    --------
    >>> new = pd.DataFrame({"paper": ["p"], "page": ["01"], "key": ["k"], "verdict": ["holds"], "rule": ["r"],
    ...                     "measured": ["m"], "tolerance": ["t"], "to_decide": [""]})
    >>> old = new[["paper", "page", "key"]].assign(verdict="does not hold")
    >>> changed_verdicts(new, old)[["old", "new"]].iloc[0].tolist()
    ['does not hold', 'holds']
    """
    both = card.merge(previous[["paper", "page", "key", "verdict"]].rename(columns={"verdict": "old"}),
                      on=["paper", "page", "key"], how="left", validate="one_to_one")
    both["old"] = both["old"].fillna("(new claim)")
    changed = both[both["old"] != both["verdict"]]
    reason = [f"rule: {r.rule}; measured: {r.measured}; uncertainty {r.tolerance}"
              + (f"; {r.to_decide}" if r.to_decide else "") for r in changed.itertuples()]
    return pd.DataFrame({"claim": (changed["paper"] + "/" + changed["page"] + ": " + changed["key"]).to_list(),
                         "old": changed["old"].to_list(), "new": changed["verdict"].to_list(), "reason": reason})


def scorecard_page(reproduced_dir=None):
    """The claims written under ``data/reproduced/claims`` (:func:`~replicability.report.claims.scorecard`).

    Parameters
    ----------
    reproduced_dir : path-like, optional
        Folder of the reproduced tables (default ``data/reproduced``); the old verdicts
        are read from its ``scorecard_previous.csv``.

    Returns
    -------
    Page
        Tables ``counts`` (verdicts per paper, as pandas shows them), ``qualifiers`` (the
        minimum effect of each qualifier), ``changed`` (:func:`changed_verdicts`) and
        ``scorecard`` (every claim, :func:`~replicability.report.claims.scorecard_html`);
        values ``scorecard_summary``, ``rules_level`` and ``changed_summary``;
        ``data["card"]``: the claims.

    Examples
    --------
    >>> page = scorecard_page()
    >>> page.values["scorecard_summary"].split(" claims on ")[0].isdigit()
    True
    """
    from IPython.display import HTML

    root = data_dir() / "reproduced" if reproduced_dir is None else reproduced_dir
    card = scorecard(reproduced_dir)
    counts = verdict_counts(card)
    summary = (f"{len(card)} claims on {card['page'].nunique()} pages: {int(counts[HOLDS].sum())} hold, "
               f"{int(counts[INCONCLUSIVE].sum())} are inconclusive at this scale, "
               f"{int(counts[NOT_HOLDS].sum())} do not hold.")
    changed = changed_verdicts(card, pd.read_csv(f"{root}/{PREVIOUS}", dtype=str, keep_default_na=False))
    qualifiers = pd.DataFrame([{"qualifier": q, "minimum effect": f"{v:g}", "meaning": text}
                               for q, (v, text) in QUALIFIERS.items()])
    values = {"scorecard_summary": summary,
              "rules_level": f"{SE_MULTIPLE:g} standard errors, a one-sided level of {100 * ALPHA:.2f}%",
              "changed_summary": f"{len(changed)} of {len(card)} verdicts changed"}
    return Page(Claims("reference", "05_scorecard"), values=values,
                tables={"counts": AsPandas(counts), "qualifiers": Table(qualifiers, index=False),
                        "changed": Table(changed, index=False), "scorecard": HTML(scorecard_html(card))},
                data={"card": card})
