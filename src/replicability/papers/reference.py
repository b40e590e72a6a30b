"""The tables of the book's reference pages: degenerate inputs, agreement with Weka, performance.

Each function computes (or reads) what one page of ``notebooks/reference`` shows, with
readable labels and numbers formatted for display, so that the page itself only calls
it. The performance figures are read from ``data/benchmarks/<name>.json``, which the
scripts of ``benchmarks/`` write (``make benchmark``); the reader lives here, in the
installed package, because ``benchmarks/`` is a folder of scripts that the book's
notebooks cannot import.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ..engine.store import ResultStore, data_dir, paper_results_dir
from ..report.page import Table

__all__ = ["BENCHMARK_TITLES", "PerformanceReport", "command_times", "committed_results", "degenerate_cases",
           "performance_report", "read_benchmarks", "weka_agreement"]

#: Readable name of each benchmark file.
BENCHMARK_TITLES = {
    "commands": "make venv, book and test on a fresh clone",
    "compare": "runner backends (compare)",
    "counts": "exact count sampling (Task I)",
    "engine": "experiment engine",
    "j48_kernel": "J48 kernel against the issue's commit",
    "scaling": "scaling in instances and attributes",
    "statistics": "statistics library",
    "workload": "synthetic workload at paper scale",
}
_LEARNERS = {"naive_bayes": "naive Bayes", "c45": "C4.5", "ib1": "1-NN", "tan": "TAN",
             "voted_perceptron": "voted perceptron"}


def degenerate_cases(alpha=0.05):
    """What every test returns on degenerate input (all differences zero, a constant, no discordant pairs).

    Parameters
    ----------
    alpha : float
        Significance level of the decision column.

    Returns
    -------
    pandas.DataFrame
        One row per test and input: statistic, p-value (6 decimals) and the outcome of
        :func:`replicability.decide`.

    Examples
    --------
    >>> table = degenerate_cases()
    >>> row = table.iloc[0]
    >>> row["test"], float(row["p-value"]), row["outcome"]
    ('paired t-test', 1.0, 'NO_DIFFERENCE')
    """
    import replicability as rp

    zeros, constant = np.zeros(10), np.full(10, 0.02)
    zeros_rk, constant_rk = np.zeros((10, 10)), np.full((10, 10), 0.02)
    cases = [
        ("paired t-test", "10 zero differences", lambda: rp.paired_ttest(zeros)),
        ("paired t-test", "10 differences of +0.02", lambda: rp.paired_ttest(constant)),
        ("paired t-test", "10 differences of -0.02", lambda: rp.paired_ttest(-constant)),
        ("corrected resampled t-test", "10 zero differences",
         lambda: rp.corrected_resampled_ttest(zeros, n_train=9, n_test=1)),
        ("corrected resampled t-test", "10 differences of +0.02",
         lambda: rp.corrected_resampled_ttest(constant, n_train=9, n_test=1)),
        ("corrected repeated cv t-test", "10 x 10 zero differences",
         lambda: rp.corrected_repeated_cv_ttest(zeros_rk, n_train=270, n_test=30)),
        ("corrected repeated cv t-test", "10 x 10 differences of +0.02",
         lambda: rp.corrected_repeated_cv_ttest(constant_rk, n_train=270, n_test=30)),
        ("calibrated 'use all data' (df = 10)", "10 x 10 differences of +0.02",
         lambda: rp.stats.scheme_ttest(constant_rk, scheme="all", df=10)),
        ("sorted runs, averaged T", "10 x 10 zero differences",
         lambda: rp.stats.scheme_ttest(zeros_rk, scheme="sorted_runs", variant="averaged_t")),
        ("Dietterich 5x2cv t-test", "5 x 2 zero differences", lambda: rp.dietterich_5x2cv_ttest(np.zeros((5, 2)))),
        ("Alpaydin 5x2cv F-test", "5 x 2 zero differences", lambda: rp.alpaydin_5x2cv_ftest(np.zeros((5, 2)))),
        ("sign test", "10 zero differences", lambda: rp.sign_test(zeros)),
        ("sign test", "10 differences of +0.02", lambda: rp.sign_test(constant)),
        ("signed-rank test", "10 zero differences", lambda: rp.signed_rank_test(zeros)),
        ("McNemar (chi-square)", "b = c = 0", lambda: rp.mcnemar_test(0, 0)),
        ("McNemar (exact)", "b = c = 0", lambda: rp.mcnemar_test(0, 0, method="exact")),
        ("difference of proportions", "both accuracies 1", lambda: rp.proportions_ztest(1.0, 1.0, n_test=100)),
        ("Cochran's Q", "every classifier right on every instance",
         lambda: rp.cochran_q_test(np.ones((20, 3), dtype=int))),
        ("Looney's F", "every classifier right on every instance",
         lambda: rp.looney_ftest(np.ones((20, 3), dtype=int))),
    ]
    # Alpaydin's F, Cochran's Q and Looney's F have no sign: decide needs the direction,
    # here the mean difference (zero in every case above).
    direction = {"Alpaydin 5x2cv F-test": 0.0, "Cochran's Q": 0.0, "Looney's F": 0.0}
    rows = []
    for test, data, run in cases:
        result = run()
        rows.append({"test": test, "input": data, "statistic": float(result.statistic),
                     "p-value": round(float(result.pvalue), 6),
                     "outcome": rp.Outcome(rp.decide(result, alpha=alpha, statistic=direction.get(test))).name})
    return pd.DataFrame(rows)


def weka_agreement(folder):
    """Agreement of :class:`~replicability.NaiveBayes` and :class:`~replicability.C45` with Weka 3.6.14.

    Our learners are trained on the folds of the committed fixtures (10-fold cv of
    data sets of 300 instances with binary attributes) and their predictions compared
    instance by instance with Weka's; each J48 tree's size and number of leaves are
    compared with Weka's tree on the same fold.

    Parameters
    ----------
    folder : path-like
        Folder holding ``data.csv``, ``predictions.csv`` and ``j48_trees.csv``
        (``tests/fixtures/weka_nominal``).

    Returns
    -------
    agreement : pandas.DataFrame
        Per data set: classes, test instances, agreement (%) of each learner.
    trees : pandas.DataFrame
        Per data set: folds whose tree has Weka's size, and Weka's number of leaves.

    Examples
    --------
    >>> from replicability.engine import data_dir
    >>> agreement, trees = weka_agreement(data_dir().parent / "tests" / "fixtures" / "weka_nominal")
    >>> bool(agreement["C4.5 agreement (%)"].min() >= 99), int(trees["folds"].sum())
    (True, 50)
    """
    import replicability as rp

    folder = Path(folder)
    data = pd.read_csv(folder / "data.csv")
    weka = pd.read_csv(folder / "predictions.csv")
    weka_trees = pd.read_csv(folder / "j48_trees.csv")
    attributes = [c for c in data.columns if c.startswith("a")]
    rows, tree_rows = [], []
    for name, frame in data.groupby("dataset", sort=False):
        frame = frame.sort_values("row")
        X, y, folds = frame[attributes].to_numpy(), frame["cls"].to_numpy(), frame["fold"].to_numpy()
        n_classes = int(y.max()) + 1
        expected = weka[weka["dataset"] == name].sort_values("row")
        ours = {"nb": np.empty(len(y), int), "j48": np.empty(len(y), int)}
        for fold in np.unique(folds):
            train, test = folds != fold, folds == fold
            nb = rp.NaiveBayes(n_values=2, n_classes=n_classes).fit(X[train], y[train])
            tree = rp.C45(n_values=2, n_classes=n_classes).fit(X[train], y[train])
            ours["nb"][test] = nb.predict(X[test])
            ours["j48"][test] = tree.predict(X[test])
            weka_tree = weka_trees[(weka_trees["dataset"] == name) & (weka_trees["fold"] == fold)].iloc[0]
            tree_rows.append({"data set": name, "same size": tree.n_nodes_ == weka_tree.n_nodes,
                              "same leaves": tree.n_leaves_ == weka_tree.n_leaves})
        rows.append({
            "data set": name, "classes": n_classes, "test instances": len(y),
            "naive Bayes agreement (%)": round(100 * np.mean(ours["nb"] == expected["nb"].to_numpy()), 2),
            "C4.5 agreement (%)": round(100 * np.mean(ours["j48"] == expected["j48"].to_numpy()), 2),
        })
    trees = pd.DataFrame(tree_rows).groupby("data set", sort=False)[["same size", "same leaves"]].sum()
    trees.columns = ["folds with Weka's tree size", "folds with Weka's number of leaves"]
    trees["folds"] = pd.DataFrame(tree_rows).groupby("data set", sort=False).size()
    return pd.DataFrame(rows), trees


def committed_results(directory=None):
    """The committed results of the store: one row per result, and the computation per family.

    Parameters
    ----------
    directory : path-like, optional
        The store's folder (default ``data/results``).

    Returns
    -------
    listing : Table
        Result name, learners and scheme (the runner's results), computing time, commit
        (12 characters, ``-dirty`` kept) and creation date; the file is named by the
        configuration's hash, so it is left out.
    per_family : Table
        Results, seconds and minutes per family (the first part of the name).
    total_seconds : float

    Examples
    --------
    >>> listing, per_family, seconds = committed_results()
    >>> list(listing.frame.columns)
    ['result', 'learners, scheme', 'seconds', 'commit', 'created (UTC)']
    """
    listing = ResultStore(directory or paper_results_dir()).list_results()
    text = listing[["learners", "scheme", "git_commit", "created_utc"]].fillna("").astype(str)
    seconds = listing["wall_time_s"].astype(float).round(1)
    shown = pd.DataFrame({
        "result": listing["name"],
        "learners, scheme": [", ".join(p for p in (a, b) if p) for a, b in zip(text["learners"], text["scheme"])],
        "seconds": seconds,
        "commit": [c[:12] + ("-dirty" if c.endswith("-dirty") else "") for c in text["git_commit"]],
        "created (UTC)": text["created_utc"].str[:10],
    })
    family = listing["name"].str.split("/").str[0].rename("family")
    per_family = seconds.groupby(family).agg(results="count", seconds="sum")
    per_family["minutes"] = (per_family["seconds"] / 60).round(1)
    return Table(shown, 1), Table(per_family, 1), float(seconds.sum())


def command_times(folder=None):
    """How long the compendium's commands take, as measured by ``benchmarks/bench_commands.py``.

    ``make venv``, ``make book`` and ``make test`` were timed one after the other on a
    fresh clone; ``make reproduce`` is not run by the benchmark (hours): its figure is
    the computation the committed results record in their provenance, summed.

    Parameters
    ----------
    folder : path-like, optional
        Default ``data/benchmarks`` (the file ``commands.json``).

    Returns
    -------
    table : Table
        One row per command: minutes (wall time) and the 1-minute load average before it ran.
    values : dict
        ``make_venv_minutes``, ``make_book_minutes``, ``make_test_minutes``,
        ``reproduce_hours`` (rounded as shown), ``n_results``, ``cpu_count``, ``measured``
        (the date).

    Examples
    --------
    >>> import json, tempfile
    >>> from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp())
    >>> run = {"wall_s": 150.0, "load_before": [0.4, 0.3, 0.2]}
    >>> _ = (folder / "commands.json").write_text(json.dumps({
    ...     "machine": {"cpu_count": 2, "date": "2026-11-25"},
    ...     "results": {"commands": [{"command": "make book", **run}, {"command": "make test", **run}],
    ...                 "reproduce": {"results": 92, "compute_s": 23760.0}}}))
    >>> table, values = command_times(folder)
    >>> values["make_book_minutes"], values["reproduce_hours"], values["n_results"]
    (2.5, 6.6, 92)
    """
    measured = read_benchmarks(["commands"], folder)["commands"]
    runs, reproduce = measured["results"]["commands"], measured["results"]["reproduce"]
    rows = [{"command": r["command"], "minutes": round(r["wall_s"] / 60, 1),
             "load average before (1 min)": r["load_before"][0]} for r in runs]
    hours = round(reproduce["compute_s"] / 3600, 1)
    rows.append({"command": "make reproduce", "minutes": round(reproduce["compute_s"] / 60, 1),
                 "load average before (1 min)": f"not run: the computation {reproduce['results']} committed results "
                                                 "record"})
    values = {f"{r['command'].replace(' ', '_')}_minutes": r["minutes"] for r in rows[:-1]}
    values |= {"reproduce_hours": hours, "n_results": reproduce["results"],
               "cpu_count": measured["machine"].get("cpu_count"), "measured": measured["machine"].get("date", "")[:10]}
    return Table(pd.DataFrame(rows).set_index("command"), 1), values


def read_benchmarks(names=None, folder=None):
    """The measured benchmark files, ``{name: {"machine": ..., "results": ...}}``.

    Parameters
    ----------
    names : sequence of str, optional
        Stems of ``data/benchmarks/*.json``; all of them by default.
    folder : path-like, optional
        Default ``data/benchmarks``.

    Examples
    --------
    >>> sorted(read_benchmarks(["counts", "engine"]))
    ['counts', 'engine']
    """
    folder = Path(folder) if folder is not None else data_dir() / "benchmarks"
    names = list(names) if names else sorted(p.stem for p in folder.glob("*.json"))
    missing = [n for n in names if not (folder / f"{n}.json").is_file()]
    if missing:
        raise FileNotFoundError(f"No benchmark file for {missing} in {folder}; run `make benchmark`.")
    return {name: json.loads((folder / f"{name}.json").read_text()) for name in names}


def _pair(text):
    return " vs ".join(_LEARNERS.get(p, p) for p in text.split("-"))


def _workload_label(label):
    """``naive_bayes-c45 bayesnet {"source": 1} rxk_cv {...} 1000x10`` in words: experiment, source, scheme, sizes."""
    match = re.fullmatch(r"(\S+) (\S+) (\{.*?\}) (\S+) (\{.*?\}) (\d+)x(\d+)", label)
    if not match:
        head, _, tail = label.partition("/")
        if not tail:
            return label, "", "", ""
        tail = re.sub(r"set(\d)", r"set \1", tail.replace("_", " "))
        return f"{head.capitalize().replace('2003', ' 2003')}: {tail}", "", "", ""
    pair, source, source_opts, scheme, scheme_opts, n_data, n_rep = match.groups()
    so, sc = json.loads(source_opts), json.loads(scheme_opts)
    if source == "bayesnet":
        src = f"Bayesian network {so['source']}"
    elif so.get("class_probability") is not None:
        src = f"independent attributes, P(class) = {so['class_probability']:g}"
    else:
        src = f"independent attributes, {so.get('n_classes', 2)} classes"
    if scheme == "rxk_cv":
        sch = f"{sc['n_runs']} × {sc['n_folds']}-fold cv"
    elif scheme == "5x2":
        sch = "5 × 2 cv" + (" (stratified)" if sc.get("stratified") else "")
    elif scheme == "resample":
        # The labels hold the committed results' keys, where test_size is still test_fraction
        # (replicability.papers.shared.synthetic_runs._pair_config_key).
        sch = f"{sc['n_runs']} resamples, {100 * sc['test_fraction']:g}% test"
    else:
        sch = scheme
    return _pair(pair), src, sch, f"{n_data} × {n_rep}"


class PerformanceReport:
    """The tables, figures and lines of the performance page, with readable labels.

    ``tables`` maps a section to a display table (missing figures as "not measured",
    never NaN), ``lines`` a section to sentences, ``figures`` a section to a drawing
    function. Sections whose benchmark file is absent are absent.
    """

    def __init__(self, measured):
        self.measured = measured
        self.tables, self.lines, self.figures = {}, {}, {}

    def show(self, section):
        """Display the table and the lines of ``section`` (a note when it was not measured)."""
        from IPython.display import Markdown, display

        if section not in self.tables and section not in self.lines and section not in self.figures:
            display(Markdown(f"*Not measured: no `data/benchmarks/{section}.json`.*"))
            return
        if section in self.figures:
            import matplotlib.pyplot as plt

            self.figures[section]()
            plt.show()
        if section in self.tables:
            display(Table(self.tables[section]))
        if self.lines.get(section):
            display(Markdown("\n".join(f"* {line}" for line in self.lines[section])))


def _fmt(value, digits=1):
    return "not measured" if value is None or (isinstance(value, float) and np.isnan(value)) else \
        f"{value:,.{digits}f}"


def performance_report(names=None, folder=None):
    """Read the benchmark files and build the performance page's tables, figures and lines.

    Parameters
    ----------
    names : sequence of str, optional
        Stems of the benchmark files to show (all by default).
    folder : path-like, optional
        Default ``data/benchmarks``.

    Returns
    -------
    PerformanceReport
        Sections ``machine``, ``statistics``, ``engine``, ``engine_speedup``,
        ``engine_pairs``, ``j48_kernel``, ``scaling``, ``workload``, ``compare``, ``counts``
        (those measured).

    Examples
    --------
    >>> report = performance_report(["counts"])
    >>> report.lines["counts"][0].startswith("configuration: ratio")
    True
    """
    measured = read_benchmarks(names, folder)
    report = PerformanceReport(measured)
    machine = pd.DataFrame({BENCHMARK_TITLES.get(k, k): m["machine"] for k, m in measured.items()}).T
    machine = machine.rename(columns={"cpu_count": "CPU cores", "python": "Python"}).fillna("not recorded")
    report.tables["machine"] = machine.rename_axis("benchmark")
    if "statistics" in measured:
        _statistics(report, measured["statistics"]["results"])
    if "engine" in measured:
        _engine(report, measured["engine"]["results"])
    if "j48_kernel" in measured:
        _j48_kernel(report, measured["j48_kernel"]["results"])
    if "scaling" in measured:
        _scaling(report, measured["scaling"]["results"])
    if "workload" in measured:
        _workload(report, measured["workload"]["results"])
    if "compare" in measured:
        _compare(report, measured["compare"]["results"])
    if "counts" in measured:
        _counts(report, measured["counts"]["results"])
    return report


def _statistics(report, stats):
    def label(name):
        return (name.replace("sorted_runs", "sorted runs").replace("averaged_var", "averaged variance")
                .replace("averaged_t", "averaged T"))

    table = pd.DataFrame({"CPU ms": stats["cpu_seconds"], "wall ms": stats["wall_seconds"]}).mul(1e3)
    totals = pd.DataFrame({"CPU ms": [stats["family_total"]["cpu"], stats["schemes_total"]["cpu"]],
                           "wall ms": [stats["family_total"]["wall"], stats["schemes_total"]["wall"]]},
                          index=["total: family", "total: scheme variants"]).mul(1e3)
    table = pd.concat([table, totals]).map(_fmt)
    table.index = [label(n) for n in table.index]
    report.tables["statistics"] = table.rename_axis("test (array of shape 4 × 1000 × 10 × 10 × 10)")


def _engine(report, engine):
    names = {"engine_null_data": "engine, null data", "engine_bayesnet_source_4": "engine, source 4",
             "own_estimators_loop": "loop over our estimators, null data",
             "sklearn_loop": "scikit-learn loop, null data",
             "sklearn_loop_bayesnet_source_4": "scikit-learn loop, source 4"}
    per_fold = pd.DataFrame(engine["seconds_per_fold_pair"]).T.mul(1e6)
    per_fold = per_fold.rename(index=names, columns={"wall": "wall µs per fold pair", "cpu": "CPU µs per fold pair"})
    report.tables["engine"] = per_fold.map(_fmt).rename_axis("naive Bayes vs C4.5")
    rows = {"over the loop through our estimators (CPU)": "vs_own_estimators_loop_cpu",
            "over the loop through our estimators (wall)": "vs_own_estimators_loop_wall",
            "over the scikit-learn loop (CPU)": "vs_sklearn_loop_cpu",
            "over the scikit-learn loop (wall)": "vs_sklearn_loop_wall"}
    data = {"null data": engine.get("speedup_null_data", {}), "source 4": engine.get("speedup_bayesnet_source_4", {})}
    speedup = pd.DataFrame({col: [(_fmt(d[key]) + "×") if key in d else "not measured" for key in rows.values()]
                            for col, d in data.items()}, index=list(rows))
    report.tables["engine_speedup"] = speedup.rename_axis("engine speed-up (best-of times)")
    if "pairs_bayesnet_source_4" in engine:
        pairs = pd.DataFrame(engine["pairs_bayesnet_source_4"]).T.mul(1e6)
        pairs = pairs.rename(index=_pair, columns={"wall": "wall µs per fold pair", "cpu": "CPU µs per fold pair"})
        report.tables["engine_pairs"] = pairs.map(_fmt).rename_axis("pair (source 4, fast paths)")
    lines = []
    run = engine["run_experiment"]
    source = run["source"].replace("bayesnet ", "Bayesian-network source ")
    lines.append(f"`run_experiment`, {run['fold_pairs']:,} fold pairs ({source}, {run['backend']}, "
                 f"{run['n_jobs']} workers): {run['cpu_per_fold_pair_s'] * 1e6:.0f} µs CPU per fold pair.")
    paired = engine["speedup_vs_sklearn_loop_cpu_paired"]
    for data_name, key in (("null data", "null_data"), ("source 4", "bayesnet_source_4")):
        x = paired[key]
        lines.append(f"{data_name}: {x['median']:.0f}× the scikit-learn loop in CPU time (median of {x['rounds']} "
                     f"alternating timings, range {x['min']:.0f}× to {x['max']:.0f}×), target 100×: "
                     + ("met." if x["median"] >= 100 else "not met."))
    for n_jobs, r in engine.get("run_experiment_by_workers", {}).items():
        lines.append(f"`run_experiment` on {n_jobs} worker(s): {r['wall_s']:.1f} s wall, "
                     f"{r['cpu_per_fold_pair_s'] * 1e6:.0f} µs CPU per fold pair.")
    python = engine.get("python_side", {})
    for data_name, key in (("null data", "null_data"), ("source 4", "bayesnet_source_4")):
        if key in python:
            x = python[key]
            lines.append(f"outside the kernel, {data_name}: {x['python_share_list']:.0%} of an `evaluate_nb_c45` call "
                         f"given the splits as a list of arrays, {x['python_share_engine_splits']:.0%} given them "
                         "as the engine's cv schemes give them (fold labels; CPU time, median of interleaved "
                         "rounds" + ("; below zero: the kernel alone timed slower than the whole call, a difference "
                                     "within the timing noise" if x["python_share_engine_splits"] < 0 else "")
                         + "); target under 10%: "
                         + ("met." if x["python_share_engine_splits"] < 0.1 else "not met.")
                         + ("" if x["python_share_list"] < 0.1 else " With a list, most of that share is "
                            "concatenating the splits' index arrays."))
    if "serial_run_bayesnet_source_4" in python:
        x = python["serial_run_bayesnet_source_4"]
        lines.append(f"outside the kernel in a serial `run_experiment` of {x['n_datasets']} data sets of source 4 "
                     f"(data, splits, summaries, the result's labels and provenance): {x['python_share']:.1%} of "
                     f"{x['cpu_per_fold_pair_s'] * 1e6:.1f} µs CPU per fold pair (median of {x['rounds']} runs, "
                     f"range {x['python_share_min']:.1%} to {x['python_share_max']:.1%}); target under 10%: "
                     + ("met." if x["python_share"] < 0.1 else "not met."))
    if "threads" in engine:
        lines.append("threads: the kernels are compiled without numba's `parallel=True`, so they start no threads "
                     "and load no threading layer; an experiment uses the cores through one single-threaded "
                     "worker process per core, each evaluating whole data sets.")
    if "identical" in engine:
        same = engine["identical"]
        lines.append(f"engine equal to the estimators fold by fold: {sum(same.values())} of {len(same)} checks.")
    lines.append(f"first call with an empty numba cache: {engine['compile']['cold_cache']['first_call_cpu_s']:.1f} s "
                 "CPU of compilation.")
    report.lines["engine_speedup"] = lines
    report.figures["engine_speedup"] = lambda: _speedup_figure(paired)


def _speedup_figure(paired):
    import matplotlib.pyplot as plt

    names = {"null_data": "null data", "bayesnet_source_4": "Bayesian-network source 4"}
    fig, ax = plt.subplots(figsize=(6, 2.4))
    for row, key in enumerate(names):
        x = paired[key]
        ax.plot([x["min"], x["max"]], [row, row], color="tab:blue", linewidth=6, alpha=0.35,
                label="range of the rounds" if row == 0 else None)
        ax.plot(x["median"], row, "o", color="tab:blue", label="median" if row == 0 else None)
    ax.axvline(100, color="tab:red", linestyle="--", label="target 100×")
    ax.set_yticks(range(len(names)), list(names.values()))
    ax.set_ylim(-0.6, len(names) - 0.4)
    ax.set_xscale("log")
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:g}×"))
    ax.xaxis.set_minor_formatter(plt.NullFormatter())
    ax.set_xlabel("engine speed-up over the scikit-learn loop (CPU time, interleaved rounds)")
    ax.legend(loc="lower right", fontsize="small")
    fig.tight_layout()


def _j48_kernel(report, kernel):
    columns = {"baseline_us_per_fit": f"CPU µs per fit at {kernel['baseline_commit']}",
               "current_us_per_fit": "CPU µs per fit now"}
    rows = pd.DataFrame(kernel["data"]).T
    table = rows[list(columns)].astype(float).map(_fmt).rename(columns=columns)
    table["speed-up (median [range] of the rounds)"] = [
        f"{r['ratio_median']:.2f}× [{r['ratio_min']:.2f}–{r['ratio_max']:.2f}]" for r in kernel["data"].values()]
    table["trees identical"] = ["yes" if r["identical"] else "no" for r in kernel["data"].values()]
    report.tables["j48_kernel"] = table.rename_axis("J48 fits (300 instances, 10 binary attributes)")
    short = [name for name, r in kernel["data"].items() if r["ratio_median"] < kernel["target_ratio"]]
    report.lines["j48_kernel"] = [
        f"{kernel['fits_per_round']} fits per round, {kernel['rounds']} interleaved rounds in one process; "
        f"target {kernel['target_ratio']:g}× on every data set: "
        + ("met." if not short else f"not met on {', '.join(short)}.")]


def _scaling(report, scaling):
    panels = (("by_n_instances", "n_instances", "instances (10 binary attributes)"),
              ("by_n_attributes", "n_attributes", "binary attributes (300 instances)"))

    def draw():
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
        for ax, (key, x_name, x_label) in zip(axes, panels):
            points = pd.DataFrame(scaling[key]["points"])
            us = points["cpu_s_per_fold_pair"] * 1e6
            ax.errorbar(points[x_name], us, yerr=[us - points["min"] * 1e6, points["max"] * 1e6 - us], fmt="o-",
                        markersize=3, capsize=2)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlabel(x_label)
            ax.set_ylabel("CPU µs per fold pair")
        fig.tight_layout()

    report.figures["scaling"] = draw
    report.lines["scaling"] = [
        f"in {words}: largest excess over the neighbours' line {scaling[key]['largest_excess']:.2f} (target 1.3, "
        + ("no cliff" if not scaling[key]["cliff"] else "cliff") + "); "
        + f"{sum(p['identical'] for p in scaling[key]['points'])} of {len(scaling[key]['points'])} points identical "
        "to the estimators."
        for key, words in (("by_n_instances", "instances"), ("by_n_attributes", "attributes"))]


def _workload(report, workload):
    rows = [{**dict(zip(["experiment", "source", "scheme", "data sets × repetitions"], _workload_label(r["label"]))),
             "fold pairs": f"{r['fold_pairs']:,}" if r["fold_pairs"] else "from stored fold counts",
             "wall s": _fmt(r["wall_s"]), "CPU s": _fmt(r["cpu_s"]),
             "same as committed": "yes" if r["identical"] else "no"} for r in workload["results"]]
    report.tables["workload"] = pd.DataFrame(rows)
    minutes = workload["wall_seconds"] / 60
    report.lines["workload"] = [
        f"{workload['n_results']} results, {workload['n_identical']} identical to the committed ones; "
        f"{workload['fold_pairs']:,} fold pairs; {minutes:.1f} min wall, {workload['cpu_seconds'] / 60:.1f} min CPU "
        f"on {workload['n_jobs']} workers; target 15 min: " + ("met." if minutes <= 15 else "not met.")]
    load = workload.get("load_average_before")
    if load:
        spread = workload["cpu_seconds"] / 60 / workload["n_jobs"]
        report.lines["workload"].append(
            f"load average over 1, 5 and 15 minutes: {', '.join(map(str, load))} before the run, "
            f"{', '.join(map(str, workload['load_average_after']))} after (the run's own {workload['n_jobs']} "
            f"workers count in it); the CPU time spread evenly over {workload['n_jobs']} cores would take "
            f"{spread:.1f} min.")


def _compare(report, compare):
    names = {"loop": "plain loop", "n_jobs=1": "runner, 1 worker", "n_jobs=2": "runner, 2 workers"}
    wall = pd.DataFrame(compare["wall_seconds"]).T.rename(index=names)
    table = wall[["median", "min", "max"]].map(lambda v: _fmt(v, 2))
    table.columns = ["median wall s", "fastest", "slowest"]
    report.tables["compare"] = table.rename_axis(compare["workload"])
    speed = compare["speedup"]
    report.lines["compare"] = [
        f"speed-up of the runner on {key.split('n_jobs=')[1]} worker(s) over the loop: median "
        f"{value['median']:.2f}× (range {value['min']:.2f}× to {value['max']:.2f}×, {compare['rounds']} rounds)."
        for key, value in speed.items()] + [
        "scores identical on every backend: " + ("yes." if compare["identical_scores"] else "no.")]


def _counts(report, counts):
    parts = {"configuration": "a whole configuration", "count_sampling": "the count sampling alone"}
    table = pd.DataFrame({parts[p]: counts[p]["cpu_seconds"] for p in parts}).T
    table = table.map(lambda v: _fmt(v, 3))
    table.columns = [f"CPU s, {c.replace('n=', 'n = ')}" for c in table.columns]
    table["ratio n = 200,000 / n = 1,000"] = [_fmt(counts[p]["ratio"], 3) for p in parts]
    report.tables["counts"] = table
    ratio = counts["configuration"]["ratio"]
    report.lines["counts"] = [f"configuration: ratio {ratio:.2f}, target 1.2: " + ("met." if ratio <= 1.2
                                                                                   else "not met.")]
