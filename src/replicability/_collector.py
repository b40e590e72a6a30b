"""No collection of the Python heap inside a compiled call: the one place the collector is paused.

The garbage collector of CPython runs when container objects (lists, tuples,
dicts) are allocated past a threshold; a full collection of a large heap takes
a tenth of a second, longer than a whole kernel call on a data set of 300
instances, and when it falls inside an evaluation it is charged to it. The
fast paths (:mod:`replicability.learners.pairs`) and the runner's drawing of
splits (:mod:`replicability.engine.runner`) run inside :func:`collector_paused`:
the collections due then happen after the call, where their cost belongs.
"""

from __future__ import annotations

import contextlib
import functools
import gc

__all__ = ["collector_paused", "paused"]


@contextlib.contextmanager
def collector_paused():
    """Disable the garbage collector for the ``with`` block, and enable it again if it was enabled.

    Nested blocks leave it paused until the outermost one ends; the collector
    is process-wide, so another thread's allocations wait for their
    collection until the block ends too (the engine's workers are processes).
    Reference counting frees objects as usual: only the search for cycles
    waits.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def paused(func):
    """``func`` called inside :func:`collector_paused`.

    Written out rather than with the ``with`` block: a runner calls it between
    two kernel calls, where every Python frame runs with cold caches.
    """

    @functools.wraps(func)
    def call(*args, **kwargs):
        enabled = gc.isenabled()
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            if enabled:
                gc.enable()

    return call
