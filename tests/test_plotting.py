"""The critical difference diagram (replicability.plotting): what it draws, checked against the numbers."""

import itertools
import subprocess
import sys

import matplotlib
import numpy as np
import pytest

from replicability.plotting import critical_difference_diagram
from replicability.stats.ranks import critical_difference

matplotlib.use("Agg")

DEMSAR = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}  # Demšar 2006, Table 6


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def _bars(ax, gid):
    return [line for line in ax.lines if line.get_gid() == gid]


def _bar_members(ax, ranks):
    """Learners each clique bar joins: those whose rank lies under the bar (the bar reaches 0.03 beyond them)."""
    members = []
    for line in _bars(ax, "clique"):
        lo, hi = sorted(line.get_xdata())
        members.append({i for i, r in enumerate(ranks) if lo + 0.03 - 1e-9 <= r <= hi - 0.03 + 1e-9})
    return members


def _check_diagram(ranks, n_datasets, alpha, **kwargs):
    ax = critical_difference_diagram(ranks, n_datasets, alpha=alpha, **kwargs)
    cd = critical_difference(len(ranks), n_datasets, alpha=alpha)
    (cd_bar,) = _bars(ax, "critical_difference")
    assert np.ptp(cd_bar.get_xdata()) == pytest.approx(cd, rel=1e-12)
    bars = _bar_members(ax, ranks)
    for members in bars:
        assert len(members) >= 2
        for i, j in itertools.combinations(members, 2):
            gap = abs(ranks[i] - ranks[j])
            assert gap < cd, f"a bar joins {i} and {j}, {gap:.4f} >= CD {cd:.4f}"
    for i, j in itertools.combinations(range(len(ranks)), 2):
        if abs(ranks[i] - ranks[j]) < cd:
            assert any({i, j} <= m for m in bars), f"{i} and {j} are within CD {cd:.4f} but share no bar"
    return ax


def test_demsar_figure_1a():
    ax = _check_diagram(list(DEMSAR.values()), 14, 0.10, names=list(DEMSAR), best="right")
    assert sorted(map(sorted, _bar_members(ax, list(DEMSAR.values())))) == [[0, 2], [1, 2, 3]]
    assert ax.get_xlim()[0] > ax.get_xlim()[1]  # rank 1 on the right, as Demšar draws it
    labels = {t.get_text() for t in ax.texts}
    assert {"C4.5 (3.14)", "C4.5+m (2.00)", "C4.5+cf (2.89)", "C4.5+m+cf (1.96)"} <= labels
    assert "CD = 1.12 (Nemenyi, α = 0.1)" in labels


def test_demsar_at_five_percent_has_one_bar():
    ax = _check_diagram(list(DEMSAR.values()), 14, 0.05, names=list(DEMSAR))
    assert _bar_members(ax, list(DEMSAR.values())) == [{0, 1, 2, 3}]
    assert ax.get_xlim()[0] < ax.get_xlim()[1]  # best on the left by default


def test_random_rank_vectors():
    import matplotlib.pyplot as plt

    rng = np.random.default_rng(0)
    for _ in range(40):
        k = int(rng.integers(2, 10))
        ranks = np.round(rng.uniform(1, k, size=k) * 4) / 4
        _check_diagram(ranks, int(rng.integers(3, 60)), float(rng.choice([0.01, 0.05, 0.1])))
        plt.close("all")


def test_a_dict_or_series_gives_the_names():
    import pandas as pd

    ax = critical_difference_diagram(pd.Series(DEMSAR), 14)
    assert "C4.5+m (2.00)" in {t.get_text() for t in ax.texts}


def test_draws_on_given_axes():
    import matplotlib.pyplot as plt

    _, ax = plt.subplots()
    assert critical_difference_diagram([1.5, 2.5, 2.0], 10, ax=ax) is ax


@pytest.mark.parametrize("kwargs, match", [
    ({"average_ranks": [[1.0, 2.0]], "n_datasets": 5}, "1-d"),
    ({"average_ranks": [1.0, 2.0], "n_datasets": 0}, "`n_datasets` must be an integer >= 1"),
    ({"average_ranks": [1.0, 2.0], "n_datasets": 5, "names": ["a"]}, "`names` must name each"),
    ({"average_ranks": [1.0, 2.0], "n_datasets": 5, "best": "top"}, "`best` must be one of"),
    ({"average_ranks": [1.0, 2.0], "n_datasets": 5, "alpha": 2}, "`alpha` must be a number"),
    ({"average_ranks": [1.0, 2.0], "n_datasets": 5, "ax": "axes"}, "`ax` must be a matplotlib Axes"),
])
def test_arguments_are_checked(kwargs, match):
    with pytest.raises(ValueError, match=match):
        critical_difference_diagram(**kwargs)


def test_importing_the_module_does_not_load_matplotlib():
    code = "import sys, replicability.plotting; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
