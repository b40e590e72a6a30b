"""Compare many learners on many data sets: ranks, the Friedman test and its post-hoc tests.

:func:`compare_many` scores several learners on several data sets with the splits of
:func:`~replicability.comparison.run.compare` (r x k cv or random subsampling, under one
or more randomizations); :func:`compare_many_scores` takes a table of scores computed
elsewhere (data sets x learners). Both return a
:class:`~replicability.comparison.many_result.ManyComparison`: average ranks,
the Friedman test with Iman & Davenport's F, the Nemenyi test with its critical
difference and the groups of learners it does not separate, and a signed-rank (or
sign) test of a control learner against each other one with Holm's correction
(Demšar 2006; García & Herrera 2008). With several randomizations of the splits, it
also says how often the ranks, the Friedman decision and the groups stay the same.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import warnings

import numpy as np
from sklearn.base import is_classifier
from sklearn.metrics import check_scoring
from sklearn.utils.validation import _num_samples

from .._validation import as_generator, check_alpha, check_choice, check_positive_int, check_rope, sklearn_seed
from ..engine.parallel import parallel_map
from ..stats.bayesian import bayesian_signed_rank_test
from ..stats.contingency import holm
from ..stats.control import ControlTestResult, control_test
from ..stats.incomplete import durbin_test, is_balanced_incomplete, skillings_mack_test
from ..stats.pairwise import pairwise_test
from ..stats.ranks import friedman_test, nemenyi_test
from .analysis import _BACKENDS, _parse_scheme, _scheme_name, scoring_name
from .checks import check_comparable, check_picklable, stratify
from .folds import gather, split_name
from .inputs import as_datasets, check_cv, cv_layout, cv_splits, named_estimators
from .many_result import _POSTHOC_NAMES, _TEST_NAMES, ManyComparison
from .seeds import seed_plan
from .work import SharedData, SplitRecipe, run_repeat, split_results

__all__ = ["compare_many", "compare_many_scores"]

# --------------------------------------------------------------------------
# analysis of a score table
# --------------------------------------------------------------------------


def _names(names, count, what, default):
    if names is None:
        return tuple(f"{default} {i}" for i in range(count))
    names = tuple(str(n) for n in names)
    if len(names) != count:
        raise ValueError(f"`{what}` must name each of the {count} columns/rows; got {len(names)} names.")
    if len(set(names)) != len(names):
        raise ValueError(f"`{what}` must be distinct; got {list(names)!r}.")
    return names


def _incomplete(scores, better, posthoc, test, rope):
    """The omnibus test of a table with missing cells: Durbin on a balanced incomplete design, else Skillings-Mack."""
    if posthoc == "nemenyi" or test == "mean_ranks":
        raise ValueError("`scores` has missing cells: Nemenyi's and the mean-ranks tests assume every cell; use "
                         "posthoc='signed_rank' or 'sign' and test='signed_rank' or 'sign'.")
    if rope is not None:
        raise ValueError("`rope`: the Bayesian signed-rank test across data sets needs every cell; drop the "
                         "incomplete data sets or learners first.")
    if all(is_balanced_incomplete(table) for table in scores):
        return durbin_test(scores, better=better)
    return skillings_mack_test(scores, better=better)


def _control_from_pairs(pairs, control, test):
    """Control against each other learner from the pairwise tests: Z of the other learner, Holm over k - 1."""
    others = tuple(j for j in range(pairs.statistic.shape[-1]) if j != control)
    z, p = pairs.statistic[..., list(others), control], pairs.pvalue[..., list(others), control]
    return ControlTestResult(statistic=z, pvalue=p, adjusted_pvalue=holm(p), control=control, learners=others,
                             test=test)


def _analyse(scores, learners, datasets, *, better, alpha, control, test, method, tie_correction, scoring,
             posthoc="signed_rank", scheme=None, seeds=None, split_scores=None, rope=None, rng=None,
             seed_plans=None, failures=None):
    incomplete = _incomplete(scores, better, posthoc, test, rope) if np.isnan(scores).any() else None
    friedman = nemenyi = None
    if incomplete is None:
        friedman = friedman_test(scores, better=better, tie_correction=tie_correction)
        nemenyi = nemenyi_test(scores, better=better, alpha=alpha)
    pairs = pairwise_test(scores, better=better, test="sign" if posthoc == "sign" else "signed_rank", method=method)
    ranks = (nemenyi if incomplete is None else incomplete).average_ranks
    if control is None:
        control = learners[int(np.argmin(ranks[0]))]
    elif control not in learners:
        raise ValueError(f"`control` must be one of the learners {list(learners)}; got {control!r}.")
    if incomplete is None:
        results = control_test(scores, control=learners.index(control), better=better, test=test, method=method)
    else:
        same = pairs if pairs.test == test else pairwise_test(scores, better=better, test=test, method=method)
        results = _control_from_pairs(same, learners.index(control), test)
    bayesian = None
    if rope is not None:
        # A better than B means a higher score, or a lower one when lower is better.
        sign = 1.0 if better == "higher" else -1.0
        generator = as_generator(rng)
        bayesian = {(learners[i], learners[j]): bayesian_signed_rank_test(sign * scores[..., i], sign * scores[..., j],
                                                                          rope=rope, rng=generator)
                    for i in range(len(learners)) for j in range(i + 1, len(learners))}
    return ManyComparison(learners=learners, datasets=datasets, scores=scores, better=better, alpha=alpha,
                          control=control, test=test, friedman=friedman, nemenyi=nemenyi, control_results=results,
                          pairwise=pairs, posthoc=posthoc, incomplete=incomplete, scoring=scoring, scheme=scheme,
                          seeds=seeds, split_scores=split_scores, rope=rope, bayesian=bayesian, seed_plans=seed_plans,
                          failures=failures)


def compare_many_scores(scores, *, learners=None, datasets=None, better="higher", alpha=0.05, control=None,
                        test="signed_rank", posthoc="signed_rank", method="normal", tie_correction=True,
                        scoring="score", rope=None, rng=None):
    """Rank several learners over several data sets from a table of their scores.

    Null hypothesis of the Friedman test: all learners perform alike (every ranking
    of them on a data set equally likely). The table is analysed as Demšar (2006)
    recommends: average ranks, the Friedman test with Iman & Davenport's F (the
    decision), the Nemenyi test with its critical difference for all pairs, and a
    paired test of a control learner against each other one with Holm's correction.
    Every pair is also tested on its own two columns (signed-rank or sign test, Holm
    over all pairs: :func:`~replicability.stats.pairwise.pairwise_test`), and by
    default these pairwise decisions, not Nemenyi's, draw the cliques: a pair's
    mean-rank decision depends on which other learners are in the table (Benavoli,
    Corani & Mangili 2016).

    *Missing cells* (NaN: a learner failed or timed out on a data set) replace
    Friedman's test by Durbin's when the gaps form a balanced incomplete block design
    and by Skillings & Mack's otherwise
    (:mod:`~replicability.stats.incomplete`; ``incomplete`` names it); a data set
    with fewer than two scores is dropped; each paired test uses the data sets its two
    learners share; Nemenyi, the mean-ranks test and the Bayesian test, which need
    every cell, are refused. A table whose learners never meet on a data set is
    refused.

    Parameters
    ----------
    scores : pandas.DataFrame or array_like
        Data sets in rows, learners in columns: a DataFrame names both; an array has
        shape (N, k), or (n_repeats, N, k) for several randomizations of the
        experiment (the first is reported, the others measure replicability).
    learners, datasets : sequence of str, optional
        Names of the columns and rows of an array (default "learner 0", ...).
    better : {"higher", "lower"}, default "higher"
        Accuracy and AUC: higher; error rates and losses: lower.
    alpha : float, default 0.05
        Level of the Friedman decision, of the critical difference and of the
        Holm-corrected control tests.
    control : str, optional
        Learner to compare with each other one; default the best average rank of the
        first randomization (García & Herrera 2008). Choose it before seeing the data
        when the question is "is my learner better than the others".
    test : {"signed_rank", "sign", "mean_ranks"}, default "signed_rank"
        The control test (:func:`~replicability.stats.control.control_test`).
    posthoc : {"signed_rank", "sign", "nemenyi"}, default "signed_rank"
        Test whose decisions draw the cliques
        (:meth:`~replicability.comparison.many_result.ManyComparison.cliques` and the diagram):
        Wilcoxon signed-rank or sign tests of every pair with Holm's correction, or
        Nemenyi's critical difference (Demšar 2006).
    method : {"normal", "exact"}, default "normal"
        P-value method of the signed-rank or sign test.
    tie_correction : bool, default True
        Tie-corrected Friedman statistic, as :func:`scipy.stats.friedmanchisquare`,
        R's ``friedman.test`` and autorank compute it; False gives the formula Demšar
        (2006) prints (see :func:`~replicability.stats.ranks.friedman_test`).
    scoring : str, default "score"
        Name of the score, for the summary.
    rope : float, optional
        Half-width of a region of practical equivalence on the scale of the scores
        (``0.01``: one accuracy point). Given, every pair of learners also gets the
        Bayesian signed-rank test across the data sets
        (:func:`~replicability.stats.bayesian.bayesian_signed_rank_test`, Benavoli
        et al. 2017), reported in the summary and in
        :meth:`~replicability.comparison.many_result.ManyComparison.pairs_frame`.
    rng : numpy.random.Generator, int or None
        Source of the Bayesian test's Monte Carlo draws (one stream, pairs in order).

    Returns
    -------
    ~replicability.comparison.many_result.ManyComparison

    References
    ----------
    .. [1] Demšar, J. (2006). Statistical comparisons of classifiers over multiple
       data sets. JMLR 7, 1-30. https://jmlr.org/papers/v7/demsar06a.html
    .. [2] García, S., & Herrera, F. (2008). An extension on "Statistical comparisons
       of classifiers over multiple data sets" for all pairwise comparisons. JMLR 9,
       2677-2694. https://jmlr.org/papers/v9/garcia08a.html

    Examples
    --------
    >>> import pandas as pd
    >>> from replicability.comparison import compare_many_scores
    >>> table = pd.DataFrame({"A": [0.81, 0.90, 0.66, 0.72, 0.95, 0.85],
    ...                       "B": [0.79, 0.91, 0.64, 0.70, 0.93, 0.80],
    ...                       "C": [0.75, 0.85, 0.60, 0.71, 0.92, 0.78]},
    ...                      index=[f"data {i}" for i in range(6)])
    >>> res = compare_many_scores(table, scoring="accuracy")
    >>> res.average_ranks().round(3).to_dict()
    {'A': 1.167, 'B': 2.0, 'C': 2.833}
    >>> res.rejects(0), round(res.critical_difference, 3), res.cliques()
    (True, 1.353, [('A', 'B', 'C')])
    >>> res.control
    'A'

    With a missing cell, Skillings & Mack's test decides:

    >>> table.loc["data 2", "B"] = float("nan")
    >>> res = compare_many_scores(table)
    >>> res.omnibus, round(float(res.omnibus_pvalue()[0]), 4)
    ('Skillings-Mack', 0.0248)
    """
    if hasattr(scores, "columns") and hasattr(scores, "index"):  # a DataFrame
        if learners is None:
            learners = list(scores.columns)
        if datasets is None:
            datasets = list(scores.index)
        scores = scores.to_numpy()
    arr = np.asarray(scores)
    if arr.dtype.kind in "bUSO":
        raise TypeError(f"`scores` must hold numbers; got an array of dtype {arr.dtype}.")
    arr = np.asarray(arr, dtype=float)
    if arr.ndim == 2:
        arr = arr[None]
    if arr.ndim != 3:
        raise ValueError(f"`scores` must have shape (N, k) or (n_repeats, N, k); got shape {arr.shape}.")
    alpha = check_alpha(alpha)
    test = check_choice(test, "test", tuple(_TEST_NAMES))
    posthoc = check_choice(posthoc, "posthoc", tuple(_POSTHOC_NAMES))
    learners = _names(learners, arr.shape[2], "learners", "learner")
    datasets = _names(datasets, arr.shape[1], "datasets", "data set")
    rope = None if rope is None else check_rope(rope)
    return _analyse(arr, learners, datasets, better=better, alpha=alpha, control=control, test=test, method=method,
                    tie_correction=tie_correction, scoring=str(scoring), posthoc=posthoc, rope=rope, rng=rng)


# --------------------------------------------------------------------------
# running the learners
# --------------------------------------------------------------------------


def _noting_failures(units, learners, datasets, failures):
    """Pass :func:`run_repeat`'s units through, noting each (learner, data set)'s first failure (units data set
    minor)."""
    for index, unit in enumerate(units):
        for learner, message in unit[3].items():
            failures.setdefault((learners[learner], datasets[index % len(datasets)]), message)
        yield unit


def _warn_failures(failures, learners, n_datasets):
    """One ``FitFailedWarning`` per missing cell; ``ValueError`` for a learner that failed on every data set."""
    from sklearn.exceptions import FitFailedWarning

    for (_, dataset), message in failures.items():
        warnings.warn(f"{message} on data set {dataset!r}: its cell is missing (error_score=nan).", FitFailedWarning,
                      stacklevel=3)
    for learner in learners:
        if sum(name == learner for name, _ in failures) == n_datasets:
            first = next(message for (name, _), message in failures.items() if name == learner)
            raise ValueError(f"{learner} failed on every data set (error_score=nan): no test can rank a learner "
                             f"without a score; remove it. First failure: {first}")


def compare_many(estimators, datasets, *, scheme="10x10cv", n_runs=10, test_size=0.1, cv=None, scoring=None,
                 n_repeats=1, alpha=0.05, control=None, test="signed_rank", posthoc="signed_rank", method="normal",
                 tie_correction=True, rope=None, estimator_seeds="unset", error_score="raise", n_jobs=1,
                 backend="processes",
                 progress=None, rng=None):
    """Score several estimators on several data sets, then rank and test them (:func:`compare_many_scores`).

    Every estimator is fitted on the same training sets and scored on the same test
    sets of each data set, with the schemes of
    :func:`~replicability.comparison.run.compare`; a learner's score on a data set is
    its mean over the splits of a randomization. Demšar (2006) asks for reliable
    per-data-set scores and does not use their variance; with ``n_repeats >= 2`` the
    whole experiment is rerun with other random splits, and the result says whether
    the ranks and decisions survive.

    Parameters
    ----------
    estimators : dict of str to estimator, or list of estimators
        At least two; a list is named by class (``"GaussianNB"``).
    datasets : dict of str to (X, y) or (X, y, groups), or sequence of objects with ``name``, ``X``, ``y``
        At least two (e.g. :func:`~replicability.sources.uci.load_uci` data sets).
        ``X`` is passed to the estimators as given, as in
        :func:`~replicability.comparison.run.compare` (a DataFrame stays one, for a
        ``ColumnTransformer``; a sparse matrix stays sparse); ``groups`` (or an
        attribute ``groups``) go to a group-aware ``cv``.
    scheme, n_runs, test_size, cv, scoring : optional
        As in :func:`~replicability.comparison.run.compare`; higher scores are better.
        ``cv``, any scikit-learn splitter in place of ``scheme``, must give every data
        set the same layout (runs of folds, or independent splits).
    n_repeats : int, default 1
        Randomizations of the whole experiment.
    alpha, control, test, posthoc, method, tie_correction, rope : optional
        As in :func:`compare_many_scores`.
    estimator_seeds : {"unset", "all"}, default "unset"
        As in :func:`~replicability.comparison.run.compare`: the ``random_state``
        parameters left at None (``"all"``: every one) are drawn for every split and
        randomization from a stream of ``rng`` apart from the splits'; the others are
        kept, and that randomness is then not varied (``ManyComparison.seed_plans``).
    error_score : "raise" or numpy.nan, default "raise"
        What a learner that fails to fit or score on a split of a data set does, as
        ``cross_validate``'s: ``"raise"`` stops the run naming the learner, split and
        cause; ``np.nan`` makes that learner's cell on that data set missing, with a
        ``FitFailedWarning``, and the tests for incomplete tables decide
        (:func:`compare_many_scores`; ``ManyComparison.failures`` says which cells
        failed and why). A learner that fails on every data set is refused: no test
        can rank it. There is no time limit per fit.
    n_jobs : int, default 1
        Worker processes over randomizations of data sets (1: in this process); results
        do not depend on it. As in :func:`~replicability.comparison.run.compare`, the
        splits are drawn as they are used and the data sent to the workers once.
    backend : {"processes", "dask"}, default "processes"
        As in :func:`~replicability.comparison.run.compare`.
    progress : bool, optional
        Progress bar; default: when standard error is a terminal.
    rng : numpy.random.Generator, int or None
        Root of the randomizations: randomization ``i`` of data set ``d`` splits with a
        seed drawn from child ``d`` of child ``i`` of ``rng``, and draws the learners'
        ``random_state`` values from that child's own first child; child
        ``n_repeats`` draws the Bayesian test's samples.

    Returns
    -------
    ~replicability.comparison.many_result.ManyComparison
        With ``scheme``, ``seeds`` and the per-split ``split_scores``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris, load_wine, load_breast_cancer
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from replicability.comparison import compare_many
    >>> data = {"iris": load_iris(return_X_y=True), "wine": load_wine(return_X_y=True),
    ...         "cancer": load_breast_cancer(return_X_y=True)}
    >>> res = compare_many([GaussianNB(), KNeighborsClassifier(), DecisionTreeClassifier(random_state=0)],
    ...                    data, scheme="2x5cv", rng=0)
    >>> res.learners, res.scores.shape
    (('GaussianNB', 'KNeighborsClassifier', 'DecisionTreeClassifier'), (1, 3, 3))
    """
    items = named_estimators(estimators)
    data = as_datasets(datasets)
    if not (isinstance(error_score, str) and error_score == "raise") and not (
            isinstance(error_score, float) and np.isnan(error_score)):
        raise ValueError(f"`error_score` must be 'raise' or numpy.nan; got {error_score!r}.")
    kind, r, k = _parse_scheme(scheme, n_runs) if cv is None else (None, None, None)
    check_cv(cv)
    if cv is None and any(groups is not None for *_, groups in data):
        raise ValueError("`groups` need a group-aware `cv` (e.g. GroupKFold(n_splits=10, shuffle=True)); the "
                         f"scheme {scheme!r} ignores groups.")
    n_repeats = check_positive_int(n_repeats, "n_repeats")
    alpha = check_alpha(alpha)
    rope = None if rope is None else check_rope(rope)
    test = check_choice(test, "test", tuple(_TEST_NAMES))
    posthoc = check_choice(posthoc, "posthoc", tuple(_POSTHOC_NAMES))
    if n_jobs != -1:
        n_jobs = check_positive_int(n_jobs, "n_jobs")
    check_choice(backend, "backend", _BACKENDS)
    if backend == "dask" and importlib.util.find_spec("distributed") is None:
        raise ImportError("`backend` 'dask' needs the [dask] extra: pip install 'replicability[dask]'.")
    if kind == "resampling" and not (isinstance(test_size, float) and 0 < test_size < 1):
        raise ValueError(f"`test_size` must be a number in (0, 1); got {test_size!r}.")
    names = tuple(name for name, _ in items)
    ests = [est for _, est in items]
    check_comparable({f"estimators[{name!r}]": est for name, est in items}, scoring)
    scorers = [check_scoring(est, scoring) for est in ests]
    check_picklable({**{f"estimators[{name!r}]": est for name, est in items}, "scoring": scoring}, n_jobs, backend)
    plans = tuple(seed_plan(est, estimator_seeds) for est in ests)
    learners = [(name, est, scorer, plan.drawn) for name, est, scorer, plan in zip(names, ests, scorers, plans)]
    classifiers = all(is_classifier(est) for est in ests)
    root = as_generator(rng)
    generators = [repeat.spawn(len(data)) for repeat in root.spawn(n_repeats)]
    seeds = [[sklearn_seed(g) for g in repeat] for repeat in generators]
    if cv is None:
        recipes = [SplitRecipe(kind, r, k, test_size=test_size, stratified=stratify(
            classifiers, np.asarray(y), where=f"data set {name!r}: ",
            **({"n_folds": k} if kind == "cv" else {"test_size": test_size}))) for name, _, y, _ in data]
        scheme = _scheme_name(kind, r, k)
    else:
        # each data set's layout from its first randomization's splits, read once as drawn
        layouts = {name: cv_layout(cv, cv_splits(cv, seeds[0][d], X, y, groups), _num_samples(X))
                   for d, (name, X, y, groups) in enumerate(data)}
        if len(set(layouts.values())) != 1:
            raise ValueError(f"`cv` {cv!r} must give every data set the same layout (runs x folds, or "
                             f"independent splits); got {layouts}.")
        kind, r, k = next(iter(layouts.values()))
        recipes, scheme = [SplitRecipe(kind, r, k, cv=cv)] * len(data), repr(cv)
    tasks = []
    for i in range(n_repeats):
        for d in range(len(data)):
            # the learners' seeds: a child stream of the unit's, apart from its splitter's seed
            stream = generators[i][d].spawn(1)[0]
            tasks.append((recipes[d], d, seeds[i][d], [plan.draw(stream, r * k) for plan in plans], True))
    # one unit per randomization of a data set, its splits drawn in the worker; the data sent to workers once
    share = backend == "processes" and n_jobs != 1
    with SharedData(tuple((X, y, np.asarray(y), groups, {}) for _, X, y, groups in data), share=share) as shared:
        repeats = parallel_map(functools.partial(run_repeat, learners=learners, shared=shared,
                                                 error_score=error_score), tasks, backend=backend, n_jobs=n_jobs)
        failures = {}  # (learner, data set) -> its first failure
        repeats = _noting_failures(repeats, names, [name for name, *_ in data], failures)
        if sys.stderr.isatty() if progress is None else bool(progress):
            from tqdm.auto import tqdm

            repeats = tqdm(repeats, total=len(tasks), desc="randomizations of data sets", unit="unit")

        def name(index):
            unit, split = divmod(index, r * k)
            return (f"data set {data[unit % len(data)][0]!r}, "
                    + split_name(unit // len(data) * r * k + split, r, k, kind))

        split_scores = gather(split_results(repeats, r * k, []), name)
    split_scores = np.array(split_scores, dtype=float).reshape(n_repeats, len(data), r, k, len(ests))
    _warn_failures(failures, names, len(data))
    return _analyse(split_scores.mean(axis=(2, 3)), names, tuple(name for name, *_ in data), better="higher",
                    alpha=alpha, control=control, test=test, method=method, tie_correction=tie_correction,
                    posthoc=posthoc, scoring=scoring_name(scoring, ests[0], ests[1]), scheme=scheme, seeds=seeds,
                    split_scores=split_scores, rope=rope, rng=root.spawn(1)[0], seed_plans=plans,
                    failures=failures if failures else None)
