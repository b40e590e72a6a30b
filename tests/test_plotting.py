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


# --------------------------------------------------------------------------
# The reference libraries' bug reports as a test corpus (scikit-posthocs issues), each case
# checked from the figure's data and saved as an image in the test's tmp output.
# --------------------------------------------------------------------------


def _labels(ax):
    return [t for t in ax.texts if t.get_gid() == "learner"]


def _no_overlap(ax):
    """No two learner labels overlap on the rendered figure (more than a pixel)."""
    fig = ax.figure
    fig.canvas.draw()
    boxes = [t.get_window_extent() for t in _labels(ax)]
    for a, b in itertools.combinations(boxes, 2):
        both = a.intersection(a, b)
        assert both is None or both.width * both.height < 1.0, (a, b)


@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.10])
def test_corpus_65_the_level_is_the_one_asked_and_written(alpha, tmp_path):
    # scikit-posthocs #65: the diagram ignored alpha
    ranks = [1.4, 2.1, 2.9, 3.6]
    ax = _check_diagram(ranks, 20, alpha)
    assert any(f"α = {alpha:g}" in t.get_text() for t in ax.texts)
    ax.figure.savefig(tmp_path / f"sp65_alpha_{alpha:g}.png")


def test_corpus_82_all_different_means_no_bar(tmp_path):
    # scikit-posthocs #82: a single bar although all learners differ
    ranks = [1.0, 2.0, 3.0, 4.0]
    ax = _check_diagram(ranks, 200, 0.05)
    assert _bars(ax, "clique") == []
    ax.figure.savefig(tmp_path / "sp82_all_differ.png")


def test_corpus_86_overlapping_cliques_get_their_own_rows(tmp_path):
    # scikit-posthocs #86: bars of overlapping groups drawn on top of each other
    ranks = [1.0, 1.6, 2.2, 2.8, 3.4, 4.0]
    ax = _check_diagram(ranks, 30, 0.05)
    heights = [line.get_ydata()[0] for line in _bars(ax, "clique")]
    assert len(heights) >= 2 and len(set(heights)) == len(heights)
    ax.figure.savefig(tmp_path / "sp86_overlapping.png")


def test_corpus_89_order_does_not_depend_on_input_order_or_hashing(tmp_path):
    # scikit-posthocs #89: the order of tied learners depended on the hash seed
    ranks = {"gamma": 2.0, "alpha": 2.0, "beta": 1.5, "delta": 3.5}
    first = critical_difference_diagram(ranks, 10)
    again = critical_difference_diagram(dict(reversed(list(ranks.items()))), 10)

    def layout(ax):
        return sorted((t.get_text(), round(t.get_position()[1], 9)) for t in _labels(ax))

    # beta (best) and delta (worst) are alone on their sides; the tie alpha = gamma is broken by input position
    assert [t for t, _ in layout(first)] == ["alpha (2.00)", "beta (1.50)", "delta (3.50)", "gamma (2.00)"]
    assert {t for t, _ in layout(first)} == {t for t, _ in layout(again)}
    # tied learners are placed by their position in the input, so drawing twice gives the same figure
    assert layout(first) == layout(critical_difference_diagram(ranks, 10))
    code = ("import matplotlib; matplotlib.use('Agg');"
            "from replicability.plotting import critical_difference_diagram as d;"
            "ax = d({'gamma': 2.0, 'alpha': 2.0, 'beta': 1.5, 'delta': 3.5}, 10);"
            "print(sorted((t.get_text(), round(t.get_position()[1], 9)) for t in ax.texts))")
    outs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={**__import__("os").environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("0", "1", "12345")}
    assert len(outs) == 1
    first.figure.savefig(tmp_path / "sp89_ties.png")


@pytest.mark.parametrize("k", [2, 5, 12, 30])
def test_two_to_thirty_learners_with_long_names_stay_readable(k, tmp_path):
    rng = np.random.default_rng(k)
    ranks = np.sort(rng.uniform(1, k, size=k))
    names = [f"a rather long learner name number {j:02d} (tuned)" for j in range(k)]
    ax = _check_diagram(list(ranks), 25, 0.05, names=names)
    assert len(_labels(ax)) == k
    _no_overlap(ax)
    ax.figure.savefig(tmp_path / f"k{k}_long_names.png")


def test_cliques_from_another_test_and_the_caveat(tmp_path):
    ranks = [1.2, 2.0, 2.8]
    ax = critical_difference_diagram(ranks, 6, cliques=[(0, 1), (1, 2)], test="Wilcoxon signed-rank tests with Holm",
                                     caveat="Friedman p = 0.2 >= 0.05: no difference shown")
    assert _bars(ax, "critical_difference") == []
    assert sorted(map(sorted, _bar_members(ax, ranks))) == [[0, 1], [1, 2]]
    assert any("Wilcoxon signed-rank tests with Holm, α = 0.05" in t.get_text() for t in ax.texts)
    assert [t.get_text() for t in ax.texts if t.get_gid() == "caveat"] == ["Friedman p = 0.2 >= 0.05: no difference "
                                                                            "shown"]
    ax.figure.savefig(tmp_path / "pairwise_cliques_caveat.png")
    with pytest.raises(ValueError, match="`cliques`"):
        critical_difference_diagram(ranks, 6, cliques=[(0, 3)])


def test_multi_comparison_matrix_reads_the_result(tmp_path):
    from replicability.plotting import multi_comparison_matrix
    from replicability.stats.pairwise import pairwise_test

    rng = np.random.default_rng(7)
    x = rng.normal(size=(30, 4)) + np.array([0.0, 0.1, 0.6, 1.2])
    res = pairwise_test(x)
    ax = multi_comparison_matrix(res, names=list("ABCD"))
    for i, j in itertools.permutations(range(4), 2):
        (cell,) = [t for t in ax.texts if t.get_gid() == f"cell {i} {j}"]
        mean, wtl, p = cell.get_text().split("\n")
        assert float(mean) == pytest.approx(res.mean_difference[i, j], rel=5e-3)
        assert wtl == f"{res.wins[i, j]}/{res.ties[i, j]}/{res.losses[i, j]}"
        assert float(p.removeprefix("p = ")) == pytest.approx(res.adjusted_pvalue[i, j], rel=5e-3)
        assert (cell.get_fontweight() == "bold") == bool(res.adjusted_pvalue[i, j] < 0.05)
    assert [t.get_text() for t in ax.get_xticklabels()] == list("ABCD")
    ax.figure.savefig(tmp_path / "multi_comparison_matrix.png")
    with pytest.raises(ValueError, match="one table"):
        multi_comparison_matrix(pairwise_test(np.stack([x, x])))
    with pytest.raises(ValueError, match="`names`"):
        multi_comparison_matrix(res, names=["A"])
