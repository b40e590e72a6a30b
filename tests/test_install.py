"""Self-contained installs: a fresh virtual environment with a non-editable install
of the package, first the core alone, then with the ``[book]`` extra, used from
outside the checkout. Versions come from ``requirements.lock``, as in ``make``.

The package is built from a copy of the checkout's files (``git ls-files``), so the
build leaves no ``build/`` or ``*.egg-info`` in the repository.
"""

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOCK = ROOT / "requirements.lock"
# the cheapest notebook with a parameters cell: no data files, no UCI data, no figure
NOTEBOOK = ROOT / "notebooks" / "reference" / "01_degenerate_cases.ipynb"
# run_experiment with the dask backend in an environment without dask
DASK_BACKEND = """
from sklearn.dummy import DummyClassifier
from replicability.engine.registry import register_learner, register_source
from replicability.engine.runner import ExperimentConfig, run_experiment

def coin(rng, *, n_instances):
    return rng.integers(0, 2, (n_instances, 3)), rng.integers(0, 2, n_instances)

register_source("coin", coin)
register_learner("majority", DummyClassifier)
config = ExperimentConfig(source="coin", learners=["majority", "majority"], n_datasets=2,
                          n_instances=30, scheme_params={"n_runs": 2, "n_folds": 3})
try:
    run_experiment(config, backend="dask", progress=False)
except ImportError as exc:
    print(exc)
"""

# a figure in an environment without matplotlib
PLOT = """
import numpy as np
import replicability as rp
rng = np.random.default_rng(0)
result = rp.compare_scores(rng.normal(0.8, 0.02, 100), rng.normal(0.8, 0.02, 100), scheme="10x10cv",
                           n_train=90, n_test=10)
result.plot()
"""

pytestmark = pytest.mark.slow


def _git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def _build_artefacts():
    return sorted([*ROOT.glob("build"), *ROOT.glob("*.egg-info"), *ROOT.glob("src/*.egg-info")])


def _run(args, *, cwd, env, returncode=0):
    args = [str(a) for a in args]
    proc = subprocess.run(args, check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=1800)
    assert proc.returncode == returncode, f"{args}: exit {proc.returncode}\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
    return proc


def _copy_checkout(dest):
    """Copy the files git sees (tracked and untracked, not ignored) of the checkout to ``dest``."""
    for name in _git("ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0"):
        source = ROOT / name
        if name and source.is_file():  # tracked files deleted in the work tree are skipped
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def test_core_then_book_install_from_outside_the_checkout(tmp_path):
    status, artefacts = _git("status", "--porcelain"), _build_artefacts()
    source, venv, work = tmp_path / "source", tmp_path / "venv", tmp_path / "work"
    work.mkdir()
    _copy_checkout(source)
    bin_dir = venv / "bin"
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"  # the kernel papermill starts is the venv's
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]

    _run([sys.executable, "-m", "venv", venv], cwd=work, env=env)
    _run([bin_dir / "pip", "install", "--constraint", LOCK, source], cwd=work, env=env)
    where = "import replicability; print(replicability.__file__)"
    imported = _run([bin_dir / "python", "-c", where], cwd=work, env=env)
    assert Path(imported.stdout.strip()).is_relative_to(venv)  # the installed copy, not the checkout's src/
    printed = _run([bin_dir / "replicability", "--version"], cwd=work, env=env).stdout
    assert printed == f"replicability {version}\n"
    without_book = _run([bin_dir / "replicability", "run", NOTEBOOK], cwd=work, env=env, returncode=1)
    assert "needs the [book] extra: pip install 'replicability[book]'" in without_book.stderr
    assert "needs the [dask] extra" in _run([bin_dir / "python", "-c", DASK_BACKEND], cwd=work, env=env).stdout
    no_plot = _run([bin_dir / "python", "-c", PLOT], cwd=work, env=env, returncode=1).stderr.strip().splitlines()
    assert no_plot[-1] == "ImportError: Plotting needs the [plot] extra: pip install 'replicability[plot]'"

    _run([bin_dir / "pip", "install", "--constraint", LOCK, f"{source}[book]"], cwd=work, env=env)
    out = work / "out.ipynb"
    _run([bin_dir / "replicability", "run", NOTEBOOK, "-p", "alpha", "0.01", "-o", out], cwd=work, env=env)
    assert "alpha = 0.01" in out.read_text()

    assert _git("status", "--porcelain") == status
    assert _build_artefacts() == artefacts
    shutil.rmtree(venv)  # about 1 GB; pytest keeps the temporary folders of recent runs
