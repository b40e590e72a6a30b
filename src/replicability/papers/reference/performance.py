"""The performance page (``reference/03_performance``): the measured benchmarks, with readable labels.

The figures are read from ``data/benchmarks/<name>.json``, which the scripts of
``benchmarks/`` write (``make benchmark``); the reader lives here, in the installed
package, because ``benchmarks/`` is a folder of scripts that the book's notebooks cannot
import. :func:`performance_report` turns them into tables, figures and lines per
section, :func:`performance_page` into the page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd

from ...engine.store import data_dir
from ...report.claims import Claims
from ...report.page import Page, Table

__all__ = ["BENCHMARK_TITLES", "SECTIONS", "PerformanceReport", "performance_page", "performance_report",
           "read_benchmarks"]

#: Readable name of each benchmark file.
BENCHMARK_TITLES = {
    "at_scale": "one experiment on 1 and 2 workers (running at scale)",
    "commands": "make venv, book and test on a fresh clone",
    "compare": "runner backends (compare)",
    "compare_memory": "compare on large data: memory and two workers",
    "counts": "exact count sampling (Task I)",
    "engine": "experiment engine",
    "j48_kernel": "J48 kernel against the issue's commit",
    "scaling": "scaling in instances and attributes",
    "statistics": "statistics library",
    "workload": "synthetic workload at paper scale",
}
#: The sections of the performance page, in its order; those with a figure.
SECTIONS = ("machine", "statistics", "engine", "engine_speedup", "engine_pairs", "j48_kernel", "scaling", "workload",
            "compare", "compare_memory", "counts", "at_scale")
_FIGURES = ("engine_speedup", "scaling")
#: The engine's target over the scikit-learn loop on null data, quiet (issue 36; 100× before it).
SPEEDUP_TARGET = 150
#: CPU seconds of the engine's first call with an empty numba cache (issue 36).
FIRST_CALL_TARGET_S = 15
_LEARNERS = {"naive_bayes": "naive Bayes", "c45": "C4.5", "ib1": "1-NN", "tan": "TAN",
             "voted_perceptron": "voted perceptron"}


def read_benchmarks(benchmarks=None, folder=None):
    """The measured benchmark files, ``{name: {"machine": ..., "results": ...}}``.

    Parameters
    ----------
    benchmarks : sequence of str, optional
        Stems of ``data/benchmarks/*.json``; all of them by default.
    folder : path-like, optional
        Default ``data/benchmarks``.

    Examples
    --------
    >>> sorted(read_benchmarks(["counts", "engine"]))
    ['counts', 'engine']
    """
    folder = Path(folder) if folder is not None else data_dir() / "benchmarks"
    names = list(benchmarks) if benchmarks else sorted(p.stem for p in folder.glob("*.json"))
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
    function, ``values`` a glue name to a text other pages paste (``at_scale_*``, for
    ``book/at_scale.md``). Sections whose benchmark file is absent are absent.
    """

    def __init__(self, measured):
        self.measured = measured
        self.tables, self.lines, self.figures, self.values = {}, {}, {}, {}


def _fmt(value, digits=1):
    return "not measured" if value is None or (isinstance(value, float) and np.isnan(value)) else \
        f"{value:,.{digits}f}"


def performance_report(benchmarks=None, folder=None):
    """Read the benchmark files and build the performance page's tables, figures and lines.

    Parameters
    ----------
    benchmarks, folder
        As in :func:`read_benchmarks`.

    Returns
    -------
    PerformanceReport
        Sections ``machine``, ``statistics``, ``engine``, ``engine_speedup``,
        ``engine_pairs``, ``j48_kernel``, ``scaling``, ``workload``, ``compare``,
        ``compare_memory``, ``counts``, ``at_scale`` (those measured).

    Examples
    --------
    >>> report = performance_report(["counts"])
    >>> report.lines["counts"][0].startswith("configuration: ratio")
    True
    """
    measured = read_benchmarks(benchmarks, folder)
    report = PerformanceReport(measured)
    machine = pd.DataFrame({BENCHMARK_TITLES.get(k, k): {**m["machine"], "load (1 min, largest)": _load_text(m)}
                            for k, m in measured.items()}).T
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
    if "compare_memory" in measured:
        _compare_memory(report, measured["compare_memory"]["results"])
    if "counts" in measured:
        _counts(report, measured["counts"]["results"])
    if "at_scale" in measured:
        _at_scale(report, measured["at_scale"]["results"])
        others = measured["at_scale"].get("load", {}).get("other_load_max")
        report.values["at_scale_others"] = "not recorded" if others is None else f"{others:.2f}"
    return report


def performance_page(benchmarks=None, folder=None):
    """The page ``reference/03_performance``: per section its table, figure and lines.

    Parameters are those of :func:`performance_report`.

    Returns
    -------
    Page
        For every section of ``SECTIONS``: the table (``page.show(section)``), the
        figure of ``engine_speedup`` and ``scaling`` (``page.plot(section)``) and the lines
        as Markdown bullets (``page.data[f"{section}_lines"]``). A section without its
        benchmark file shows the note "Not measured" (its figure a blank one with the
        note); the page has no claims and writes nothing. It glues the values of
        ``at_scale``, which ``book/at_scale.md`` pastes.

    Examples
    --------
    >>> page = performance_page(["counts"])
    >>> page.data["counts_lines"].data.startswith("* configuration: ratio")
    True
    >>> page.show("engine").data
    '<p><em>Not measured: no <code>data/benchmarks/engine.json</code>.</em></p>'
    """
    from IPython.display import HTML, Markdown

    report = performance_report(benchmarks, folder)
    page = Page(Claims("reference", "03_performance"))
    page.values.update(report.values)
    for section in SECTIONS:
        measured = any(section in part for part in (report.tables, report.lines, report.figures))
        note = f"Not measured: no <code>data/benchmarks/{section}.json</code>."
        page.tables[section] = Table(report.tables[section]) if section in report.tables else HTML(
            "" if measured else f"<p><em>{note}</em></p>")
        page.data[f"{section}_lines"] = Markdown("\n".join(f"* {line}" for line in report.lines.get(section, [])))
        if section in _FIGURES:
            page.figures[section] = report.figures[section] if section in report.figures else (
                lambda note=note: _not_measured_figure(note))
    return page


#: The 1-minute load average below which figures are quiet (``benchmarks/_common.py``'s ``QUIET_LOAD``).
QUIET_LOAD = 0.5


def _load_text(measured):
    """The largest 1-minute load average of a benchmark file and whether its figures are quiet or loaded.

    Files written through ``benchmarks/_common.py``'s common write path hold
    ``"load"`` and ``"loaded"``: the load average counts the benchmark's own
    processes, so quiet is judged there on the others' load (the load average at
    the start and the cores other processes kept busy, ``other_load_max``), shown
    here beside it. Older files hold the load averages their script recorded among
    the results (every ``load_average*`` entry: the 1-minute value of each).
    """
    load = measured.get("load")
    if load is not None:
        value, loaded = load["load_1min_max"], measured["loaded"]
        others = load.get("other_load_max")
        if value is not None and others is not None:
            return f"{value:.2f}, others {others:.2f} ({'loaded' if loaded else 'quiet'})"
    else:
        values = _load_values({k: v for k, v in measured["results"].items() if k.startswith("load_average")})
        if not values:
            return "not recorded"
        value = max(values)
        loaded = value >= QUIET_LOAD
    return "not recorded" if value is None else f"{value:.2f} ({'loaded' if loaded else 'quiet'})"


def _load_values(entry):
    # The first of every (1, 5, 15 minute) triple, however the script nested them.
    if isinstance(entry, dict):
        return [v for item in entry.values() for v in _load_values(item)]
    if isinstance(entry, list) and entry and all(isinstance(v, (int, float)) for v in entry):
        return [entry[0]]
    if isinstance(entry, list):
        return [v for item in entry for v in _load_values(item)]
    return []


def _not_measured_figure(note):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 0.6))
    ax.text(0.5, 0.5, note.replace("<code>", "").replace("</code>", ""), ha="center", va="center", style="italic")
    ax.axis("off")
    return fig


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
    report.lines["engine_speedup"] = _engine_lines(engine)
    report.figures["engine_speedup"] = lambda: _speedup_figure(engine["speedup_vs_sklearn_loop_cpu_paired"])


def _engine_lines(engine):
    """The engine's measurements in sentences: the runner, the speed-up, the Python share, compilation."""
    lines = []
    run = engine["run_experiment"]
    source = run["source"].replace("bayesnet ", "Bayesian-network source ")
    lines.append(f"`run_experiment`, {run['fold_pairs']:,} fold pairs ({source}, {run['backend']}, "
                 f"{run['n_jobs']} workers): {run['cpu_per_fold_pair_s'] * 1e6:.0f} µs CPU per fold pair.")
    paired = engine["speedup_vs_sklearn_loop_cpu_paired"]
    for data_name, key in (("null data", "null_data"), ("source 4", "bayesnet_source_4")):
        x = paired[key]
        # The load average counts the timed process itself; the others' load, where recorded, decides.
        others = x.get("other_load", x.get("load_1min"))
        quiet = others is not None and others < QUIET_LOAD
        load = "" if x.get("load_1min") is None else (
            f", load average up to {x['load_1min']:.2f}"
            + ("" if x.get("other_load") is None else f", other processes {x['other_load']:.2f} cores")
            + ": " + ("quiet" if quiet else "loaded"))
        verdict = "not met." if x["median"] < SPEEDUP_TARGET else "met." if quiet else "reached, not measured quiet."
        lines.append(f"{data_name}: {x['median']:.0f}× the scikit-learn loop in CPU time (median of {x['rounds']} "
                     f"alternating timings, range {x['min']:.0f}× to {x['max']:.0f}×{load}), target "
                     f"{SPEEDUP_TARGET}× quiet: " + verdict)
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
        if "outside_learner_kernel_share" in x:  # measured outside every compiled call (issue 36)
            lines.append(f"in Python, outside every compiled call, in a serial `run_experiment` of "
                         f"{x['n_datasets']} data sets of source 4 (data, splits, summaries, the result's labels and "
                         f"provenance): {x['python_share']:.1%} of {x['cpu_per_fold_pair_s'] * 1e6:.1f} µs CPU per "
                         f"fold pair (median of {x['rounds']} runs, range {x['python_share_min']:.1%} to "
                         f"{x['python_share_max']:.1%}; {x['outside_learner_kernel_share']:.1%} outside the "
                         "learners' kernel); target under 5%: " + ("met." if x["python_share"] < 0.05 else "not met."))
        else:
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
    first = engine["compile"]["cold_cache"]["first_call_cpu_s"]
    lines.append(f"first call with an empty numba cache: {first:.1f} s CPU of compilation; target under "
                 f"{FIRST_CALL_TARGET_S} s: " + ("met." if first < FIRST_CALL_TARGET_S else "not met."))
    return lines


def _speedup_figure(paired):
    import matplotlib.pyplot as plt

    names = {"null_data": "null data", "bayesnet_source_4": "Bayesian-network source 4"}
    fig, ax = plt.subplots(figsize=(6, 2.4))
    for row, key in enumerate(names):
        x = paired[key]
        ax.plot([x["min"], x["max"]], [row, row], color="tab:blue", linewidth=6, alpha=0.35,
                label="range of the rounds" if row == 0 else None)
        ax.plot(x["median"], row, "o", color="tab:blue", label="median" if row == 0 else None)
    ax.axvline(SPEEDUP_TARGET, color="tab:red", linestyle="--", label=f"target {SPEEDUP_TARGET}×")
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
    if "stages" in kernel:  # the per-stage profile of the engine's kernel (issue 36)
        for name, r in kernel["stages"].items():
            us = r["us_per_fold_pair"]
            report.lines["j48_kernel"].append(
                f"engine kernel per fold pair, {name}: {r['kernel_us_per_fold_pair']:.1f} µs CPU, "
                f"{r['kernel_over_count_bound']:.0f}× the pattern-counting bound ({us['count']:.2f} µs"
                + ("" if "processes" not in r else
                   f"; the multiple {r['kernel_over_count_bound_min']:.0f}–{r['kernel_over_count_bound_max']:.0f}× "
                   f"over {r['processes']} processes, medians shown")
                + "); J48 "
                f"growing {us['grow']:.1f}, pruning {us['prune']:.1f}, predicting {us['predict']:.1f} µs, the rest "
                f"(naive Bayes, fold bookkeeping) {us['rest']:.1f} µs; J48's hits equal the kernel's: "
                + ("yes." if r["identical"] else "no.")
                + ("" if "target_over_count_bound" not in r else
                   f" Target {r['target_over_count_bound']:g}× the bound: "
                   + ("met." if r["kernel_over_count_bound"] <= r["target_over_count_bound"] else "not met.")))


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


def _compare_memory(report, measured):
    rows = {f"{m['rows']:,} rows, {m['scheme']} × {m['n_repeats']} randomizations": {
        "memory added (MiB)": _fmt(m["added_mib"], 0), "X (MiB)": _fmt(m["x_mib"], 1),
        "multiple of X": _fmt(m["added_over_x"], 2), "wall s": _fmt(m["wall_s"], 1)}
        for m in measured.get("memory", [])}
    if rows:
        report.tables["compare_memory"] = pd.DataFrame(rows).T.rename_axis("naive Bayes against a constant")
    lines = []
    workers = measured.get("workers")
    if workers:
        speed = workers["speedup n_jobs=2"]
        lines.append(f"{workers['workload']}: 2 workers {speed['median']:.2f}× as fast as 1 (median of "
                     f"{workers['rounds']} interleaved rounds, range {speed['min']:.2f}× to {speed['max']:.2f}×; "
                     f"serial {workers['n_jobs=1 wall_s']['median']:.1f} s, 2 workers "
                     f"{workers['n_jobs=2 wall_s']['median']:.1f} s), target 1.6×: "
                     + ("met." if speed["median"] >= 1.6 else "not met."))
        lines.append("scores identical with 1 and 2 workers: " + ("yes." if workers["identical_scores"] else "no."))
    report.lines["compare_memory"] = lines


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


#: The ways bench_at_scale.py runs its experiment: label prefix -> glue name part.
_AT_SCALE_WAYS = {"joblib (loky)": "joblib", "dask LocalCluster": "dask", "array job": "array"}


def _at_scale(report, at_scale):
    walls = at_scale["wall_seconds"]
    table = pd.DataFrame(walls).T[["median", "min", "max"]].map(lambda v: _fmt(v, 2))
    table.columns = ["median wall s", "fastest", "slowest"]
    report.tables["at_scale"] = table.rename_axis(at_scale["workload"])
    lines = []
    for prefix, key in _AT_SCALE_WAYS.items():
        by_workers = {int(re.search(r", (\d+) ", name).group(1)): row["median"]
                      for name, row in walls.items() if name.startswith(prefix)}
        for workers, median in by_workers.items():
            report.values[f"at_scale_{key}_{workers}"] = f"{median:.1f}"
        if {1, 2} <= set(by_workers):
            report.values[f"at_scale_{key}_speedup"] = f"{by_workers[1] / by_workers[2]:.2f}"
            lines.append(f"{prefix}: 2 workers take {by_workers[2]:.1f} s against {by_workers[1]:.1f} s on 1 "
                         f"(median of {at_scale['rounds']} interleaved rounds), "
                         f"{by_workers[1] / by_workers[2]:.2f}× faster.")
    load = at_scale.get("load_average_before"), at_scale.get("load_average_after")
    loads = " and ".join("not recorded" if v is None else ", ".join(f"{x:.2f}" for x in v) for v in load)
    same = all(at_scale["identical_to_serial"].values())
    lines += [f"load average (1, 5, 15 min) before and after: {loads}.",
              "results identical to a serial run's, bit for bit, every way: " + ("yes." if same else "no.")]
    report.lines["at_scale"] = lines
    report.values.update({"at_scale_rounds": str(at_scale["rounds"]), "at_scale_identical": "yes" if same else "no",
                          "at_scale_workload": at_scale["workload"],
                          "at_scale_load_before": "not recorded" if load[0] is None else f"{load[0][0]:.2f}",
                          "at_scale_load_after": "not recorded" if load[1] is None else f"{load[1][0]:.2f}"})
