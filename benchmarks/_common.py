"""Timing, provenance and load recording shared by the benchmarks.

Each benchmark writes its figures to ``data/benchmarks/<name>.json`` with the
machine they were measured on; the book's performance page reads them from there.

How loaded the machine was is recorded here, for every benchmark, in the one
write path (:func:`write_results`): the 1-minute load average
(``os.getloadavg()``) when this module is imported (the start of the
benchmark), every :data:`LOAD_SAMPLE_S` seconds while it runs (a daemon
thread; :func:`best_times` also samples before and after each timing), and
when the figures are written. The load average counts the benchmark's own
processes too (one busy core is a load of 1 after a minute), so whether the
figures are *quiet* is judged on the load of the others: the CPU time all
other processes use (the machine's busy CPU time, ``psutil.cpu_times()``, less
that of this process and its descendants, :func:`cpu_with_children`), in cores,
over every minute of the run (:func:`other_load` for one timing). The load
average when the benchmark starts is recorded but does not decide: it still
holds the minute before, e.g. the previous benchmark of ``make benchmark``.
Figures are quiet when the others' load stays below :data:`QUIET_LOAD` and then
replace the committed file. Others are
written marked ``"loaded": true`` (the performance page says so beside them),
and never over a quiet file: then they go to
``data/benchmarks/loaded/<name>.json``, which git ignores.

Every benchmark runs alone (``python benchmarks/bench_<name>.py``); with
``--quick`` it runs a small version to check that it works and writes its
figures to a temporary folder, never to ``data/benchmarks/``.
"""

import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

import numpy as np
import psutil

import replicability

ROOT = Path(__file__).resolve().parents[1]
#: Figures measured with the 1-minute load average below this are quiet (2 cores: a quarter of one busy).
QUIET_LOAD = 0.5
#: Seconds between two samples of the load average while a benchmark runs.
LOAD_SAMPLE_S = 5.0
#: ``--quick``: a small run that checks the benchmark works and writes nothing to ``data/benchmarks/``.
QUICK = "--quick" in sys.argv[1:]


def load_average():
    """The 1, 5 and 15 minute load averages (None where the OS has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def cpu_with_children():
    """CPU seconds of this process and all its descendants, the live and the ended ones.

    The runner starts its worker processes per call and they end with it, so the
    CPU time of ended (reaped) children counts too: each process's
    ``children_user`` and ``children_system``, which move there from the live
    processes as they end (no time counted twice, none lost).
    """
    total = 0.0
    for proc in [psutil.Process(), *psutil.Process().children(recursive=True)]:
        try:
            times = proc.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def _busy_cpu():
    """CPU seconds the whole machine has spent busy (every core; idle and I/O wait excluded)."""
    t = psutil.cpu_times()
    return sum(getattr(t, field, 0.0) for field in ("user", "nice", "system", "irq", "softirq", "steal"))


def cpu_snapshot():
    """(monotonic time, the machine's busy CPU seconds, this process tree's CPU seconds)."""
    return time.monotonic(), _busy_cpu(), cpu_with_children()


def other_load(since):
    """Cores the other processes kept busy, on average, from the :func:`cpu_snapshot` ``since`` until now."""
    (t0, busy0, own0), (t1, busy1, own1) = since, cpu_snapshot()
    return max(0.0, ((busy1 - busy0) - (own1 - own0)) / max(t1 - t0, 1e-9))


class _LoadWatch:
    """The load seen since the benchmark started: 1-minute load averages and the others' CPU use."""

    def __init__(self):
        self.first = self.last = load_average()
        self.largest = self.first[0] if self.first else None
        self._snapshots = [cpu_snapshot()]
        self._lock = threading.Lock()
        threading.Thread(target=self._sample_forever, daemon=True, name="load-watch").start()

    def sample(self):
        """Take a sample now; return the 1-minute load average (None where the OS has none)."""
        load, snap = load_average(), cpu_snapshot()
        with self._lock:
            self.last = load
            self._snapshots.append(snap)
            if load is not None:
                self.largest = load[0] if self.largest is None else max(self.largest, load[0])
        return None if load is None else load[0]

    def _sample_forever(self):
        while True:
            time.sleep(LOAD_SAMPLE_S)
            self.sample()

    def _other_load_max(self):
        # The largest of the others' mean CPU use over windows of a minute (the whole run if shorter).
        snaps, largest = self._snapshots, 0.0
        for i, (t0, busy0, own0) in enumerate(snaps):
            ends = [s for s in snaps[i + 1:] if s[0] - t0 >= 60.0][:1] or ([snaps[-1]] if i == 0 else [])
            for t1, busy1, own1 in ends:
                largest = max(largest, ((busy1 - busy0) - (own1 - own0)) / max(t1 - t0, 1e-9))
        return round(largest, 2)

    def record(self):
        """The load of the figures written now: first, last and largest 1-minute load, the others' load, quiet."""
        self.sample()
        with self._lock:
            others = self._other_load_max()
            quiet = others < QUIET_LOAD
            return {"load_1min_max": self.largest, "load_average_first": self.first, "load_average_last": self.last,
                    "other_load_max": others, "sample_s": LOAD_SAMPLE_S, "quiet_below": QUIET_LOAD, "quiet": quiet}


_LOAD = _LoadWatch()


def load_1min():
    """The 1-minute load average now (None where the OS has none), also kept for :func:`write_results`."""
    return _LOAD.sample()


def best_time(func, *, repeat=5):
    """Minimum wall time of ``func()`` over ``repeat`` calls, after one warm-up call."""
    return best_times(func, repeat=repeat)["wall"]


def best_times(func, *, repeat=5):
    """Minimum wall and process CPU time of ``func()`` over ``repeat`` calls, and the load meanwhile.

    One warm-up call comes first. The two minima are taken separately. The wall
    time (``time.perf_counter``) includes waiting for a core when other processes
    share the machine; the process CPU time (``time.process_time``, all threads of
    this process) does not, so it is the fair figure on a loaded machine.
    ``load_1min`` is the larger 1-minute load average of before and after the
    timings (None where the OS has none); ``other_load`` the cores other processes
    kept busy meanwhile (:func:`other_load`).
    """
    before, since = _LOAD.sample(), cpu_snapshot()
    func()
    walls, cpus = [], []
    for _ in range(repeat):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        func()
        walls.append(time.perf_counter() - wall0)
        cpus.append(time.process_time() - cpu0)
    after = _LOAD.sample()
    return {"wall": min(walls), "cpu": min(cpus), "load_1min": None if before is None else max(before, after),
            "other_load": round(other_load(since), 2)}


def machine():
    """A description of the machine and software the figures were measured with."""
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {
        "date": date.today().isoformat(),
        "cpu_count": os.cpu_count(),
        "processor": platform.processor() or platform.machine(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "replicability": replicability.__version__,
        "commit": commit,
    }


def write_results(name, results):
    """Write ``results`` with the machine description and the load to ``data/benchmarks/<name>.json``.

    ``"load"`` records the 1-minute load averages seen since the benchmark
    started (:class:`_LoadWatch`); ``"loaded"`` is true unless the largest was
    below :data:`QUIET_LOAD`. A loaded result never replaces a quiet one: it goes
    to ``data/benchmarks/loaded/<name>.json`` then. With ``--quick`` the file goes
    to a temporary folder. Returns the path written.
    """
    load = _LOAD.record()
    folder = ROOT / "data" / "benchmarks"
    if QUICK:
        folder = Path(tempfile.mkdtemp(prefix="benchmark-quick-"))
    elif not load["quiet"] and _is_quiet(folder / f"{name}.json"):
        folder = folder / "loaded"
    path = folder / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    text = {"machine": machine(), "load": load, "loaded": not load["quiet"], "results": results}
    path.write_text(json.dumps(text, indent=2) + "\n")
    print(f"load average (1 min) up to {load['load_1min_max']}: "
          + ("quiet" if load["quiet"] else f"loaded (not below {QUIET_LOAD})"))
    return path


def _is_quiet(path):
    """Whether ``path`` holds figures measured quiet."""
    try:
        return json.loads(path.read_text()).get("loaded") is False
    except (OSError, ValueError):
        return False
