"""Published and reproduced tables."""

import pandas as pd
import pytest

from replicability.engine.store import data_dir
from replicability.report.tables import read_published, write_reproduced


def test_data_dir_found_from_a_subfolder(repo_root, monkeypatch):
    monkeypatch.delenv("REPLICABILITY_DATA_DIR", raising=False)
    monkeypatch.chdir(repo_root / "notebooks")
    assert data_dir() == repo_root / "data"


def test_every_published_table_names_its_source(repo_root):
    tables = sorted((repo_root / "data" / "published").glob("*/*.csv"))
    assert tables
    for path in tables:
        frame = pd.read_csv(path)
        assert "source" in frame.columns, path
        assert frame["source"].notna().all(), path


def test_read_published_missing_table_is_a_clear_error(repo_root, monkeypatch):
    monkeypatch.chdir(repo_root)
    with pytest.raises(FileNotFoundError, match="bouckaert2003/nope"):
        read_published("bouckaert2003", "nope")


def test_write_reproduced_honours_the_override(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path))
    name = write_reproduced(pd.DataFrame({"a": [1 / 3]}), "paper", "table")
    assert name == "reproduced/paper/table.csv"
    assert (tmp_path / "paper" / "table.csv").read_text() == "a\n0.3333333333\n"
