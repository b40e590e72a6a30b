"""Tests of replicability.papers.bouckaert2003.experiments: the sizes per scale."""

import pytest

from replicability.papers import bouckaert2003


def test_scale_is_checked():
    with pytest.raises(ValueError, match="`scale` must be one of"):
        bouckaert2003.n_jobs_for("huge")
