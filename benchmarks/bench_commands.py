"""Wall time of the compendium's commands on a fresh clone: set-up, ``make book``, ``make test``.

Clones the checkout's HEAD beside it (so that ``../shared/data/uci`` resolves as in CI),
then times, one after the other, ``make venv`` (the virtual environment from the lock
file), ``make book`` (every notebook executed, the book built) and ``make test`` (the
whole suite, browser check included). ``make reproduce`` recomputes every committed
result; it is not run here (hours): its figure is the compute time the committed
results record in their provenance (``wall_time_s``, summed), measured when each was
computed, often with other work on the machine. Results go to
``data/benchmarks/commands.json``; the landing page of the book quotes them.

Usage: ``python benchmarks/bench_commands.py`` (about an hour on 2 cores).
"""

import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from _common import ROOT, load_average, write_results

import replicability as rp


def timed(command, cwd):
    load = load_average()
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return {"command": " ".join(command), "wall_s": round(wall, 1), "load_before": load}


def committed_compute_time():
    """Seconds of computation recorded by the committed results (their provenance)."""
    listing = rp.ResultStore(ROOT / "data" / "results", committed=True).list_results()
    return {"results": int(len(listing)), "compute_s": round(float(listing["wall_time_s"].astype(float).sum()), 1)}


if __name__ == "__main__":
    clone = Path(tempfile.mkdtemp(prefix="bench-commands-", dir=ROOT.parent))
    try:
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        runs = [timed(["make", "venv"], clone), timed(["make", "book"], clone), timed(["make", "test"], clone)]
    finally:
        shutil.rmtree(clone, ignore_errors=True)
    results = {"commands": runs, "reproduce": committed_compute_time()}
    print(write_results("commands", results))
