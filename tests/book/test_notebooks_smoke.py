"""Smoke tier: every experiment notebook reruns at scale="smoke" through the command line, touching no tracked file.

An experiment notebook is one whose parameters cell defines `scale`. Each is rerun as
`replicability run NOTEBOOK -p scale smoke` (the command's entry point ``main``,
in-process: the code path of the shell command without a second interpreter) from the
root of a copy of the compendium's `data/` and `notebooks/`, committed to a git
repository of its own, and from an empty result cache. Afterwards `git status
--porcelain` of that copy must be empty: a rerun writes only its run folder
(`runs/`, ignored as in the compendium). Working on a copy keeps the check exact while
other tests (nbval) execute the compendium's notebooks in place at the same time.
"""

import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest

from replicability.cli import main
from replicability.report.notebooks import notebook_parameters, run_folder

ROOT = Path(__file__).resolve().parents[2]
EXPERIMENTS = [p for p in sorted((ROOT / "notebooks").glob("*/*.ipynb")) if "scale" in notebook_parameters(p)]


def _git(repo, *args):
    return subprocess.run(["git", "-c", "user.name=smoke", "-c", "user.email=smoke@localhost", *args],
                          cwd=repo, capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """A git repository holding a copy of data/, notebooks/ and .gitignore, all committed."""
    repo = tmp_path_factory.mktemp("compendium")
    for name in ("data", "notebooks"):
        shutil.copytree(ROOT / name, repo / name, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    shutil.copy(ROOT / ".gitignore", repo / ".gitignore")
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "copy")
    return repo


@pytest.fixture
def clean_copy(copy, monkeypatch, tmp_path):
    """The copy as committed, as the working directory, with an empty cache; restored after the test."""
    for name in ("REPLICABILITY_REPRODUCED_DIR", "REPLICABILITY_DATA_DIR", "REPLICABILITY_RECOMPUTE"):
        monkeypatch.delenv(name, raising=False)  # the command alone decides where a rerun writes
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(copy)
    assert _git(copy, "status", "--porcelain") == ""
    yield copy
    _git(copy, "checkout", "-q", "--", ".")
    _git(copy, "clean", "-q", "-f", "-d")  # untracked, not ignored: runs/ stays


@pytest.mark.parametrize("notebook", EXPERIMENTS, ids=[f"{p.parent.name}/{p.stem}" for p in EXPERIMENTS])
def test_experiment_notebook_reruns_at_smoke_scale_and_leaves_git_status_clean(notebook, clean_copy):
    path = Path("notebooks") / notebook.parent.name / notebook.name
    assert main(["run", str(path), "-p", "scale", "smoke"]) == 0
    folder = clean_copy / run_folder(path, {"scale": "smoke"})
    assert (folder / notebook.name).is_file() and (folder / notebook.with_suffix(".html").name).is_file()
    assert _git(clean_copy, "status", "--porcelain") == ""


def test_the_check_sees_a_run_that_writes_into_data_and_notebooks(clean_copy):
    # An in-place run (what `make book` does) writes the notebook and data/reproduced: the
    # check above must see both, or it proves nothing.
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("scale = 'paper'", metadata={"tags": ["parameters"]}),
                nbformat.v4.new_code_cell("import pandas as pd\nfrom replicability.report import write_reproduced\n"
                                          "print(write_reproduced(pd.DataFrame({'x': [1]}), 'smoke_check', 't'))")]
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    path = Path("notebooks") / "smoke_check" / "nb.ipynb"
    path.parent.mkdir()
    nbformat.write(nb, path)
    _git(clean_copy, "add", str(path))
    _git(clean_copy, "commit", "-q", "-m", "check")
    try:
        assert main(["run", str(path)]) == 0
        changed = _git(clean_copy, "status", "--porcelain").splitlines()
        assert changed == [" M notebooks/smoke_check/nb.ipynb", "?? data/reproduced/smoke_check/"]
    finally:
        _git(clean_copy, "reset", "-q", "--hard", "HEAD~1")


def test_every_notebook_has_a_parameters_cell():
    notebooks = sorted((ROOT / "notebooks").glob("*/*.ipynb"))
    assert notebooks
    for path in notebooks:
        assert notebook_parameters(path), f"{path} has no cell tagged `parameters`"


def test_every_code_cell_is_collapsed_in_the_book():
    # A page leads with what is reproduced, not with code: every code cell, the
    # parameters cell included, is tagged hide-input (expandable in the book). The
    # practice notebook is a tutorial of the package's calls: its code is its content.
    shown = []
    for path in sorted((ROOT / "notebooks").glob("*/*.ipynb")):
        if path.parent.name == "practice":
            continue
        for index, cell in enumerate(nbformat.read(path, as_version=4).cells):
            if cell.cell_type == "code" and "hide-input" not in cell.metadata.get("tags", []):
                shown.append(f"{path.relative_to(ROOT)} cell {index}")
    assert not shown, f"code cells shown in the book: {shown}"
