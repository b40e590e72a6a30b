"""The page checking the UCI data sets against Table 1 and the learners against Weka 3.6.

:func:`fidelity_page` compares the ARFF files' properties with Table 1 of
Bouckaert & Frank (2004) and the package's naive Bayes, C4.5 and IB1 with Weka
3.6.14's on 10 x 10 cv (:mod:`~replicability.papers.bouckaert_frank2004.fidelity`).
Both checks are deterministic (the same files, the same folds), so their claims
have no tolerance.
"""

from __future__ import annotations

import math
import os
from functools import partial

import numpy as np
import pandas as pd

from ..._validation import check_positive
from ...engine.store import data_dir
from ...report.claims import Claims, comparison_summary
from ...report.page import Page, Table, beside
from ...report.tables import read_published
from ...sources.uci import list_uci
from ..shared.uci_runs import LEARNERS, PAPER
from .fidelity import fidelity_table, read_weka_cv, uci_fidelity

__all__ = ["fidelity_page"]

#: Data sets (of 27) on which each learner must agree with Weka: the compendium's target.
TARGET_OF_27 = 24


def _properties(manifest):
    published = read_published(PAPER, "table1_properties")
    props = published.rename(columns={"instances": "instances_published", "attributes": "attributes_published",
                                      "classes": "classes_published"}).drop(columns="source")
    props = props.merge(manifest[["paper_name", "dataset", "instances", "attributes", "observed_classes",
                                  "declared_classes", "missing_values"]],
                        left_on="dataset", right_on="paper_name", suffixes=("", "_file"), validate="one_to_one")
    props = props.rename(columns={"dataset_file": "file", "observed_classes": "classes"})
    props["attributes_difference"] = props["attributes"] - props["attributes_published"]
    return props[["dataset", "file", "instances_published", "instances", "attributes_published", "attributes",
                  "attributes_difference", "classes_published", "classes", "declared_classes", "missing_values"]]


def _uci_directory(uci_dir):
    """The folder of the ARFF files: ``uci_dir``, else ``REPLICABILITY_UCI_DIR``, else the shared data folder."""
    return uci_dir or os.environ.get("REPLICABILITY_UCI_DIR") or data_dir().parent.parent / "shared" / "data" / "uci"


def _attribute_notes(manifest, properties):
    """The data sets whose counts differ from Table 1's, with the first sentence of the manifest's note."""
    differ = properties[(properties.instances != properties.instances_published)
                        | (properties.classes != properties.classes_published)
                        | (properties.attributes != properties.attributes_published)]
    notes = manifest.set_index("paper_name").loc[differ.dataset, "notes"].str.split(". ", regex=False).str[0]
    return pd.DataFrame({"dataset": differ.dataset.values, "attributes_difference": differ.attributes_difference.values,
                         "manifest note": notes.values})


def _shown_properties(properties):
    """Table 1's counts beside the files', as shown."""
    return properties.set_index("dataset")[
        ["instances_published", "instances", "attributes_published", "attributes", "classes_published", "classes",
         "missing_values"]].rename(columns={"instances_published": "instances (paper)", "instances": "instances (file)",
                                            "attributes_published": "attributes (paper)",
                                            "attributes": "attributes (file)", "classes_published": "classes (paper)",
                                            "classes": "classes (file)", "missing_values": "missing values"})


def _by_learner(table, ours, weka_runs):
    """Per learner: data sets within the tolerance, the largest difference, runs identical to Weka's."""
    by_learner = table.groupby("learner", sort=False).agg(
        data_sets=("within", "size"), within_tolerance=("within", "sum"),
        max_abs_difference=("difference", lambda d: float(np.abs(d).max())))
    by_learner["identical_runs"] = (ours["correct"] == weka_runs).sum(["dataset", "seed"]).to_series()
    by_learner["runs"] = int(ours.sizes["dataset"] * ours.sizes["seed"])
    return by_learner


def _differing_runs(ours, weka_runs):
    """The runs whose correct count differs from Weka's: ours, Weka's and the difference."""
    diff_runs = (ours["correct"] - weka_runs).to_dataframe(name="ours_minus_weka").reset_index()
    diff_runs = diff_runs[diff_runs.ours_minus_weka != 0].reset_index(drop=True)
    diff_runs["ours"] = [int(ours["correct"].sel(dataset=r.dataset, learner=r.learner, seed=r.seed))
                         for r in diff_runs.itertuples()]
    diff_runs["weka"] = diff_runs["ours"] - diff_runs["ours_minus_weka"]
    return diff_runs


def _reproduced(properties, table):
    """The two tables written: our files' counts and our mean accuracies beside Weka's."""
    props = properties[["dataset", "instances", "attributes", "classes"]].copy()
    props["source"] = "counted in the Weka ARFF file by replicability.list_uci (observed classes)"
    fidelity = table[["dataset", "learner", "ours", "weka", "difference", "within"]].copy()
    fidelity[["ours", "weka", "difference"]] = fidelity[["ours", "weka", "difference"]].round(4)
    fidelity["source"] = "10 x 10 cv (Weka folds, seeds 1-10); weka: Weka 3.6.14, tests/fixtures/weka_uci"
    return {"table1_properties": props, "uci_fidelity": fidelity}


def _fidelity_claims(properties, by_learner, m, tolerance):
    """The data sets' counts equal Table 1's; the learners agree with Weka's on the compendium's target."""
    same_instances = properties.instances == properties.instances_published
    same_classes = properties.classes == properties.classes_published
    n_attr = int((properties.attributes != properties.attributes_published).sum())
    claims = Claims(PAPER, "00_uci_fidelity")
    claims.exactly("claim_properties", "The number of cases (#inst.), attributes (#atts.), and classes (#cl.) for "
                   "each dataset. (Read: our ARFF files have Table 1's numbers of instances and classes; the "
                   f"attribute counts of {n_attr} data sets differ, by one, through the paper's way of counting.)",
                   "Section 4.1, Table 1",
                   condition=bool(same_instances.all() and same_classes.all()),
                   measured=f"instances equal on {int(same_instances.sum())}, classes on {int(same_classes.sum())} "
                            f"of {len(properties)} data sets",
                   rule="equal on every data set")
    target = math.ceil(TARGET_OF_27 * m / 27)
    within = by_learner["within_tolerance"].reindex(list(LEARNERS)).to_numpy(dtype=float)
    claims.at_least("claim_fidelity", "[We used naive Bayes, C4.5, and the nearest neighbor classifier] with default "
                    "settings as implemented in Weka. (The compendium's target, not a claim of the paper: each of "
                    f"our learners within {tolerance:g} points of Weka 3.6.14's mean 10 x 10 cv accuracy on at "
                    f"least {TARGET_OF_27} of the 27 data sets.)", "Section 4",
                    value=within, bound=target, unit=f"of {m} data sets", digits=0)
    return claims


def _fidelity_values(properties, by_learner, n_diff_runs, m):
    """The numbers the page's text quotes."""
    values = {"n_same_instances": int((properties.instances == properties.instances_published).sum()),
              "n_same_classes": int((properties.classes == properties.classes_published).sum()),
              "n_attr_differ": int((properties.attributes != properties.attributes_published).sum()),
              "n_data_sets": m, "identical_runs": int(by_learner["identical_runs"].sum()),
              "all_runs": int(by_learner["runs"].sum()), "n_diff_runs": n_diff_runs,
              "max_abs_difference": round(float(by_learner["max_abs_difference"].max()), 2)}
    for learner in LEARNERS:
        values[f"within_{learner}"] = int(by_learner.loc[learner, "within_tolerance"])
    return values


def _fidelity_shown(table, names):
    """Weka's, our and their difference of mean accuracy per data set (paper names) and learner."""
    wide = table.pivot(index="paper_name", columns="learner", values=["ours", "weka", "difference"])
    wide = wide.reindex([n for n in names if n in wide.index])
    shown = beside(wide["weka"][list(LEARNERS)], wide["ours"][list(LEARNERS)], difference=wide["difference"], digits=2,
                   labels=("Weka", "ours", "diff."), stack=False)
    shown.index.name = "dataset"
    return shown


def _fidelity_summary(table, claims):
    """The page's first line: mean accuracies against Weka's, then the claims."""
    summary = comparison_summary(table["weka"], table["ours"]).replace("cells compared", "mean accuracies compared")
    return summary.replace("|published - ours|", "|Weka - ours|") + f" points; {claims.summary()}"


def _fidelity_figure(table, tolerance):
    """Our mean accuracy against Weka's per learner, with the band of the tolerance."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(11, 3.8), layout="constrained", sharex=True, sharey=True)
    grid = np.linspace(0, 100, 2)
    for ax, learner in zip(axes, LEARNERS):
        rows = table[table.learner == learner]
        ax.fill_between(grid, grid - tolerance, grid + tolerance, color="0.85", lw=0)
        ax.plot(grid, grid, color="0.4", lw=0.8)
        ax.scatter(rows.weka, rows.ours, s=14, color="C0")
        ax.set_title(learner)
        ax.set_xlabel("Weka 3.6.14 accuracy (%)")
        ax.set_xlim(30, 100)
        ax.set_ylim(30, 100)
    axes[0].set_ylabel("replicability accuracy (%)")
    return fig


def fidelity_page(*, scale="paper", tolerance=1.5, n_jobs=1, uci_dir=None):
    """Table 1's data set properties and the learners' fidelity to Weka 3.6.14.

    Parameters
    ----------
    scale : {"paper", "quick", "smoke"}, keyword-only
        Of :func:`~replicability.papers.bouckaert_frank2004.fidelity.uci_fidelity` ("paper": the
        committed 27 data sets x 3 learners x 10 runs).
    tolerance : float, keyword-only
        Percentage points within which a mean cv accuracy agrees with Weka's.
    n_jobs : int, keyword-only
        Processes, only when the results have to be computed.
    uci_dir : path-like, optional, keyword-only
        Folder of the ARFF files, only when computing (default: ``REPLICABILITY_UCI_DIR``,
        else ``../shared/data/uci`` beside the compendium's checkout).

    Returns
    -------
    Page
        Tables ``"properties"``, ``"attribute_notes"``, ``"fidelity"``,
        ``"by_learner"``, ``"differing_runs"``; reproduced ``table1_properties``
        and ``uci_fidelity``; claims ``claim_properties`` and ``claim_fidelity``.

    Examples
    --------
    >>> page = fidelity_page()  # the committed results
    >>> page.values["identical_runs"], page.values["all_runs"]
    (809, 810)
    """
    tolerance = check_positive(tolerance, "tolerance")
    manifest = list_uci()
    properties = _properties(manifest)
    ours = uci_fidelity(scale=scale, n_jobs=n_jobs, directory=_uci_directory(uci_dir))
    weka = read_weka_cv()
    table = fidelity_table(ours, weka, tolerance=tolerance)
    names = manifest.set_index("dataset")["paper_name"]
    table.insert(0, "paper_name", names.loc[table.dataset].values)
    weka_runs = weka["correct"].sel(dataset=ours["dataset"], learner=ours["learner"], seed=ours["seed"])
    by_learner, diff_runs = _by_learner(table, ours, weka_runs), _differing_runs(ours, weka_runs)
    m = int(ours.sizes["dataset"])
    claims = _fidelity_claims(properties, by_learner, m, tolerance)
    tables = {"properties": Table(_shown_properties(properties)),
              "attribute_notes": Table(_attribute_notes(manifest, properties)),
              "fidelity": Table(_fidelity_shown(table, names)), "by_learner": Table(by_learner, 2),
              "differing_runs": Table(diff_runs)}
    return Page(claims, _fidelity_values(properties, by_learner, len(diff_runs), m), _fidelity_summary(table, claims),
                tables, _reproduced(properties, table), {"figure": partial(_fidelity_figure, table, tolerance)})
