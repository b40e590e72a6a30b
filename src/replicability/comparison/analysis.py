"""The analysis shared by the comparisons of two and of k learners on one data set.

:func:`fit_and_score` checks :func:`~replicability.comparison.run.compare`'s arguments and
fits and scores every learner on the same splits of every randomization (through
:mod:`~replicability.comparison.work`); :func:`analyse_pair` turns the scores of two
learners into a :class:`~replicability.comparison.result.Comparison` (every applicable
test, its decision under every randomization, the Bayesian correlated t-test with a ROPE);
:func:`pair_scores` is that analysis of scores computed elsewhere.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.base import is_classifier, is_regressor
from sklearn.metrics import check_scoring

from .._results import UnsignedResult
from .._validation import (
    as_generator,
    as_numbers,
    check_alpha,
    check_alternative,
    check_bool,
    check_choice,
    check_fraction,
    check_positive,
    check_positive_int,
    check_rope,
    sklearn_seed,
)
from ..engine.parallel import parallel_map
from ..stats.bayesian import bayesian_correlated_ttest
from ..stats.decisions import decide
from ..stats.nonparametric import sign_test, signed_rank_test
from ..stats.scheme_grammar import parse_scheme
from ..stats.schemes import scheme_test, scheme_ttest
from ..stats.ttests import (
    alpaydin_5x2cv_ftest,
    corrected_repeated_cv_ttest,
    corrected_resampled_ttest,
    dietterich_5x2cv_ttest,
    resampled_ttest,
)
from .checks import check_comparable, check_picklable, stratify
from .folds import gather, split_name
from .inputs import as_data, check_cv, cv_layout, cv_splits, randomizable
from .result import Comparison
from .seeds import seed_plan
from .work import SharedData, SplitRecipe, run_repeat, split_results

__all__ = ["QUICK_REPEATS", "QUICK_SCHEME", "ScoredRun", "analyse_pair", "fit_and_score", "pair_scores", "scoring_name"]

_BACKENDS = ("processes", "dask")
#: The quick look of ``compare(quick=True)``: 1 x 10 cv under 2 randomizations, 40 fits.
QUICK_SCHEME, QUICK_REPEATS = "1x10cv", 2


def _parse_scheme(scheme, n_runs):
    """``("cv", r, k)`` or ``("resampling", n_runs, 1)`` by the one grammar (resampling: at least 2 splits)."""
    spec = parse_scheme(scheme, n_runs=n_runs if n_runs else 1)
    if spec.kind == "resampling":
        check_positive_int(n_runs, "n_runs", minimum=2)
    return spec.kind, spec.n_runs, spec.n_folds


def _scheme_name(kind, r, k):
    """The canonical spelling of a parsed scheme (``"10x10cv"``, ``"resampling"``), as the result records it."""
    return "resampling" if kind == "resampling" else f"{r}x{k}cv"


def _tests(d, kind, n_train, n_test, df, alternative="two-sided", alpha=0.05):
    """Every applicable test on differences ``d`` (runs, folds) of one randomization, recommended first.

    r x k cv: the corrected repeated cv t-test (Bouckaert & Frank 2004, the most
    replicable of the tests they compare); resampling: the corrected resampled
    t-test (Nadeau & Bengio 2003). Beside them the uncorrected t on the same
    differences, the sign and signed-rank tests on sorted runs (Bouckaert 2004), the
    5 x 2 cv t and F tests (Dietterich 1998; Alpaydin 1999) for 5 x 2 cv, and the
    calibrated t (Bouckaert 2003) when ``df`` is given. A one-sided ``alternative``
    leaves out the 5 x 2 cv F test, which has no direction; a sign or signed-rank
    test is left out when too few values make it unable to reject at ``alpha``
    whatever they are (the sorted-runs tests of 5 x 2 cv: two values, p >= 0.157).
    """
    r, k = d.shape
    flat = d.reshape(-1)
    side = {"alternative": alternative}
    # the data most favourable to rejection: every difference of the alternative's sign, all distinct
    extreme = np.arange(1.0, r * k + 1).reshape(r, k) * (-1 if alternative == "less" else 1)
    if kind == "resampling":
        tests = {"corrected resampled t": corrected_resampled_ttest(flat, n_train=n_train, n_test=n_test, **side),
                 "resampled t (uncorrected)": resampled_ttest(flat, **side)}
        for name, test in (("sign", sign_test), ("signed rank", signed_rank_test)):
            if float(test(extreme.reshape(-1), **side).pvalue) < alpha:
                tests[name] = test(flat, **side)
        if df is not None:
            tests["corrected resampled t, calibrated df"] = corrected_resampled_ttest(
                flat, n_train=n_train, n_test=n_test, df=df, **side)
        return tests
    tests = {"corrected repeated cv t": corrected_repeated_cv_ttest(d, n_train=n_train, n_test=n_test, **side),
             "t on all r x k differences (uncorrected)": resampled_ttest(flat, **side)}
    if r >= 2:
        for name, test in (("sign, sorted runs", "sign"), ("signed rank, sorted runs", "signed_rank")):
            if float(scheme_test(extreme, scheme="sorted_runs", test=test, **side).pvalue) < alpha:
                tests[name] = scheme_test(d, scheme="sorted_runs", test=test, **side)
    if (r, k) == (5, 2):
        tests["5x2cv t"] = dietterich_5x2cv_ttest(d, **side)
        if alternative == "two-sided":
            tests["5x2cv F"] = alpaydin_5x2cv_ftest(d)
    if df is not None:
        tests["calibrated t, all differences"] = scheme_ttest(d, scheme="all", df=df, **side)
    return tests


def _decisions(tests, d, alpha):
    """Each test's decision; a test without a signed statistic (5x2cv F) takes its direction from the mean."""
    mean = float(d.mean())
    return {name: int(decide(res, alpha=alpha, statistic=mean if isinstance(res, UnsignedResult) else None))
            for name, res in tests.items()}


def analyse_pair(scores_a, scores_b, kind, n_train, n_test, *, alpha, df, scheme, scoring, seeds, rope,
             alternative="two-sided", seed_plans=None, drawn_seeds=None, quick=False):
    """The Comparison of scores (repeats, runs, folds)."""
    n_train, n_test = check_positive(n_train, "n_train"), check_positive(n_test, "n_test")
    d = scores_a - scores_b
    # one posterior per randomization; random subsampling's (runs, 1) are its n_runs splits
    bayesian = None if rope is None else bayesian_correlated_ttest(d, rope=rope, n_train=n_train, n_test=n_test)
    tests = [_tests(d[i], kind, n_train, n_test, df, alternative, alpha) for i in range(d.shape[0])]
    decisions = [_decisions(t, d[i], alpha) for i, t in enumerate(tests)]
    return Comparison(
        scheme=scheme, scoring=scoring, alpha=alpha, n_train=n_train, n_test=n_test,
        scores_a=scores_a, scores_b=scores_b, seeds=seeds, tests=tests[0],
        pvalues={name: np.array([float(t[name].pvalue) for t in tests]) for name in tests[0]},
        decisions={name: np.array([dec[name] for dec in decisions], dtype=np.int8) for name in tests[0]},
        rope=rope, bayesian=bayesian, seed_plans=seed_plans, drawn_seeds=drawn_seeds, alternative=alternative,
        quick=quick,
    )


def scoring_name(scoring, estimator_a, estimator_b):
    if isinstance(scoring, str):
        return scoring
    if scoring is None:  # the estimators' own score: accuracy for classifiers, R² for regressors
        if is_classifier(estimator_a) and is_classifier(estimator_b):
            return "accuracy"
        return "r2" if is_regressor(estimator_a) and is_regressor(estimator_b) else "score"
    return getattr(scoring, "__name__", "custom score")


@dataclass(frozen=True)
class ScoredRun:
    """What :func:`fit_and_score` returns: every learner's scores on the same splits, and how they were drawn.

    ``scores`` has shape (n_repeats, n_runs, n_folds, n_learners), or is a dict of such
    arrays by metric; ``seed_plans`` and ``drawn_seeds`` are keyed by the learners' labels.
    """

    scores: object
    metrics: list | None
    kind: str
    scheme: str
    n_train: float
    n_test: float
    seeds: list
    seed_plans: dict
    drawn_seeds: dict
    alpha: float
    alternative: str
    rope: float | None


def fit_and_score(estimators, arguments, X, y, *, scheme, n_runs, test_size, cv, groups, scoring, fit_params,
                  n_repeats, alpha, alternative, rope, estimator_seeds, quick, n_jobs, backend, progress, rng,
                  n_seeds=None):
    """Check the arguments of ``compare``, then fit and score every learner on the same splits.

    The arguments are those of :func:`~replicability.comparison.run.compare`.

    ``estimators`` is a dict by label (``"A"``, ``"B"``, or the user's names), ``arguments``
    names each as the user passed it (``"estimator_a"``), for error messages. Every
    randomization scores every estimator on the same splits; the learners' seeds are
    drawn from the randomization's learner stream in the dict's order, so the first two
    learners of several get the seeds ``compare`` gives A and B.

    With ``n_seeds``, the design is crossed instead: every randomization of the splits
    ``i`` is run with every one of ``n_seeds`` sets of learner seeds ``j``, the same set
    ``j`` in every ``i`` (drawn from ``n_seeds`` streams spawned from ``rng`` after the
    randomizations'); ``scores`` then has shape (n_repeats n_seeds, runs, folds,
    learners), ``i`` major, and ``drawn_seeds`` one set per ``j``.
    """
    check_bool(quick, "quick")
    if quick:
        if scheme != "10x10cv" or n_repeats != 10:
            raise ValueError(f"`quick` sets the scheme ({QUICK_SCHEME!r}) and `n_repeats` ({QUICK_REPEATS}) itself; "
                             f"leave `scheme` and `n_repeats` at their defaults, or pass quick=False.")
        scheme, n_repeats = QUICK_SCHEME, QUICK_REPEATS
    kind, r, k = _parse_scheme(scheme, n_runs) if cv is None else (None, None, None)
    if cv is None:
        scheme = _scheme_name(kind, r, k)
    n_repeats = check_positive_int(n_repeats, "n_repeats", minimum=2)
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative)
    rope = None if rope is None else check_rope(rope)
    if n_jobs != -1:
        n_jobs = check_positive_int(n_jobs, "n_jobs")
    check_choice(backend, "backend", _BACKENDS)
    if backend == "dask" and importlib.util.find_spec("distributed") is None:
        raise ImportError("`backend` 'dask' needs the [dask] extra: pip install 'replicability[dask]'.")
    check_comparable({arguments[label]: est for label, est in estimators.items()}, scoring)
    X, y, groups = as_data(X, y, groups)
    if cv is None and groups is not None:
        raise ValueError("`groups` needs a group-aware `cv` (e.g. GroupKFold(n_splits=10, shuffle=True)); the "
                         f"scheme {scheme!r} ignores groups.")
    check_cv(cv)
    if fit_params is not None and not isinstance(fit_params, dict):
        raise TypeError(f"`fit_params` must be a dict of fit parameters; got {type(fit_params).__name__}.")
    scorers = {label: check_scoring(est, scoring) for label, est in estimators.items()}
    metrics = _metric_names(scoring)
    check_picklable({**{arguments[label]: est for label, est in estimators.items()}, "scoring": scoring}, n_jobs,
                    backend)
    if kind == "resampling":
        test_size = check_fraction(test_size, "test_size")
    classifiers = all(is_classifier(est) for est in estimators.values())
    labels = np.asarray(y)
    root = as_generator(rng)
    generators = root.spawn(n_repeats)
    seeds = [sklearn_seed(g) for g in generators]
    if cv is None:
        stratified = stratify(classifiers, labels, **({"n_folds": k} if kind == "cv" else {"test_size": test_size}))
        recipe = SplitRecipe(kind, r, k, test_size=test_size, stratified=stratified)
    else:
        if not randomizable(cv):
            warnings.warn(f"`cv` {cv!r} has no random_state to vary: every randomization has the same splits, so "
                          f"only the learners' own randomness varies between them.", UserWarning, stacklevel=2)
        # the layout from the first randomization's splits, read once as drawn (its warnings given here, once)
        kind, r, k = cv_layout(cv, cv_splits(cv, seeds[0], X, y, groups), len(labels))
        recipe, scheme = SplitRecipe(kind, r, k, cv=cv), repr(cv)
    plans = {label: seed_plan(est, estimator_seeds) for label, est in estimators.items()}
    # the learners' seeds: one child stream per randomization, apart from its splitter's seed
    streams = [g.spawn(1)[0] for g in generators] if n_seeds is None else root.spawn(n_seeds)
    drawn = {side: np.stack([plan.draw(stream, r * k) for stream in streams]) for side, plan in plans.items()}
    # one unit per randomization (and seed set), its splits drawn in the worker
    cells = [(i, i) for i in range(n_repeats)] if n_seeds is None else [
        (i, j) for i in range(n_repeats) for j in range(n_seeds)]
    learners = tuple((label, est, scorers[label], plans[label].drawn) for label, est in estimators.items())
    show = sys.stderr.isatty() if progress is None else bool(progress)
    if show:
        n = len(estimators)
        print(f"compare: {len(cells) * r * k} splits, {n * len(cells) * r * k} fits"
              + ("" if quick else f" (quick=True: {n * QUICK_REPEATS * _parse_scheme(QUICK_SCHEME, 0)[2]} fits, "
                                  f"a first look)"), file=sys.stderr)
    # the data sent to worker processes once
    tasks = [(recipe, 0, seeds[i], tuple(d[j] for d in drawn.values()), True) for i, j in cells]
    share = backend == "processes" and n_jobs != 1
    with SharedData(((X, y, labels, groups, fit_params or {}),), share=share) as shared:
        repeats = parallel_map(functools.partial(run_repeat, learners=learners, shared=shared), tasks,
                               backend=backend, n_jobs=n_jobs)
        if show:
            from tqdm.auto import tqdm

            repeats = tqdm(repeats, total=len(cells), desc="randomizations", unit="randomization")
        sizes = []  # training and test set sizes of each randomization's splits
        scores = gather(split_results(repeats, r * k, sizes), lambda i: split_name(i, r, k, kind))
    n_train, n_test = sizes[0].mean(axis=0)
    shape = (len(cells), r, k, len(estimators))
    if metrics is None:
        scores = np.array(scores, dtype=float).reshape(shape)
    else:
        scores = {metric: np.array([[side[metric] for side in split] for split in scores], dtype=float).reshape(shape)
                  for metric in metrics}
    return ScoredRun(scores=scores, metrics=metrics, kind=kind, scheme=scheme, n_train=n_train, n_test=n_test,
                     seeds=seeds, seed_plans=plans,
                     drawn_seeds={label: a.reshape(len(streams), r, k, -1) for label, a in drawn.items()},
                     alpha=alpha, alternative=alternative, rope=rope)


def _metric_names(scoring):
    """The metric names of a multi-metric ``scoring`` (list, tuple, set or dict), else None."""
    if isinstance(scoring, (list, tuple, dict)):
        return [str(name) for name in scoring]
    if isinstance(scoring, set):
        return sorted(map(str, scoring))
    return None


def pair_scores(x, y, *, scheme, n_train, n_test, alpha, df, rope, scoring):
    """:func:`analyse_pair` of per-split scores computed elsewhere, after checking their shapes (see
    :func:`~replicability.comparison.run.compare_scores`)."""
    alpha = check_alpha(alpha)
    rope = None if rope is None else check_rope(rope)
    x, y = as_numbers(x, "x"), as_numbers(y, "y")
    if parse_scheme(scheme).kind == "resampling":  # runs on the last axis: (runs,) or (repeats, runs)
        x, y = x[..., None], y[..., None]
    kind, r, k = _parse_scheme(scheme, x.shape[-2] if x.ndim >= 2 else 0)
    scheme = _scheme_name(kind, r, k)
    arrays = []
    for arr, name in ((x, "x"), (y, "y")):
        if arr.shape in ((r * k,), (r, k)):
            arr = arr.reshape(1, r, k)
        elif not (arr.ndim == 3 and arr.shape[1:] == (r, k)):
            raise ValueError(f"`{name}` must hold {r} x {k} scores of scheme {scheme!r}, flat (run-major), "
                             f"(runs, folds) or (repeats, runs, folds); got shape {arr.shape}.")
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"`{name}` must hold finite scores; got NaN or infinity.")
        arrays.append(arr)
    if arrays[0].shape != arrays[1].shape:
        raise ValueError(f"`x` and `y` must have the same shape; got {arrays[0].shape} and {arrays[1].shape}.")
    return analyse_pair(arrays[0], arrays[1], kind, n_train, n_test, alpha=alpha, df=df, scheme=scheme,
                        scoring=scoring, seeds=None, rope=rope)
