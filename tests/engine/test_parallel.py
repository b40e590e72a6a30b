"""The parallel map: a pool of worker processes kept while sound, interrupts that stop it."""

import pytest


def _worker_pid(_):
    import os

    return os.getpid()


def test_processes_backend_keeps_sound_workers_and_replaces_a_dead_one():
    import time

    from replicability.engine import parallel

    first = set(parallel.parallel_map(_worker_pid, range(8), backend="processes", n_jobs=2))
    again = set(parallel.parallel_map(_worker_pid, range(8), backend="processes", n_jobs=2))
    assert again <= first  # the kept executor's workers took the second call
    kept = parallel._POOL["executor"]
    next(iter(kept._processes.values())).terminate()  # a worker dies while idle
    deadline = time.monotonic() + 30
    while parallel._sound(kept) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not parallel._sound(kept)
    replaced = list(parallel.parallel_map(_worker_pid, range(8), backend="processes", n_jobs=2))
    assert len(replaced) == 8 and not set(replaced) & first  # a new executor, not the broken one
    assert parallel._POOL["executor"] is not kept


def _nap(seconds):
    import time

    time.sleep(seconds)
    return seconds


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the dropped interrupt
def test_a_sigint_dropped_in_a_weakref_callback_still_stops_the_processes_backend():
    # CPython prints and drops an exception raised in a weakref callback: the KeyboardInterrupt of
    # a SIGINT that lands there is lost. The map notes the signal and stops at its next wait.
    import signal

    from replicability.engine import parallel

    # SIGINT as in an interactive run, whatever the test process was given (restored below).
    blocked = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    given = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _interrupt_dropped_in_a_weakref_callback(parallel)
    finally:
        signal.signal(signal.SIGINT, given)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


def _drop_a_sigint():
    """Send SIGINT to this thread from a weakref callback: its KeyboardInterrupt is raised there, and dropped."""
    import gc
    import signal
    import weakref

    class Target:
        pass

    target = Target()
    ref = weakref.ref(target, lambda _: signal.raise_signal(signal.SIGINT))
    del target
    gc.collect()
    assert ref() is None


def _interrupt_dropped_in_a_weakref_callback(parallel):
    import signal

    results = parallel.parallel_map(_nap, [0.3] * 8, backend="processes", n_jobs=2)
    assert next(results) == 0.3
    _drop_a_sigint()
    with pytest.raises(KeyboardInterrupt):
        list(results)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the handler is given back


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # the dropped interrupt
def test_a_sigint_dropped_in_a_weakref_callback_stops_the_serial_backend_after_its_item():
    import signal

    from replicability.engine import parallel

    done = []

    def work(item):
        if item == 1:
            _drop_a_sigint()
        done.append(item)
        return item

    blocked = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    given = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            list(parallel.parallel_map(work, range(5), backend="serial"))
        assert done == [0, 1]
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the handler is given back
    finally:
        signal.signal(signal.SIGINT, given)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
