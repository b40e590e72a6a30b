"""Timing and provenance shared by the benchmarks.

Each benchmark writes its figures to ``data/benchmarks/<name>.json`` with the
machine they were measured on; the book's performance page reads them from there.
"""

import json
import os
import platform
import subprocess
import time
from datetime import date
from pathlib import Path

import numpy as np
import psutil

import replicability

ROOT = Path(__file__).resolve().parents[1]


def best_time(func, *, repeat=5):
    """Minimum wall time of ``func()`` over ``repeat`` calls, after one warm-up call."""
    return best_times(func, repeat=repeat)["wall"]


def best_times(func, *, repeat=5):
    """Minimum wall and process CPU time of ``func()`` over ``repeat`` calls.

    One warm-up call comes first. The two minima are taken separately. The wall
    time (``time.perf_counter``) includes waiting for a core when other processes
    share the machine; the process CPU time (``time.process_time``, all threads of
    this process) does not, so it is the fair figure on a loaded machine.
    """
    func()
    walls, cpus = [], []
    for _ in range(repeat):
        cpu0, wall0 = time.process_time(), time.perf_counter()
        func()
        walls.append(time.perf_counter() - wall0)
        cpus.append(time.process_time() - cpu0)
    return {"wall": min(walls), "cpu": min(cpus)}


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


def load_average():
    """The 1, 5 and 15 minute load averages (None where the OS has none)."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except (AttributeError, OSError):
        return None


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
    """Write ``results`` with the machine description to ``data/benchmarks/<name>.json``."""
    path = ROOT / "data" / "benchmarks" / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"machine": machine(), "results": results}, indent=2) + "\n")
    return path
