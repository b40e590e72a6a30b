"""Tests of replicability.papers.beyond (the package of "Beyond the papers"): its public names."""

import pandas as pd


def test_beyond_keeps_its_public_names():
    import replicability.papers.beyond as beyond

    for name in beyond.__all__:
        assert getattr(beyond, name) is not None
    assert isinstance(beyond.labelled(pd.DataFrame(columns=["p_a_better"])), pd.DataFrame)
