"""Real Weka 3.6 as the oracle of Tables 2 and 7 (issue 21): reference counts, agreement, rates.

Bouckaert (2003) ran Weka's learners in Weka's Experimenter. ``data/weka`` holds what
Weka 3.6.14 itself computes on the very data sets and 10 x 10 cv folds of the book's
experiments (written by ``data/weka/make_weka_reference.py`` through
``tests/weka/WekaBatch.java``): per fold, the test instances each Weka learner
classifies correctly. This module reads them (:func:`read_weka_folds`), compares them
fold by fold with the engine's stored counts (:func:`fold_agreement`) and recomputes
the tables' Type I errors with Weka's counts in place of ours (:func:`table7_oracle`,
:func:`table2_oracle`); :func:`table2_design_probes` tests the data-source hypotheses
of Table 2 with the engine.

Experiments (:data:`EXPERIMENTS`):

* ``"t7"``: Table 7's data (source 1, seed 0), one randomization of stratified 10 x 10 cv,
  training rows ascending (the engine's default order);
* ``"t7_experimenter"``: the same folds, each training set shuffled as Weka's Experimenter
  hands it to a learner (``rxk_cv`` with ``train_order="experimenter"``);
* ``"t2_p03"``, ``"t2_p04"``: Table 2's null data at class probability 0.3 and 0.4 (seed 1).

.. rubric:: References

Bouckaert, R. R. (2003). Choosing between two learning algorithms based on calibrated
tests. ICML 2003, 51-58.

Hall, M., Frank, E., et al. (2009). The WEKA data mining software: an update. SIGKDD
Explorations 11(1), 10-18. doi:10.1145/1656274.1656278
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import xarray as xr

from ..._validation import check_choice
from ...engine.registry import SCHEMES, SOURCES
from ...engine.runner import ExperimentConfig
from ...engine.store import data_dir
from ...report.tables import read_published
from ...sources.bayesnet import load_bouckaert2003_networks
from ..shared.synthetic_runs import SYNTHETIC_SOURCES, fold_differences, synthetic_fold_counts
from .experiments import NULL_DATASETS, calibrated_df, n_jobs_for, section4_calibration
from .study import CALIBRATED_TESTS, study_outcomes

__all__ = ["EXPERIMENTS", "TABLE7_SETUPS", "WEKA_LEARNERS", "dataset_and_splits", "experiment_config",
           "fold_agreement", "read_weka_folds", "table2_design_probes", "table2_oracle", "table7_oracle"]

#: name -> (synthetic source, its parameters, root seed, order of the training rows)
EXPERIMENTS = {
    "t7": ("source1", {}, 0, "sorted"),
    "t7_experimenter": ("source1", {}, 0, "experimenter"),
    "t2_p03": ("null", {"class_probability": 0.3}, 1, "sorted"),
    "t2_p04": ("null", {"class_probability": 0.4}, 1, "sorted"),
}

#: Key in ``data/weka`` -> (runner learner name, Weka classifier and options).
WEKA_LEARNERS = {
    "nb": ("naive_bayes", "weka.classifiers.bayes.NaiveBayes"),
    "j48": ("c45", "weka.classifiers.trees.J48"),
    "ib1": ("ib1", "weka.classifiers.lazy.IB1"),
    "ibk1": ("ibk1", "weka.classifiers.lazy.IBk -K 1"),
    "tan": ("tan", "weka.classifiers.bayes.BayesNet -D -Q weka.classifiers.bayes.net.search.local.TAN -- -S BAYES "
                   "-E weka.classifiers.bayes.net.estimate.SimpleEstimator -- -A 0.5"),
    "vp": ("voted_perceptron", "weka.classifiers.functions.VotedPerceptron"),
}

#: Table 7 set-ups: the engine's training order and learner options per learner.
TABLE7_SETUPS = {
    "sorted": ({"n_runs": 10, "n_folds": 10}, {}),
    "experimenter": ({"n_runs": 10, "n_folds": 10, "train_order": "experimenter"},
                     {"voted_perceptron": {"weka_shuffle": True}}),
}

_T7_LEARNERS = ("c45", "naive_bayes", "ib1", "tan", "voted_perceptron")
_SHORT = {"c45": "C4.5", "naive_bayes": "nb", "ib1": "nn", "ibk1": "nn (IBk -K 1)", "tan": "tan",
          "voted_perceptron": "vp"}


def experiment_config(name, *, n_datasets=1000):
    """The runner configuration whose data sets and splits an experiment of :data:`EXPERIMENTS` uses.

    Parameters
    ----------
    name : str
        A key of :data:`EXPERIMENTS`.
    n_datasets : int, default 1000

    Returns
    -------
    ExperimentConfig
        Source, seed and scheme as the book's notebooks run them (the learners,
        naive Bayes and C4.5, do not change the data or the splits).

    Examples
    --------
    >>> experiment_config("t2_p03").source_params
    {'class_probability': 0.3, 'n_attributes': 10}
    """
    check_choice(name, "name", tuple(EXPERIMENTS))
    source, params, seed, order = EXPERIMENTS[name]
    runner_source, base = SYNTHETIC_SOURCES[source]
    return ExperimentConfig(source=runner_source, source_params={**base, **params}, learners=("naive_bayes", "c45"),
                            scheme="rxk_cv", scheme_params=TABLE7_SETUPS[order][0], n_datasets=n_datasets,
                            n_instances=300, n_repeats=1, seed=seed)


def dataset_and_splits(config, index):
    """Data set ``index`` of ``config`` and its splits, drawn exactly as the runner draws them.

    The runner seeds data set ``i`` with ``SeedSequence(seed, spawn_key=(i, 0))`` and the
    splits of repeat ``r`` with ``SeedSequence(seed, spawn_key=(i, 1, r))``
    (:mod:`replicability.engine.runner`).

    Parameters
    ----------
    config : ExperimentConfig
    index : int

    Returns
    -------
    X : ndarray, shape (n_instances, n_attributes)
    y : ndarray, shape (n_instances,)
    splits : list of (ndarray, ndarray)
        Every ``(train, test)`` pair, repeat-major then run-major, in the order the
        learners see the rows.

    Examples
    --------
    >>> X, y, splits = dataset_and_splits(experiment_config("t7", n_datasets=1), 0)
    >>> X.shape, len(splits), len(splits[0][1])
    ((300, 10), 100, 30)
    """
    data_rng = np.random.default_rng(np.random.SeedSequence(config.seed, spawn_key=(index, 0)))
    X, y = SOURCES[config.source](data_rng, n_instances=config.n_instances, **config.source_params)
    split = SCHEMES[config.scheme](**config.scheme_params)
    splits = []
    for repeat in range(config.n_repeats):
        split_rng = np.random.default_rng(np.random.SeedSequence(config.seed, spawn_key=(index, 1, repeat)))
        splits += [fold for run in split(np.asarray(X), np.asarray(y), split_rng) for fold in run]
    return np.asarray(X), np.asarray(y), splits


def read_weka_folds(name, *, directory=None):
    """Weka 3.6's correct counts per fold for an experiment of :data:`EXPERIMENTS`.

    Parameters
    ----------
    name : str
        A key of :data:`EXPERIMENTS`.
    directory : path-like, optional
        Folder of the reference files (default ``data/weka`` of the compendium).

    Returns
    -------
    xarray.Dataset
        ``n_test`` (dataset, run, fold) and ``correct`` (learner, dataset, run, fold),
        learners named as the runner names them (``"ibk1"``: Weka's IBk -K 1).

    Examples
    --------
    >>> weka = read_weka_folds("t2_p03")
    >>> weka["learner"].values.tolist(), dict(weka["n_test"].sizes)
    (['naive_bayes', 'c45'], {'dataset': 1000, 'run': 10, 'fold': 10})
    """
    check_choice(name, "name", tuple(EXPERIMENTS))
    folder = data_dir() / "weka" if directory is None else directory
    with np.load(f"{folder}/bouckaert2003_{name}.npz") as z:
        keys = [k for k in WEKA_LEARNERS if f"correct_{k}" in z.files]
        correct = np.stack([z[f"correct_{k}"].astype(np.int64) for k in keys])
        n_test = z["n_test"].astype(np.int64)
    dims = ("dataset", "run", "fold")
    return xr.Dataset({"n_test": (dims, n_test), "correct": (("learner", *dims), correct)},
                      coords={"learner": [WEKA_LEARNERS[k][0] for k in keys]})


def _engine_counts(name, a, b, *, setup="sorted", n_datasets=1000):
    """The engine's stored counts of the pair (a, b) on an experiment's data (paper scale)."""
    source, params, seed, _ = EXPERIMENTS[name]
    scheme_params, options = TABLE7_SETUPS[setup]
    return synthetic_fold_counts(source, learners=(a, b), scheme_params=scheme_params,
                                 learner_params=(options.get(a, {}), options.get(b, {})) if options else None,
                                 source_params=params or None, n_datasets=n_datasets, n_repeats=1, seed=seed,
                                 scale="paper", n_jobs=n_jobs_for("paper"))


def fold_agreement(name):
    """Folds on which Weka 3.6 and the engine count the same correct test instances, per learner.

    Parameters
    ----------
    name : str
        A key of :data:`EXPERIMENTS`. For ``"t7_experimenter"`` the engine's
        voted perceptron shuffles as Weka does (``weka_shuffle=True``).

    Returns
    -------
    pandas.DataFrame
        Index: learner; columns ``equal`` (folds), ``folds``, ``percent``,
        ``engine_accuracy`` and ``weka_accuracy`` (%, over all folds).

    Examples
    --------
    >>> fold_agreement("t2_p03").loc["naive_bayes", ["equal", "folds"]].tolist()
    [100000, 100000]
    """
    weka = read_weka_folds(name)
    setup = EXPERIMENTS[name][3]
    rows = {}
    for learner in weka["learner"].values:
        if learner == "ibk1":
            continue
        # the pair as it is committed (Table 7's order: every learner against C4.5, nb against C4.5 for C4.5),
        # so that no paper-scale result is recomputed; C4.5 is then learner B
        a, b = (learner, "c45") if learner != "c45" else ("naive_bayes", "c45")
        counts = _engine_counts(name, a, b, setup=setup, n_datasets=weka.sizes["dataset"])
        ours = counts["correct_a" if learner == a else "correct_b"].values[:, 0]
        theirs = weka["correct"].sel(learner=learner).values
        n = weka["n_test"].values.sum()
        rows[str(learner)] = {"equal": int((ours == theirs).sum()), "folds": int(ours.size),
                              "percent": 100 * float((ours == theirs).mean()),
                              "engine_accuracy": 100 * float(ours.sum() / n),
                              "weka_accuracy": 100 * float(theirs.sum() / n)}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("learner")


def _rates(d, df10, tests, alpha):
    out = study_outcomes(d, tests=tests, alphas=[alpha], df=df10)
    return dict(zip(tests, 100 * (out[:, 0] != 0).mean(axis=-1)))


def _df10(alpha, tests):
    df10 = calibrated_df(section4_calibration(scale="paper", seed=0), alpha=alpha, tests=tests)
    return df10, [t for t in tests if df10[t] > 0]


def table7_oracle(*, alpha=0.05):
    """Table 7's "use all data" Type I error per pair: the engine and Weka, in both training orders.

    Columns (percent of the 1000 set-1 data sets on which the calibrated test rejects):

    * ``published``: Bouckaert (2003), Table 7;
    * ``engine_sorted``: the engine's learners, training rows ascending;
    * ``weka_sorted``: Weka 3.6's learners on the same folds and order;
    * ``weka_sorted_ibk``: the same with Weka's IBk -K 1 as "nn";
    * ``engine_experimenter``: the engine, training sets shuffled as Weka's Experimenter
      does, the voted perceptron with Weka's shuffle;
    * ``weka_experimenter``: Weka's learners with that order (IB1 and the voted
      perceptron from ``"t7_experimenter"``, the others do not depend on the order).

    Parameters
    ----------
    alpha : float, default 0.05

    Returns
    -------
    pandas.DataFrame
        One row per pair (``pair``, ``learner_a``, ``learner_b``), in the paper's order.

    Examples
    --------
    >>> t = table7_oracle().set_index("pair")
    >>> float(t.loc["nn vs C4.5", "weka_experimenter"]) < float(t.loc["nn vs C4.5", "weka_sorted"])
    True
    """
    tests = list(CALIBRATED_TESTS[3:])
    df10, usable = _df10(alpha, tests)
    weka = read_weka_folds("t7")
    shuffled = read_weka_folds("t7_experimenter")
    n = weka["n_test"].values
    w_sorted = {str(k): weka["correct"].sel(learner=k).values for k in weka["learner"].values}
    w_exp = {**w_sorted, **{str(k): shuffled["correct"].sel(learner=k).values for k in shuffled["learner"].values}}
    published = read_published("bouckaert2003", "table7").set_index(["learner_a", "learner_b"])["value"]
    rows = []
    for i, b in enumerate(_T7_LEARNERS):
        for a in _T7_LEARNERS[i + 1:]:
            row = {"pair": f"{_SHORT[a]} vs {_SHORT[b]}", "learner_a": a, "learner_b": b,
                   "published": float(published.loc[(a, b)])}
            for setup in TABLE7_SETUPS:
                counts = _engine_counts("t7", a, b, setup=setup)
                if not np.array_equal(counts["n_test"].values[:, 0], n):
                    raise ValueError("The engine's folds are not the folds of the Weka reference data.")
                row[f"engine_{setup}"] = _rates(fold_differences(counts)[:, 0], df10, usable, alpha)["all"]
            row["weka_sorted"] = _rates((w_sorted[a] - w_sorted[b]) / n, df10, usable, alpha)["all"]
            ibk = {k: w_sorted["ibk1"] if k == "ib1" else w_sorted[k] for k in (a, b)}
            row["weka_sorted_ibk"] = _rates((ibk[a] - ibk[b]) / n, df10, usable, alpha)["all"]
            row["weka_experimenter"] = _rates((w_exp[a] - w_exp[b]) / n, df10, usable, alpha)["all"]
            rows.append(row)
    columns = ["pair", "learner_a", "learner_b", "published", "engine_sorted", "weka_sorted", "weka_sorted_ibk",
               "engine_experimenter", "weka_experimenter"]
    return pd.DataFrame(rows)[columns]


def table2_oracle(*, alpha=0.05):
    """Table 2 at class probabilities 0.3 and 0.4: Type I errors from the engine's and from Weka's counts.

    Parameters
    ----------
    alpha : float, default 0.05

    Returns
    -------
    pandas.DataFrame
        Rows: (class probability, test); columns ``published``, ``engine``, ``weka``
        (percent of 1000 data sets) and ``nb_minus_c45_engine`` / ``nb_minus_c45_weka``
        (mean accuracy difference over all folds, points).

    Examples
    --------
    >>> t = table2_oracle()
    >>> bool((t["engine"] == t["weka"]).all())
    True
    """
    tests = list(CALIBRATED_TESTS)
    df10, usable = _df10(alpha, tests)
    published = read_published("bouckaert2003", "table2").set_index(["class_probability", "test"])["value"]
    rows = []
    for name in ("t2_p03", "t2_p04"):
        p = EXPERIMENTS[name][1]["class_probability"]
        weka = read_weka_folds(name)
        counts = _engine_counts(name, "naive_bayes", "c45")
        d_engine = fold_differences(counts)[:, 0]
        d_weka = ((weka["correct"].sel(learner="naive_bayes") - weka["correct"].sel(learner="c45"))
                  / weka["n_test"]).values
        r_engine, r_weka = _rates(d_engine, df10, usable, alpha), _rates(d_weka, df10, usable, alpha)
        for t in usable:
            rows.append({"class_probability": p, "test": t, "published": float(published.loc[(p, t)]),
                         "engine": r_engine[t], "weka": r_weka[t],
                         "nb_minus_c45_engine": 100 * float(d_engine.mean()),
                         "nb_minus_c45_weka": 100 * float(d_weka.mean())})
    return pd.DataFrame(rows).set_index(["class_probability", "test"])


#: Table 2 source probes: label -> overrides of the null source's parameters.
_T2_PROBES = {
    "book: 10 attributes, P(x = 1) = 0.5": {},
    "9 attributes (the class among the paper's 10 binary variables)": {"n_attributes": 9},
    "10 attributes with set 1's marginal probabilities": "set1",
}


def _set1_marginals():
    # Set 1 is a null source: each attribute's probability is the same under both classes.
    return [float(c[0]) for c in load_bouckaert2003_networks()[0][1].to_dict()["cpts"]]


def table2_design_probes(*, alpha=0.05, class_probabilities=(0.3, 0.4), scale="paper"):
    """Table 2's "use all data" Type I error when the null source is built another way (engine only).

    Weka 3.6 agrees with the engine on every fold of Table 2's data
    (:func:`table2_oracle`), so a gap to the paper must lie in the data or the set-up.
    Each probe changes one feature of the null source: the number of attributes (the
    paper's "10 binary variables" may count the class) or their probabilities (set 1's
    unequal marginals instead of 0.5). Same seed, sizes and calibrated df as Table 2.

    Parameters
    ----------
    alpha : float, default 0.05
    class_probabilities : sequence of float
    scale : {"paper", "quick", "smoke"}
        Data sets per probe (1000 at paper scale).

    Returns
    -------
    pandas.DataFrame
        Rows: the three probes and the published values; columns (measure, class
        probability): ``all`` (Type I error of "use all data", %) and ``nb_minus_c45``
        (mean accuracy difference over all folds, points; not printed in the paper).

    Examples
    --------
    >>> t = table2_design_probes()
    >>> t.shape
    (4, 4)
    """
    df10, usable = _df10(alpha, list(CALIBRATED_TESTS))
    published = read_published("bouckaert2003", "table2").set_index(["class_probability", "test"])["value"]
    rows = {}
    for label, overrides in _T2_PROBES.items():
        overrides = {"attribute_probability": _set1_marginals()} if overrides == "set1" else overrides
        row = {}
        for p in class_probabilities:
            counts = synthetic_fold_counts("null", scheme_params={"n_runs": 10, "n_folds": 10},
                                           source_params={"class_probability": p, **overrides},
                                           n_datasets=NULL_DATASETS[scale], n_repeats=1, seed=1, scale=scale,
                                           n_jobs=n_jobs_for(scale))
            d = fold_differences(counts)[:, 0]
            row[("all", p)] = _rates(d, df10, usable, alpha)["all"]
            row[("nb_minus_c45", p)] = 100 * float(d.mean())
        rows[label] = row
    out = pd.DataFrame.from_dict(rows, orient="index")
    out.columns = pd.MultiIndex.from_tuples(out.columns, names=["measure", "class_probability"])
    published_row = {("all", p): float(published.loc[(p, "all")]) for p in class_probabilities}
    out.loc["published (Bouckaert 2003, Table 2)", list(published_row)] = list(published_row.values())
    return out.rename_axis("probe")
