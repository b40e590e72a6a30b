"""Compare two learners on one's own data: the whole scheme, under several randomizations.

:func:`compare` fits learners A and B on the same splits of ``X, y`` (r x k cv,
5 x 2 cv or random subsampling), scores both on every test set, and repeats the
whole scheme under ``n_repeats`` independent randomizations; :func:`compare_scores`
takes scores computed elsewhere (scikit-learn's ``cross_validate``). Both return a
:class:`~replicability.comparison.result.Comparison`: the tests of the first
randomization, the recommended one first, and the replicability of its decision
over all randomizations (Bouckaert 2004). Given a region of practical equivalence
(``rope``), the Bayesian correlated t-test (Corani & Benavoli 2015) is reported
beside them.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
import warnings

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

__all__ = ["compare", "compare_scores"]

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


def _analyse(scores_a, scores_b, kind, n_train, n_test, *, alpha, df, scheme, scoring, seeds, rope,
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


def _scoring_name(scoring, estimator_a, estimator_b):
    if isinstance(scoring, str):
        return scoring
    if scoring is None:  # the estimators' own score: accuracy for classifiers, R² for regressors
        if is_classifier(estimator_a) and is_classifier(estimator_b):
            return "accuracy"
        return "r2" if is_regressor(estimator_a) and is_regressor(estimator_b) else "score"
    return getattr(scoring, "__name__", "custom score")


def compare(estimator_a, estimator_b, X, y, *, scheme="10x10cv", n_runs=10, test_size=0.1, cv=None, groups=None,
            scoring=None, fit_params=None, n_repeats=10, alpha=0.05, alternative="two-sided", df=None, rope=None,
            estimator_seeds="unset", quick=False, n_jobs=1, backend="processes", progress=None, rng=None):
    """Compare two estimators on the same splits, with the replicability of the decision.

    Null hypothesis of every test: A and B have the same expected score on data
    like ``X, y``. Both estimators are fitted on the same training sets and scored
    on the same test sets; differences are A - B, so a positive mean favours A.
    The whole scheme is then rerun under ``n_repeats`` independent randomizations:
    a decision that changes with the randomization is not one to report (Bouckaert
    2004), and the result says so.

    Parameters
    ----------
    estimator_a, estimator_b : scikit-learn estimator
        Classifiers or regressors, cloned for every split (their ``random_state``
        parameters set as ``estimator_seeds`` says).
    X : array-like, sparse matrix or DataFrame of shape (n_samples, n_features)
        Passed to the estimators as given: a DataFrame stays one (column names and
        dtypes for a ``ColumnTransformer``), a sparse matrix stays sparse; rows are
        taken as ``cross_validate`` takes them.
    y : array-like of shape (n_samples,)
    scheme : str, default "10x10cv"
        ``"RxKcv"``: R runs of K-fold cv (stratified for classifiers when every
        class has at least K members); ``"5x2cv"`` also gives the 5 x 2 cv t and
        F tests; ``"resampling"``: ``n_runs`` random train/test splits with
        ``test_size`` for testing. The default, 10 x 10 cv with the corrected
        repeated cv t-test, is the scheme Bouckaert & Frank (2004) found the most
        replicable; 5 x 2 cv was the least. Parsed by the one scheme grammar
        (:func:`~replicability.stats.scheme_grammar.parse_scheme`), so the engine
        registry's names are accepted too (``"5x2"``, ``"resample"``) and the result
        records the canonical spelling.
    n_runs : int, default 10
        Number of splits of ``"resampling"``.
    test_size : float, default 0.1
        Test fraction of ``"resampling"``.
    cv : scikit-learn splitter, optional
        Any splitter (``GroupKFold(10, shuffle=True)``, ``RepeatedStratifiedKFold``,
        ``ShuffleSplit``, ...) in place of ``scheme``; randomization ``i`` uses a copy
        with ``random_state`` set to ``Comparison.seeds[i]`` (a splitter without one,
        or with ``shuffle=False``, gives the same splits every time, and a warning
        says so). Its splits count as r x k cv when each run's test sets partition
        the rows (``r``: its ``n_repeats``, else 1), else as random subsampling.
    groups : array-like of shape (n_samples,), optional
        Group labels passed to ``cv.split``; they need a group-aware ``cv``.
    scoring : str, callable, list, tuple or dict, optional
        A scikit-learn scoring name or scorer ``scorer(estimator, X, y)``; higher
        is better. Default: the estimators' ``score`` (accuracy, R²), which
        learners of different kinds do not share (refused). Several metrics (a
        list of names or a dict of scorers, as in ``cross_validate``) give one
        Comparison per metric, on the same fits.
    fit_params : dict, optional
        Passed to every ``fit`` (``sample_weight``, or ``name__param`` for a
        pipeline's step); values with one entry per sample are taken at the
        training rows, as ``cross_validate``'s ``params``.
    n_repeats : int, default 10
        Independent randomizations of the whole scheme, at least 2. Ten is what
        Bouckaert (2004) and Bouckaert & Frank (2004) use to estimate
        replicability; R̂2's standard error (reported) shows what fewer would cost.
    alpha : float, default 0.05
        Significance level of the decisions.
    alternative : {"two-sided", "greater", "less"}, default "two-sided"
        Alternative hypothesis of every test: ``"greater"``, A's expected score
        is higher than B's (decided only as "A better"); ``"less"``, lower. A
        one-sided test leaves out the 5 x 2 cv F test, which has no direction.
    df : float, optional
        Calibrated degrees of freedom (Bouckaert 2003). They depend on the learner
        pair and the data, so none is assumed; given, the calibrated test is
        reported beside the others.
    rope : float, optional
        Half-width of a region of practical equivalence on the scale of the
        score (``0.01``: one accuracy point). Given, the Bayesian correlated
        t-test (Corani & Benavoli 2015) is reported beside the corrected t-test:
        the posterior probabilities that A is better by more than ``rope``, that
        the two are within ``rope``, and that B is better, with its decision at
        0.95 (:func:`~replicability.stats.bayesian.bayesian_correlated_ttest`).
        ``0`` is allowed (no equivalence region); None (default) leaves it out.
    estimator_seeds : {"unset", "all"}, default "unset"
        The learners' own randomness. ``"unset"``: every ``random_state`` parameter
        left at None, nested ones included (``get_params(deep=True)`` names ending in
        ``random_state``: pipeline steps, column transformers, meta-estimators), is
        set for every split and randomization from a stream of ``rng`` separate from
        the splits'; one the user fixed is kept, as in scikit-learn, and then that
        randomness is the same on every split and randomization, not varied (the
        summary says so). ``"all"``: every ``random_state`` is drawn, fixed ones too.
        Either way the same ``rng`` gives the same scores for any estimator whose
        randomness goes through ``random_state``. What was drawn and what kept is in
        ``Comparison.seed_plans``, the drawn values in ``Comparison.drawn_seeds``.
    quick : bool, default False
        A cheap first look: 1 x 10 cv under 2 randomizations, 20 splits and 40
        fits, against the default's 100 splits under 10 randomizations (2,000 fits);
        ``scheme`` and ``n_repeats`` are then left at their defaults (with ``cv``,
        only ``n_repeats`` is set, to 2). Its limits, which the summary states: ten
        differences give the corrected t-test little power, there are no
        sorted-runs tests, and two randomizations make a single pair, so R̂2 is
        0 or 1 and says little. A first look, not a result to report.
    n_jobs : int, default 1
        Worker processes over randomizations (1: in this process). Results do not
        depend on it. Each randomization draws its splits as they are used, so memory
        does not grow with ``n_repeats`` or the number of splits; the workers map the
        data from one file in shared memory, written once
        (:class:`~replicability.comparison.work.SharedData`), not sent per split.
    backend : {"processes", "dask"}, default "processes"
        How the splits are mapped (:func:`~replicability.engine.parallel.parallel_map`):
        ``"processes"`` uses ``n_jobs`` local processes; ``"dask"`` runs the fits on
        the current ``dask.distributed`` client (the ``[dask]`` extra).
    progress : bool, optional
        Show a progress bar with the expected remaining time, after a line that
        states the number of fits; default: when standard error is a terminal.
    rng : numpy.random.Generator, int or None
        Root of the randomizations: repeat ``i`` splits with a seed drawn from the
        ``i``-th child of ``rng`` (``Comparison.seeds``); the learners' drawn
        ``random_state`` values come from that child's own first child, one per
        split and parameter.

    Returns
    -------
    Comparison, or dict of str to Comparison
        One Comparison; with several metrics in ``scoring``, one per metric, by
        name (as ``cross_validate``'s keys follow ``scoring``).

    Raises
    ------
    ValueError
        Before any fit, for learners that cannot be compared; after, on the first
        split where a learner fails or its score is undefined, naming both.

    References
    ----------
    .. [1] Bouckaert, R. R., & Frank, E. (2004). Evaluating the replicability of
       significance tests for comparing learning algorithms. PAKDD 2004, 3-12.
       https://doi.org/10.1007/978-3-540-24775-3_3
    .. [2] Bouckaert, R. R. (2004). Estimating replicability of classifier
       learning experiments. ICML 2004. https://doi.org/10.1145/1015330.1015338
    .. [3] Nadeau, C., & Bengio, Y. (2003). Inference for the generalization
       error. Machine Learning 52(3), 239-281.
    .. [4] Corani, G., & Benavoli, A. (2015). A Bayesian approach for comparing
       cross-validated algorithms on multiple data sets. Machine Learning 100,
       285-304. https://doi.org/10.1007/s10994-015-5486-z

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from replicability.comparison import compare
    >>> X, y = load_iris(return_X_y=True)
    >>> res = compare(GaussianNB(), DecisionTreeClassifier(random_state=0), X, y,
    ...               scheme="5x2cv", n_repeats=4, rng=0)
    >>> res.recommended, res.decision
    ('corrected repeated cv t', 0)
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
    check_comparable({"estimator_a": estimator_a, "estimator_b": estimator_b}, scoring)
    X, y, groups = as_data(X, y, groups)
    if cv is None and groups is not None:
        raise ValueError("`groups` needs a group-aware `cv` (e.g. GroupKFold(n_splits=10, shuffle=True)); the "
                         f"scheme {scheme!r} ignores groups.")
    check_cv(cv)
    if fit_params is not None and not isinstance(fit_params, dict):
        raise TypeError(f"`fit_params` must be a dict of fit parameters; got {type(fit_params).__name__}.")
    scorer_a, scorer_b = check_scoring(estimator_a, scoring), check_scoring(estimator_b, scoring)
    metrics = _metric_names(scoring)
    check_picklable({"estimator_a": estimator_a, "estimator_b": estimator_b, "scoring": scoring}, n_jobs, backend)
    if kind == "resampling":
        test_size = check_fraction(test_size, "test_size")
    classifiers = is_classifier(estimator_a) and is_classifier(estimator_b)
    labels = np.asarray(y)
    generators = as_generator(rng).spawn(n_repeats)
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
    plans = {"A": seed_plan(estimator_a, estimator_seeds), "B": seed_plan(estimator_b, estimator_seeds)}
    # the learners' seeds: one child stream per randomization, apart from its splitter's seed
    streams = [g.spawn(1)[0] for g in generators]
    drawn = {side: np.stack([plan.draw(stream, r * k) for stream in streams]) for side, plan in plans.items()}
    learners = (("A", estimator_a, scorer_a, plans["A"].drawn), ("B", estimator_b, scorer_b, plans["B"].drawn))
    show = sys.stderr.isatty() if progress is None else bool(progress)
    if show:
        print(f"compare: {n_repeats * r * k} splits, {2 * n_repeats * r * k} fits"
              + ("" if quick else f" (quick=True: {2 * QUICK_REPEATS * _parse_scheme(QUICK_SCHEME, 0)[2]} fits, "
                                  f"a first look)"), file=sys.stderr)
    # one unit per randomization, its splits drawn in the worker; the data sent to worker processes once
    tasks = [(recipe, 0, seed, (drawn["A"][i], drawn["B"][i]), True) for i, seed in enumerate(seeds)]
    share = backend == "processes" and n_jobs != 1
    with SharedData(((X, y, labels, groups, fit_params or {}),), share=share) as shared:
        repeats = parallel_map(functools.partial(run_repeat, learners=learners, shared=shared), tasks,
                               backend=backend, n_jobs=n_jobs)
        if show:
            from tqdm.auto import tqdm

            repeats = tqdm(repeats, total=n_repeats, desc="randomizations", unit="randomization")
        sizes = []  # training and test set sizes of each randomization's splits
        scores = gather(split_results(repeats, r * k, sizes), lambda i: split_name(i, r, k, kind))
    n_train, n_test = sizes[0].mean(axis=0)
    common = {"alpha": alpha, "df": df, "scheme": scheme, "seeds": seeds, "rope": rope, "alternative": alternative,
              "quick": quick,
              "seed_plans": plans, "drawn_seeds": {side: a.reshape(n_repeats, r, k, -1) for side, a in drawn.items()}}
    if metrics is None:
        scores = np.array(scores, dtype=float).reshape(n_repeats, r, k, 2)
        return _analyse(scores[..., 0], scores[..., 1], kind, n_train, n_test,
                        scoring=_scoring_name(scoring, estimator_a, estimator_b), **common)
    out = {}
    for metric in metrics:
        both = np.array([[side[metric] for side in split] for split in scores], dtype=float).reshape(n_repeats, r, k, 2)
        out[metric] = _analyse(both[..., 0], both[..., 1], kind, n_train, n_test, scoring=metric, **common)
    return out


def _metric_names(scoring):
    """The metric names of a multi-metric ``scoring`` (list, tuple, set or dict), else None."""
    if isinstance(scoring, (list, tuple, dict)):
        return [str(name) for name in scoring]
    if isinstance(scoring, set):
        return sorted(map(str, scoring))
    return None


def compare_scores(x, y, *, scheme, n_train, n_test, alpha=0.05, df=None, rope=None, scoring="score"):
    """The :func:`compare` analysis of per-split scores computed elsewhere.

    Parameters
    ----------
    x, y : array_like
        Scores of A and B per split: flat ``(R K,)`` in run-major order (how
        scikit-learn's ``cross_validate`` with ``RepeatedKFold(n_splits=K,
        n_repeats=R)`` or ``RepeatedStratifiedKFold`` lists its ``test_score``,
        and ``GridSearchCV.cv_results_["split{i}_test_score"]`` for ``i`` in
        ``range(R K)``: split ``i`` is run ``i // K``, fold ``i % K``),
        ``(R, K)``, or ``(n_repeats, R, K)`` for several randomizations (then the
        replicability of the decision is reported). For ``"resampling"``:
        ``(n_runs,)`` or ``(n_repeats, n_runs)``.
    scheme : str
        As in :func:`compare`: ``"RxKcv"`` or ``"resampling"``.
    n_train, n_test : float
        Training and test set sizes of one split (their ratio enters the
        corrected tests).
    alpha : float, default 0.05
    df : float, optional
        Calibrated degrees of freedom, as in :func:`compare`.
    rope : float, optional
        Region of practical equivalence, as in :func:`compare`: adds the
        Bayesian correlated t-test.
    scoring : str, default "score"
        Name of the score, for the summary.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> import numpy as np
    >>> from replicability.comparison import compare_scores
    >>> a = np.array([0.90, 0.92, 0.88, 0.91, 0.93, 0.90, 0.89, 0.92, 0.91, 0.90])
    >>> res = compare_scores(a, a - 0.01, scheme="2x5cv", n_train=80, n_test=20)
    >>> res.decision, round(res.mean_difference, 6)
    (1, 0.01)
    >>> res = compare_scores(a, a - 0.002, scheme="2x5cv", n_train=80, n_test=20, rope=0.01)
    >>> res.bayesian.decision().tolist()
    ['equivalent']
    """
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
    return _analyse(arrays[0], arrays[1], kind, n_train, n_test, alpha=alpha, df=df, scheme=scheme,
                    scoring=scoring, seeds=None, rope=rope)
