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
range. This is also the schema a listing of the book's parameters can be built from:
:func:`parameter_rule` gives each rule and :meth:`Rule.describe` its wording.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from pathlib import Path

from .._validation import SCALES

__all__ = ["ANY", "NOTEBOOK_RULES", "RULES", "Rule", "parameter_problem", "parameter_rule"]


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
    "circles_factor": Rule(0, 1, high_open=True),  # scikit-learn's make_circles: 0 <= factor < 1
    # root seeds
    "seed": _SEED, "calibration_seed": _SEED,
    # counts and sizes
    **dict.fromkeys(("n_draws", "n_test", "n_random_estimators", "n_sim", "n_sim_worst", "n_datasets",
                     "n_repeats", "adaptive_datasets", "gap_steps", "n_runs", "runs", "gaussian_size",
                     "subsample_sizes", "n_jobs", "max_count", "p", "figure_n_step", "ns", "sizes", "type1_sizes",
                     "worst_sizes", "check_n", "sim_n", "n_large", "n_ref", "exact_size", "max_enumerated"),
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
