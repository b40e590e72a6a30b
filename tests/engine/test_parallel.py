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


# -- the joblib backend ------------------------------------------------------------------------


@pytest.mark.parametrize("joblib_backend", ["loky", "threading", "multiprocessing"])
def test_joblib_backend_runs_under_the_callers_parallel_config(joblib_backend):
    import os

    import joblib

    from replicability.engine.parallel import parallel_map

    offset = 10  # a closure: the multiprocessing backend's pickle alone would refuse it
    with joblib.parallel_config(backend=joblib_backend, n_jobs=2):
        ordered = list(parallel_map(lambda x: (x + offset, os.getpid()), range(12), backend="joblib"))
        unordered = list(parallel_map(lambda x: x * offset, range(12), backend="joblib", ordered=False))
    assert [value for value, _ in ordered] == list(range(10, 22))
    assert sorted(unordered) == [10 * x for x in range(12)]
    pids = {pid for _, pid in ordered}
    # threads run here; loky and multiprocessing in other processes
    assert (pids == {os.getpid()}) == (joblib_backend == "threading")


def test_joblib_backend_runs_on_dasks_joblib_backend():
    import joblib

    distributed = pytest.importorskip("dask.distributed")
    from replicability.engine.parallel import parallel_map

    with distributed.LocalCluster(n_workers=2, processes=False, threads_per_worker=1,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        with joblib.parallel_config(backend="dask"):
            # get_worker() raises outside a Dask worker: every item ran on the cluster
            out = list(parallel_map(lambda x: (x * x, distributed.get_worker().address), range(6), backend="joblib"))
        workers = set(client.scheduler_info()["workers"])
    assert [value for value, _ in out] == [0, 1, 4, 9, 16, 25]
    assert {address for _, address in out} <= workers


def test_joblib_backend_without_a_parallel_config_runs_here():
    import threading

    from replicability.engine.parallel import parallel_map

    threads = list(parallel_map(lambda _: threading.get_ident(), range(3), backend="joblib"))
    assert set(threads) == {threading.get_ident()}  # joblib's default: one job, sequential


def test_joblib_backend_rejects_a_bad_n_jobs():
    from replicability.engine.parallel import parallel_map

    with pytest.raises(ValueError, match="`n_jobs` must be"):
        parallel_map(abs, [1], backend="joblib", n_jobs=0)


def test_dask_backend_yields_as_units_finish_on_a_client_that_is_not_the_default():
    distributed = pytest.importorskip("dask.distributed")
    from replicability.engine.parallel import parallel_map

    with distributed.LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        out = list(parallel_map(abs, [-1, -2, 3], backend="dask", client=client, ordered=False))
    assert sorted(out) == [1, 2, 3]
