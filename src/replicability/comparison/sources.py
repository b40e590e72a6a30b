"""Which randomness moved the result: the variance of a comparison due to splits, to seeds, and to both.

:func:`variance_by_source` runs a crossed design, ``n_repeats`` randomizations of the
splits by ``n_seeds`` sets of learner seeds, the same seed set ``j`` with every
randomization ``i``, and splits the variance of the mean difference A - B into its
split, seed and interaction components
(:func:`~replicability.stats.variance_components.crossed_components`). Each cell is
also decided by the corrected test, so the replicability of the decision can be read
under new splits (down a column, seeds fixed) and under new seeds (along a row, splits
fixed) separately: which of the two to buy more of (Bouthillier et al. 2021).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np

from .._validation import check_positive_int
from ..plotting import pyplot
from ..stats.measures import replicability_r2
from ..stats.variance_components import COMPONENTS, crossed_components
from .analysis import analyse_pair, fit_and_score, scoring_name
from .result import Reported

__all__ = ["SourceVariance", "variance_by_source"]

_LABELS = {1: "A better", 0: "no difference", -1: "B better"}


@dataclass(frozen=True)
class SourceVariance(Reported):
    """A crossed split x seed comparison of two learners, its variance by source.

    Attributes
    ----------
    differences : ndarray, shape (n_repeats, n_seeds)
        Mean difference A - B over the splits of every cell (randomization ``i`` of the
        splits, seed set ``j``).
    decisions : ndarray of int8, shape (n_repeats, n_seeds)
        The recommended corrected test's decision in every cell.
    components : VarianceComponents
        The split, seed and interaction variance of ``differences``.
    comparison : Comparison
        The whole design as one :class:`~replicability.comparison.result.Comparison`,
        cells as its randomizations (``i`` major).
    drawn : list of str
        The ``random_state`` parameters drawn per seed set, by learner (``"A: random_state"``);
        empty when neither learner's randomness goes through ``random_state``.
    drawn_seeds : dict of str to ndarray
        For ``"A"`` and ``"B"``, the drawn values of every seed set, shape (n_seeds, runs,
        folds, number of drawn parameters): set ``j`` is used with every randomization.
    """

    differences: np.ndarray
    decisions: np.ndarray
    components: object
    comparison: object
    drawn: list
    drawn_seeds: dict

    @property
    def shape(self):
        return self.differences.shape

    def replicability(self):
        """R̂2 of the decision under new splits (each seed set's column) and under new seeds (each row).

        Returns
        -------
        dict
            ``"new splits"`` and ``"new seeds"``: the mean R̂2 over columns (rows), with
            its smallest and largest value.
        """
        out = {}
        for name, lines in (("new splits", self.decisions.T), ("new seeds", self.decisions)):
            r2 = np.array([float(replicability_r2(line)) for line in lines])
            out[name] = {"r2": float(r2.mean()), "min": float(r2.min()), "max": float(r2.max())}
        return out

    def larger_source(self):
        """``"split"`` or ``"seed"`` when its component exceeds the other by more than two standard errors of the
        difference (the two estimates share the residual mean square; their errors are added, a conservative
        bound), else ``"inconclusive at this scale"``."""
        est, se = self.components.raw, self.components.standard_error
        gap = est["split"] - est["seed"]
        bound = 2 * (se["split"] + se["seed"])
        if gap > bound:
            return "split"
        if -gap > bound:
            return "seed"
        return "inconclusive at this scale"

    def to_frame(self):
        """One row per component: estimate (negative estimates as 0), raw estimate, standard error, share."""
        import pandas as pd

        share = self.components.share()
        return pd.DataFrame({"variance": self.components.estimate, "raw estimate": self.components.raw,
                             "standard error": self.components.standard_error, "share": share},
                            index=list(COMPONENTS)).rename_axis("source")

    def to_dict(self):
        """Plain Python values (JSON-ready)."""
        return {"n_repeats": self.shape[0], "n_seeds": self.shape[1], "scheme": self.comparison.scheme,
                "scoring": self.comparison.scoring, "drawn": self.drawn,
                "components": self.to_frame().reset_index().to_dict(orient="records"),
                "truncated": self.components.truncated, "larger_source": self.larger_source(),
                "replicability": self.replicability(), "mean_difference": float(self.differences.mean())}

    def summary(self):
        """The decomposition in a few plain lines."""
        r, s = self.shape
        lines = [f"Variance by source: {r} randomizations of the splits x {s} seed sets, "
                 f"{self.comparison.scheme} per cell; score: {self.comparison.scoring}; "
                 f"mean difference A - B {self.differences.mean():+.4f}"]
        share = self.components.share()
        for name in COMPONENTS:
            lines.append(f"  {name:<11} variance {self.components.estimate[name]:.3g} "
                         f"(se {self.components.standard_error[name]:.2g}), share {share[name]:.0%}"
                         + (" (negative estimate, shown as 0)" if name in self.components.truncated else ""))
        rep = self.replicability()
        lines.append(f"replicability of the decision: under new splits R2 {rep['new splits']['r2']:.3f}, "
                     f"under new seeds R2 {rep['new seeds']['r2']:.3f}")
        lines.append(f"larger source (beyond two standard errors): {self.larger_source()}")
        if not self.drawn:
            lines.append("neither learner has a random_state to draw: the seeds cannot move the result")
        return "\n".join(lines)


    def __repr__(self):
        return f"<SourceVariance {self.shape[0]} x {self.shape[1]}: larger source {self.larger_source()}>"


    def plot(self, ax=None):
        """The cells' mean differences (decisions marked) and the components with two standard errors.

        Returns
        -------
        numpy.ndarray of matplotlib.axes.Axes
            The two panels.
        """
        plt = pyplot()
        if ax is None:
            _, ax = plt.subplots(1, 2, figsize=(10, 3.6), constrained_layout=True)
        r, s = self.shape
        bound = np.abs(self.differences).max() or 1.0
        image = ax[0].imshow(self.differences, cmap="RdBu", vmin=-bound, vmax=bound, aspect="auto")
        for i in range(r):
            for j in range(s):
                ax[0].text(j, i, {1: "A", 0: "", -1: "B"}[int(self.decisions[i, j])], ha="center", va="center",
                           fontsize="small")
        ax[0].set(xlabel="seed set", ylabel="randomization of the splits", title="mean A - B (letter: decision)")
        plt.colorbar(image, ax=ax[0])
        est = [self.components.estimate[n] for n in COMPONENTS]
        se = [self.components.standard_error[n] for n in COMPONENTS]
        ax[1].bar(COMPONENTS, est, yerr=2 * np.array(se), color=["C0", "C1", "C2"], capsize=4)
        ax[1].set(ylabel="variance of the mean difference", title="components (± 2 se)")
        return np.asarray(ax)


def variance_by_source(estimator_a, estimator_b, X, y, *, scheme="1x10cv", n_repeats=10, n_seeds=10, scoring=None,
                       alpha=0.05, n_runs=10, test_size=0.1, cv=None, groups=None, fit_params=None, n_jobs=1,
                       backend="processes", progress=None, rng=None):
    """Split the variance of a comparison into what the splits, the learners' seeds and both contribute.

    Every one of ``n_repeats`` randomizations of the splits is run with every one of
    ``n_seeds`` sets of learner seeds (every ``random_state`` drawn, as
    ``compare(..., estimator_seeds="all")``), the same set in every randomization, and
    the mean difference A - B of each cell is decomposed by
    :func:`~replicability.stats.variance_components.crossed_components`. A large split
    component asks for more runs or randomizations of the splits; a large seed
    component for more seeds (or averaging over seeds) before a decision is trusted.

    Parameters
    ----------
    estimator_a, estimator_b : scikit-learn estimator
        As in :func:`~replicability.comparison.run.compare`.
    X, y : array-like
        As in :func:`~replicability.comparison.run.compare`.
    scheme : str, default "1x10cv"
        The scheme run in every cell. One run of 10-fold cv per cell keeps the default
        design (10 x 10 cells) at the 2,000 fits of ``compare``'s default.
    n_repeats, n_seeds : int, default 10
        Randomizations of the splits and sets of learner seeds, each at least 2.
    scoring, alpha, n_runs, test_size, cv, groups, fit_params, n_jobs, backend, progress
        As in :func:`~replicability.comparison.run.compare`.
    rng : numpy.random.Generator, int or None
        Root of the splits' randomizations (as ``compare`` draws them) and, after them,
        of the ``n_seeds`` seed sets.

    Returns
    -------
    SourceVariance

    References
    ----------
    .. [1] Bouthillier, X., Delaunay, P., Bronzi, M., et al. (2021). Accounting for
       variance in machine learning benchmarks. MLSys 2021. https://arxiv.org/abs/2103.03098
    .. [2] Bouckaert, R. R. (2004). Estimating replicability of classifier learning
       experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.ensemble import RandomForestClassifier
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from replicability.comparison import variance_by_source
    >>> X, y = load_iris(return_X_y=True)
    >>> res = variance_by_source(RandomForestClassifier(n_estimators=5), GaussianNB(), X, y,
    ...                          scheme="1x5cv", n_repeats=3, n_seeds=3, rng=0)
    >>> res.differences.shape, sorted(res.to_frame().index)
    ((3, 3), ['interaction', 'seed', 'split'])
    """
    n_seeds = check_positive_int(n_seeds, "n_seeds", minimum=2)
    run = fit_and_score({"A": estimator_a, "B": estimator_b}, {"A": "estimator_a", "B": "estimator_b"}, X, y,
                        scheme=scheme, n_runs=n_runs, test_size=test_size, cv=cv, groups=groups, scoring=scoring,
                        fit_params=fit_params, n_repeats=n_repeats, alpha=alpha, alternative="two-sided", rope=None,
                        estimator_seeds="all", quick=False, n_jobs=n_jobs, backend=backend, progress=progress,
                        rng=rng, n_seeds=n_seeds)
    if run.metrics is not None:
        raise ValueError("variance_by_source takes one metric; pass a single `scoring`.")
    drawn = [f"{side}: {name}" for side, plan in run.seed_plans.items() for name in plan.drawn]
    if not drawn:
        warnings.warn("Neither learner has a random_state parameter: the seeds cannot move the result, and the seed "
                      "component is 0 up to noise.", UserWarning, stacklevel=2)
    whole = analyse_pair(run.scores[..., 0], run.scores[..., 1], run.kind, run.n_train, run.n_test, alpha=run.alpha,
                         df=None, scheme=run.scheme, scoring=scoring_name(scoring, estimator_a, estimator_b),
                         seeds=None, rope=None)
    shape = (run.scores.shape[0] // n_seeds, n_seeds)
    differences = whole.differences.mean(axis=(1, 2)).reshape(shape)
    decisions = whole.decisions[whole.recommended].reshape(shape)
    return SourceVariance(differences, decisions, crossed_components(differences), whole, drawn, run.drawn_seeds)
