"""The `replicability` command and notebook normalization."""

import sys

import nbformat
import pytest

import replicability
from replicability.engine.cli import main, notebook_parameters, run_notebook, strip_volatile_metadata


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


def test_command_line_writes_parameterized_run_outside_the_notebook(tmp_path, monkeypatch, capsys):
    path = _notebook(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(path), "-p", "alpha", "0.2", "-p", "name", "y"]) == 0
    nb = nbformat.read(tmp_path / "runs" / "nb.ipynb", as_version=4)
    printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "0.2 y" in printed
    assert nbformat.read(path, as_version=4).cells[1].outputs == []  # source notebook untouched
    assert "runs/nb.ipynb" in capsys.readouterr().out


def test_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"replicability {replicability.__version__}\n"


@pytest.mark.parametrize("command", [["run", "nb.ipynb"], ["reproduce"]])
def test_commands_without_the_book_extra_say_how_to_install_it(command, monkeypatch):
    monkeypatch.setitem(sys.modules, "papermill", None)  # as if papermill were not installed
    message = r"needs the \[book\] extra: pip install 'replicability\[book\]' \(missing: papermill\)"
    with pytest.raises(SystemExit, match=message):
        main(command)
