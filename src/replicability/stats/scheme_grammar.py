"""One grammar for the word "scheme": how the data are split, and which sample a test takes.

The compendium said "scheme" in four vocabularies: ``compare(scheme="10x10cv")``, the
engine registry's ``"cv"``, ``"resample"``, ``"5x2"``, ``"rxk_cv"``, the papers'
``"cv"``/``"kfold_cv"``, and :mod:`replicability.stats.schemes`' samples ``"all"``,
``"folds"``, ``"runs"``, ``"sorted_runs"``. They name two different things, parsed here:

* a **split scheme** (:func:`parse_scheme`): how train/test splits are drawn, r runs of
  k-fold cross-validation or random subsampling. Its canonical spelling is
  ``"RxKcv"`` (``"10x10cv"``, ``"5x2cv"``, ``"1x10cv"``) or ``"resampling"``; the
  registry's names (which stored result keys depend on, so they are kept) and the
  papers' are accepted as aliases with their runs and folds given apart;
* a **sample** of r x k cv (:func:`check_sample`, Bouckaert 2003, Table 1; 2004,
  Section 2.1): which values of the ``r x k`` differences a test takes, ``"all"``,
  ``"folds"``, ``"runs"`` or ``"sorted_runs"``.

Each side refuses the other's words with a one-line error naming what it accepts.
:func:`~replicability.comparison.run.compare`, :func:`~replicability.comparison.run.compare_scores`,
the command line's ``--scheme``, :mod:`replicability.stats.schemes` and
:func:`replicability.engine.registry.resolve_scheme` all parse here. The module imports
nothing heavy, so the command line checks ``--scheme`` before loading scikit-learn.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .._validation import check_positive_int

__all__ = ["SAMPLES", "SCHEME_ALIASES", "SplitScheme", "check_sample", "parse_scheme"]

#: The samples of r x k cv that :func:`~replicability.stats.schemes.scheme_test` takes.
SAMPLES = ("all", "folds", "runs", "sorted_runs")
#: Names of split schemes besides ``"RxKcv"`` and ``"resampling"``: the engine registry's and the
#: papers', each with its kind and the runs it has when none are given (None: ``n_runs``, default 10).
SCHEME_ALIASES = {
    "cv": ("cv", None),  # registry: n_runs x n_folds cv, unstratified
    "rxk_cv": ("cv", None),  # registry: n_runs x n_folds cv, stratified
    "kfold_cv": ("cv", 1),  # the papers: one run of n_folds-fold cv
    "5x2": ("cv", 5),  # registry: Dietterich's 5 x 2 cv
    "resample": ("resampling", None),  # registry: n_runs random train/test splits
    "random_subsampling": ("resampling", None),
}
_CV = re.compile(r"^(\d+)\s*x\s*(\d+)\s*cv$")
_ACCEPTED = ("'RxKcv' (e.g. '10x10cv', '5x2cv', '1x10cv'), 'resampling', or "
             + ", ".join(repr(name) for name in SCHEME_ALIASES) + " with n_runs and n_folds")


@dataclass(frozen=True)
class SplitScheme:
    """How the splits are drawn: ``n_runs`` runs of ``n_folds``-fold cv, or ``n_runs`` random splits.

    Attributes
    ----------
    kind : {"cv", "resampling"}
    n_runs : int
        Runs of cv, or random train/test splits.
    n_folds : int
        Folds per run; 1 for random subsampling.
    """

    kind: str
    n_runs: int
    n_folds: int

    @property
    def name(self):
        """The canonical spelling: ``"10x10cv"``, or ``"resampling"``."""
        return f"{self.n_runs}x{self.n_folds}cv" if self.kind == "cv" else "resampling"

    @property
    def n_splits(self):
        """Train/test splits of one randomization, ``n_runs * n_folds``."""
        return self.n_runs * self.n_folds


def parse_scheme(scheme, *, n_runs=10, n_folds=10):
    """Parse a split scheme's spelling into a :class:`SplitScheme`.

    Parameters
    ----------
    scheme : str
        ``"RxKcv"``: R runs of K-fold cv (case and spaces free: ``"10x10 cv"``);
        ``"resampling"``: ``n_runs`` random train/test splits; or an alias of the
        engine registry or the papers (:data:`SCHEME_ALIASES`): ``"cv"`` and
        ``"rxk_cv"`` (``n_runs`` x ``n_folds`` cv), ``"kfold_cv"`` (one run of
        ``n_folds``), ``"5x2"`` (5 x 2 cv), ``"resample"`` and
        ``"random_subsampling"`` (as ``"resampling"``).
    n_runs : int, default 10
        Runs (cv) or splits (resampling) of a name that does not state them.
    n_folds : int, default 10
        Folds of a name that does not state them.

    Returns
    -------
    SplitScheme

    Raises
    ------
    ValueError
        One line naming the accepted forms, for any other spelling (a sample of
        :func:`check_sample` included) and for fewer than 1 run or 2 folds.

    References
    ----------
    .. [1] Bouckaert, R. R., & Frank, E. (2004). Evaluating the replicability of
       significance tests for comparing learning algorithms. PAKDD 2004, 3-12.
       https://doi.org/10.1007/978-3-540-24775-3_3

    Examples
    --------
    >>> parse_scheme("10x10cv")
    SplitScheme(kind='cv', n_runs=10, n_folds=10)
    >>> parse_scheme("rxk_cv", n_runs=5, n_folds=2).name
    '5x2cv'
    >>> parse_scheme("resample", n_runs=30).name, parse_scheme("resample", n_runs=30).n_splits
    ('resampling', 30)
    """
    if not isinstance(scheme, str):
        raise ValueError(f"`scheme` must be {_ACCEPTED}; got {scheme!r}.")
    spelled = scheme.strip().lower()
    match = _CV.match(spelled)
    if match is not None:
        r, k = int(match.group(1)), int(match.group(2))
        if r < 1 or k < 2:
            raise ValueError(f"`scheme` must have at least 1 run and 2 folds; got {scheme!r}.")
        return SplitScheme("cv", r, k)
    if spelled == "resampling" or spelled in SCHEME_ALIASES:
        kind, runs = SCHEME_ALIASES.get(spelled, ("resampling", None))
        if kind == "resampling":
            return SplitScheme("resampling", check_positive_int(n_runs, "n_runs"), 1)
        if spelled == "5x2":
            return SplitScheme("cv", 5, 2)
        runs = check_positive_int(n_runs, "n_runs") if runs is None else runs
        return SplitScheme("cv", runs, check_positive_int(n_folds, "n_folds", minimum=2))
    if spelled in SAMPLES:
        raise ValueError(f"`scheme` must be {_ACCEPTED}; got {scheme!r}, which names the sample a test takes "
                         f"from r x k cv (stats.scheme_test), not how the data are split.")
    raise ValueError(f"`scheme` must be {_ACCEPTED}; got {scheme!r}.")


def check_sample(scheme):
    """Return ``scheme`` if it names a sample of r x k cv (:data:`SAMPLES`), else a one-line ``ValueError``.

    A split scheme's spelling (``"10x10cv"``, ``"resampling"``) is refused with a
    message that says it names the splits, not the sample.

    Examples
    --------
    >>> check_sample("sorted_runs")
    'sorted_runs'
    """
    if isinstance(scheme, str) and scheme in SAMPLES:
        return scheme
    hint = ""
    try:
        parse_scheme(scheme)
        hint = ", which names how the data are split (compare's scheme), not the sample a test takes"
    except ValueError:
        pass
    raise ValueError(f"`scheme` must be one of {SAMPLES}; got {scheme!r}{hint}.")
