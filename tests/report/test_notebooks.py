"""The notebook runner behind `replicability run` and `replicability reproduce`, and notebook normalization."""

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest

from replicability.cli import main
from replicability.report.notebooks import (
    _parameter_value,
    _parameters_of,
    notebook_parameters,
    run_folder,
    run_notebook,
    strip_volatile_metadata,
)
from replicability.report.rerun_html import book_markdown


def _notebook(tmp_path, parameters_source="alpha = 0.05\nname = 'x'", body="print(alpha, name)"):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(parameters_source, metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell(body),
    ]
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    return path

def test_notebook_parameters_reads_the_tagged_cell(tmp_path):
    assert notebook_parameters(_notebook(tmp_path)) == {"alpha": 0.05, "name": "x"}

def test_notebook_without_parameters_cell_has_none(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("1 + 1")]
    path = tmp_path / "plain.ipynb"
    nbformat.write(nb, path)
    assert notebook_parameters(path) == {}

def test_strip_volatile_metadata_removes_timings_and_keeps_tags():
    nb = nbformat.v4.new_notebook()
    nb.metadata["papermill"] = {"start_time": "2026-01-01T00:00:00"}
    nb.metadata["language_info"] = {"name": "python", "version": "3.11.7"}
    cell = nbformat.v4.new_code_cell("1", metadata={"tags": ["parameters"], "papermill": {"duration": 1.0},
                                                    "execution": {"iopub.status.busy": "t"}})
    nb.cells = [cell]
    strip_volatile_metadata(nb)
    assert "papermill" not in nb.metadata
    assert nb.metadata["language_info"] == {"name": "python"}
    assert dict(nb.cells[0].metadata) == {"tags": ["parameters"]}

def test_run_injects_parameters_and_strips_timings(tmp_path):
    path = _notebook(tmp_path)
    out = run_notebook(path, tmp_path / "out.ipynb", {"alpha": 0.01})
    nb = nbformat.read(out, as_version=4)
    assert "papermill" not in nb.metadata
    assert all("papermill" not in c.metadata and "execution" not in c.metadata for c in nb.cells)
    printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "0.01 x" in printed

def test_run_rejects_unknown_parameter(tmp_path):
    with pytest.raises(ValueError, match="`parameters`.*beta"):
        run_notebook(_notebook(tmp_path), tmp_path / "out.ipynb", {"beta": 1})

def test_a_rerun_elsewhere_writes_its_tables_beside_the_output(tmp_path, monkeypatch):
    monkeypatch.delenv("REPLICABILITY_REPRODUCED_DIR", raising=False)
    body = "from replicability.report import write_reproduced\nimport pandas as pd\n" \
           "print(write_reproduced(pd.DataFrame({'a': [alpha]}), 'demo', 't'))"
    path = _notebook(tmp_path, body=body)
    run_notebook(path, tmp_path / "runs" / "nb.ipynb", {"alpha": 0.01})
    assert (tmp_path / "runs" / "reproduced" / "demo" / "t.csv").read_text() == "a\n0.01\n"
    assert "REPLICABILITY_REPRODUCED_DIR" not in __import__("os").environ


# -- replicability run: checks before execution ----------------------------------------------

PARAMETERS = "alpha = 0.05\nname = 'x'\nn = 3\nscale = 'paper'\nruns = [1, 2]\nflag = False"

def _files(folder):
    """Every file and folder under ``folder`` with its size and modification time."""
    return {str(p): (p.is_dir(), p.stat().st_size if p.is_file() else 0, p.stat().st_mtime_ns)
            for p in sorted(Path(folder).rglob("*"))}

@pytest.mark.parametrize(("argv", "message"), [
    (["run", "missing.ipynb"], "no such notebook: missing.ipynb"),
    (["run", "notes.txt"], "cannot read notebook notes.txt: Notebook does not appear to be JSON"),
    (["run", "folder"], "not a notebook file: folder"),
    (["run", "nb.ipynb", "-p", "beta", "1"], "nb.ipynb has no parameter 'beta' (its parameters cell defines: alpha, "),
    (["run", "nb.ipynb", "-p", "n", "'abc'"], "parameter 'n' of nb.ipynb takes an integer like its default 3"),
    (["run", "nb.ipynb", "-p", "n", "2.5"], "parameter 'n' of nb.ipynb takes an integer"),
    (["run", "nb.ipynb", "-p", "alpha", "high"], "parameter 'alpha' of nb.ipynb takes a number like its default 0.05"),
    (["run", "nb.ipynb", "-p", "flag", "1"], "parameter 'flag' of nb.ipynb takes True or False"),
    (["run", "nb.ipynb", "-p", "runs", "[1, 'a']"],
     "parameter 'runs' of nb.ipynb takes a list like its default [1, 2]"),
    (["run", "nb.ipynb", "-p", "scale", "huge"],
     "parameter 'scale' of nb.ipynb must be one of 'smoke', 'quick', 'paper'; got 'huge'"),
    (["run", "nb.ipynb", "-p", "n", "4", "-o", "folder"], "output folder is a folder"),
    (["run", "nb.ipynb", "-p", "n", "4", "-o", "out.txt"], "output out.txt must be a notebook file ending in .ipynb"),
    (["run", "nb.ipynb", "-p", "n", "4", "-o", "notes.txt/out.ipynb"],
     "cannot create the folder of output notes.txt/out.ipynb: notes.txt is a file"),
    (["run", "plain.ipynb", "-p", "n", "4"], "plain.ipynb takes no parameters (no cell tagged `parameters`"),
    # documented ranges (report/parameters.py), checked before anything runs
    (["run", "nb.ipynb", "-p", "alpha", "-1"], "parameter 'alpha' of nb.ipynb must be a number in (0, 1); got '-1'"),
    (["run", "nb.ipynb", "-p", "alpha", "1e999"], "parameter 'alpha' of nb.ipynb must be a number in (0, 1); got '1e9"),
    (["run", "nb.ipynb", "-p", "runs", "[5, 0]"],
     "parameter 'runs' of nb.ipynb must be a non-empty list, each element an integer >= 1; got '[5, 0]'"),
    (["run", "nb.ipynb", "-p", "runs", "[]"], "parameter 'runs' of nb.ipynb must be a non-empty list"),
    (["run", "nb.ipynb", "-p", "alpha", "0.01", "-p", "alpha", "0.1"],
     "parameter 'alpha' is given more than once (-p alpha 0.01, -p alpha 0.1); give it once"),
    # committed folders and the notebook itself are never a rerun's output
    (["run", "nb.ipynb", "-p", "n", "4", "-o", "nb.ipynb"], "output nb.ipynb is the notebook being run"),
    (["run", "nb.ipynb", "-o", "nb.ipynb"], "output nb.ipynb is the notebook being run"),
    (["run", "nb.ipynb", "-p", "n", "4", "-o", "data/x.ipynb"], "output data/x.ipynb is inside "),
    (["run", "nb.ipynb", "-p", "n", "4", "-o", "data/reproduced/new/x.ipynb"], "/data/, which holds committed files"),
    (["run", "nb.ipynb", "-p", "n", "4", "-o", "notebooks/x.ipynb"], "/notebooks/, which holds committed files"),
    (["run", "nb.ipynb", "-p", "n", "4", "-o", "book/x.ipynb"], "/book/, which holds committed files"),
    (["run", "nb.ipynb", "-p", "n", "4", "-o", "runs/../book/x.ipynb"], "/book/, which holds committed files"),
    # the parameters of every notebook are checked before the first one runs
    (["run", "nb.ipynb", "missing.ipynb", "-p", "n", "4"], "no such notebook: missing.ipynb"),
])
def test_run_errors_are_one_line_with_exit_code_2_and_write_nothing(tmp_path, monkeypatch, capsys, argv, message):
    _notebook(tmp_path, PARAMETERS)
    plain = nbformat.v4.new_notebook()
    plain.cells = [nbformat.v4.new_code_cell("n = 1")]
    nbformat.write(plain, tmp_path / "plain.ipynb")
    (tmp_path / "notes.txt").write_text("not json\n")
    (tmp_path / "folder").mkdir()
    for folder in ("data/published", "notebooks", "book"):  # tmp_path is a compendium's root
        (tmp_path / folder).mkdir(parents=True)
    monkeypatch.delenv("REPLICABILITY_DATA_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    before = _files(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("replicability run: error: ")
    assert message in err
    assert _files(tmp_path) == before

def test_run_refuses_an_output_it_cannot_write(tmp_path, monkeypatch, capsys):
    readonly = Path("/sys")  # sysfs: no new files, even for root (os.access says yes to root)
    try:
        (readonly / "probe.ipynb").touch()
        pytest.skip("/sys is writable here")
    except OSError:
        pass
    path = _notebook(tmp_path, PARAMETERS)
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(path), "-p", "n", "4", "-o", str(readonly / "out.ipynb")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write output /sys/out.ipynb" in err
    assert not (tmp_path / "runs").exists()

@pytest.mark.skipif(os.geteuid() == 0, reason="root writes read-only files")
def test_run_refuses_a_read_only_output_file(tmp_path, capsys):
    path = _notebook(tmp_path, PARAMETERS)
    out = tmp_path / "out.ipynb"
    out.write_text("{}")
    out.chmod(0o444)
    assert main(["run", str(path), "-p", "n", "4", "-o", str(out)]) == 2
    assert "cannot write output" in capsys.readouterr().err and out.read_text() == "{}"

def test_parameter_values_take_the_type_of_their_default(tmp_path):
    path = _notebook(tmp_path, PARAMETERS + "\nanything = None\nseed: int = 1\ncomputed = 10 ** 3\nratio = 0.5")
    defaults = _parameters_of(nbformat.read(path, as_version=4), path)
    assert defaults["seed"] == 1 and defaults["computed"] is None
    # `ratio` has no declared range (report/parameters.py): its type alone is checked
    assert _parameter_value(path, "ratio", "1", defaults) == 1.0 and isinstance(
        _parameter_value(path, "ratio", "1", defaults), float)
    assert _parameter_value(path, "name", "123", defaults) == "123"  # a string parameter takes the text
    assert _parameter_value(path, "name", "'y'", defaults) == "y"
    assert _parameter_value(path, "runs", "[3, 4, 5]", defaults) == [3, 4, 5]
    assert _parameter_value(path, "flag", "True", defaults) is True
    assert _parameter_value(path, "anything", "'tests/x'", defaults) == "tests/x"
    assert _parameter_value(path, "scale", "smoke", defaults) == "smoke"
    # the same rerun, however it is spelled, lands in the same folder
    assert run_folder(path, {"alpha": 1.0}) == run_folder(path, {"alpha": 1.0, "n": 3})
    assert run_folder(path, {}) == run_folder(path, {"alpha": 0.05})
    assert run_folder(path, {"alpha": 0.01}) != run_folder(path, {"alpha": 0.02})


# -- replicability run: the run folder and write failures ------------------------------------

FIGURE_AND_TABLE = (
    "import matplotlib\nmatplotlib.use('agg')\nimport matplotlib.pyplot as plt\nimport pandas as pd\n"
    "from replicability.report import write_reproduced\n"
    "print('alpha is', alpha)\n"
    "print(write_reproduced(pd.DataFrame({'alpha': [alpha]}), 'demo', 't'))\n"
    "fig, ax = plt.subplots()\nax.plot([0, 1], [0, alpha])\nplt.show()"
)

def test_a_rerun_writes_notebook_html_and_tables_in_one_run_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("REPLICABILITY_REPRODUCED_DIR", raising=False)
    monkeypatch.setenv("REPLICABILITY_DATA_DIR", str(tmp_path / "data"))  # where an in-place run writes tables
    work = tmp_path / "work"
    work.mkdir()
    path = _notebook(tmp_path, "alpha = 0.05", FIGURE_AND_TABLE)
    monkeypatch.chdir(work)
    source = path.read_bytes()
    assert main(["run", str(path), "-p", "alpha", "0.2"]) == 0
    folder = run_folder(path, {"alpha": 0.2})
    assert re.fullmatch(r"nb-[0-9a-f]{10}", folder.name) and folder.parent == Path("runs")
    out = capsys.readouterr().out
    assert f"-> {folder}{os.sep}" in out and f"html:     {folder / 'nb.html'}" in out
    assert sorted(str(p.relative_to(work / folder)) for p in (work / folder).rglob("*")
                  if not p.relative_to(work / folder).parts[0] == "mathjax") == [
        "nb.html", "nb.ipynb", "reproduced", "reproduced/demo", "reproduced/demo/t.csv"]
    assert (work / folder / "mathjax" / "tex-chtml.js").is_file()  # the page's MathJax, offline
    assert (work / folder / "reproduced" / "demo" / "t.csv").read_text() == "alpha\n0.2\n"
    nb = nbformat.read(work / folder / "nb.ipynb", as_version=4)
    printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "alpha is 0.2" in printed
    html = (work / folder / "nb.html").read_text()
    assert "alpha is 0.2" in html and "data:image/png;base64," in html  # the figure is in the page
    assert path.read_bytes() == source and not (tmp_path / "data").exists()

def test_an_output_that_fails_after_execution_is_kept_elsewhere(tmp_path, monkeypatch, capsys):
    out = tmp_path / "out.ipynb"
    # the output is fine when checked, and a folder by the time the run ends
    path = _notebook(tmp_path, body=f"import os\nos.mkdir({str(out)!r})\nprint(alpha, name)")
    assert main(["run", str(path), "-p", "alpha", "0.3", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot write output {out}" in err
    kept = Path(re.search(r"the executed notebook is kept at (\S+\.ipynb)$", err.strip()).group(1))
    try:
        nb = nbformat.read(kept, as_version=4)
        printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
        assert "0.3 x" in printed
    finally:
        kept.unlink()

def test_an_html_that_cannot_be_written_leaves_the_notebook_and_says_so(tmp_path, capsys):
    out = tmp_path / "out.ipynb"
    path = _notebook(tmp_path, body=f"import os\nos.mkdir({str(out.with_suffix('.html'))!r})\nprint(alpha)")
    assert main(["run", str(path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"executed notebook written to {out}, but not its HTML" in err
    assert nbformat.read(out, as_version=4).cells[1].outputs

def test_the_default_result_cache_is_ignored_by_git(monkeypatch):
    from replicability.engine.store import default_cache_dir

    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        pytest.skip("not a git checkout")
    monkeypatch.delenv("REPLICABILITY_CACHE", raising=False)
    cache = default_cache_dir()  # where a rerun below paper scale stores its results
    assert cache.is_relative_to(root)
    assert subprocess.run(["git", "check-ignore", "-q", str(cache / "x.nc")], cwd=root).returncode == 0

def test_a_paper_scale_rerun_that_computes_a_new_result_does_not_write_data(tmp_path, monkeypatch):
    (tmp_path / "data" / "published").mkdir(parents=True)
    monkeypatch.setenv("REPLICABILITY_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    path = _notebook(tmp_path, "seed = 1\nscale = 'paper'", EXPERIMENT)
    assert main(["run", str(path), "-p", "seed", "2"]) == 0  # a seed whose result is not committed
    assert not (tmp_path / "data" / "results").exists()


# -- replicability reproduce -----------------------------------------------------------------

EXPERIMENT = ("from replicability.engine.store import cached_result\nimport xarray as xr\n"
              "ds = cached_result('demo', {'seed': seed}, lambda: xr.Dataset({'x': ('i', [seed, 2, 3])}),\n"
              "                   scale=scale)\n"
              "print(int(ds['x'].sum()))")

@pytest.mark.parametrize(("argv", "message"), [
    (["reproduce", "--notebooks", "nowhere"], "no such notebook or folder: nowhere"),
    (["reproduce", "--notebooks", "plain"], "no experiment notebook (one with a `scale` parameter) in plain"),
    (["reproduce", "--notebooks", "smoke"], "the default `scale` must be 'paper' to reproduce it; got 'smoke'"),
    (["reproduce", "--notebooks", "plain", "--since", "yesterday"], "--since takes a UTC time like"),
])
def test_reproduce_errors_are_one_line_with_exit_code_2(tmp_path, monkeypatch, capsys, argv, message):
    for folder, source in (("plain", "alpha = 0.05"), ("smoke", "seed = 1\nscale = 'smoke'")):
        (tmp_path / folder).mkdir()
        _notebook(tmp_path / folder, source, EXPERIMENT)
    monkeypatch.chdir(tmp_path)
    before = _files(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("replicability reproduce: error: ") and message in err
    assert _files(tmp_path) == before

def test_reproduce_computes_then_says_when_everything_is_already_computed(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("REPLICABILITY_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))
    (tmp_path / "nbs" / "paper").mkdir(parents=True)
    path = _notebook(tmp_path / "nbs" / "paper", "seed = 1\nscale = 'paper'", EXPERIMENT)
    assert main(["reproduce", "--notebooks", str(tmp_path / "nbs")]) == 0
    out = capsys.readouterr().out
    since = re.search(r"replicability reproduce --since (\S+)", out).group(1)
    results = list((tmp_path / "data" / "results").glob("*.nc"))
    assert len(results) == 1 and f"1 results computed: {results[0]}" in out
    assert "6" in "".join(o.get("text", "") for o in nbformat.read(path, as_version=4).cells[1].outputs)
    stamp = results[0].stat().st_mtime_ns
    # resumed after it finished: nothing is left to compute, and it says so
    assert main(["reproduce", "--notebooks", str(tmp_path / "nbs"), "--since", since]) == 0
    out = capsys.readouterr().out
    assert f"every result was already computed (created after {since}): none recomputed" in out
    assert results[0].stat().st_mtime_ns == stamp
    assert json.loads(path.read_text())["metadata"].get("papermill") is None

def test_the_readme_shows_the_run_folder_the_command_prints():
    root = Path(__file__).resolve().parents[2]
    notebook = root / "notebooks" / "bouckaert_frank2004" / "02_table1_5x2cv.ipynb"
    folder = run_folder(notebook, {"alpha": 0.01}).as_posix()
    for page in (root / "README.md", root / "book" / "how_to_rerun.md"):
        text = page.read_text()
        assert f"-> {folder}/" in text and f"html:     {folder}/02_table1_5x2cv.html" in text, page

def test_the_html_shows_glued_values_in_the_prose():
    nb = nbformat.v4.new_notebook()
    prefix = "application/papermill.record/"
    record, text = (nbformat.v4.new_output("display_data", data={f"{prefix}text/plain": value},
                                           metadata={"scrapbook": {"name": name, "mime_prefix": prefix}})
                    for name, value in (("p", "0.123456"), ("s", "'a, b'")))
    code = nbformat.v4.new_code_cell("glue(...)")
    code.outputs = [record, text]
    nb.cells = [code, nbformat.v4.new_markdown_cell("p = {glue:text}`p:.3f`, {glue:}`p`; {glue:text}`s`; "
                                                    "{glue:text}`missing`")]
    shown = book_markdown(nb).cells[1].source
    assert shown == "p = 0.123, 0.123456; a, b; {glue:text}`missing`"
    assert nb.cells[1].source.startswith("p = {glue:text}")  # the notebook itself is not changed

def test_a_failing_cell_is_one_line_and_the_notebook_with_its_traceback_is_kept(tmp_path, monkeypatch, capsys):
    path = _notebook(tmp_path, body="print(alpha)\nraise RuntimeError('no data\\nsecond line')")
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(path), "-p", "alpha", "0.3"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    # cell [2] is the parameters papermill injects
    assert f"error: {path} failed: cell [3] raised RuntimeError: no data; the notebook with its traceback" in err
    kept = Path(re.search(r"is kept at (\S+\.ipynb)$", err.strip()).group(1))
    try:
        outputs = nbformat.read(kept, as_version=4).cells[-1].outputs
        assert outputs[0]["text"] == "0.3\n" and outputs[-1]["ename"] == "RuntimeError"
    finally:
        kept.unlink()
    assert not any(Path("runs").rglob("*.ipynb"))  # nothing in the run folder of a failed run

def test_an_in_place_run_writes_the_file_as_nbformat_does(tmp_path, capsys):
    path = _notebook(tmp_path)
    assert main(["run", str(path)]) == 0
    assert capsys.readouterr().out == f"executed {path} in place\n"
    written = path.read_text()
    nbformat.write(nbformat.read(path, as_version=4), path)
    assert path.read_text() == written and written.endswith("}\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["nb.ipynb"]  # no HTML, no run folder


# -- committed data is never a rerun's output -------------------------------------------------

def test_the_issue_s_rerun_into_data_is_refused_and_writes_nothing(monkeypatch, capsys):
    root = Path(__file__).resolve().parents[2]
    notebook = Path("notebooks/bouckaert_frank2004/02_table1_5x2cv.ipynb")
    monkeypatch.chdir(root)
    monkeypatch.delenv("REPLICABILITY_DATA_DIR", raising=False)
    table = root / "data" / "reproduced" / "bouckaert_frank2004" / "table1.csv"
    before = (notebook.read_bytes(), table.read_bytes())
    for argv in (["-p", "alpha", "0.01", "-o", "data/x.ipynb"], ["-p", "alpha", "0.01", "-o", str(notebook)],
                 ["-p", "alpha", "-1"], ["-p", "alpha", "0.01", "-p", "alpha", "0.1"]):
        assert main(["run", str(notebook), *argv]) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("replicability run: error: "), err
    assert (notebook.read_bytes(), table.read_bytes()) == before and not (root / "data" / "x.ipynb").exists()

def test_run_notebook_refuses_an_output_whose_tables_would_go_into_data(tmp_path, monkeypatch):
    (tmp_path / "data" / "published").mkdir(parents=True)
    monkeypatch.delenv("REPLICABILITY_REPRODUCED_DIR", raising=False)
    monkeypatch.delenv("REPLICABILITY_DATA_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    path = _notebook(tmp_path)
    with pytest.raises(ValueError, match="inside .*data/, which holds committed files"):
        run_notebook(path, tmp_path / "data" / "x.ipynb", {"alpha": 0.01})
    assert sorted(p.name for p in (tmp_path / "data").iterdir()) == ["published"]


# -- no leftovers, one line when interrupted ----------------------------------------------------

def _start_run(tmp_path, marker, *, sleep=120, new_session=True):
    """`replicability run` of a notebook whose second cell touches ``marker`` and sleeps; its Popen."""
    path = _notebook(tmp_path, "alpha = 0.05", f"open({str(marker)!r}, 'w').close()\nimport time\ntime.sleep({sleep})")
    src = str(Path(__file__).resolve().parents[2] / "src")
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp"), "PYTHONPATH": src}
    return subprocess.Popen([sys.executable, "-m", "replicability.cli", "run", str(path), "-p", "alpha", "0.1",
                             "-o", str(tmp_path / "out.ipynb")], env=env, stderr=subprocess.PIPE, text=True,
                            start_new_session=new_session)

def _wait_for(marker, proc, seconds=120):
    deadline = time.monotonic() + seconds
    while not marker.exists():
        assert proc.poll() is None, proc.stderr.read()
        assert time.monotonic() < deadline, "the notebook did not start"
        time.sleep(0.2)

@pytest.mark.parametrize("how", ["SIGINT to the group (Ctrl-C)", "SIGTERM", "SIGKILL"])
def test_a_killed_run_leaves_no_temporary_notebook_and_says_so_in_one_line(tmp_path, how):
    psutil = pytest.importorskip("psutil")
    (tmp_path / "tmp").mkdir()
    marker = tmp_path / "started"
    proc = _start_run(tmp_path, marker)
    try:
        _wait_for(marker, proc)
        kernels = psutil.Process(proc.pid).children(recursive=True)
        scratch = list((tmp_path / "tmp").rglob("*.ipynb"))  # beside it: the kernel's connection file
        assert len(scratch) == 1 and scratch[0].name.endswith(f".{proc.pid}.ipynb")  # being executed
        if how == "SIGKILL":
            proc.kill()
        elif how == "SIGTERM":
            proc.terminate()
        else:
            os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    if how == "SIGKILL":
        for kernel in kernels:  # nothing could stop it; the next run cleans up the scratch file
            with contextlib.suppress(psutil.NoSuchProcess):
                kernel.kill()
        assert proc.returncode == -signal.SIGKILL
        left = sorted(p.suffix for p in (tmp_path / "tmp").rglob("*") if p.is_file())
        assert left == [".ipynb", ".json"]  # the notebook being executed and its kernel's connection file
        second = _start_run(tmp_path, marker, sleep=0)  # the next run starts by removing it
        _, err = second.communicate(timeout=120)
        assert second.returncode == 0, err
        assert [p for p in (tmp_path / "tmp").rglob("*") if p.is_file()] == []
        return
    expected = "by SIGTERM" if how == "SIGTERM" else "(Ctrl-C)"
    assert proc.returncode == (143 if how == "SIGTERM" else 130), err
    assert err.count("\n") == 1 and err.startswith(f"replicability run: interrupted {expected}"), err
    assert [p for p in (tmp_path / "tmp").rglob("*") if p.is_file()] == []
    assert not (tmp_path / "out.ipynb").exists()
    psutil.wait_procs(kernels, timeout=30)
    assert not [k for k in kernels if k.is_running() and k.status() != psutil.STATUS_ZOMBIE]

def test_an_interrupted_reproduce_says_how_to_resume_in_one_line(tmp_path):
    (tmp_path / "nbs" / "paper").mkdir(parents=True)
    (tmp_path / "tmp").mkdir()
    marker = tmp_path / "started"
    _notebook(tmp_path / "nbs" / "paper", "seed = 1\nscale = 'paper'",
              f"open({str(marker)!r}, 'w').close()\nimport time\ntime.sleep(120)")
    env = {**os.environ, "TMPDIR": str(tmp_path / "tmp"), "REPLICABILITY_DATA_DIR": str(tmp_path / "data"),
           "REPLICABILITY_CACHE": str(tmp_path / "cache"),
           "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}
    command = [sys.executable, "-m", "replicability.cli", "reproduce", "--notebooks", str(tmp_path / "nbs")]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        _wait_for(marker, proc)
        os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C sends: the command and its kernel
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    since = re.search(r"replicability reproduce --since (\S+)", out).group(1)
    assert proc.returncode == 130
    assert err == (f"replicability reproduce: interrupted (Ctrl-C); the notebook being executed was not written; "
                   f"to resume: replicability reproduce --since {since}\n")
    assert [p for p in (tmp_path / "tmp").rglob("*") if p.is_file()] == []
