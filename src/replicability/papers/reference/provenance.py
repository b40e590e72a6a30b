"""The reproducibility page (``reference/04_reproducibility``): the committed results and the commands' times.

Two pages make the notebook: :func:`committed_results_page` (the store's results and
their computation, :func:`committed_results`) and :func:`command_times_page` (how long
``make venv``, ``book``, ``test`` and ``reproduce`` take, :func:`command_times`).
"""

from __future__ import annotations

import pandas as pd

from ...engine.store import ResultStore, paper_results_dir
from ...report.claims import Claims
from ...report.page import Page, Table
from .performance import read_benchmarks

__all__ = ["command_times", "command_times_page", "committed_results", "committed_results_page"]


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


def committed_results_page(results_dir=None):
    """The store's results (table ``listing``) and their computation per family (table ``per_family``).

    Parameters
    ----------
    results_dir : path-like, optional
        The store's folder (default ``data/results``).

    Returns
    -------
    Page
        ``data["totals"]``: the line the page prints (results and seconds of computation);
        no claims, no glued values, nothing written.

    Examples
    --------
    >>> page = committed_results_page()
    >>> page.data["totals"].endswith("s of computation in all")
    True
    """
    listing, per_family, seconds = committed_results(results_dir)
    return Page(Claims("reference", "04_reproducibility"), tables={"listing": listing, "per_family": per_family},
                data={"totals": f"{len(listing.frame)} committed results, {seconds:.0f} s of computation in all"})


def command_times_page(folder=None):
    """How long the commands take (table ``times``), with the values the text glues (:func:`command_times`).

    Parameters
    ----------
    folder : path-like, optional
        Default ``data/benchmarks``.

    Returns
    -------
    Page
        Values ``make_venv_minutes``, ``make_book_minutes``, ``make_test_minutes``,
        ``reproduce_hours``, ``n_results``, ``cpu_count``, ``measured``.
    """
    times, values = command_times(folder)
    return Page(Claims("reference", "04_reproducibility"), values=values, tables={"times": times})
