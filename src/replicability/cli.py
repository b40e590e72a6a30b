"""Command line: run a notebook with new parameters, or recompute paper-scale results.

``replicability run NOTEBOOK [-p NAME VALUE]... [-o OUTPUT]`` wraps papermill. Without
parameters and without ``-o`` the notebook is executed in place at its default
parameters (this is what ``make book`` does); with parameters the result goes to
``runs/<notebook name>`` unless ``-o`` says otherwise, so stored notebooks stay as
published. Every executed notebook is normalized: papermill's and Jupyter's timing
metadata are removed so that re-executing leaves ``git status`` clean.

``replicability reproduce`` executes every experiment notebook (one with a ``scale``
parameter, whose default is ``"paper"``) in place with recomputation forced
(``REPLICABILITY_RECOMPUTE`` set to the start time: each result once, even when
several notebooks share it), refreshing the committed results under ``data/``.

Both commands need the ``[book]`` extra (papermill, nbformat, ipykernel); without it
they exit with the install command instead of a traceback. ``replicability --version``
needs only the core install.
"""

from __future__ import annotations

import argparse
import ast
import datetime
import importlib.util
import os
import sys
from pathlib import Path

from .. import __version__

__all__ = ["main", "notebook_parameters", "run_notebook", "strip_volatile_metadata"]

_VOLATILE_CELL_KEYS = ("papermill", "execution", "collapsed", "scrolled", "ExecuteTime")
# what executing a notebook takes; installed by the [book] extra, not the core install
_BOOK_MODULES = ("nbformat", "papermill", "ipykernel")


def strip_volatile_metadata(nb):
    """Remove timing and run-specific metadata from a notebook, in place.

    Keeps the kernel and language names, the cells' tags and every output; drops
    papermill's start/end times and durations, Jupyter's execution timestamps and
    the interpreter's patch version (which differs between machines, not results).
    """
    nb.metadata.pop("papermill", None)
    nb.metadata.pop("widgets", None)
    nb.metadata.get("language_info", {}).pop("version", None)
    for cell in nb.cells:
        for key in _VOLATILE_CELL_KEYS:
            cell.metadata.pop(key, None)
    return nb


def notebook_parameters(path):
    """Return the names and default values assigned in the notebook's ``parameters`` cell."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and "parameters" in cell.metadata.get("tags", []):
            values = {}
            for node in ast.parse(cell.source).body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    target = node.targets[0]
                    if isinstance(target, ast.Name):
                        values[target.id] = ast.literal_eval(node.value)
            return values
    return {}


def run_notebook(path, output=None, parameters=None, *, cwd=None, progress=False):
    """Execute a notebook with papermill and write it, normalized, to ``output``.

    Parameters
    ----------
    path : str or Path
        The notebook to execute.
    output : str or Path, optional
        Where to write the executed notebook; defaults to ``path`` (in place).
    parameters : dict, optional
        Values injected after the cell tagged ``parameters``.
    cwd : str or Path, optional
        Working directory of the kernel; defaults to the notebook's folder.
    progress : bool
        Show papermill's progress bar (on the terminal only, never stored).

    Returns
    -------
    Path
        The path of the executed notebook.
    """
    import nbformat
    import papermill

    path = Path(path)
    output = Path(output) if output is not None else path
    unknown = set(parameters or {}) - set(notebook_parameters(path))
    if unknown:
        raise ValueError(
            f"`parameters` names {sorted(unknown)} are not in the parameters cell of {path}; "
            f"it defines {sorted(notebook_parameters(path))}."
        )
    output.parent.mkdir(parents=True, exist_ok=True)
    nb = papermill.execute_notebook(
        str(path),
        None,
        parameters=parameters or {},
        cwd=str(cwd or path.parent),
        progress_bar=progress,
        kernel_name="python3",
    )
    nbformat.write(strip_volatile_metadata(nb), str(output))
    return output


def _parse_value(text):
    """Read a command-line value as a Python literal when it is one, else as a string."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def _require_book_extra(command):
    """Exit with the install command when the notebook tools of the ``[book]`` extra are missing."""
    missing = [name for name in _BOOK_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise SystemExit(
            f"replicability {command} needs the [book] extra: pip install 'replicability[book]' "
            f"(missing: {', '.join(missing)})."
        )


def _experiment_notebooks(root):
    return [p for p in sorted(Path(root).glob("*/*.ipynb")) if "scale" in notebook_parameters(p)]


def main(argv=None):
    """Entry point of the ``replicability`` command."""
    parser = argparse.ArgumentParser(prog="replicability", description=__doc__.split("\n\n")[0])
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

    run = commands.add_parser("run", help="execute notebooks with papermill")
    run.add_argument("notebooks", nargs="+", type=Path)
    run.add_argument(
        "-p", "--parameter", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"),
        help="set a parameter (Python literal or string); repeatable",
    )
    run.add_argument("-o", "--output", type=Path, help="output notebook (one input only)")

    reproduce = commands.add_parser("reproduce", help="recompute results at paper scale")
    reproduce.add_argument("--notebooks", type=Path, default=Path("notebooks"))

    args = parser.parse_args(argv)
    _require_book_extra(args.command)
    progress = sys.stderr.isatty()
    if args.command == "run":
        parameters = {name: _parse_value(value) for name, value in args.parameter}
        if args.output is not None and len(args.notebooks) > 1:
            parser.error("-o/--output takes a single notebook")
        for path in args.notebooks:
            output = args.output
            if output is None and parameters:
                output = Path("runs") / path.name
            written = run_notebook(path, output, parameters, progress=progress)
            print(f"executed {path} -> {written}")
    else:
        # Recompute every result created before now, once: notebooks that share a
        # result read the fresh copy the first of them wrote.
        os.environ["REPLICABILITY_RECOMPUTE"] = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        notebooks = _experiment_notebooks(args.notebooks)
        if not notebooks:
            print(f"no experiment notebooks (with a `scale` parameter) under {args.notebooks}")
        for path in notebooks:
            scale = notebook_parameters(path)["scale"]
            if scale != "paper":
                raise SystemExit(f"{path}: default `scale` must be 'paper'; got {scale!r}.")
            run_notebook(path, path, progress=progress)
            print(f"reproduced {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
