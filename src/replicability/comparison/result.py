"""The result of comparing two learners: scores, tests, decision, and its replicability over randomizations."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..plotting import pyplot
from ..stats.bayesian import BAYESIAN_DECISIONS
from ..stats.equivalence import noninferiority, tost
from ..stats.measures import (
    outcome_counts,
    r1_variance,
    r2_variance,
    replicability_r1,
    replicability_r2,
    replicability_r2_from_counts,
)
from ..stats.ttests import corrected_repeated_cv_ttest, corrected_resampled_ttest
from .seeds import seed_text

__all__ = ["Comparison", "Reported"]

_LABELS = {1: "A better", 0: "no difference", -1: "B better"}
#: Posterior probability above which the Bayesian test decides (Benavoli et al. 2017).
BAYESIAN_THRESHOLD = 0.95
_PROBABILITY_COLUMNS = ("P(A better)", "P(equivalent)", "P(B better)")


class Reported:
    """What every comparison result shows: ``str`` is its ``summary()``; in a notebook, the summary's lines
    (escaped) then its ``to_frame()`` (numbers to 4 significant digits, missing values blank)."""

    def __str__(self):
        return self.summary()

    def _repr_html_(self):
        escaped = self.summary().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return (f"<p>{'<br>'.join(escaped.splitlines())}</p>"
                + self.to_frame().to_html(float_format=lambda v: f"{v:.4g}", na_rep=""))


def _json_seed(value):
    """A kept ``random_state`` as JSON: the int, or the name of its type (a ``RandomState``)."""
    return int(value) if isinstance(value, (int, np.integer)) else type(value).__name__


def _df_text(df):
    """Degrees of freedom as shown: ``99``, ``10, 5`` (an F test's pair), or empty."""
    if df is None:
        return ""
    return ", ".join(f"{float(v):g}" for v in np.atleast_1d(df))


@dataclass(frozen=True)
class Comparison(Reported):
    """Learners A and B compared on the same splits, under several randomizations.

    The tests and the decision are those of the first randomization (the
    experiment as one runs it once); the other randomizations measure how
    replicable that decision is (Bouckaert 2004): the same experiment with
    other random splits should reach the same decision.

    Attributes
    ----------
    scheme, scoring : str
        The sampling scheme (``"10x10cv"``, ``"resampling"``, ...) and the score.
    alpha : float
        Significance level of the decisions.
    n_train, n_test : float
        Mean training and test set sizes of a split.
    scores_a, scores_b : ndarray, shape (n_repeats, n_runs, n_folds)
        Score of each learner on every test set.
    seeds : list of int or None
        ``random_state`` of each randomization's splitter (None for precomputed scores).
    tests : dict of str to TestResult
        Every applicable test on the first randomization; the first is the
        recommended one.
    pvalues : dict of str to ndarray
        Each test's p-value under every randomization.
    decisions : dict of str to ndarray of int8
        Each test's decision (+1 A better, 0 no difference, -1 B better) under
        every randomization.
    rope : float or None
        Half-width of the region of practical equivalence, on the scale of the
        score; None when no Bayesian test was asked for.
    bayesian : BayesianTTestResult or None
        The Bayesian correlated t-test with that ROPE under every randomization
        (arrays of length ``n_repeats``; Corani & Benavoli 2015). It decides
        when a posterior probability exceeds ``BAYESIAN_THRESHOLD`` (0.95),
        else reports "undecided".
    seed_plans : dict of str to SeedPlan or None
        For ``"A"`` and ``"B"``: which ``random_state`` parameters were drawn from
        ``rng`` for every split and which were kept as the user fixed them
        (:class:`~replicability.comparison.seeds.SeedPlan`); None for precomputed scores.
    drawn_seeds : dict of str to ndarray or None
        For ``"A"`` and ``"B"``: the drawn values, shape (n_repeats, n_runs, n_folds,
        number of drawn parameters), in the order of ``seed_plans[side].drawn``.
    alternative : {"two-sided", "greater", "less"}
        The tests' alternative hypothesis: ``"greater"``, A's expected score is
        higher than B's; ``"less"``, lower.
    quick : bool
        Whether this is :func:`~replicability.comparison.run.compare`'s quick look
        (a first look, not a result to report; the summary says why).
    """

    scheme: str
    scoring: str
    alpha: float
    n_train: float
    n_test: float
    scores_a: np.ndarray
    scores_b: np.ndarray
    seeds: list | None
    tests: dict
    pvalues: dict
    decisions: dict
    rope: float | None = None
    bayesian: object = None
    seed_plans: dict | None = None
    drawn_seeds: dict | None = None
    alternative: str = "two-sided"
    quick: bool = False

    @property
    def recommended(self):
        """Name of the recommended test (corrected repeated cv t, or corrected resampled t)."""
        return next(iter(self.tests))

    @property
    def differences(self):
        """Scores of A minus scores of B, shape (n_repeats, n_runs, n_folds)."""
        return self.scores_a - self.scores_b

    @property
    def n_repeats(self):
        return self.scores_a.shape[0]

    @property
    def mean_difference(self):
        """Mean of A - B over the splits of the first randomization."""
        return float(self.differences[0].mean())

    @property
    def decision(self):
        """The recommended test's decision on the first randomization: 1, 0 or -1."""
        return int(self.decisions[self.recommended][0])

    def confidence_interval(self, confidence_level=0.95):
        """Interval for the expected difference, from the recommended test's corrected variance.

        ``m ± t(df) sqrt((1/(df+1) + n_test/n_train) s²)``: the standard error of the
        corrected t-tests (Nadeau & Bengio 2003; Bouckaert & Frank 2004), so the
        interval excludes 0 exactly when the two-sided test rejects at
        ``1 - confidence_level`` (the test result's own ``confidence_interval``).

        Returns
        -------
        tuple of float
            ``(low, high)``.
        """
        low, high = self.tests[self.recommended].confidence_interval(confidence_level)
        return float(low), float(high)

    @cached_property
    def _corrected(self):
        """The recommended corrected t-test under every randomization (arrays of length ``n_repeats``)."""
        d, sizes = self.differences, {"n_train": self.n_train, "n_test": self.n_test}
        if self.recommended == "corrected repeated cv t":
            return corrected_repeated_cv_ttest(d, **sizes)
        return corrected_resampled_ttest(d.reshape(d.shape[0], -1), **sizes)

    def _margin(self, margin):
        if margin is None:
            if self.rope is None or self.rope == 0:
                raise ValueError("No margin: pass `margin=` (on the scale of the score, e.g. 0.01), or compare "
                                 "with a positive `rope=`, the default margin.")
            return self.rope
        return margin

    def equivalence(self, margin=None):
        """Two one-sided corrected t-tests (TOST) that A and B are within ``margin`` of each other.

        The null hypothesis is ``|delta| >= margin``; rejecting it at ``alpha`` shows the
        expected difference lies inside ``(-margin, margin)`` (Schuirmann 1987). Both
        one-sided tests use the recommended test's corrected standard error and df
        (Nadeau & Bengio 2003), so equivalence is shown exactly when the
        ``1 - 2 alpha`` interval of :meth:`confidence_interval` lies inside the margin.
        With the Bayesian correlated t-test on the same ROPE, the two one-sided
        p-values are its ``P(A better)`` and ``P(B better)``: TOST's p-value is the
        larger of the two, so equivalence at ``alpha`` means ``P(equivalent) > 1 - 2 alpha``.

        Parameters
        ----------
        margin : float, optional
            Equivalence margin on the scale of the score, fixed before looking;
            default: the comparison's ``rope``.

        Returns
        -------
        TostResult
            Statistic and p-value under every randomization (arrays of length
            ``n_repeats``; the first is the experiment as run once).

        Examples
        --------
        >>> import numpy as np
        >>> from replicability.comparison import compare_scores
        >>> a = np.array([0.90, 0.92, 0.88, 0.91, 0.93, 0.90, 0.89, 0.92, 0.91, 0.90])
        >>> res = compare_scores(a, a - 0.002, scheme="2x5cv", n_train=80, n_test=20, rope=0.01)
        >>> bool(res.equivalence().pvalue[0] < 0.05)
        True
        """
        corrected = self._corrected
        return tost(corrected.estimate, corrected.standard_error, margin=self._margin(margin), df=corrected.df)

    def noninferiority(self, margin=None, *, of="A"):
        """One-sided corrected t-test that ``of`` is no worse than the other by ``margin`` or more.

        For ``of="A"`` the null hypothesis is ``delta <= -margin`` (A worse than B by
        the margin or more); rejecting it shows A is not worse by that much: the
        question of a practitioner who would take the cheaper learner A unless it
        loses ``margin``. Same corrected standard error and df as :meth:`equivalence`.

        Parameters
        ----------
        margin : float, optional
            Non-inferiority margin on the scale of the score; default: ``rope``.
        of : {"A", "B"}, default "A"
            The learner shown to be no worse.

        Returns
        -------
        TostResult
            Under every randomization, ``alternative = "noninferiority"``.
        """
        if of not in ("A", "B"):
            raise ValueError(f"`of` must be 'A' or 'B'; got {of!r}.")
        corrected = self._corrected
        sign = 1 if of == "A" else -1
        return noninferiority(sign * corrected.estimate, corrected.standard_error, margin=self._margin(margin),
                              df=corrected.df)

    @property
    def effect_size(self):
        """Standardized mean difference of the first randomization, ``mean(d) / sd(d)`` over its splits.

        Cohen's :math:`d_z` of the paired per-split differences A - B (Cohen 1988;
        Lakens 2013): the difference in units of the spread of one split's difference.
        It is not Cohen's d of two independent groups, and it depends on the test-set
        size (smaller test sets, noisier per-split scores, a smaller :math:`d_z`), so
        compare it between experiments of one scheme and data size only. Zero spread
        gives ``0`` for a zero mean and ``±inf`` otherwise.
        """
        d = self.differences[0].reshape(-1)
        mean, sd = float(d.mean()), float(d.std(ddof=1))
        if sd == 0:
            return 0.0 if mean == 0 else float(np.copysign(np.inf, mean))
        return mean / sd

    def replicability(self, test=None):
        """Replicability of a test's decision over the randomizations (Bouckaert 2004).

        Returns
        -------
        dict
            ``r2``, ``r2_se`` (R̂2, all pairs of randomizations agreeing, and its
            plug-in standard error), ``r1``, ``r1_se`` (R̂1, consecutive disjoint
            pairs; over an even number of randomizations), ``consistent`` (all
            agree) and ``counts`` (how many said B better, no difference, A better).
        """
        outcomes = self.decisions[self.recommended if test is None else test]
        n = outcomes.shape[0]
        counts = outcome_counts(outcomes)
        r2 = float(replicability_r2(outcomes))
        even = outcomes[: n - n % 2]
        r1 = float(replicability_r1(even))
        return {"r2": r2, "r2_se": float(np.sqrt(max(r2_variance(counts / n, n), 0.0))),
                "r1": r1, "r1_se": float(np.sqrt(r1_variance(r1, even.shape[0]))),
                "consistent": bool(np.all(outcomes == outcomes[0])),
                "counts": {_LABELS[v]: int(c) for v, c in zip((-1, 0, 1), counts)}}

    @property
    def warning(self):
        """A plain-language warning when the decision changes with the randomization, else None."""
        if self.n_repeats < 2:
            return None
        counts = self.replicability()["counts"]
        if sum(c > 0 for c in counts.values()) < 2:
            return None
        said = ", ".join(f"{c} say {label}" for label, c in counts.items() if c)
        return (f"Not replicable: of {self.n_repeats} randomizations of the same experiment, {said}. "
                f"The decision depends on the random splits; report it as such, or use more data or runs.")

    def scores_frame(self):
        """One row per split: its ``repeat``, ``run`` and ``fold``, the scores of A and B, and A - B."""
        import pandas as pd

        repeat, run, fold = np.indices(self.scores_a.shape).reshape(3, -1)
        return pd.DataFrame({"repeat": repeat, "run": run, "fold": fold, "A": self.scores_a.reshape(-1),
                             "B": self.scores_b.reshape(-1), "A - B": self.differences.reshape(-1)})

    @property
    def bayesian_name(self):
        """Row name of the Bayesian correlated t-test in :meth:`to_frame` (None without a ROPE)."""
        return None if self.rope is None else f"Bayesian correlated t, rope {self.rope:g}"

    def bayesian_decisions(self):
        """The Bayesian test's decision under every randomization (labels of ``BAYESIAN_DECISIONS``)."""
        if self.bayesian is None:
            raise ValueError("`rope` was not given: no Bayesian test to report; pass `rope=` to compare.")
        return np.atleast_1d(self.bayesian.decision(BAYESIAN_THRESHOLD))

    def _bayesian_summary(self):
        """First randomization's probabilities and decision, and the decisions' agreement over randomizations."""
        decisions = self.bayesian_decisions()
        counts = {label: int(np.sum(decisions == label)) for label in BAYESIAN_DECISIONS}
        probs = {name: float(np.atleast_1d(p)[0]) for name, p in zip(_PROBABILITY_COLUMNS, self.bayesian)}
        agree = (float(replicability_r2_from_counts(list(counts.values()))) if self.n_repeats >= 2 else np.nan)
        return {"rope": self.rope, "threshold": BAYESIAN_THRESHOLD, **probs, "decision": str(decisions[0]),
                "replicability R2": agree, "consistent": bool(np.all(decisions == decisions[0])),
                "counts": {label: c for label, c in counts.items() if c}}

    def to_frame(self):
        """One row per test: statistic, df, p-value and decision of the first randomization,
        the p-values' range and the decision's replicability over all randomizations."""
        import pandas as pd

        rows = []
        for name, res in self.tests.items():
            rep = self.replicability(name) if self.n_repeats >= 2 else {"r2": np.nan, "consistent": np.nan}
            rows.append({"test": name, "statistic": float(res.statistic), "df": _df_text(res.df),
                         "pvalue": float(res.pvalue),
                         "decision": _LABELS[int(self.decisions[name][0])],
                         "pvalue min": float(self.pvalues[name].min()), "pvalue max": float(self.pvalues[name].max()),
                         "replicability R2": rep["r2"], "consistent": rep["consistent"],
                         "standardized effect": self.effect_size if name == self.recommended else np.nan})
        if self.rope:  # the equivalence and non-inferiority tests at the ROPE
            rows.extend(self._margin_rows())
        if self.bayesian is not None:
            # no statistic nor p-value: the posterior probabilities stand beside the tests' columns
            bayes = self._bayesian_summary()
            rows.append({"test": self.bayesian_name, "statistic": np.nan, "df": _df_text(self.bayesian.df),
                         "pvalue": np.nan, "decision": bayes["decision"], "pvalue min": np.nan, "pvalue max": np.nan,
                         "replicability R2": bayes["replicability R2"],
                         "consistent": bayes["consistent"] if self.n_repeats >= 2 else np.nan,
                         **{name: bayes[name] for name in _PROBABILITY_COLUMNS}})
        return pd.DataFrame(rows).set_index("test")

    def _margin_tests(self):
        """Name, result and decision label of TOST and both non-inferiority tests at the ROPE."""
        m = f"{self.rope:g}"
        return [(f"equivalence (TOST), margin {m}", self.equivalence(), "equivalent"),
                (f"non-inferiority of A, margin {m}", self.noninferiority(of="A"), f"A not worse by {m}"),
                (f"non-inferiority of B, margin {m}", self.noninferiority(of="B"), f"B not worse by {m}")]

    def _margin_rows(self):
        """:meth:`to_frame` rows of the tests at the ROPE, their decisions' replicability over randomizations."""
        rows = []
        for name, res, label in self._margin_tests():
            p = np.atleast_1d(res.pvalue)
            shown = (p < self.alpha).astype(np.int8)
            rep = float(replicability_r2(shown)) if self.n_repeats >= 2 else np.nan
            rows.append({"test": name, "statistic": float(np.atleast_1d(res.statistic)[0]),
                         "df": _df_text(np.atleast_1d(res.df)[0]), "pvalue": float(p[0]),
                         "decision": label if shown[0] else "not shown", "pvalue min": float(p.min()),
                         "pvalue max": float(p.max()), "replicability R2": rep,
                         "consistent": bool(np.all(shown == shown[0])) if self.n_repeats >= 2 else np.nan})
        return rows

    def to_dict(self):
        """Plain Python values (JSON-ready): the decision, difference, interval, replicability and every test."""
        low, high = self.confidence_interval(1 - self.alpha)
        frame = self.to_frame().reset_index()
        return {
            "scheme": self.scheme, "scoring": self.scoring, "alpha": self.alpha, "alternative": self.alternative,
            "n_repeats": self.n_repeats, "quick": self.quick,
            "recommended": self.recommended, "decision": _LABELS[self.decision],
            "mean_difference": self.mean_difference, "confidence_interval": [low, high],
            "standardized_effect": self.effect_size,
            "replicability": self.replicability() if self.n_repeats >= 2 else None, "warning": self.warning,
            "seeds": self.seeds,
            "estimator_seeds": None if self.seed_plans is None else {
                side: {"drawn": list(plan.drawn), "fixed": {name: _json_seed(v) for name, v in plan.fixed.items()}}
                for side, plan in self.seed_plans.items()},
            "rope": self.rope,
            "bayesian": None if self.bayesian is None else {
                k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in self._bayesian_summary().items()},
            "tests": [{k: (None if isinstance(v, float) and np.isnan(v) else v) for k, v in row.items()}
                      for row in frame.to_dict(orient="records")],
        }

    def summary(self):
        """The comparison in a few plain lines."""
        low, high = self.confidence_interval(1 - self.alpha)
        res = self.tests[self.recommended]
        n_repeats, n_runs, n_folds = self.scores_a.shape
        lines = [
            f"Comparison of A and B: {self.scheme}, {n_runs * n_folds} splits per randomization, "
            f"{n_repeats} randomization{'s' if n_repeats > 1 else ''}; score: {self.scoring}",
            f"mean score A {self.scores_a[0].mean():.4f}, B {self.scores_b[0].mean():.4f}; "
            f"difference A - B {self.mean_difference:+.4f}, {1 - self.alpha:.0%} CI [{low:+.4f}, {high:+.4f}], "
            f"standardized effect d_z {self.effect_size:+.3f}",
            f"{self.recommended}: statistic {float(res.statistic):.4f}, df {_df_text(res.df)}, "
            f"p = {float(res.pvalue):.4g}"
            + ("" if self.alternative == "two-sided" else f" (one-sided, alternative {self.alternative!r})")
            + f" -> {_LABELS[self.decision]} at alpha = {self.alpha:g}",
        ]
        if n_repeats >= 2:
            rep = self.replicability()
            p = self.pvalues[self.recommended]
            lines.append(f"replicability over randomizations: R2 = {rep['r2']:.3f} (se {rep['r2_se']:.3f}), "
                         f"p-values {p.min():.4g} to {p.max():.4g}; "
                         + ", ".join(f"{label} {c}" for label, c in rep["counts"].items()))
        if self.seed_plans is not None:
            lines.append("learners' own randomness: "
                         + "; ".join(seed_text(side, plan) for side, plan in self.seed_plans.items()))
        if self.bayesian is not None:
            bayes = self._bayesian_summary()
            lines.append(
                f"{self.bayesian_name}: P(A better) {bayes['P(A better)']:.3f}, "
                f"P(equivalent) {bayes['P(equivalent)']:.3f}, P(B better) {bayes['P(B better)']:.3f} "
                f"-> {bayes['decision']} (decides above {BAYESIAN_THRESHOLD:g})"
                + ("; over randomizations: " + ", ".join(f"{label} {c}" for label, c in bayes["counts"].items())
                   if n_repeats >= 2 else ""))
        if self.rope:
            lines.append("at the ROPE: " + "; ".join(
                f"{name} p = {float(np.atleast_1d(res.pvalue)[0]):.4g} -> "
                f"{label if float(np.atleast_1d(res.pvalue)[0]) < self.alpha else 'not shown'}"
                for name, res, label in self._margin_tests()))
        if self.warning:
            lines.append("WARNING: " + self.warning)
        if self.quick:
            lines.append(f"QUICK LOOK ({2 * self.scores_a.size} fits): a first look, not a result to report; "
                         f"{n_runs * n_folds} differences give the test little power and {n_repeats} randomizations "
                         f"say little about replicability; rerun without quick=True (default 10x10cv, 10 "
                         f"randomizations: 2000 fits).")
        return "\n".join(lines)


    def __repr__(self):
        pvalue = float(self.tests[self.recommended].pvalue)
        return f"<Comparison {self.scheme}: {_LABELS[self.decision]}, p = {pvalue:.4g}>"


    def plot(self, ax=None):
        """Per-split differences with the mean and its interval, and the p-value of every randomization.

        Returns
        -------
        numpy.ndarray of matplotlib.axes.Axes
            The two panels.
        """
        plt = pyplot()
        if ax is None:
            _, ax = plt.subplots(1, 2, figsize=(10, 3.6), constrained_layout=True)
        d = self.differences[0].reshape(-1)
        low, high = self.confidence_interval(1 - self.alpha)
        ax[0].plot(np.arange(1, d.size + 1), d, "o", ms=3, color="0.35", label="split")
        ax[0].axhline(self.mean_difference, color="C0", label="mean")
        ax[0].axhspan(low, high, color="C0", alpha=0.2, label=f"{1 - self.alpha:.0%} interval")
        ax[0].axhline(0, color="k", lw=0.8)
        ax[0].set(xlabel="split (first randomization)", ylabel=f"{self.scoring}: A - B")
        ax[0].legend(loc="best", fontsize="small")
        p = self.pvalues[self.recommended]
        ax[1].semilogy(np.arange(1, p.size + 1), p, "o-", color="C1")
        ax[1].axhline(self.alpha, color="k", ls="--", lw=0.8, label=f"alpha = {self.alpha:g}")
        ax[1].set(xlabel="randomization", ylabel=f"p-value, {self.recommended}")
        ax[1].legend(loc="best", fontsize="small")
        return np.asarray(ax)
