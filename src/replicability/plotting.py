"""Figures that span the package's rooms; matplotlib is imported only when one is drawn.

``pyplot()`` is the one place the package imports matplotlib's pyplot for a user's
figure: without matplotlib it raises an :class:`ImportError` that names the extra to
install (``pip install 'replicability[plot]'``).

:func:`critical_difference_diagram` draws Demšar's (2006) CD diagram: the average ranks
of several learners over many data sets on one axis, the critical difference of the
Nemenyi test, and bars joining the groups of learners that are not significantly
different (:func:`replicability.stats.ranks.rank_cliques`, or the cliques of another
post-hoc test). :func:`multi_comparison_matrix` draws every pair's mean difference,
wins/ties/losses and p-value (:func:`replicability.stats.pairwise.pairwise_test`).
"""

from __future__ import annotations

import numpy as np

from ._validation import as_float_array, check_alpha, check_choice, check_positive_int
from .stats.ranks import critical_difference, rank_cliques

__all__ = ["critical_difference_diagram", "multi_comparison_matrix"]

_SIDES = ("left", "right")
# Vertical layout, in axis units: the rank axis at 0, the CD bar above, cliques and labels below.
_CD_Y, _BAR_Y0, _BAR_DY, _LABEL_DY = 0.75, -0.3, 0.22, 0.42
_BAR_PAD = 0.03  # clique bars reach this far (in ranks) beyond their outer learners


def pyplot():
    """matplotlib's ``pyplot``, imported on first use (``import replicability`` stays light).

    Raises
    ------
    ImportError
        When matplotlib is not installed, with the one line that says what to install.

    Examples
    --------
    >>> pyplot().__name__
    'matplotlib.pyplot'
    """
    try:
        import matplotlib.pyplot as plt
    except ModuleNotFoundError as exc:
        if (exc.name or "").partition(".")[0] != "matplotlib":
            raise  # matplotlib is there, one of its own dependencies is not
        raise ImportError("Plotting needs the [plot] extra: pip install 'replicability[plot]'") from None
    return plt


def _names_and_ranks(average_ranks, names):
    if names is None and hasattr(average_ranks, "keys"):  # a dict or a pandas Series
        names = [str(key) for key in average_ranks.keys()]
        average_ranks = [average_ranks[key] for key in average_ranks.keys()]
    ranks = as_float_array(average_ranks, "average_ranks", min_last=2)
    if ranks.ndim != 1:
        raise ValueError(f"`average_ranks` must be 1-d (one value per learner); got shape {ranks.shape}.")
    if names is None:
        names = [str(i) for i in range(ranks.size)]
    names = [str(name) for name in names]
    if len(names) != ranks.size:
        raise ValueError(f"`names` must name each of the {ranks.size} learners; got {len(names)} names.")
    return names, ranks


def critical_difference_diagram(average_ranks, n_datasets, *, names=None, alpha=0.05, best="left", ax=None,
                                cliques=None, test="Nemenyi", caveat=None):
    r"""Demšar's critical difference (CD) diagram of average ranks.

    The learners' average ranks lie on one axis (rank 1, the best, on the ``best``
    side); the bar above the axis has the length of the Nemenyi critical difference
    :math:`CD = q_\alpha \sqrt{k(k+1)/(6N)}` at level ``alpha``; thick bars below the
    axis join each maximal group of learners whose average ranks span less than CD
    (not significantly different, :func:`~replicability.stats.ranks.rank_cliques`).
    Given ``cliques`` from another post-hoc test (e.g.
    :func:`~replicability.stats.pairwise.significance_cliques` of pairwise tests), the
    bars are those and no CD bar is drawn; the test and its level are written above
    the axis. A learner that differs from all others gets no bar. Each learner is
    labelled with its name and average rank, the better half on the ``best`` side;
    learners are ordered by rank, then by position, so the figure does not depend on
    anything but its input.

    Parameters
    ----------
    average_ranks : array_like of shape (k,), dict or pandas.Series
        Average rank of each learner (1 = best), e.g.
        :func:`~replicability.stats.ranks.average_ranks`; a dict or Series also gives
        the names.
    n_datasets : int
        ``N``, the number of data sets the ranks average over.
    names : sequence of str, optional
        Learner names, in the order of ``average_ranks``.
    alpha : float, optional
        Family-wise level of the Nemenyi test (0.05; Demšar's Figure 1(a) uses 0.10).
    best : {"left", "right"}, optional
        Side of rank 1. Demšar draws the best on the right.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when omitted.
    cliques : sequence of sequence of int, optional
        Groups of learner positions not significantly different by ``test``; default
        Nemenyi's.
    test : str, optional
        Name of the post-hoc test that made ``cliques``, written with ``alpha``.
    caveat : str, optional
        A warning written under the title, e.g. that the omnibus test does not reject.

    Returns
    -------
    matplotlib.axes.Axes
        The CD bar has ``gid`` ``"critical_difference"``, each clique bar ``"clique"``,
        each learner's label ``"learner"``, the caveat text ``"caveat"``.

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple
       data sets. JMLR 7, 1-30, Sec. 3.2.4 and Figure 1.
       https://jmlr.org/papers/v7/demsar06a.html

    Examples
    --------
    Demšar's Figure 1(a), from the average ranks of his Table 6:

    >>> from replicability.plotting import critical_difference_diagram
    >>> ranks = {"C4.5": 3.143, "C4.5+m": 2.000, "C4.5+cf": 2.893, "C4.5+m+cf": 1.964}
    >>> ax = critical_difference_diagram(ranks, 14, alpha=0.10, best="right")
    >>> sum(line.get_gid() == "clique" for line in ax.lines)
    2
    """
    plt = pyplot()
    names, ranks = _names_and_ranks(average_ranks, names)
    n = check_positive_int(n_datasets, "n_datasets")
    alpha = check_alpha(alpha)
    best = check_choice(best, "best", _SIDES)
    if ax is not None and not hasattr(ax, "plot"):
        raise ValueError(f"`ax` must be a matplotlib Axes or None; got {type(ax).__name__}.")
    k = ranks.size
    cd = critical_difference(k, n, alpha=alpha) if cliques is None else None
    if cliques is None:
        cliques = rank_cliques(ranks, cd)
    elif any(not 0 <= int(i) < k for c in cliques for i in c):
        raise ValueError(f"`cliques` must hold learner positions in [0, {k}); got {cliques!r}.")
    cliques = [tuple(int(i) for i in c) for c in cliques if len(c) > 1]
    # Better half of the learners labelled on the side of rank 1, the other half on the far side.
    order = list(np.lexsort((np.arange(k), ranks)))
    n_near = (k + 1) // 2
    near, far = order[:n_near], order[n_near:][::-1]
    low, high = 1.0, float(max(k, np.ceil(ranks.max())))
    if ax is None:
        height = 1.2 + 0.32 * (max(len(near), len(far)) + len(cliques))
        # labels stand outside the rank axis on both sides: about 0.07 inch per character at 9 points
        longest = max(len(f"{name} ({r:.2f})") for name, r in zip(names, ranks))
        _, ax = plt.subplots(figsize=(max(6.4, 3.5 + 0.14 * longest), height), layout="constrained")
    # rank axis with ticks
    ax.plot([low, high], [0, 0], color="black", lw=1)
    step = 1 if high - low <= 12 else (2 if high - low <= 24 else 5)  # tick labels that do not collide
    for t in range(int(low), int(high) + 1):
        ax.plot([t, t], [0, 0.12], color="black", lw=1)
        if t == 1 or t % step == 0:
            ax.text(t, 0.2, str(t), ha="center", va="bottom", fontsize=9)
    if cd is not None:  # CD bar from rank 1 inwards
        ax.plot([low, low + cd], [_CD_Y, _CD_Y], color="black", lw=1.5, gid="critical_difference")
        for end in (low, low + cd):
            ax.plot([end, end], [_CD_Y - 0.07, _CD_Y + 0.07], color="black", lw=1.5)
        ax.text(low + cd / 2, _CD_Y + 0.12, f"CD = {cd:.2f} ({test}, α = {alpha:g})", ha="center", va="bottom",
                fontsize=9)
    else:
        ax.text((low + high) / 2, _CD_Y, f"bars: no pair differs ({test}, α = {alpha:g})", ha="center",
                va="bottom", fontsize=9)
    if caveat is not None:
        ax.text((low + high) / 2, _CD_Y + 0.4, str(caveat), ha="center", va="bottom", fontsize=9, color="firebrick",
                gid="caveat")
    # clique bars, one row each
    for row, clique in enumerate(cliques):
        y = _BAR_Y0 - row * _BAR_DY
        ax.plot([ranks[list(clique)].min() - _BAR_PAD, ranks[list(clique)].max() + _BAR_PAD], [y, y],
                color="black", lw=3.5, solid_capstyle="butt", gid="clique")
    # learners: marker on the axis, elbow line down to the label
    top = _BAR_Y0 - len(cliques) * _BAR_DY - 0.15
    margin = 0.25 + 0.02 * (high - low)
    for side, members in (("near", near), ("far", far)):
        edge = (low - margin) if side == "near" else (high + margin)
        # Text runs away from the axis: leftwards on the side drawn on the left.
        ha = "right" if (side == "near") == (best == "left") else "left"
        for row, j in enumerate(members):
            y = top - row * _LABEL_DY
            ax.plot([ranks[j], ranks[j], edge], [0, y, y], color="0.35", lw=0.9)
            ax.plot(ranks[j], 0, "o", color="black", ms=4)
            ax.text(edge + (-0.05 if side == "near" else 0.05), y, f"{names[j]} ({ranks[j]:.2f})",
                    ha=ha, va="center", fontsize=9, gid="learner")
    ax.set_xlim((low - margin, high + margin) if best == "left" else (high + margin, low - margin))
    ax.set_ylim(top - max(len(near), len(far)) * _LABEL_DY, _CD_Y + (0.85 if caveat is not None else 0.45))
    ax.set_axis_off()
    return ax


def multi_comparison_matrix(result, *, names=None, alpha=0.05, ax=None):
    """The multi-comparison matrix of Ismail-Fawaz et al. (2023) as a figure.

    Cell ``(i, j)`` is coloured by the mean difference of scores of learner ``i`` (row)
    minus learner ``j`` (column) over the data sets both have, and reads that mean, the
    wins/ties/losses of ``i`` and Holm's p-value of the pair; pairs that differ at
    ``alpha`` are in bold. Rows and columns keep the order of the learners.

    Parameters
    ----------
    result : PairwiseResult
        Of one table (:func:`~replicability.stats.pairwise.pairwise_test`).
    names : sequence of str, optional
        Learner names, in order.
    alpha : float, optional
        Level at which a pair is shown in bold.
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        Each cell's text has ``gid`` ``"cell i j"``.

    References
    ----------
    .. [1] Ismail-Fawaz, A., et al. (2023). An approach to multiple comparison
       benchmark evaluations that is stable under manipulation of the comparate set.
       arXiv:2305.11921. https://arxiv.org/abs/2305.11921

    Examples
    --------
    >>> from replicability.stats.pairwise import pairwise_test
    >>> from replicability.plotting import multi_comparison_matrix
    >>> res = pairwise_test([[0.8, 0.7, 0.6], [0.9, 0.8, 0.85], [0.7, 0.6, 0.65], [0.75, 0.7, 0.7]])
    >>> ax = multi_comparison_matrix(res, names=["A", "B", "C"])
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "cell 0 1"]
    ['+0.0875\\n4/0/0\\np = 0.204']
    """
    plt = pyplot()
    alpha = check_alpha(alpha)
    diff = np.asarray(getattr(result, "mean_difference", None))
    if diff.ndim != 2 or diff.shape[0] != diff.shape[1]:
        raise ValueError(f"`result` must be the PairwiseResult of one table; got mean differences of shape "
                         f"{diff.shape}.")
    k = diff.shape[0]
    names = [str(i) for i in range(k)] if names is None else [str(n) for n in names]
    if len(names) != k:
        raise ValueError(f"`names` must name each of the {k} learners; got {len(names)} names.")
    if ax is None:
        size = 1.2 + 1.1 * k
        _, ax = plt.subplots(figsize=(size + 1.5, size), layout="constrained")
    bound = float(np.nanmax(np.abs(diff))) or 1.0
    image = ax.imshow(np.where(np.eye(k, dtype=bool), np.nan, diff), cmap="coolwarm_r", vmin=-bound, vmax=bound)
    ax.figure.colorbar(image, ax=ax, label="mean difference (row - column)")
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            # rounded, plus 0.0: a mean difference of 1e-17 (or -0.0) reads as 0
            text = (f"{np.round(diff[i, j], 12) + 0.0:+.3g}\n{int(result.wins[i, j])}/{int(result.ties[i, j])}/"
                    f"{int(result.losses[i, j])}\np = {float(result.adjusted_pvalue[i, j]):.3g}")
            ax.text(j, i, text, ha="center", va="center", fontsize=8, gid=f"cell {i} {j}",
                    fontweight="bold" if result.adjusted_pvalue[i, j] < alpha else "normal")
    ax.set_xticks(range(k), names, rotation=45, ha="right")
    ax.set_yticks(range(k), names)
    ax.set_title(f"wins/ties/losses of the row; Holm p ({result.test}), bold below {alpha:g}", fontsize=9)
    return ax
