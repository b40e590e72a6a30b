"""Array jobs over the book: ``replicability reproduce --slice I/N`` and ``--join`` on the notebooks.

Task ``I`` of an array job of ``N`` tasks executes its share of the experiment
notebooks: the ``I``-th of ``N`` contiguous shares of their sorted list, so that the
neighbouring notebooks of a paper, which share results, fall mostly to one task. Every
result a notebook asks :func:`~replicability.engine.store.cached_result` for that is
pending (not stored, stored by other code or damaged, or created before ``--since``) is
computed into the store the notebooks write to (``data/results`` at paper scale, the
user cache at the others); a result two tasks ask for at once is computed by the first,
the second waits for the result's lock and reads it. The executed notebook itself is
discarded (with its tables): the stored notebooks and ``data/reproduced`` are untouched.
When a notebook has run, the task records the results it returned (each one's key,
store and code versions, from ``REPLICABILITY_RESULT_LOG``) in a ledger,
``runs/reproduce-<hash>/<I>-of-<N>/``, in the working directory (``<hash>``: of the
notebooks, parameters and ``--since``, so every task of one reproduction, and its join,
find the same ledger: start them from the same folder). A task that is killed or fails
is simply rerun: it skips the notebooks its ledger lists and recomputes no stored result.

``--join`` computes nothing. It checks that the ledger holds every notebook of every
slice (else it names the slices to rerun), then that every result listed is in its
store, intact (checksum, digest) and computed by the current code versions, and that
the results computed by the job come from one package version and one git commit (the
checks :func:`~replicability.engine.slices.join_slices` applies to the chunks of one
experiment); it reports the results, their compute time and the machines. Afterwards
``make book`` and ``replicability reproduce --since TIME`` (``TIME``: the
job's ``--since``) recompute nothing.

Why the notebooks are executed rather than their experiments enumerated: a result's
key (its name and parameters) is computed inside the notebook, by the paper module a
cell calls with the notebook's parameters, and most results are computed by a closure
over the notebook's state, not by a configuration another process could run; only
executing the notebooks lists them. The unit of work is therefore a notebook and every
result it reads, not a share of each result's data sets: splitting one result across
tasks (as ``--experiments`` does) would stop every notebook at its first pending result.
The experiment notebooks differ widely in cost (one result alone takes about a tenth of
the book's CPU time at paper scale), so shares of notebooks balance a few tasks well but
not dozens.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

import numpy as np

from ..engine.slices import _parse_slice
from ..engine.store import _LOG_VAR, ResultStore
from .notebooks import (
    _TIME_FORMAT,
    CommandError,
    Stopped,
    _environment,
    _parameter_value,
    _parameters_of,
    _read_notebook,
    _reproduce_plan,
    run_notebook,
)

__all__ = ["book_join", "book_slice"]

_EPOCH = "1970-01-01T00:00:00Z"  # --since by default: recompute only what is missing, stale or damaged


def _plan(args):
    """The experiment notebooks, their parameters, the ``--since`` time and the ledger folder of the job."""
    notebooks = _reproduce_plan(args.notebooks)
    names = [name for name, _ in args.parameter]
    repeated = next((name for name in names if names.count(name) > 1), None)
    if repeated is not None:
        raise CommandError(f"parameter {repeated!r} is given more than once; give it once")
    parameters = {}
    for path in notebooks:
        defaults = _parameters_of(_read_notebook(path), path)
        parameters[path] = {name: _parameter_value(path, name, text, defaults) for name, text in args.parameter}
    if args.since is not None:
        try:
            datetime.datetime.strptime(args.since, _TIME_FORMAT)
        except ValueError as exc:
            raise CommandError(f"--since takes a UTC time like 2026-11-21T20:00:00Z; got {args.since!r}") from exc
    since = args.since or _EPOCH
    # the notebooks as given (relative to the folder every task starts in): the same on every machine
    identity = json.dumps({"notebooks": [p.as_posix() for p in notebooks], "since": since,
                           "parameters": sorted(args.parameter)}, sort_keys=True)
    ledger = Path("runs") / f"reproduce-{hashlib.sha256(identity.encode()).hexdigest()[:10]}"
    return notebooks, parameters, since, ledger


def _record_name(path):
    """The ledger file of a notebook: its folder and name, readable and unique."""
    return f"{path.parent.name}__{path.stem}.json"


def _share(notebooks, i, n):
    """The notebooks of slice ``i`` of ``n``: the ``i``-th of ``n`` contiguous shares (none beyond the last)."""
    return [notebooks[k] for k in np.array_split(np.arange(len(notebooks)), n)[i]]


def book_slice(args, progress):
    """Carry out ``replicability reproduce --slice I/N`` on the notebooks; return the exit code."""
    try:
        i, n = _parse_slice(args.slice)
    except ValueError as exc:
        raise CommandError(str(exc)) from exc
    notebooks, parameters, since, ledger = _plan(args)
    folder = ledger / f"{i}-of-{n}"
    folder.mkdir(parents=True, exist_ok=True)
    share = _share(notebooks, i, n)
    command = " ".join(["replicability reproduce --notebooks", *map(str, args.notebooks),
                        *(f"-p {name} {text}" for name, text in args.parameter), f"--slice {i}/{n}",
                        *([f"--since {args.since}"] if args.since else [])])
    print(f"slice {i}/{n}: {len(share)} of {len(notebooks)} notebooks; results pending: created before {since} "
          f"or not stored; ledger {folder}", flush=True)
    for path in share:
        record = folder / _record_name(path)
        if record.is_file():
            print(f"{path}: done by an earlier run of this slice", flush=True)
            continue
        log = record.with_suffix(".log")
        log.unlink(missing_ok=True)
        with tempfile.TemporaryDirectory(prefix="replicability-slice-") as scratch, \
                _environment({"REPLICABILITY_RECOMPUTE": since, _LOG_VAR: str(log.resolve())}):
            try:
                run_notebook(path, Path(scratch) / path.name, parameters[path], progress=progress)
            except (KeyboardInterrupt, Stopped) as exc:
                exc.resume = command
                raise
        results = [json.loads(line) for line in log.read_text().splitlines()] if log.is_file() else []
        text = json.dumps({"notebook": path.resolve().as_posix(), "results": results}, indent=1, sort_keys=True)
        partial = record.with_suffix(".partial")
        partial.write_text(text + "\n")
        os.replace(partial, record)  # a record is whole or absent
        log.unlink(missing_ok=True)
        computed = sum(r["computed"] for r in results)
        print(f"{path}: {len(results)} results, {computed} computed", flush=True)
    return 0


def _slice_counts(ledger):
    """The ``N`` of the slices recorded in ``ledger`` (one job has one ``N``)."""
    counts = {int(d.name.split("-of-")[1]) for d in ledger.glob("*-of-*") if d.is_dir()} if ledger.is_dir() else set()
    if not counts:
        raise CommandError(f"no slice of this reproduction has run (no ledger {ledger}{os.sep} in {Path.cwd()}): "
                           f"run replicability reproduce --slice I/N first, from this folder, with the same "
                           f"--notebooks, -p and --since")
    if len(counts) > 1:
        raise CommandError(f"{ledger} holds slices of {sorted(counts)} tasks: one job has one N; "
                           f"remove the ledger and rerun the slices")
    return counts.pop()


def book_join(args):
    """Carry out ``replicability reproduce --join`` on the notebooks; return the exit code.

    A bad command line is a :class:`CommandError` (exit code 2); a slice not finished or a
    result that fails a check is one line on standard error, exit code 1.
    """
    notebooks, _, since, ledger = _plan(args)
    n = _slice_counts(ledger)
    try:
        return _join(notebooks, since, ledger, n)
    except _JoinError as exc:
        print(f"replicability reproduce: error: {exc}", file=sys.stderr)
        return 1


class _JoinError(Exception):
    """What the join found wrong: the slices must be rerun."""


def _join(notebooks, since, ledger, n):
    """The checks and the report of :func:`book_join`."""
    records, missing = [], {}
    for i in range(n):
        for path in _share(notebooks, i, n):
            record = ledger / f"{i}-of-{n}" / _record_name(path)
            if record.is_file():
                records.append(json.loads(record.read_text()))
            else:
                missing.setdefault(i, []).append(str(path))
    if missing:
        listed = "; ".join(f"{i}/{n} ({', '.join(paths)})" for i, paths in missing.items())
        raise _JoinError(f"slices not finished: {listed}: rerun them, then join")
    results = {}  # a result read by several notebooks counts once, as computed if one computed it
    for entry in (r for record in records for r in record["results"]):
        seen = results.setdefault((entry["store"], entry["key"]), entry)
        results[entry["store"], entry["key"]] = {**seen, "computed": seen["computed"] or entry["computed"]}
    problems, computed = [], []
    for (store, key), entry in sorted(results.items()):
        ds = ResultStore(store, committed=True).load(key, versions=entry["versions"])
        if ds is None:
            problems.append(f"{entry['name']} {key[:12]} in {store}")
        elif entry["computed"]:
            computed.append(ds.attrs)
    if problems:
        raise _JoinError(f"{len(problems)} results missing, damaged or of other code: {', '.join(problems)}; "
                           f"remove the ledger {ledger} and rerun the slices")
    for name in ("package_version", "git_commit"):
        found = sorted({str(attrs.get(name, "unknown")) for attrs in computed})
        if len(found) > 1:
            raise _JoinError(f"the results computed by the slices come from different "
                               f"{name.replace('_', ' ')}s {found}: rerun every slice from one checkout")
    machines = sorted({str(attrs.get("machine")) for attrs in computed})
    seconds = sum(float(attrs.get("wall_time_s", 0.0)) for attrs in computed)
    print(f"joined {len(records)} notebooks from {n} slices: {len(results)} results verified "
          f"({len(computed)} computed in {seconds:.0f} s of compute"
          + (f", package {computed[0].get('package_version')}, commit {computed[0].get('git_commit')}, "
             f"machines: {'; '.join(machines)}" if computed else "") + ")")
    print(f"every result is stored: `make book` or `replicability reproduce --since {since}` "
          f"re-executes the notebooks in place and recomputes none")
    return 0

