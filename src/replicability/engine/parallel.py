"""The parallel map behind the runner and every other parallel computation of the package.

:func:`parallel_map` maps a function over items serially, on a pool of worker processes
kept from one call to the next while it is sound (starting a worker costs seconds: it
imports the package and loads the compiled kernels), on a Dask cluster, or through
joblib under whatever ``joblib.parallel_config`` the caller set (joblib's own loky,
threading and multiprocessing backends, and the backends other packages register with
joblib: Dask's, Ray's, Spark's). Workers of the processes backend exit with the process
that started them; an interrupt stops the work and kills the pool.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import threading
import time

from .._validation import check_choice, check_positive_int

__all__ = ["BACKENDS", "parallel_map"]

BACKENDS = ("serial", "processes", "dask", "joblib")


def _exit_with_parent(parent_pid):
    """Worker initializer: exit as soon as the process that started the worker is gone.

    A parent killed with SIGKILL or SIGTERM runs no cleanup; without this, its idle
    workers (and the resource tracker they keep open) would outlive it.
    """

    def watch():
        while os.getppid() == parent_pid:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


#: The processes backend's executor and its number of workers, kept from one call to the next
#: while it is sound: starting a worker costs seconds (it imports the package and loads the
#: compiled kernels), more than a run of a few hundred data sets takes.
_POOL = {"executor": None, "n_jobs": None}
_POOL_LOCK = threading.Lock()


def _sound(executor):
    """Whether a kept executor can take work: not shut down or broken, its manager thread and every worker alive.

    A loky executor whose worker had died could accept work after its manager
    thread had exited, and the call then waited forever (seen once in ``make
    test``, with loky's reusable executor): such an executor is not reused.
    """
    thread = executor._executor_manager_thread
    return (not executor._flags.shutdown and executor._flags.broken is None and thread is not None
            and thread.is_alive() and all(process.is_alive() for process in executor._processes.values()))


def _executor(n_jobs):
    """The kept executor with ``n_jobs`` workers if it is sound, else a new one (the old one killed)."""
    from joblib.externals.loky import ProcessPoolExecutor

    with _POOL_LOCK:
        executor = _POOL["executor"]
        if executor is not None and (_POOL["n_jobs"] != n_jobs or not _sound(executor)):
            _kill(executor)
            executor = None
        if executor is None:
            executor = ProcessPoolExecutor(max_workers=n_jobs, initializer=_exit_with_parent,
                                           initargs=(os.getpid(),))
        _POOL["executor"], _POOL["n_jobs"] = None, None  # taken: kept again only if this call ends well
        return executor


def _kill(executor):
    # Stop the workers here (SIGTERM; loky's processes have no kill()) rather than leave it to
    # the executor's manager thread: after an interrupt that thread could be gone with the
    # workers still alive, and the interpreter's exit then waited for them while they waited
    # for it (a SIGINT hung 2 of 12 runs under load; py-spy: multiprocessing's exit function
    # joining a worker).
    for process in list(getattr(executor, "_processes", {}).values()):
        process.terminate()
    executor.shutdown(wait=False, kill_workers=True)


@contextlib.contextmanager
def _sigint_noted():
    """Note every SIGINT in a list, besides raising the usual KeyboardInterrupt.

    CPython prints and drops an exception raised while it runs a weakref
    callback or a finalizer ("Exception ignored in ..."): a KeyboardInterrupt
    that lands there is lost, and an interrupted run went on to its end (seen in
    ``tests/engine/test_store_faults.py``). The note survives that, and the caller
    checks it. Only the main thread can set a handler, and only a Python handler
    (the default one raises KeyboardInterrupt) is wrapped; an ignored SIGINT
    stays ignored.
    """
    noted = []
    previous = signal.getsignal(signal.SIGINT) if threading.current_thread() is threading.main_thread() else None
    if not callable(previous):
        yield noted
        return

    def note(signum, frame):
        noted.append(signum)
        previous(signum, frame)

    signal.signal(signal.SIGINT, note)
    try:
        yield noted
    finally:
        signal.signal(signal.SIGINT, previous)


def _finished(futures, ordered, interrupts):
    """``futures`` as they finish (``ordered``: in their order); KeyboardInterrupt once ``interrupts`` holds one."""
    from concurrent.futures import FIRST_COMPLETED, wait

    waiting = list(futures)
    while waiting:
        ready, _ = wait(waiting[:1] if ordered else waiting, timeout=0.2, return_when=FIRST_COMPLETED)
        if interrupts:
            raise KeyboardInterrupt
        for future in [future for future in waiting if future in ready]:
            waiting.remove(future)
            yield future


def _map_serial(function, items):
    with _sigint_noted() as interrupts:
        for item in items:
            result = function(item)
            if interrupts:  # an interrupt CPython dropped while ``function`` ran
                raise KeyboardInterrupt
            yield result


def _map_processes(function, items, n_jobs, ordered):
    executor = _executor(n_jobs)
    futures = []
    try:
        with _sigint_noted() as interrupts:
            futures = [executor.submit(function, item) for item in items]
            for future in _finished(futures, ordered, interrupts):
                yield future.result()
    except BaseException:  # interrupted (SIGINT), failed, or abandoned by the caller
        # The workers are stopped with their work: the manager thread then fails every pending
        # future (cancelling them first made it raise on the cancelled ones).
        _kill(executor)
        raise
    with _POOL_LOCK:
        if _POOL["executor"] is None:
            _POOL["executor"], _POOL["n_jobs"] = executor, n_jobs
            return
    executor.shutdown(wait=True)  # another call kept its executor meanwhile


def _map_dask(function, items, client, ordered):
    try:
        from dask.distributed import as_completed, get_client
    except ImportError as exc:
        raise ImportError(
            "`backend` 'dask' needs the [dask] extra: pip install 'replicability[dask]'."
        ) from exc

    client = client if client is not None else get_client()
    futures = client.map(function, items, pure=False)
    try:
        # the client's loop: as_completed would otherwise look for a default client, and a client
        # made with set_as_default=False is none
        for future in futures if ordered else as_completed(futures, loop=client.loop):
            yield future.result()
    except BaseException:
        client.cancel(futures)
        raise


@functools.lru_cache(maxsize=8)
def _unpickled(payload):
    import cloudpickle

    return cloudpickle.loads(payload)


class _Shipped:
    """``function`` cloudpickled once, so that any joblib backend can send it.

    joblib's multiprocessing backend (and possibly others) pickles with the standard
    pickle, which refuses the closures and lambdas the package maps; this wrapper's
    bytes pass everywhere, and each worker unpickles the function once.
    """

    def __init__(self, function):
        import cloudpickle

        self.payload = cloudpickle.dumps(function)

    def __call__(self, item):
        return _unpickled(self.payload)(item)


def _map_joblib(function, items, n_jobs, ordered):
    from joblib import Parallel, delayed

    function = _Shipped(function)

    # Results as they come when the backend can yield them (the runner stores each chunk as it
    # finishes), else all at the end: joblib's multiprocessing backend returns a list only.
    modes = ("generator", "list") if ordered else ("generator_unordered", "generator", "list")
    for mode in modes:
        try:
            # n_jobs None leaves the number of workers to the active parallel_config (joblib's default: 1).
            parallel = Parallel(n_jobs=n_jobs, return_as=mode)
        except ValueError:  # "Backend ... does not support return_as=..."
            continue
        yield from parallel(delayed(function)(item) for item in items)
        return


def parallel_map(function, items, *, backend="serial", n_jobs=None, client=None, ordered=True):
    """Yield ``function(item)`` for every item: here, in worker processes, on Dask, or through joblib.

    The one parallel map of the package: every experiment family runs its units of
    work through it. Each unit must carry its own seed (nothing may depend on which
    worker runs it or when), so every backend yields the same values.

    Parameters
    ----------
    function : callable
        Called with one item; must be picklable by cloudpickle for the parallel backends.
    items : iterable
    backend : {"serial", "processes", "dask", "joblib"}
        ``"processes"``: a loky executor (joblib's) with ``n_jobs`` workers, kept
        for the next call while it is sound, or this process when ``n_jobs`` is 1; ``"dask"``: ``client`` (a
        ``dask.distributed.Client``), or the current client; ``"joblib"``:
        ``joblib.Parallel`` under the caller's ``joblib.parallel_config`` (its
        backend, e.g. ``"loky"``, ``"threading"``, ``"dask"``, ``"ray"``, ``"spark"``,
        and its number of jobs).
    n_jobs : int or None
        Workers for ``"processes"`` (None or -1: every CPU) and for ``"joblib"``
        (None: the ``parallel_config``'s, whose default is 1; -1: every CPU).
    client : dask.distributed.Client or None
    ordered : bool, default True
        Yield in the order of ``items``; False yields as units finish.

    Yields
    ------
    object
        The results.

    Notes
    -----
    Interruption leaves no process behind: on an exception in the caller (e.g.
    ``KeyboardInterrupt`` from SIGINT) the pending units are cancelled and the
    workers killed; workers whose parent dies without cleanup (SIGKILL, SIGTERM)
    exit within a fraction of a second. Both local backends also note every
    SIGINT while they run, so an interrupt CPython dropped (raised in a weakref
    callback or a finalizer) still stops the run: the processes backend at its
    next wait (within 0.2 s), the serial one when the current item is done.
    Under ``"joblib"`` the joblib backend in use decides what an interrupt
    stops: joblib's ``Parallel`` cancels what it has not dispatched; a backend that
    cannot yield results as they come (joblib's multiprocessing) gives them all
    at the end.

    Examples
    --------
    >>> list(parallel_map(abs, [-2, 3, -5]))
    [2, 3, 5]
    """
    check_choice(backend, "backend", BACKENDS)
    items = list(items)
    if backend == "dask":
        return _map_dask(function, items, client, ordered)
    if backend == "joblib":
        if n_jobs is not None and n_jobs != -1:
            check_positive_int(n_jobs, "n_jobs")
        return _map_joblib(function, items, n_jobs, ordered)
    if n_jobs is None or n_jobs == -1:
        n_jobs = os.cpu_count() or 1
    n_jobs = check_positive_int(n_jobs, "n_jobs")
    if backend == "serial" or n_jobs == 1:
        return _map_serial(function, items)
    return _map_processes(function, items, n_jobs, ordered)
