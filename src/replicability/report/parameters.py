"""The declared ranges of the notebooks' parameters: what ``replicability run -p NAME VALUE`` accepts.

A notebook's parameters are the names its cell tagged ``parameters`` assigns; the type of
each is that of its default (read by :mod:`replicability.report.notebooks`). Their
*ranges* are declared here, in one place, by name: the compendium uses one name per
concept (STYLE.md), so ``alpha`` is a significance level wherever it appears, ``seed`` a
root seed, ``n_*`` a count. A notebook whose parameter of that name means something
narrower has an override under ``"<paper folder>/<notebook stem>"`` in
:data:`NOTEBOOK_RULES`. ``replicability run`` checks every value against its rule before
anything executes, so a bad value is a one-line error (exit code 2), not a cell that
raises after seconds of work; the page builders keep their own checks.

A list-valued parameter (``sizes = [1000, 2000]``) must be non-empty and each element in
the range. A parameter declared :data:`ANY` (a path, a learner list, a design dict) is
checked for its type only. A name not declared here (a notebook outside the compendium)
is checked for its type only; ``tests/report/test_parameters.py`` checks that every
parameter of every notebook in ``notebooks/`` is declared and that its default is in
range. This is also the schema a listing of the book's parameters is built from
(``replicability run NOTEBOOK --list-parameters`` and the table of the book's page "How
to rerun", :mod:`replicability.report.parameter_list`): :func:`parameter_rule` gives each
rule, :meth:`Rule.describe` its wording and :func:`parameter_meaning` what the parameter
means, from :data:`MEANINGS` and its per-notebook overrides :data:`NOTEBOOK_MEANINGS`.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from pathlib import Path

from .._validation import SCALES

__all__ = ["ANY", "MEANINGS", "NOTEBOOK_MEANINGS", "NOTEBOOK_RULES", "RULES", "Rule", "kind_words",
           "parameter_meaning", "parameter_problem", "parameter_rule"]


@dataclass(frozen=True)
class Rule:
    """The values a parameter takes: finite numbers in a range, one of some choices, or any.

    Attributes
    ----------
    low, high : float or None
        Bounds of a numeric parameter (``high`` None: no upper bound; ``low`` None,
        and no choices: any value, :data:`ANY`).
    low_open, high_open : bool
        Whether the bound itself is excluded.
    integer : bool
        Whether the value must be an integer.
    choices : tuple
        The allowed values of a choice parameter; empty for a numeric one.
    """

    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    integer: bool = False
    choices: tuple = ()

    def describe(self):
        """The rule in words: ``"a number in (0, 1)"``, ``"an integer >= 1"``, ``"one of 'a', 'b'"``."""
        if self.choices:
            return "one of " + ", ".join(map(repr, self.choices))
        if self.low is None:
            return "any value of its default's type"
        kind = "an integer" if self.integer else "a number"
        if self.high is None:
            return f"{kind} {'>' if self.low_open else '>='} {self.low:g}"
        return (f"{kind} in {'(' if self.low_open else '['}{self.low:g}, "
                f"{self.high:g}{')' if self.high_open else ']'}")

    def admits(self, value):
        """Whether one value (not a list) satisfies the rule."""
        if self.choices:
            return value in self.choices
        if self.low is None:
            return True
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
            return False
        if self.integer and not isinstance(value, numbers.Integral):
            return False
        if value < self.low or (self.low_open and value == self.low):
            return False
        return self.high is None or not (value > self.high or (self.high_open and value == self.high))


#: A parameter checked for its type only (a path, a structured design).
ANY = Rule()
_LEVEL = Rule(0, 1, low_open=True, high_open=True)  # a probability strictly inside (0, 1)
_SEED = Rule(0, integer=True)  # numpy.random.SeedSequence takes non-negative integers
_COUNT = Rule(1, integer=True)
_NONNEGATIVE = Rule(0)
_POSITIVE = Rule(0, low_open=True)

#: The rule of each parameter name, wherever it appears.
RULES = {
    # significance levels, confidence levels, probabilities and fractions
    "alpha": _LEVEL, "alphas": _LEVEL, "confidence_level": _LEVEL, "threshold": _LEVEL,
    "test_sizes": _LEVEL, "check_r": Rule(0, 1, low_open=True),
    "power": Rule(0, 1, low_open=True, high_open=True), "replicability": Rule(0, 1, low_open=True, high_open=True),
    "circles_factor": Rule(0, 1, high_open=True),  # scikit-learn's make_circles: 0 <= factor < 1
    # root seeds
    "seed": _SEED, "calibration_seed": _SEED,
    # counts and sizes
    **dict.fromkeys(("n_draws", "n_test", "n_random_estimators", "n_sim", "n_sim_worst", "n_datasets",
                     "n_repeats", "adaptive_datasets", "gap_steps", "n_runs", "runs", "gaussian_size",
                     "subsample_sizes", "n_jobs", "max_count", "p", "figure_n_step", "ns", "sizes", "type1_sizes",
                     "worst_sizes", "check_n", "sim_n", "n_large", "n_ref", "exact_size", "max_enumerated",
                     "n_seeds"),
                    _COUNT),
    "figure_r_points": Rule(2, integer=True), "n_folds": Rule(2, integer=True),
    "n_train": Rule(2, integer=True), "n_train_nested": Rule(2, integer=True),
    "gradient_n": Rule(5, integer=True),  # the symbolic check of Theorem 3.2 needs at least 5 runs
    "headline": Rule(0, 9, integer=True),  # one of the ten randomizations
    # widths, distances, strengths
    "rope": _NONNEGATIVE, "tolerance": _NONNEGATIVE, "delta": _NONNEGATIVE, "circles_noise": _NONNEGATIVE,
    "prior": _POSITIVE, "gammas": _POSITIVE, "gap_span": _POSITIVE,
    # choices
    "scale": Rule(choices=SCALES),
    "test": Rule(choices=("signed_rank", "sign", "mean_ranks")),
    "train_order": Rule(choices=("experimenter", "sorted")),
    # checked for their type only: folders, file stems, learner pairs, a design
    **dict.fromkeys(("uci_dir", "fixtures", "benchmarks", "results_dir", "reproduced_dir", "learner_pairs",
                     "adaptive"), ANY),
}

#: Rules of one notebook (``"<paper folder>/<notebook stem>"``) that narrow those of :data:`RULES`.
NOTEBOOK_RULES = {
    "raschka2018/01_holdout": {"n_test": Rule(1, 149, integer=True)},  # held out of Iris's 150 flowers
}


_SHARED_SEED = "root seed of the experiments (0: the 10 x 10 cv run shared with other notebooks)"
_UCI_SCALE = ("'paper': the committed 27 UCI data sets x 10 randomizations; 'smoke': iris, labor and zoo, "
              "2 randomizations (seconds)")

#: What each parameter name means, wherever it appears (the notebooks' parameters cells say the same).
MEANINGS = {
    "alpha": "significance level of the tests (5% in the papers)",
    "alphas": "significance levels compared (the columns of the table)",
    "confidence_level": "confidence level of the intervals",
    "threshold": "posterior probability above which a Bayesian test decides (Benavoli et al. 2017)",
    "test_sizes": "test fractions of the holdout splits (the paper's 90/10, 66/33 and 50/50)",
    "check_r": "replicabilities at which the estimators are checked",
    "circles_factor": "ratio of inner to outer circle of the concentric circles (not stated in the paper)",
    "seed": "root seed of every random draw in the notebook",
    "calibration_seed": "root seed of the Section 4 calibration (the calibration notebook's seed)",
    "n_draws": "Monte Carlo draws of the Bayesian signed-rank test",
    "n_test": "size of each test set",
    "n_random_estimators": "random unbiased linear estimators compared with R2 per (r, n) cell (Theorem 3.2)",
    "n_sim": "simulated data sets per cell",
    "n_sim_worst": "simulated data sets per cell at the worst case",
    "n_datasets": "simulated data sets per cell",
    "n_repeats": "independent randomizations of the sampling scheme",
    "n_seeds": "sets of the learners' seeds, each run with every randomization of the splits",
    "power": "the power the plan must reach",
    "replicability": "the replicability (R2) the plan must reach",
    "adaptive_datasets": "data sets of the adaptive design, at n_ref on the gap grid of the cv group",
    "gap_steps": "steps of the gap grid between the two learners' accuracies",
    "n_runs": "runs of the sampling scheme",
    "runs": "numbers of runs of the sampling scheme (the columns of the table)",
    "gaussian_size": "population size of the two-dimensional Gaussian of Figure 5",
    "subsample_sizes": "subsample sizes drawn from that Gaussian (Figure 5)",
    "n_jobs": "worker processes (results are identical for any number)",
    "max_count": "largest discordant count in the Figure 21 heat map",
    "p": "features of each simulated data set",
    "figure_n_step": "step along n of Figure 2",
    "ns": "cases per simulated data set",
    "sizes": "data set sizes N",
    "type1_sizes": "data set sizes at which the Type I error is measured",
    "worst_sizes": "data set sizes of the worst-case gap",
    "check_n": "numbers of experiments at which the estimators are checked",
    "sim_n": "numbers of runs simulated (the paper's 10 and Figure 2's largest)",
    "n_large": "large data set size of the designs (their gap grids are a tenth of notebook 02's)",
    "n_ref": "reference data set size, as simulated in notebook 02",
    "exact_size": "instances of the data set enumerated exactly",
    "max_enumerated": "largest number of runs enumerated exactly (2^n outcome vectors)",
    "figure_r_points": "points along r of Figure 2",
    "n_folds": "values of k of k-fold cv (leave-one-out, k = n_train, is added)",
    "n_train": "cases per simulated data set",
    "n_train_nested": "cases per simulated data set of the nested cross-validation",
    "gradient_n": "runs of the symbolic check of the two cases of Theorem 3.2",
    "headline": "the randomization shown first (0 = the first of ten)",
    "rope": "region of practical equivalence on the accuracy scale (0.01 = one accuracy point)",
    "tolerance": "percentage points within which our mean cv accuracy counts as agreeing with Weka's",
    "delta": "distance between the class means",
    "circles_noise": "noise of the concentric circles (not stated in the paper)",
    "prior": "strength of the Dirichlet process prior of the signed-rank test (baycomp's default)",
    "gammas": "RBF kernel widths of the support vector machine",
    "gap_span": "multiple of the gap where E[Z] = Z_alpha/2 that the worst-case gap grid spans",
    "scale": "'smoke' (seconds, for tests), 'quick' (minutes) or 'paper' (the papers' sizes, committed results)",
    "test": "test of the control learner against each other one",
    "train_order": "'experimenter': training sets shuffled per fold as Weka's Experimenter does; "
                   "'sorted': ascending rows",
    "uci_dir": "folder of the 27 ARFF files, needed only when computing; None: REPLICABILITY_UCI_DIR",
    "fixtures": "folder of the Weka fixtures, relative to the repository root",
    "benchmarks": "benchmark files shown (stems of data/benchmarks/*.json); None: all",
    "results_dir": "folder of the committed results; None: data/results of this checkout",
    "reproduced_dir": "folder of the reproduced tables; None: data/reproduced of this checkout",
    "learner_pairs": "runner names of the learner pairs of the learner factor, on null data",
    "adaptive": "the adaptive design: stages (runs), scheme and the p-values that stop it",
}

#: Meanings of one notebook (``"<paper folder>/<notebook stem>"``) narrower than those of :data:`MEANINGS`.
NOTEBOOK_MEANINGS = {
    "beyond/01_bayesian_comparisons": {"alpha": "level of the two-sided corrected repeated cv t-test",
                                       "seed": "seed of the Monte Carlo draws", "scale": _UCI_SCALE},
    "beyond/02_many_learners": {
        "alpha": "family-wise significance level of the Friedman decision, the CD and the Holm-corrected tests",
        "scale": _UCI_SCALE},
    "bouckaert2003/01_figure1_worked_example": {"alpha": "significance level of the tests applied to the example"},
    "bouckaert2003/02_calibration": {"seed": _SHARED_SEED},
    "bouckaert2003/03_table2_class_probability": {"seed": "root seed of the Table 2 data sets"},
    "bouckaert2003/04_table3_sources": {"n_test": "size of the test set each learner's accuracy is measured on"},
    "bouckaert2003/05_figure4_table4": {"seed": _SHARED_SEED},
    "bouckaert2003/06_tables5_6_replicability": {"seed": _SHARED_SEED},
    "bouckaert2003/07_table7_learner_pairs": {"seed": _SHARED_SEED},
    "bouckaert2004/02_table1": {"seed": _SHARED_SEED},
    "bouckaert2004/03_sweep": {"seed": _SHARED_SEED, "alpha": "significance level of every factor but the level"},
    "bouckaert2004/04_table2_uci": {"scale": _UCI_SCALE},
    "bouckaert2005/01_theory": {"n_datasets": "data sets per cell of the checks against Task I",
                                "n_repeats": "repetitions per cell of the checks against Task I"},
    "bouckaert2005/03_in_text_numbers": {"sizes": "the sizes of notebook 02, for the comparisons at equal cost"},
    "bouckaert_frank2004/00_uci_fidelity": {
        "scale": "'paper': the committed 27 data sets x 3 learners x 10 runs; 'quick': all data sets, one run; "
                 "'smoke': iris, labor and zoo, one run",
        "n_jobs": "worker processes when the results have to be computed (not at the committed scale)"},
    "bouckaert_frank2004/01_table5_synthetic": {"seed": _SHARED_SEED},
    "bouckaert_frank2004/02_table1_5x2cv": {"scale": _UCI_SCALE},
    "bouckaert_frank2004/03_table2_resampling": {"runs": "numbers of resampling runs (the columns of Table 2)",
                                                 "scale": _UCI_SCALE},
    "bouckaert_frank2004/04_table3_repeated_cv": {
        "runs": "runs of 10-fold cv (the columns of Table 3)",
        "seed": "root seed of the synthetic null experiment (0: the one shared with 01_table5_synthetic)",
        "scale": _UCI_SCALE},
    "bouckaert_frank2004/05_table4_significance": {"n_runs": "runs of 10-fold cv (10 in the paper)",
                                                   "scale": _UCI_SCALE},
    "raschka2018/01_holdout": {"alpha": "1 - alpha is the confidence level of the intervals",
                               "n_test": "Iris flowers held out for testing in Figure 1 (100 remain for training)"},
    "raschka2018/02_resampling_bootstrap": {"alpha": "1 - alpha is the confidence level of the bootstrap intervals",
                                            "n_runs": "repetitions of the holdout split in Figure 6 (50 in the paper)"},
    "raschka2018/04_comparing_algorithms": {
        "n_train": "cases per simulated data set of Section 4.8 (Dietterich used 300)",
        "delta": "distance between the class means under the alternative"},
}


def parameter_meaning(path, name):
    """What parameter ``name`` of the notebook at ``path`` means (a phrase), or None if it is not declared.

    Examples
    --------
    >>> parameter_meaning("notebooks/raschka2018/01_holdout.ipynb", "alpha")
    '1 - alpha is the confidence level of the intervals'
    """
    path = Path(path)
    return NOTEBOOK_MEANINGS.get(f"{path.parent.name}/{path.stem}", {}).get(name, MEANINGS.get(name))


def parameter_rule(path, name):
    """The declared :class:`Rule` of parameter ``name`` of the notebook at ``path``, or None if none is."""
    path = Path(path)
    return NOTEBOOK_RULES.get(f"{path.parent.name}/{path.stem}", {}).get(name, RULES.get(name))


def parameter_problem(path, name, value):
    """Why ``value`` is outside the declared range of parameter ``name`` of ``path`` (a phrase), or None.

    The value's type is checked beforehand, against the notebook's default. A list is in
    range when it is non-empty and each of its elements is.

    Examples
    --------
    >>> parameter_problem("notebooks/raschka2018/01_holdout.ipynb", "alpha", -1)
    'must be a number in (0, 1)'
    >>> parameter_problem("notebooks/raschka2018/01_holdout.ipynb", "sizes", [10, 0])
    'must be a non-empty list, each element an integer >= 1'
    >>> parameter_problem("notebooks/raschka2018/01_holdout.ipynb", "alpha", 0.01) is None
    True
    """
    rule = parameter_rule(path, name)
    if rule is None or rule == ANY:
        return None
    if isinstance(value, (list, tuple)) and not rule.choices:
        if value and all(rule.admits(v) for v in value):
            return None
        return f"must be a non-empty list, each element {rule.describe()}"
    return None if rule.admits(value) else f"must be {rule.describe()}"


def kind_words(default):
    """The kind of value a parameter with this default takes, in words ("an integer", "a list", ...).

    >>> kind_words(0.05), kind_words([1, 2]), kind_words(True)
    ('a number', 'a list', 'True or False')
    """
    for types, name in ((bool, "True or False"), (int, "an integer"), (float, "a number"), (str, "a string"),
                        ((list, tuple), "a list"), (dict, "a dict")):
        if isinstance(default, types):
            return name
    return f"a {type(default).__name__}"
