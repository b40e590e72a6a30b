"""The benchmarks' load recording (benchmarks/_common.py): quiet is judged on the other processes' CPU use."""

import os
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import _common  # noqa: E402

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")


def _watch(snapshots):
    watch = object.__new__(_common._LoadWatch)
    watch._snapshots = snapshots
    return watch


def test_the_others_load_is_the_largest_minute_of_busy_cpu_not_our_own():
    # (time, machine busy CPU s, our tree's CPU s): a minute where we kept one core busy and
    # nobody else did, then a minute where another process kept 0.75 of a core busy.
    quiet_minute = [(0.0, 0.0, 0.0), (60.0, 60.0, 60.0)]
    assert _watch(quiet_minute)._other_load_max() == 0.0
    busy_minute = [*quiet_minute, (120.0, 165.0, 120.0)]
    assert _watch(busy_minute)._other_load_max() == 0.75
    # A run shorter than a minute is judged over its whole length.
    assert _watch([(0.0, 0.0, 0.0), (10.0, 12.0, 10.0)])._other_load_max() == 0.2


def test_a_busy_process_outside_our_tree_counts():
    since = _common.cpu_snapshot()
    pid = os.fork()
    if pid == 0:  # the child forks a busy grandchild and ends: the grandchild is not our descendant
        if os.fork() == 0:
            end = time.monotonic() + 2.0
            while time.monotonic() < end:
                pass
        os._exit(0)
    os.waitpid(pid, 0)
    time.sleep(2.2)
    assert _common.other_load(since) >= 0.3
