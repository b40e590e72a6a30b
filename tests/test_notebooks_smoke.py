"""Smoke tier: every experiment notebook runs top to bottom at scale="smoke".

An experiment notebook is one whose parameters cell defines `scale`. Each runs
from an empty result cache and writes its reproduced tables to a temporary folder,
so the committed results and tables are never touched.
"""

from pathlib import Path

import pytest

from replicability.cli import notebook_parameters, run_notebook

ROOT = Path(__file__).resolve().parents[1]
EXPERIMENTS = [p for p in sorted((ROOT / "notebooks").glob("*/*.ipynb")) if "scale" in notebook_parameters(p)]


@pytest.mark.parametrize("notebook", EXPERIMENTS, ids=[f"{p.parent.name}/{p.stem}" for p in EXPERIMENTS])
def test_experiment_notebook_runs_at_smoke_scale(notebook, tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path / "reproduced"))
    out = run_notebook(notebook, tmp_path / notebook.name, {"scale": "smoke"})
    assert out.is_file()


def test_every_notebook_has_a_parameters_cell():
    notebooks = sorted((ROOT / "notebooks").glob("*/*.ipynb"))
    assert notebooks
    for path in notebooks:
        assert notebook_parameters(path), f"{path} has no cell tagged `parameters`"
