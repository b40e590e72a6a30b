"""Fixtures of the Bouckaert (2004) tests: results computed below paper scale stay out of the cache."""

import pytest


@pytest.fixture(autouse=True)
def _tmp_cache(tmp_path, monkeypatch):
    """``REPLICABILITY_CACHE``: results computed below paper scale go under the test's folder."""
    monkeypatch.setenv("REPLICABILITY_CACHE", str(tmp_path / "cache"))
