"""The notebook runner behind ``replicability run`` and ``replicability reproduce``.

``replicability run NOTEBOOK [-p NAME VALUE]... [-o OUTPUT]`` wraps papermill
(``replicability run NOTEBOOK --list-parameters`` lists the parameters it takes instead,
with :mod:`replicability.report.parameter_list`, and executes nothing). Without
parameters and without ``-o`` the notebook is executed in place at its default
parameters (this is what ``make book`` does). With parameters, everything the run
writes goes to one run folder, ``runs/<notebook>-<hash>/`` in the working directory
(``<hash>``: the first 10 hex digits of the SHA-256 of the parameters that differ from
the notebook's defaults, as sorted JSON): the executed notebook, its HTML rendering,
and its reproduced tables in ``reproduced/`` (figures are inside the notebook and its
HTML). ``-o FILE.ipynb`` puts the notebook elsewhere, its HTML and tables beside it;
it may not be the notebook itself, nor inside the compendium's ``data/``, ``notebooks/``
or ``book/`` (whose ``reproduced/`` would be the committed tables). The stored notebook
and ``data/`` are never written by a rerun, and ``runs/`` is ignored by git. Every
executed notebook is normalized: papermill's and Jupyter's timing metadata are removed
so that re-executing leaves ``git status`` clean.

Before anything is executed, ``run`` checks the notebook (it exists and is one), every
parameter (given once; its name is assigned in the cell tagged ``parameters``; its value
has the type of that default, a float accepting an integer, and lies in the range
declared in :mod:`replicability.report.parameters`: ``alpha`` in (0, 1), ``scale`` one
of ``"smoke"``, ``"quick"``, ``"paper"``, ...) and the output location (a writable
``.ipynb`` file outside the committed folders); each failure is one line, exit code 2.
If the output cannot be written after execution, the executed notebook is kept in the
temporary folder and the message says where (exit code 1); so is the notebook of a run
whose cell raised, with its traceback (exit code 1).

Ctrl-C or SIGTERM ends either command with one line (exit code 130 or 143; for
``reproduce``, with the command that resumes it): the kernel is shut down and the
notebook being executed is not written. Its scratch files never outlive a run for long
(``report/_scratch.py``): a run removes its own, and the next run those of
a run killed by SIGKILL.

``replicability reproduce`` executes every experiment notebook (one with a ``scale``
parameter, whose default is ``"paper"``) in place with recomputation forced: each
result created before the start time is recomputed once, even when several
notebooks share it (``REPLICABILITY_RECOMPUTE``), refreshing the committed results
under ``data/``. ``--since TIME`` resumes an interrupted run: results created after
``TIME`` are kept. Whether a notebook's results are already computed cannot be known
without executing it (their keys are computed inside it), so ``reproduce`` executes
the notebooks and compares the result stores before and after: when no result was
written it says that everything was already computed.
``reproduce --slice I/N`` executes the ``I``-th of ``N`` shares of the notebooks as a
task of an array job, computing their pending results into the store and discarding the
executed notebooks, and ``reproduce --join`` verifies what the tasks computed
(``report/book_slices.py``, which the CLI hands to :func:`notebook_command`).

Both need the ``[book]`` extra (papermill, nbformat, ipykernel, nbconvert); without it
they exit with the install command instead of a traceback.
"""

from __future__ import annotations

import ast
import contextlib
import datetime
import hashlib
import importlib.util
import json
import logging
import os
import signal
import sys
import tempfile
from pathlib import Path

from .._validation import command_error, parse_literal
from ..engine.store import default_cache_dir, paper_results_dir
from ._scratch import keep, quiet_kernel_manager, scratch_notebook
from .parameters import kind_words, parameter_problem
from .rerun_html import write_rerun_html

__all__ = ["CommandError", "OutputError", "Stopped", "notebook_command", "notebook_parameters", "require_book_extra",
           "run_folder", "run_notebook", "strip_volatile_metadata"]

_VOLATILE_CELL_KEYS = ("papermill", "execution", "collapsed", "scrolled", "ExecuteTime")
# what executing a notebook takes; installed by the [book] extra, not the core install
_BOOK_MODULES = ("nbformat", "papermill", "ipykernel", "nbconvert")
# the compendium's folders of committed files, which no rerun writes into
_COMMITTED = ("data", "notebooks", "book")
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"  # the format of REPLICABILITY_RECOMPUTE and of `created_utc`


class CommandError(Exception):
    """A bad command line or input, found before anything ran: one line, exit code 2."""


class Stopped(BaseException):  # noqa: N818 -- named as KeyboardInterrupt is, which it mirrors
    """SIGTERM reached ``run`` or ``reproduce``; raised like KeyboardInterrupt so that cleanups run."""


def _stop(signum, frame):
    """Stop the command: KeyboardInterrupt for SIGINT, :class:`Stopped` for SIGTERM, after quieting the loggers.

    While the kernel is shut down, jupyter's client logs the cell it was waiting for
    ("Kernel died while waiting for execute reply") and asyncio the task left unfinished;
    the command's own line says what happened.
    """
    for name in ("papermill", "nbclient", "asyncio", "traitlets"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    if signum == signal.SIGINT:
        raise KeyboardInterrupt
    raise Stopped(signal.Signals(signum).name)


class OutputError(OSError):
    """The notebook was executed but its output could not be written; ``kept`` says where it is."""

    def __init__(self, message, kept=None):
        super().__init__(message)
        self.kept = kept


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


def _read_notebook(path):
    """The notebook at ``path``; :class:`CommandError` if there is none or it is not one."""
    import nbformat

    path = Path(path)
    if not path.exists():
        raise CommandError(f"no such notebook: {path}")
    if not path.is_file():
        raise CommandError(f"not a notebook file: {path}")
    try:
        return nbformat.read(path, as_version=4)
    except Exception as exc:  # not JSON, not a notebook, unreadable
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CommandError(f"cannot read notebook {path}: {reason}") from exc


def _parameters_of(nb, path):
    """Names and defaults assigned in the cell tagged ``parameters`` (non-literal defaults: None)."""
    for cell in nb.cells:
        if cell.cell_type == "code" and "parameters" in cell.metadata.get("tags", []):
            try:
                body = ast.parse(cell.source).body
            except SyntaxError as exc:
                reason = f"{exc.msg} (line {exc.lineno})"
                raise CommandError(f"cannot parse the parameters cell of {path}: {reason}") from exc
            values = {}
            for node in body:
                if isinstance(node, ast.Assign) and len(node.targets) == 1:
                    target, value = node.targets[0], node.value
                elif isinstance(node, ast.AnnAssign) and node.value is not None:
                    target, value = node.target, node.value
                else:
                    continue
                if isinstance(target, ast.Name):
                    try:
                        values[target.id] = ast.literal_eval(value)
                    except ValueError:
                        values[target.id] = None  # computed default: its type is not checked
            return values
    return {}


def notebook_parameters(path):
    """Return the names and default values assigned in the notebook's ``parameters`` cell.

    A default that is not a Python literal (``n = 10 ** 3``) is returned as None.
    """
    try:
        return _parameters_of(_read_notebook(path), path)
    except CommandError as exc:
        raise ValueError(str(exc)) from exc


def _conforms(value, default):
    """Whether ``value`` has the type of ``default`` (a float accepts an integer; None accepts anything)."""
    if default is None:
        return True
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, int):
        return isinstance(value, int)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    if isinstance(default, (list, tuple)):
        return isinstance(value, (list, tuple)) and (
            not default or all(any(_conforms(v, d) for d in default) for v in value))
    if isinstance(default, dict):
        return isinstance(value, dict) and (not default or all(
            any(_conforms(k, d) for d in default) and any(_conforms(v, d) for d in default.values())
            for k, v in value.items()))
    return isinstance(value, type(default))


def _parameter_value(path, name, text, defaults):
    """The value of ``-p name text`` for the notebook ``path``, checked against its default."""
    if not defaults:
        raise CommandError(f"{path} takes no parameters (no cell tagged `parameters` assigns any); got {name!r}")
    if name not in defaults:
        known = ", ".join(sorted(defaults))
        raise CommandError(f"{path} has no parameter {name!r} (its parameters cell defines: {known})")
    default = defaults[name]
    value = parse_literal(text)
    if isinstance(default, str) and not isinstance(value, str):
        value = text  # `-p name 123` for a string parameter is the string "123"
    shown = repr(default) if len(repr(default)) <= 40 else repr(default)[:37] + "..."
    if not _conforms(value, default):
        raise CommandError(f"parameter {name!r} of {path} takes {kind_words(default)} like its default {shown}; "
                           f"got {text!r}")
    if isinstance(default, float) and isinstance(value, int):
        value = float(value)
    problem = parameter_problem(path, name, value)
    if problem is not None:
        raise CommandError(f"parameter {name!r} of {path} {problem}; got {text!r}")
    return value


def run_folder(path, parameters, root="runs"):
    """The run folder of ``path`` executed with ``parameters``: ``<root>/<stem>-<hash>``.

    ``<hash>`` is the first 10 hexadecimal digits of the SHA-256 of the sorted JSON of
    the parameters that differ from the notebook's defaults, so that the same rerun
    always lands in the same folder.
    """
    defaults = notebook_parameters(path)
    changed = {k: v for k, v in (parameters or {}).items()
               if k not in defaults or v != defaults[k] or type(v) is not type(defaults[k])}
    text = json.dumps(changed, sort_keys=True, separators=(",", ":"), default=repr)
    return Path(root) / f"{Path(path).stem}-{hashlib.sha256(text.encode()).hexdigest()[:10]}"


def _nearest_existing(path):
    for folder in (path, *path.parents):
        if folder.exists():
            return folder
    return Path.cwd()


def _check_output(output):
    """Raise :class:`CommandError` unless ``output`` (and its HTML beside it) can be written."""
    for target in (output, output.with_suffix(".html")):
        if target.is_dir():
            raise CommandError(f"output {target} is a folder; give a file name ending in .ipynb")
    if output.suffix != ".ipynb":
        raise CommandError(f"output {output} must be a notebook file ending in .ipynb")
    if output.exists():
        try:
            with open(output, "a"):  # opened for writing, not changed
                pass
        except OSError as exc:
            raise CommandError(f"cannot write output {output}: {exc.strerror}") from exc
        return
    folder = _nearest_existing(output.parent)
    if not folder.is_dir():
        raise CommandError(f"cannot create the folder of output {output}: {folder} is a file")
    try:
        with tempfile.TemporaryFile(dir=folder):  # a real write probe: os.access is always True for root
            pass
    except OSError as exc:
        raise CommandError(f"cannot write output {output}: {folder}: {exc.strerror}") from exc


def _committed_folder_problem(output, path):
    """Why a rerun of ``path`` may not write ``output`` (a message), or None if it may.

    Refused: the notebook itself, and any path inside ``data/``, ``notebooks/`` or ``book/``
    of the compendium that holds the working directory or the notebook (the first folder
    upwards with ``data/published``, as :func:`~replicability.engine.store.data_dir` finds
    it), or inside ``REPLICABILITY_DATA_DIR``. The tables of a rerun go to ``reproduced/``
    beside its output, so an output in ``data/`` would rewrite ``data/reproduced/``.
    """
    target = Path(output).resolve()
    if target == Path(path).resolve():
        return (f"output {output} is the notebook being run; a rerun writes elsewhere "
                f"(run it without -o and -p to execute it in place)")
    folders = [Path(os.environ["REPLICABILITY_DATA_DIR"]).resolve()] if "REPLICABILITY_DATA_DIR" in os.environ else []
    for place in (Path.cwd().resolve(), Path(path).resolve().parent):
        root = next((f for f in (place, *place.parents) if (f / "data" / "published").is_dir()), None)
        folders += [root / name for name in _COMMITTED] if root is not None else []
    folder = next((f for f in folders if target.is_relative_to(f)), None)
    if folder is None:
        return None
    return (f"output {output} is inside {folder}{os.sep}, which holds committed files; "
            f"a rerun writes elsewhere (without -o: runs/ in the working directory)")


def _write_html(nb, path, output, parameters):
    """The rerun's page beside ``output`` (:mod:`replicability.report.rerun_html`), with the book's bibliography."""
    html = output.with_suffix(".html")
    defaults = notebook_parameters(path)
    changed = {name: value for name, value in (parameters or {}).items() if defaults.get(name) != value}
    place = Path(path).resolve().parent
    root = next((f for f in (place, *place.parents) if (f / "data" / "published").is_dir()), None)
    bibliography = None if root is None else root / "book" / "references.bib"
    try:
        write_rerun_html(nb, html, changed=changed, defaults=defaults, bibliography=bibliography)
    except OSError as exc:
        raise OutputError(f"executed notebook written to {output}, but not its HTML {html}: {exc.strerror}",
                          kept=output) from exc
    return html


@contextlib.contextmanager
def _environment(values):
    """Set environment variables (inherited by the kernels papermill starts) and restore them afterwards."""
    saved = {key: os.environ.get(key) for key in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for key, old in saved.items():
            if old is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = old


def run_notebook(path, output=None, parameters=None, *, cwd=None, progress=False, html=False):
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
    html : bool
        Also render the executed notebook to HTML beside ``output`` (nbconvert).

    Returns
    -------
    Path
        The path of the executed notebook.

    Raises
    ------
    ValueError
        If a name in ``parameters`` is not assigned in the notebook's parameters cell, or
        if ``output`` is not ``path`` and lies inside the compendium's ``data/``,
        ``notebooks/`` or ``book/`` (its tables would go to ``reproduced/`` beside it).
    OutputError
        If ``output`` (or its HTML) cannot be written after execution; the executed
        notebook is then written to a new file in the temporary folder, named by the
        exception's ``kept`` attribute (None if that failed too).
    papermill.PapermillExecutionError
        If a cell raises; the notebook as executed up to that cell, with its
        traceback, is in the file named by the exception's ``kept`` attribute
        (``notebook`` names the notebook that failed).

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
        problem = _committed_folder_problem(output, path)
        if problem is not None:
            raise ValueError(problem)
        env["REPLICABILITY_REPRODUCED_DIR"] = str((output.parent / "reproduced").resolve())
    # papermill saves the notebook there after each cell: what a failing cell leaves is kept
    scratch = scratch_notebook(path)
    try:
        with _environment(env):  # the kernel papermill starts inherits the environment
            nb = papermill.execute_notebook(
                str(path),
                None if scratch is None else str(scratch),
                parameters=parameters or {},
                cwd=str(cwd or path.parent),
                progress_bar=progress,
                kernel_name="python3",
                kernel_manager_class=quiet_kernel_manager(),
            )
    except papermill.PapermillExecutionError as exc:
        exc.notebook, exc.kept = path, keep(scratch)
        raise
    except BaseException:  # interrupted, kernel died: nobody is told where a partial notebook would be
        if scratch is not None:
            scratch.unlink(missing_ok=True)
        raise
    strip_volatile_metadata(nb)
    text = nbformat.writes(nb)
    text += "" if text.endswith("\n") else "\n"  # as nbformat.write ends the file
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        kept = keep(scratch, text)
        where = f"the executed notebook is kept at {kept}" if kept else "the executed notebook could not be kept"
        raise OutputError(f"cannot write output {output} ({exc.strerror}); {where}", kept=kept) from exc
    if scratch is not None:
        scratch.unlink(missing_ok=True)
    if html:
        _write_html(nb, path, output, parameters)
    return output


def require_book_extra(command):
    """Exit with the install command when the notebook tools of the ``[book]`` extra are missing."""
    missing = [name for name in _BOOK_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise SystemExit(
            f"replicability {command} needs the [book] extra: pip install 'replicability[book]' "
            f"(missing: {', '.join(missing)})."
        )


def _plan_runs(notebooks, raw_parameters, output):
    """Check every notebook, parameter and output before anything runs; the (path, output, parameters) to run."""
    names = [name for name, _ in raw_parameters]
    repeated = next((name for name in names if names.count(name) > 1), None)
    if repeated is not None:
        values = ", ".join(f"-p {name} {text}" for name, text in raw_parameters if name == repeated)
        raise CommandError(f"parameter {repeated!r} is given more than once ({values}); give it once")
    plans = []
    for path in notebooks:
        defaults = _parameters_of(_read_notebook(path), path)
        parameters = {name: _parameter_value(path, name, text, defaults) for name, text in raw_parameters}
        target = output
        if target is None:
            target = path if not parameters else run_folder(path, parameters) / path.name
        if output is not None or target != path:
            problem = _committed_folder_problem(target, path)
            if problem is not None:
                raise CommandError(problem)
        _check_output(target)
        plans.append((path, target, parameters))
    return plans


def _run(args, progress):
    plans = _plan_runs(args.notebooks, args.parameter, args.output)
    for path, output, parameters in plans:
        in_place = output.resolve() == path.resolve()
        written = run_notebook(path, output, parameters, progress=progress, html=not in_place)
        if in_place:
            print(f"executed {path} in place")
            continue
        shown = ", ".join(f"{k}={v!r}" for k, v in parameters.items()) or "its defaults"
        print(f"executed {path} with {shown} -> {written.parent}{os.sep}")
        print(f"  notebook: {written}\n  html:     {written.with_suffix('.html')}")
        if (written.parent / "reproduced").is_dir():
            print(f"  tables:   {written.parent / 'reproduced'}{os.sep}")
    return 0


def _result_files(folders):
    """Every result file (``*.nc``) under ``folders`` with its size and modification time."""
    files = {}
    for folder in folders:
        if folder.is_dir():
            for file in folder.rglob("*.nc"):
                stat = file.stat()
                files[file.resolve()] = (stat.st_size, stat.st_mtime_ns)
    return files


def _result_stores(notebooks):
    """The stores ``cached_result`` writes to from these notebooks' folders (where their kernels run)."""
    stores = {default_cache_dir()}
    here = Path.cwd()
    for folder in {p.parent.resolve() for p in notebooks}:
        try:
            os.chdir(folder)  # data_dir() is found from the working directory, as in the kernel
            stores.add(paper_results_dir())
        except FileNotFoundError:
            pass
        finally:
            os.chdir(here)
    return stores


def _reproduce_plan(paths):
    """The experiment notebooks under ``paths``, checked before anything runs."""
    notebooks = []
    for root in paths:
        if root.is_dir():
            candidates = sorted({*root.glob("*.ipynb"), *root.glob("*/*.ipynb")})
        elif root.exists():
            candidates = [root]
        else:
            raise CommandError(f"no such notebook or folder: {root}")
        for path in candidates:
            if "scale" in _parameters_of(_read_notebook(path), path):
                notebooks.append(path)
    if not notebooks:
        raise CommandError(f"no experiment notebook (one with a `scale` parameter) in {', '.join(map(str, paths))}")
    for path in notebooks:
        scale = _parameters_of(_read_notebook(path), path)["scale"]
        if scale != "paper":
            raise CommandError(f"{path}: the default `scale` must be 'paper' to reproduce it; got {scale!r}")
        _check_output(path)
    return notebooks


def _reproduce(args, progress):
    if args.since is not None:
        try:
            datetime.datetime.strptime(args.since, _TIME_FORMAT)
        except ValueError as exc:
            raise CommandError(f"--since takes a UTC time like 2026-11-21T20:00:00Z; got {args.since!r}") from exc
    notebooks = _reproduce_plan(args.notebooks)
    since = args.since or datetime.datetime.now(datetime.UTC).strftime(_TIME_FORMAT)
    print(f"recomputing the results created before {since} ({len(notebooks)} notebooks); "
          f"to resume if interrupted: replicability reproduce --since {since}", flush=True)
    stores = _result_stores(notebooks)
    before = _result_files(stores)
    # Recompute every result created before `since`, once: notebooks that share a
    # result read the fresh copy the first of them wrote.
    with _environment({"REPLICABILITY_RECOMPUTE": since}):
        for path in notebooks:
            try:
                run_notebook(path, path, progress=progress)
            except (KeyboardInterrupt, Stopped) as exc:
                exc.resume = f"replicability reproduce --since {since}"
                raise
            print(f"reproduced {path}", flush=True)
    after = _result_files(stores)
    written = sorted(str(f) for f in after if before.get(f) != after[f])
    if written:
        print(f"{len(written)} results computed: " + ", ".join(written))
    else:
        print(f"every result was already computed (created after {since}): none recomputed; "
              f"the notebooks were re-executed from the stored results")
    return 0


def notebook_command(args, action=None):
    """Carry out ``run`` or ``reproduce`` (as parsed by :func:`replicability.cli.main`); return the exit code.

    ``action(args, progress)`` does the work, by default the command's own; an array job's
    task or join (:mod:`replicability.report.book_slices`) is handed in by the CLI, under
    the same handling of signals and errors.
    """
    require_book_extra(args.command)
    from papermill import PapermillExecutionError

    progress = sys.stderr.isatty()
    previous = {signum: signal.signal(signum, _stop) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        return (action or (_run if args.command == "run" else _reproduce))(args, progress)
    except (KeyboardInterrupt, Stopped) as exc:
        # The notebook being executed was not written, its kernel is shut down, its scratch file removed.
        how = "by SIGTERM" if isinstance(exc, Stopped) else "(Ctrl-C)"
        resume = getattr(exc, "resume", None)
        print(f"replicability {args.command}: interrupted {how}; the notebook being executed was not written"
              + (f"; to resume: {resume}" if resume else ""), file=sys.stderr)
        return 143 if isinstance(exc, Stopped) else 130
    except CommandError as exc:
        return command_error(str(exc), args.command)
    except OutputError as exc:
        print(f"replicability {args.command}: error: {exc}", file=sys.stderr)
        return 1
    except PapermillExecutionError as exc:  # a cell raised: its traceback is in the kept notebook
        evalue = str(exc.evalue).strip().splitlines()[0] if str(exc.evalue).strip() else ""
        kept = f"kept at {exc.kept}" if exc.kept else "not kept"
        print(f"replicability {args.command}: error: {exc.notebook} failed: cell [{exc.exec_count}] raised "
              f"{exc.ename}: {evalue}; the notebook with its traceback is {kept}", file=sys.stderr)
        return 1
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
