"""Where ``replicability run`` and ``reproduce`` keep the files of a notebook being executed.

papermill saves the notebook it executes after every cell, so that a failing cell's
traceback can be kept; jupyter writes a connection file for each kernel. Both live in one
scratch folder per user in the system's temporary folder, named with the process id of
the run (``<stem>-<random>.<pid>.ipynb``, ``kernel-<random>.<pid>.json``). A run removes
its own when it ends, also on Ctrl-C or SIGTERM; what a run killed without a chance to
clean up (SIGKILL) leaves is removed by the next run, which deletes every such file whose
process is gone. A notebook kept for the user (a failing cell) is renamed without the
process id, out of that pattern, and left to the system's cleaning of temporary files.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from pathlib import Path

__all__ = ["keep", "quiet_kernel_manager", "scratch_notebook"]

# a notebook being executed, <stem>-<random>.<process id>.ipynb, or its kernel's connection file,
# kernel-<random>.<process id>.json
_SCRATCH = re.compile(r".+\.(\d+)\.(ipynb|json)")


def _scratch_folder():
    """The folder of the notebooks being executed, in the system's temporary folder, one per user."""
    folder = Path(tempfile.gettempdir()) / f"replicability-run-{os.getuid() if hasattr(os, 'getuid') else 0}"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a live process of another user
        return True
    return True


def scratch_notebook(path):
    """A new file for papermill to save ``path`` into as it executes; None if none can be made.

    Named ``<stem>-<random>.<process id>.ipynb`` in :func:`_scratch_folder`, so that the
    next run removes what a run killed without a chance to clean up (SIGKILL) left there:
    any such file whose process is gone. The folder is on this machine (the system's
    temporary folder), so a process id names a process here.
    """
    try:
        folder = _scratch_folder()
        for file in folder.iterdir():
            match = _SCRATCH.fullmatch(file.name)
            if match and not _alive(int(match.group(1))):
                file.unlink(missing_ok=True)
        fd, name = tempfile.mkstemp(prefix=f"{Path(path).stem}-", suffix=f".{os.getpid()}.ipynb", dir=folder)
        os.close(fd)
    except OSError:
        return None
    return Path(name)


def keep(scratch, text=None):
    """Keep the scratch notebook (after writing ``text`` to it): renamed out of the next run's cleanup.

    Returns the kept file, ``<stem>-<random>.ipynb`` beside it, or None if that fails.
    """
    if scratch is None:
        return None
    kept = scratch.with_name(scratch.name.rsplit(".", 2)[0] + ".ipynb")
    try:
        if text is not None:
            scratch.write_text(text, encoding="utf-8")
        scratch.replace(kept)
    except OSError:
        return None
    return kept


def quiet_kernel_manager():
    """Jupyter's kernel manager, its kernels' connection files in the scratch folder, their standard error discarded.

    A connection file is named like a scratch notebook (``kernel-<random>.<process id>.json``),
    so that the next run removes one a killed run left. A kernel writes jupyter's transport
    warning to its standard error at every start, and a traceback when it is shut down in
    the middle of a cell (Ctrl-C, SIGTERM); neither is the notebook's. What the notebook
    prints, and a failing cell's traceback, reach the notebook through the kernel's
    messages, not its standard error.
    """
    from jupyter_client.manager import AsyncKernelManager

    class QuietKernelManager(AsyncKernelManager):
        async def _async_pre_start_kernel(self, **kw):
            if not self.connection_file:
                fd, self.connection_file = tempfile.mkstemp(prefix="kernel-", suffix=f".{os.getpid()}.json",
                                                            dir=_scratch_folder())
                os.close(fd)
            return await super()._async_pre_start_kernel(**kw)

        async def _async_launch_kernel(self, kernel_cmd, **kw):
            kw.setdefault("stderr", subprocess.DEVNULL)
            return await super()._async_launch_kernel(kernel_cmd, **kw)

    return QuietKernelManager
