"""Shared fixtures: the repository root and the notebooks it holds."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def repo_root():
    return ROOT
