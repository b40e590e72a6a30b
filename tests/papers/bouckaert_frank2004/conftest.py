"""Shared checks of the page tests of Bouckaert & Frank (2004)."""

import filecmp

import pandas as pd
import pytest

from replicability.report.claims import HOLDS, INCONCLUSIVE, NOT_HOLDS


@pytest.fixture
def written_as_committed(tmp_path, monkeypatch, repo_root):
    """Check that a page writes ``files`` byte-identical to the committed ones, then its claims file."""
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path))
    committed = repo_root / "data" / "reproduced" / "bouckaert_frank2004"

    def check(page, files):
        page.write()
        written = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.csv")}
        assert written == {*(f"bouckaert_frank2004/{name}.csv" for name in files),
                           f"claims/bouckaert_frank2004/{page.name}.csv"}
        for name in files:
            assert filecmp.cmp(tmp_path / "bouckaert_frank2004" / f"{name}.csv", committed / f"{name}.csv",
                               shallow=False)
        claims = pd.read_csv(tmp_path / "claims" / "bouckaert_frank2004" / f"{page.name}.csv")
        assert set(claims["verdict"]) <= {HOLDS, INCONCLUSIVE, NOT_HOLDS}
        assert claims["key"].tolist() == list(page.claims.verdicts())

    return check
