"""Command line: compare two learners on a data file, run a notebook with new parameters, or recompute results.

``replicability compare DATA --target COLUMN -a CLASS -b CLASS`` compares two
scikit-learn compatible estimators (any importable class, with ``--param-a`` /
``--param-b NAME=VALUE`` options) on a CSV, ARFF or Parquet file with
:func:`replicability.comparison.run.compare`, prints its summary and optionally
writes it as JSON; ``--rope WIDTH`` adds the Bayesian correlated t-test with that
region of practical equivalence. Errors are one line on standard error, exit code 2.

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
import importlib
import importlib.util
import json
import os
import sys
from pathlib import Path

from . import __version__

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

    Notes
    -----
    A notebook written elsewhere than in place (a rerun with new parameters) writes its
    reproduced tables to ``reproduced/`` beside ``output`` (``REPLICABILITY_REPRODUCED_DIR``,
    unless already set), never over the committed ``data/reproduced``.
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
    env = {}
    if output.resolve() != path.resolve() and "REPLICABILITY_REPRODUCED_DIR" not in os.environ:
        env["REPLICABILITY_REPRODUCED_DIR"] = str((output.parent / "reproduced").resolve())
    os.environ.update(env)  # the kernel papermill starts inherits the environment
    try:
        nb = papermill.execute_notebook(
            str(path),
            None,
            parameters=parameters or {},
            cwd=str(cwd or path.parent),
            progress_bar=progress,
            kernel_name="python3",
        )
    finally:
        for key in env:
            del os.environ[key]
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


def _fail(message):
    """One line on standard error, exit code 2 (argparse's convention for bad input)."""
    print(f"replicability compare: error: {message}", file=sys.stderr)
    return 2


def _read_table(path, target):
    """Features and target of a CSV, Parquet or ARFF file; raises ValueError with a one-line reason."""
    if not path.is_file():
        raise ValueError(f"no such file: {path}")
    if path.suffix.lower() == ".arff":
        from .sources.arff import load_arff  # where used: see _compare

        ds = load_arff(path, class_attribute=target)
        return ds.X, ds.y
    import pandas as pd

    if path.suffix.lower() == ".parquet":
        if importlib.util.find_spec("pyarrow") is None:
            raise ValueError("reading Parquet needs the [parquet] extra: pip install 'replicability[parquet]'")
        frame = pd.read_parquet(path)
    else:
        frame = pd.read_csv(path)
    if target not in frame.columns:
        raise ValueError(f"no column {target!r} in {path}; columns: {', '.join(map(str, frame.columns))}")
    features = frame.drop(columns=[target])
    text = [str(c) for c in features.columns if not pd.api.types.is_numeric_dtype(features[c])]
    if text:
        raise ValueError(f"feature columns must be numeric; not numeric: {', '.join(text)}")
    return features.to_numpy(dtype=float), frame[target].to_numpy()


def _estimator(spec, params, which):
    """An instance of the class named ``module.Class`` with ``NAME=VALUE`` parameters."""
    module, _, name = spec.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), name, None) if module else None
    except ImportError:
        cls = None
    if cls is None:
        raise ValueError(f"cannot import estimator {spec!r} (`{which}` takes module.Class, "
                         f"e.g. sklearn.naive_bayes.GaussianNB)")
    kwargs = {}
    for item in params:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"estimator parameters are NAME=VALUE; got {item!r}")
        kwargs[key] = _parse_value(value)
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"{spec}: {exc}") from exc


def _compare(args):
    # imported where used, so that `replicability --version` loads no scikit-learn
    from .comparison.run import compare

    try:
        X, y = _read_table(args.data, args.target)
        a = _estimator(args.learner_a, args.param_a, "-a")
        b = _estimator(args.learner_b, args.param_b, "-b")
        result = compare(a, b, X, y, scheme=args.scheme, n_runs=args.n_runs, test_size=args.test_size,
                         scoring=args.scoring, n_repeats=args.n_repeats, alpha=args.alpha, rope=args.rope,
                         n_jobs=args.n_jobs,
                         progress=sys.stderr.isatty(), rng=args.seed)
    except ValueError as exc:
        return _fail(str(exc).splitlines()[0])
    print(f"A: {args.learner_a}\nB: {args.learner_b}")
    print(result.summary())
    if args.json is not None:
        args.json.write_text(json.dumps({"data": str(args.data), "target": args.target, "learner_a": args.learner_a,
                                         "learner_b": args.learner_b, **result.to_dict()}, indent=2) + "\n")
    return 0


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

    cmp = commands.add_parser("compare", help="compare two learners on a CSV, ARFF or Parquet file")
    cmp.add_argument("data", type=Path, help="CSV, ARFF or Parquet file")
    cmp.add_argument("--target", required=True, help="target column (ARFF: class attribute)")
    cmp.add_argument("-a", "--learner-a", required=True, metavar="CLASS", help="e.g. sklearn.naive_bayes.GaussianNB")
    cmp.add_argument("-b", "--learner-b", required=True, metavar="CLASS")
    cmp.add_argument("--param-a", action="append", default=[], metavar="NAME=VALUE", help="repeatable")
    cmp.add_argument("--param-b", action="append", default=[], metavar="NAME=VALUE", help="repeatable")
    cmp.add_argument("--scheme", default="10x10cv", help="RxKcv (e.g. 10x10cv, 5x2cv) or resampling")
    cmp.add_argument("--n-runs", type=int, default=10, help="splits of 'resampling'")
    cmp.add_argument("--test-size", type=float, default=0.1, help="test fraction of 'resampling'")
    cmp.add_argument("--scoring", help="scikit-learn scoring name (default: the estimators' score)")
    cmp.add_argument("--n-repeats", type=int, default=10, help="independent randomizations of the scheme")
    cmp.add_argument("--alpha", type=float, default=0.05)
    cmp.add_argument("--rope", type=float, default=None,
                     help="region of practical equivalence on the score's scale (e.g. 0.01 = one accuracy point): "
                          "adds the Bayesian correlated t-test")
    cmp.add_argument("--n-jobs", type=int, default=1)
    cmp.add_argument("--seed", type=int, default=0, help="root seed of the randomizations")
    cmp.add_argument("--json", type=Path, help="also write the result as JSON")

    args = parser.parse_args(argv)
    if args.command == "compare":
        return _compare(args)
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
