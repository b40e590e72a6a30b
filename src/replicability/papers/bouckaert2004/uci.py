"""Table 2 of Bouckaert (2004): sorted runs on 27 UCI data sets with the sign, signed-rank and t-test.

:func:`table2_page` makes the page of notebook ``bouckaert2004/04_table2_uci``:
:func:`table2` computes the draws per data set and the mean normalized
replicabilities from the ten randomizations of
:func:`replicability.papers.shared.uci_runs.uci_scheme_results` (Weka's
stratified folds, committed under ``data/results``), beside the published table;
:func:`table2_claims` holds the claims of Section 4 to the rules of
:mod:`replicability.report.claims`; the page's figure draws published and
reproduced means.

References
----------
Bouckaert, R. R. (2004). Estimating replicability of classifier learning
experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd
import xarray as xr

from ...report.claims import HOLDS, Claims, comparison_summary
from ...report.page import Page, Table, plain
from ...report.tables import read_published
from ...sources.uci import list_uci
from ..shared.uci_outcomes import PAIR_LABELS, consistency_table, draw_counts, uci_test_outcomes
from ..shared.uci_runs import uci_scheme_results

__all__ = ["TABLE2_TESTS", "Table2", "normalized", "table2", "table2_claims", "table2_page"]

#: Runs per data set behind the printed Table 2: its marks count draws out of ten.
PAPER_RUNS = 10

#: The tests of Table 2 and their printed names.
TABLE2_TESTS = {"sign": "Sign test", "signed_rank": "Rank test", "t": "T test"}
_PAIRS = list(PAIR_LABELS.values())
_BLOCKS = ((0, 9), (9, 19), (19, 27))  # the paper's groups of data sets 1-9, 10-19, 20-27


def normalized(r, paper_rounding=False):
    """Normalized replicability in percent, ``100 (2 r - 1)``; with the paper's rounding of ``r`` to 3 decimals.

    Examples
    --------
    >>> round(float(normalized(0.9254)), 2), round(float(normalized(0.9254, paper_rounding=True)), 2)
    (85.08, 85.0)
    """
    r = np.round(r, 3) if paper_rounding else r
    return 100 * (2 * r - 1)


def _compact(chars):
    return " ".join("".join(chars[a:b]) for a, b in _BLOCKS)


def _chars(counts, n_repeats):
    return ["." if c in (0, n_repeats) else str(int(c)) for c in counts]


@dataclass
class Table2:
    """Table 2 reproduced (see :func:`table2`)."""

    norm: pd.DataFrame
    norm_table: pd.DataFrame
    check: pd.DataFrame
    layout: pd.DataFrame
    rule: pd.DataFrame
    draws: xr.DataArray
    reproduced: pd.DataFrame
    n_repeats: int
    n_present: int
    agree: np.ndarray = None
    dots_agree: np.ndarray = None


def _named(draws, manifest):
    draws = draws.assign_coords(pair=[PAIR_LABELS[p] for p in draws["pair"].values])
    return draws.assign_coords(dataset=manifest.loc[draws["dataset"].values, "paper_name"].to_numpy())


def _norm(outcomes, pub_norm):
    """Mean normalized replicability per test and pair (and all pairs), exact, rounded as the paper, 3 outcomes."""
    per_pair = consistency_table(outcomes).rename(index=PAIR_LABELS, level="pair")
    cells = outcomes.transpose("test", "pair", "dataset", "repeat").values
    cells = xr.DataArray(cells.reshape(cells.shape[0], -1, cells.shape[-1]), dims=("test", "dataset", "repeat"),
                         coords={"test": list(TABLE2_TESTS)})  # every (pair, data set) cell of a block
    per_test = consistency_table(cells)
    three = consistency_table(outcomes, directional=True).rename(index=PAIR_LABELS, level="pair")
    rows = []
    for test in TABLE2_TESTS:
        rows.append({"test": test, "pair": "all", "R": per_test.loc[test, "R"], "R_3": np.nan})
        for pair in _PAIRS:
            rows.append({"test": test, "pair": pair, "R": per_pair.loc[(test, pair), "R"],
                         "R_3": three.loc[(test, pair), "R"]})
    norm = pd.DataFrame(rows)
    norm["normalized"] = normalized(norm["R"])
    norm["paper_rounding"] = normalized(norm["R"], paper_rounding=True)
    norm["normalized_3"] = normalized(norm["R_3"])
    norm = norm.merge(pub_norm.rename(columns={"value": "published"}), on=["test", "pair"], validate="one_to_one")
    norm["difference"] = norm["paper_rounding"] - norm["published"]
    norm_table = norm.set_index(["test", "pair"])[["published", "paper_rounding", "difference", "normalized",
                                                   "normalized_3"]]
    norm_table.columns = ["published", "reproduced (paper's rounding)", "difference", "reproduced (exact)",
                          "reproduced, 3 outcomes"]
    return norm, norm_table


def _check(published, pub_norm):
    """The printed means recomputed from the printed draws (the paper's own consistency)."""
    cells_pub = published.query("row != 'mean_normalized_r2_pct'").copy()
    k = cells_pub["value"].astype(float)
    cells_pub["R"] = np.where(cells_pub["printed"] == ".", 1.0, (k * (k - 1) + (10 - k) * (9 - k)) / 90)
    check = pd.concat([cells_pub.groupby(["test", "pair"])["R"].mean(),
                       cells_pub.groupby("test")["R"].mean().to_frame().assign(pair="all")
                       .set_index("pair", append=True)["R"]])
    check = pd.DataFrame({"from printed draws": normalized(check, paper_rounding=True)})
    return check.join(pub_norm.set_index(["test", "pair"])["value"].rename("printed"))


def _printed(published, test, pair, present):
    """The printed draws of one test and pair, on the data sets present."""
    pub = published.query("test == @test and pair == @pair and row != 'mean_normalized_r2_pct'")
    return pub.set_index("row").loc[present, "printed"]


def _layout(published, draws, present, n_repeats):
    """Draws per data set, published and reproduced, in the paper's compact layout, and the cells equal."""
    lines = []
    for test, label in TABLE2_TESTS.items():
        for pair in _PAIRS:
            pub = _printed(published, test, pair, present)
            rep = _chars(draws.sel(test=test, pair=pair).sel(dataset=present).values, n_repeats)
            lines.append({"test": label, "pair": pair, "published": _compact(list(pub)),
                          "reproduced": _compact(rep), "cells equal": int(sum(p == r for p, r in zip(pub, rep)))})
    return pd.DataFrame(lines).set_index(["test", "pair"])


def _agreement_cells(published, draws, present, n_repeats):
    """Per cell of the table: do our draws equal the printed ones, and does a table of all dots?"""
    agree, dots = [], []
    for test in TABLE2_TESTS:
        for pair in _PAIRS:
            pub = list(_printed(published, test, pair, present))
            rep = _chars(draws.sel(test=test, pair=pair).sel(dataset=present).values, n_repeats)
            agree += [p == r for p, r in zip(pub, rep)]
            dots += [p == "." for p in pub]
    return np.array(agree), np.array(dots)


def _rule(published, printed_rule, draws_printed, layout, present, n_repeats):
    """The sign-test block with the symmetric exact test and with the rule as printed."""
    r_printed = consistency_table(printed_rule).rename(index=PAIR_LABELS)["R"]
    rule_rows = []
    for pair in _PAIRS:
        rep = _chars(draws_printed.sel(pair=pair).sel(dataset=present).values, n_repeats)
        sign = layout.loc[(TABLE2_TESTS["sign"], pair)]
        printed = _printed(published, "sign", pair, present)
        rule_rows.append({"pair": pair, "published": sign["published"], "symmetric exact": sign["reproduced"],
                          "rule as printed": _compact(rep), "cells equal (symmetric)": int(sign["cells equal"]),
                          "cells equal (as printed)": int(sum(p == r for p, r in zip(printed, rep))),
                          "normalized R2 (as printed, %)":
                              round(float(normalized(r_printed[pair], paper_rounding=True)), 1)})
    return pd.DataFrame(rule_rows).set_index("pair")


def _reproduced(draws, norm, present, n_repeats):
    """Table 2 in the layout of the published file: the draws per cell, then the means (paper's rounding)."""
    records = []
    for test in TABLE2_TESTS:
        for pair in _PAIRS:
            for name in present:
                c = int(draws.sel(test=test, pair=pair, dataset=name))
                records.append({"test": test, "pair": pair, "row": name,
                                "printed": "." if c in (0, n_repeats) else str(c), "value": c})
        for pair in ["all"] + _PAIRS:
            value = float(norm.query("test == @test and pair == @pair")["paper_rounding"].iloc[0])
            records.append({"test": test, "pair": pair, "row": "mean_normalized_r2_pct", "printed": f"{value:.1f}",
                            "value": value})
    return pd.DataFrame(records)


def table2(*, alpha=0.05, scale="paper"):
    """Table 2 of Bouckaert (2004) reproduced, beside the published one.

    Parameters
    ----------
    alpha : float
        Significance level of the tests.
    scale : {"paper", "smoke"}
        "paper": the committed 27 data sets x 10 randomizations; "smoke": iris,
        labor and zoo, 2 randomizations.

    Returns
    -------
    Table2
        ``norm`` (mean normalized replicability per test and pair, exact, with the
        paper's rounding and with three outcomes, beside the published value),
        ``check`` (the printed means recomputed from the printed draws),
        ``layout`` (draws per data set in the paper's compact layout),
        ``rule`` (the sign-test block with the rule as printed), the ``draws`` and
        ``reproduced`` (the page's ``table2.csv``).
    """
    manifest = list_uci().set_index("dataset")
    cv = uci_scheme_results("cv", scale=scale)
    outcomes = xr.concat([uci_test_outcomes(cv, f"sorted_runs_{t}", alpha=alpha) for t in TABLE2_TESTS],
                         dim=pd.Index(list(TABLE2_TESTS), name="test"))
    n_repeats = outcomes.sizes["repeat"]
    draws = _named(draw_counts(outcomes), manifest)
    published = read_published("bouckaert2004", "table2")
    pub_norm = published.query("row == 'mean_normalized_r2_pct'")[["test", "pair", "value"]].astype({"value": float})
    norm, norm_table = _norm(outcomes, pub_norm)
    order = list(published.query("row != 'mean_normalized_r2_pct'")["row"].drop_duplicates())
    present = [name for name in order if name in draws["dataset"].values]
    layout = _layout(published, draws, present, n_repeats)
    printed_rule = uci_test_outcomes(cv, "sorted_runs_sign_printed", alpha=alpha)
    rule = _rule(published, printed_rule, _named(draw_counts(printed_rule), manifest), layout, present, n_repeats)
    reproduced = _reproduced(draws, norm, present, n_repeats)
    reproduced["source"] = (f"computed by replicability (notebook bouckaert2004/04_table2_uci, scale={scale}, "
                            f"alpha={alpha})")
    return Table2(norm, norm_table, _check(published, pub_norm), layout, rule, draws, reproduced, n_repeats,
                  len(present), *_agreement_cells(published, draws, present, n_repeats))


def _cell_normalized(res, test):
    """Normalized R̂2 (percent, two outcome values) of every (pair, data set) cell of a test's block."""
    k = res.draws.sel(test=test).transpose("pair", "dataset").values.ravel().astype(float)
    n = res.n_repeats
    return normalized((k * (k - 1) + (n - k) * (n - k - 1)) / (n * (n - 1)))


def table2_claims(res):
    """The claims of Bouckaert (2004), Section 4, on Table 2, held to the rules of :mod:`~replicability.report.claims`.

    The mean normalized replicability of a test is the mean over the ``m`` cells
    (3 pairs x 27 data sets) of its block; two tests are compared cell by cell
    (paired), with the standard error ``sd(difference) / sqrt(m)``.

    Returns
    -------
    tuple of (Claims, dict)
    """
    c = Claims("bouckaert2004", "04_table2_uci")
    src = "Section 4, Table 2"
    per_cell = {t: _cell_normalized(res, t) for t in TABLE2_TESTS}
    m = per_cell["t"].size
    overall = {t: float(v.mean()) for t, v in per_cell.items()}

    def paired_se(a, b):
        d = per_cell[a] - per_cell[b]
        return float(np.std(d, ddof=1) / np.sqrt(m))

    c.greater("claim_issue", "Replicability is an issue for non-synthetic data sets (mean normalized replicability "
              "below 100% for every test)", src, larger=[100.0] * 3, smaller=[overall[t] for t in TABLE2_TESTS],
              se=[float(np.std(per_cell[t], ddof=1) / np.sqrt(m)) for t in TABLE2_TESTS], unit="points", digits=1)
    c.greater("claim_sign_worse", "The sign test performs much worse than the other two tests", src,
              larger=[overall["signed_rank"], overall["t"]], smaller=[overall["sign"]] * 2,
              se=[paired_se("signed_rank", "sign"), paired_se("t", "sign")], qualifier="much", unit="points",
              digits=1)
    folds_claim = ("claim_weka_folds", "Our draws agree with the printed ones because we use Weka's folds (this "
                   "book's reading of the agreement, not a claim of the paper)", src)
    comparable = res.n_repeats == PAPER_RUNS  # the printed marks count draws out of ten runs
    if comparable:
        c.agreement(*folds_claim, agree=res.agree, baseline_agree=res.dots_agree, baseline="an all-dot table")
    else:
        c.not_at_this_scale(*folds_claim, design=f"{res.n_repeats} runs per data set",
                            needs=f"{PAPER_RUNS} runs per data set")
    c.greater("claim_t_marginal", "The t-test shows marginally higher replicability than the rank sum test", src,
              larger=overall["t"], smaller=overall["signed_rank"], se=paired_se("t", "signed_rank"), unit="points",
              digits=1)
    layout = res.layout
    inconsistent = {t: int((~res.draws.sel(test=t).isin([0, res.n_repeats])).sum()) for t in TABLE2_TESTS}
    norm = res.norm
    folds = c.verdicts()["claim_weka_folds"]
    reading = ("so many cells agree beyond what a table of all dots reaches, which suggests that the paper's folds "
               "were Weka's stratified cross-validation with consecutive seeds, as ours are"
               if folds == HOLDS else
               "the agreement is no better than that of a table of all dots beyond its uncertainty, so it cannot "
               "tell which folds the paper used (ours are Weka's stratified cross-validation with consecutive seeds)"
               if comparable else
               f"at this scale our marks count draws out of {res.n_repeats} runs, the printed ones out of "
               f"{PAPER_RUNS}: the cells are not comparable, so they cannot tell which folds the paper used (ours are "
               "Weka's stratified cross-validation with consecutive seeds; rerun at paper scale)")
    values = {**c.verdicts(), "n_cells": m, "dots_equal": int(res.dots_agree.sum()), "agreement_reading": reading,
              **{f"overall_{t}": round(overall[t], 1) for t in TABLE2_TESTS},
              **{f"inconsistent_{t}": inconsistent[t] for t in TABLE2_TESTS},
              "se_t_rank": round(paired_se("t", "signed_rank"), 2),
              "cells_equal": int(layout["cells equal"].sum()), "cells_total": res.n_present * 9,
              "cells_equal_rank_t": int(layout.loc[[TABLE2_TESTS["signed_rank"], TABLE2_TESTS["t"]],
                                                   "cells equal"].sum()),
              "cells_total_rank_t": res.n_present * 6,
              "max_abs_dnorm": round(float(norm["difference"].abs().max()), 1),
              "self_consistent": bool(np.allclose(res.check.iloc[:, 0], res.check["printed"], atol=0.05)),
              "sign_equal_symmetric": int(res.rule["cells equal (symmetric)"].sum()),
              "sign_equal_printed": int(res.rule["cells equal (as printed)"].sum()),
              # the trivial baseline of the sign block: a block of all dots matches every printed dot
              "sign_dots_equal": int(sum(str(p).count(".") for p in layout.loc[TABLE2_TESTS["sign"], "published"])),
              "summary": comparison_summary(norm["published"], norm["paper_rounding"], c, digits=1)}
    return c, plain(values)


def _table2_figure(res):
    """Mean normalized replicability per test and pair, published (hollow) and reproduced (filled)."""
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 3.6), layout="constrained")
    colours = {"sign": "#1b9e77", "signed_rank": "#d95f02", "t": "#7570b3"}
    xpos = np.arange(4)
    for j, test in enumerate(TABLE2_TESTS):
        sub = res.norm.query("test == @test").set_index("pair").loc[["all"] + _PAIRS]
        ax.plot(xpos + 0.15 * (j - 1), sub["published"], "o", mfc="none", color=colours[test])
        ax.plot(xpos + 0.15 * (j - 1), sub["paper_rounding"], "o", color=colours[test], label=TABLE2_TESTS[test])
    ax.plot([], [], "o", mfc="none", color="black", label="published")
    ax.set_xticks(xpos, ["all pairs"] + _PAIRS)
    ax.set_ylabel("mean normalized $\\hat R_2$ (%)")
    ax.legend(fontsize=8, ncol=2)
    fig.canvas.draw()  # drawn once before shown, as pyplot's post-execute hook did: the layout settles alike
    return fig


#: The columns of the sign-test block shown as text (the compact layouts); the others are counts and a mean.
_RULE_LAYOUTS = ["published", "symmetric exact", "rule as printed"]


def table2_page(*, alpha=0.05, scale="paper"):
    """The page of notebook ``bouckaert2004/04_table2_uci``: Table 2 beside the published one, and its claims.

    Parameters are those of :func:`table2`.

    Returns
    -------
    Page
        The claims of :func:`table2_claims` and the values the text quotes; tables
        ``norm`` (mean normalized replicabilities), ``check`` (the printed means from the
        printed draws), ``layout`` (draws per data set), ``rule`` and ``rule_counts``
        (the sign-test block with the rule as printed: layouts, then cells equal and
        means); the figure ``table2``; the reproduced table ``table2``.
    """
    res = table2(alpha=alpha, scale=scale)
    claims, values = table2_claims(res)
    tables = {"norm": Table(res.norm_table, 1), "check": Table(res.check, 1), "layout": Table(res.layout),
              "rule": Table(res.rule[_RULE_LAYOUTS]), "rule_counts": Table(res.rule.drop(columns=_RULE_LAYOUTS), 1)}
    return Page(claims, values, tables=tables, reproduced={"table2": res.reproduced},
                figures={"table2": partial(_table2_figure, res)})
