"""Shared fixtures: the repository root and the notebooks it holds."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Scripts that generate the Weka fixtures are run by hand, never imported by pytest.
collect_ignore_glob = ["fixtures/*"]


@pytest.fixture(scope="session")
def repo_root():
    return ROOT
