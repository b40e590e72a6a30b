"""The investigations of Tables 2 and 7 with real Weka as the oracle (issue 21), for their pages.

:func:`table2_investigation_page` and :func:`table7_investigation_page` each return a
:class:`~replicability.report.page.Page` without claims: the
tables of the investigation (Weka's agreement with our learners fold by fold, the
table recomputed with Weka's counts, the probes) and a table of hypotheses, each with
the experiment that tests it, the result (numbers computed here) and the verdict. The
values are glued under names starting with ``weka_``; the notebooks of Tables 2 and 7
show them after their own page, whose claims they do not change.
"""

from __future__ import annotations

import pandas as pd

from ...report.claims import Claims
from ...report.page import Page, Table
from .weka_oracle import _engine_counts, fold_agreement, table2_design_probes, table2_oracle, table7_oracle

__all__ = ["table2_investigation_page", "table7_investigation_page"]

_NAMES = {"naive_bayes": "naive Bayes", "c45": "C4.5 (J48)", "ib1": "1-NN (IB1)", "tan": "TAN",
          "voted_perceptron": "voted perceptron"}


def _agreement_rows(frame, order):
    out = frame.reset_index()
    out.insert(0, "training order", order)
    out["learner"] = out["learner"].map(_NAMES)
    return out


def _f(x, digits=1):
    return f"{x:.{digits}f}"


def _order_invariance():
    """Folds on which naive Bayes, C4.5 and TAN count the same in both training orders (engine, Table 7 data)."""
    out = {}
    for a, b in (("naive_bayes", "c45"), ("tan", "naive_bayes")):
        before, after = _engine_counts("t7", a, b, setup="sorted"), _engine_counts("t7", a, b, setup="experimenter")
        for name, learner in (("correct_a", a), ("correct_b", b)):
            same = before[name].values == after[name].values
            out[learner] = f"{int(same.sum())}/{same.size}"
    return out


def table7_investigation_page(*, alpha=0.05):
    """Table 7's gap for the pairs with 1-NN and TAN, investigated with Weka 3.6 on the same folds.

    Parameters
    ----------
    alpha : float, default 0.05

    Returns
    -------
    Page
        Tables ``"agreement"`` (folds on which Weka and the engine count the same,
        per learner and training order), ``"oracle"`` ("use all data" Type I error
        per pair: published, engine and Weka in both training orders) and
        ``"hypotheses"``; values ``weka_*`` for the text.

    Examples
    --------
    >>> page = table7_investigation_page()
    >>> list(page.tables)
    ['agreement', 'oracle', 'hypotheses']
    """
    sorted_agree = fold_agreement("t7")
    exp_agree = fold_agreement("t7_experimenter")
    agreement = pd.concat([_agreement_rows(sorted_agree, "ascending (engine's default)"),
                           _agreement_rows(exp_agree, "Experimenter's (shuffled per fold)")], ignore_index=True)
    agreement = agreement[["training order", "learner", "equal", "folds", "engine_accuracy", "weka_accuracy"]]
    oracle = table7_oracle(alpha=alpha).set_index("pair")
    gap = (oracle[["engine_sorted", "engine_experimenter"]].sub(oracle["published"], axis=0)).abs()
    n = int(sorted_agree["folds"].iloc[0])
    hypotheses = _table7_hypotheses(oracle, gap, sorted_agree, exp_agree, n)
    values = _table7_values(oracle, gap, sorted_agree, exp_agree, n)
    shown = oracle.drop(columns=["learner_a", "learner_b"]).rename(columns={
        "engine_sorted": "ours, ascending", "weka_sorted": "Weka, ascending",
        "weka_sorted_ibk": "Weka IBk -K 1, ascending", "engine_experimenter": "ours, Experimenter",
        "weka_experimenter": "Weka, Experimenter"})
    return Page(claims=Claims("bouckaert2003", "07_table7_learner_pairs"), values=values,
                tables={"agreement": Table(agreement, {"engine_accuracy": 2, "weka_accuracy": 2}),
                        "oracle": Table(shown.round(1), 1), "hypotheses": Table(hypotheses)})


def _agree(frame, learner, n):
    """``"equal/n"``: the folds on which Weka and the engine count the same for ``learner``."""
    return f"{int(frame.loc[learner, 'equal'])}/{n}"


def _nn_pairs(oracle):
    return [p for p in oracle.index if "nn" in p.split(" vs ")]


def _table7_values(oracle, gap, sorted_agree, exp_agree, n):
    nn = _nn_pairs(oracle)
    tan_nb = oracle.loc["tan vs nb"]
    nn_tan = [p for p in oracle.index if {"nn", "tan"} & set(p.split(" vs "))]
    return {"weka_t7_max_sorted": round(float(oracle.loc[nn_tan, "engine_sorted"].max()), 1),
            "weka_t7_max_published": round(float(oracle.loc[nn_tan, "published"].max()), 1),
            "weka_t7_max_gap_sorted": round(float(gap.loc[nn, "engine_sorted"].max()), 1),
            "weka_t7_max_gap_experimenter": round(float(gap.loc[nn, "engine_experimenter"].max()), 1),
            "weka_t7_max_gap_pair": gap.loc[nn, "engine_experimenter"].idxmax(),
            "weka_t7_tan_nb": round(float(tan_nb["engine_experimenter"]), 1),
            "weka_t7_tan_nb_weka": round(float(tan_nb["weka_sorted"]), 1),
            "weka_t7_tan_nb_published": round(float(tan_nb["published"]), 1),
            "weka_t7_ib1_sorted": _agree(sorted_agree, "ib1", n), "weka_t7_tan": _agree(sorted_agree, "tan", n),
            "weka_t7_vp": _agree(sorted_agree, "voted_perceptron", n),
            "weka_t7_vp_experimenter": _agree(exp_agree, "voted_perceptron", n),
            "weka_t7_ib1_experimenter": _agree(exp_agree, "ib1", n)}


def _table7_hypotheses(oracle, gap, sorted_agree, exp_agree, n):
    """The hypotheses on Table 7's gap, each with its experiment, result and verdict."""
    invariant = _order_invariance()
    nn = _nn_pairs(oracle)
    tan_nb = oracle.loc["tan vs nb"]
    worst = gap.loc[nn, "engine_experimenter"].idxmax()

    def agree(frame, learner):
        return _agree(frame, learner, n)

    def cells(column):
        return ", ".join(f"{p} {_f(oracle.loc[p, column])}" for p in nn)

    return pd.DataFrame([
        {"hypothesis": "Our learners are not Weka's.",
         "experiment": "Weka 3.6 on the same 1000 data sets x 100 folds, training rows in the engine's order.",
         "result": f"Equal counts on {agree(sorted_agree, 'naive_bayes')} folds (naive Bayes), "
                   f"{agree(sorted_agree, 'c45')} (C4.5), {agree(sorted_agree, 'ib1')} (1-NN), "
                   f"{agree(sorted_agree, 'tan')} (TAN, with Weka's BAYES-score tree search), voted perceptron "
                   f"{agree(sorted_agree, 'voted_perceptron')} (another shuffle). Table 7 from Weka's counts: "
                   f"{cells('weka_sorted')} (ours: {cells('engine_sorted')}).",
         "verdict": "ruled out: Weka's own learners give the same high rates on these folds"},
        {"hypothesis": "Weka's Experimenter hands each learner its training set shuffled "
                       "(Instances.trainCV), and 1-NN keeps the first of equally near neighbours, so its "
                       "predictions depend on the order; binary data have many ties.",
         "experiment": "The same folds, each training set shuffled as the Experimenter does, in the engine "
                       "and in Weka.",
         "result": f"Engine = Weka on {agree(exp_agree, 'ib1')} folds (1-NN) and "
                   f"{agree(exp_agree, 'voted_perceptron')} (voted perceptron with Weka's shuffle). "
                   f"1-NN pairs: {cells('weka_experimenter')} with Weka, {cells('engine_experimenter')} in "
                   f"the engine; published {cells('published')}.",
         "verdict": f"explained in large part (cause: the training order): the 1-NN cells move from up to "
                    f"{_f(gap.loc[nn, 'engine_sorted'].max())} to at most "
                    f"{_f(gap.loc[nn, 'engine_experimenter'].max())} points from the paper's ({worst}); the "
                    "reproduction now uses the Experimenter's order"},
        {"hypothesis": "The paper's 'nn' is IBk -K 1 rather than IB1.",
         "experiment": "Weka's IBk -K 1 as 'nn', engine's folds and order.",
         "result": f"1-NN pairs: {cells('weka_sorted_ibk')}.",
         "verdict": "ruled out: further from the paper"},
        {"hypothesis": "TAN vs naive Bayes: our TAN is not Weka's, or the order matters.",
         "experiment": "Weka's TAN (BAYES-score search) on the same folds; ours, which builds Weka's tree, in both "
                       "orders.",
         "result": f"tan vs nb {_f(tan_nb['weka_sorted'])} (Weka), {_f(tan_nb['engine_sorted'])} (ours), "
                   f"{_f(tan_nb['engine_experimenter'])} (ours, Experimenter's order); published "
                   f"{_f(tan_nb['published'])}. Our TAN, naive Bayes and C4.5 count the same in both orders on "
                   f"{invariant['tan']}, {invariant['naive_bayes']} and {invariant['c45']} folds (so Weka's counts "
                   "of these three serve for both orders).",
         "verdict": "not explained (ruled out: our TAN, the training order)"},
    ])


def table2_investigation_page(*, alpha=0.05):
    """Table 2's gap at class probabilities 0.3 and 0.4, investigated with Weka 3.6 and source probes.

    Parameters
    ----------
    alpha : float, default 0.05

    Returns
    -------
    Page
        Tables ``"agreement"`` (folds on which Weka and the engine count the same),
        ``"oracle"`` (every test's Type I error from the engine's and from Weka's
        counts), ``"probes"`` ("use all data" under other designs of the null
        source) and ``"hypotheses"``; values ``weka_*`` for the text.

    Examples
    --------
    >>> page = table2_investigation_page()
    >>> page.values["weka_t2_same_rates"]
    True
    """
    agreement = pd.concat([_agreement_rows(fold_agreement(name), f"class probability {p}")
                           for name, p in (("t2_p03", 0.3), ("t2_p04", 0.4))], ignore_index=True)
    agreement = agreement.rename(columns={"training order": "data"})[
        ["data", "learner", "equal", "folds", "engine_accuracy", "weka_accuracy"]]
    oracle = table2_oracle(alpha=alpha)
    probes = table2_design_probes(alpha=alpha)
    rates = oracle.xs("all", level="test")
    _, nine, marg, pub = probes.index
    n = int(agreement["folds"].iloc[0])
    same = bool((oracle["engine"] == oracle["weka"]).all())
    values = {"weka_t2_same_rates": same, "weka_t2_all_03": round(float(rates.loc[0.3, "weka"]), 1),
              "weka_t2_all_04": round(float(rates.loc[0.4, "weka"]), 1),
              "weka_t2_nine": _probe(probes, nine), "weka_t2_marginals": _probe(probes, marg),
              "weka_t2_published": _probe(probes, pub), "weka_t2_agree": f"{int(agreement['equal'].min())}/{n}",
              "weka_t2_max": round(float(oracle["weka"].max()), 1),
              "weka_t2_nb_gain": " and ".join(_f(rates.loc[p, "nb_minus_c45_weka"], 1) for p in (0.3, 0.4))}
    shown_oracle = oracle[["published", "engine", "weka"]].unstack("class_probability").round(1)
    return Page(claims=Claims("bouckaert2003", "03_table2_class_probability"), values=values,
                tables={"agreement": Table(agreement, {"engine_accuracy": 2, "weka_accuracy": 2}),
                        "oracle": Table(shown_oracle, 1),
                        "probes": Table(probes, {c: 1 if c[0] == "all" else 2 for c in probes.columns}),
                        "hypotheses": Table(_table2_hypotheses(agreement, rates, probes, same=same, n=n))})


def _probe(probes, row, measure="all"):
    """A probe's ``measure`` at class probabilities 0.3 and 0.4, as ``"x / y"``."""
    return " / ".join(_f(probes.loc[row, (measure, p)], 2 if measure != "all" else 1) for p in (0.3, 0.4))


def _table2_hypotheses(agreement, rates, probes, *, same, n):
    """The hypotheses on Table 2's gap, each with its experiment, result and verdict."""
    book, nine, marg, pub = probes.index
    return pd.DataFrame([
        {"hypothesis": "Our naive Bayes or C4.5 is not Weka's.",
         "experiment": "Weka 3.6 on the same 2 x 1000 data sets x 100 folds.",
         "result": f"Equal counts on at least {agreement['equal'].min()}/{n} folds for each learner at each "
                   f"class probability; every test's Type I error identical "
                   f"({'yes' if same else 'no'}); use all data {_f(rates.loc[0.3, 'weka'])} / "
                   f"{_f(rates.loc[0.4, 'weka'])} with Weka.",
         "verdict": "ruled out"},
        {"hypothesis": "The paper's '10 binary variables' count the class: 9 attributes.",
         "experiment": "The engine on 1000 data sets per probability with 9 attributes.",
         "result": f"use all data {_probe(probes, nine)} (book: {_probe(probes, book)}; published "
                   f"{_probe(probes, pub)}).",
         "verdict": "ruled out as the whole cause: lower, still above the paper"},
        {"hypothesis": "The attributes were not fair coins (set 1's marginal probabilities).",
         "experiment": "The engine with set 1's attribute probabilities.",
         "result": f"use all data {_probe(probes, marg)}.",
         "verdict": "ruled out as the whole cause: lower, still above the paper"},
        {"hypothesis": "The rejections are real: with unbalanced classes naive Bayes is more accurate than "
                       "C4.5 on these data.",
         "experiment": "Mean accuracy difference over all folds, engine and Weka.",
         "result": f"naive Bayes - C4.5: {_f(rates.loc[0.3, 'nb_minus_c45_weka'], 2)} / "
                   f"{_f(rates.loc[0.4, 'nb_minus_c45_weka'], 2)} points with Weka, "
                   f"{_probe(probes, book, 'nb_minus_c45')} in the engine.",
         "verdict": "explains our rates, not the paper's lower ones"},
    ])
