"""Compare two learners on one's own data: the whole scheme, under several randomizations.

:func:`compare` fits learners A and B on the same splits of ``X, y`` (r x k cv,
5 x 2 cv or random subsampling), scores both on every test set, and repeats the
whole scheme under ``n_repeats`` independent randomizations; :func:`compare_scores`
takes scores computed elsewhere (scikit-learn's ``cross_validate``). Both return a
:class:`~replicability.comparison.result.Comparison`: the tests of the first
randomization, the recommended one first, and the replicability of its decision
over all randomizations (Bouckaert 2004). Given a region of practical equivalence
(``rope``), the Bayesian correlated t-test (Corani & Benavoli 2015) is reported
beside them. Given a list or dict of learners, both compare every pair
(:mod:`~replicability.comparison.k_learners`).
"""

from __future__ import annotations

from .analysis import analyse_pair, fit_and_score, pair_scores, scoring_name
from .k_learners import compare_learners, compare_scores_of

__all__ = ["compare", "compare_scores"]


def compare(estimator_a, estimator_b, X, y=None, *, scheme="10x10cv", n_runs=10, test_size=0.1, cv=None, groups=None,
            scoring=None, fit_params=None, n_repeats=10, alpha=0.05, alternative="two-sided", df=None, rope=None,
            estimator_seeds="unset", quick=False, correction="holm", n_jobs=1, backend="processes", progress=None,
            rng=None):
    """Compare two (or k) estimators on the same splits, with the replicability of the decision.

    Null hypothesis of every test: A and B have the same expected score on data
    like ``X, y``. Both estimators are fitted on the same training sets and scored
    on the same test sets; differences are A - B, so a positive mean favours A.
    The whole scheme is then rerun under ``n_repeats`` independent randomizations:
    a decision that changes with the randomization is not one to report (Bouckaert
    2004), and the result says so.

    k learners: ``compare(estimators, X, y, ...)`` with a list (named by class) or
    dict (by name) of estimators fits all of them on the same splits and analyses
    every pair as two learners are analysed, the pairs' p-values adjusted together
    by ``correction`` (scikit-learn's gallery example "Statistical comparison of
    models using grid search" does this by hand), with a ranking by mean score and
    its replicability over the randomizations
    (:class:`~replicability.comparison.pairwise_result.PairwiseComparison`). The
    first two learners get the seeds ``compare`` gives A and B with the same
    ``rng``, so their pair equals the two-learner comparison.

    Parameters
    ----------
    estimator_a, estimator_b : scikit-learn estimator
        Classifiers or regressors, cloned for every split (their ``random_state``
        parameters set as ``estimator_seeds`` says). In the k-learner form the
        first argument is the list or dict of estimators and the next two are X and y.
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
    correction : {"holm", "bonferroni"}, default "holm"
        Family-wise correction of the pairs' p-values in the k-learner form (Holm
        1979, never less powerful than Bonferroni's); ignored for two learners.
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
    Comparison, dict of str to Comparison, or PairwiseComparison
        One Comparison; with several metrics in ``scoring``, one per metric, by
        name (as ``cross_validate``'s keys follow ``scoring``); for a list or dict
        of estimators, a PairwiseComparison (one metric).

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
    options = {"scheme": scheme, "n_runs": n_runs, "test_size": test_size, "cv": cv, "groups": groups,
               "scoring": scoring, "fit_params": fit_params, "n_repeats": n_repeats, "alpha": alpha,
               "alternative": alternative, "rope": rope, "estimator_seeds": estimator_seeds, "quick": quick,
               "n_jobs": n_jobs, "backend": backend, "progress": progress, "rng": rng}
    if isinstance(estimator_a, (list, tuple, dict)):
        if y is not None:
            raise TypeError("compare(estimators, X, y) takes a list or dict of estimators, then X and y; got an "
                            "extra positional argument after y.")
        return compare_learners(estimator_a, estimator_b, X, correction=correction, df=df, **options)
    if y is None:
        raise TypeError("compare(estimator_a, estimator_b, X, y) needs y (or compare(estimators, X, y) with a list "
                        "or dict of estimators).")
    run = fit_and_score({"A": estimator_a, "B": estimator_b}, {"A": "estimator_a", "B": "estimator_b"}, X, y,
                        **options)
    common = {"alpha": run.alpha, "df": df, "scheme": run.scheme, "seeds": run.seeds, "rope": run.rope,
              "alternative": run.alternative, "quick": quick, "seed_plans": run.seed_plans,
              "drawn_seeds": run.drawn_seeds}
    if run.metrics is None:
        return analyse_pair(run.scores[..., 0], run.scores[..., 1], run.kind, run.n_train, run.n_test,
                            scoring=scoring_name(scoring, estimator_a, estimator_b), **common)
    return {metric: analyse_pair(both[..., 0], both[..., 1], run.kind, run.n_train, run.n_test, scoring=metric,
                                 **common) for metric, both in run.scores.items()}


def compare_scores(x, y=None, *, scheme, n_train, n_test, alpha=0.05, df=None, rope=None, scoring="score",
                   correction="holm"):
    """The :func:`compare` analysis of per-split scores computed elsewhere.

    Two learners: ``compare_scores(x, y, ...)``. k learners: ``compare_scores(scores, ...)``
    with a dict of score arrays by learner name, all of the same splits: every pair is
    analysed, with the family's p-values adjusted by ``correction``, as
    :func:`compare` does for a list of estimators.

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
    correction : {"holm", "bonferroni"}, default "holm"
        Family-wise correction of the k-learner form (ignored for two learners).

    Returns
    -------
    Comparison, or PairwiseComparison for a dict of scores

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
    if isinstance(x, dict):
        if y is not None:
            raise TypeError("compare_scores(scores) with a dict of score arrays takes no `y`.")
        return compare_scores_of(x, scheme=scheme, n_train=n_train, n_test=n_test, alpha=alpha, df=df, rope=rope,
                                 scoring=scoring, correction=correction)
    if y is None:
        raise TypeError("compare_scores(x, y) needs the scores of both learners (or a dict of score arrays).")
    return pair_scores(x, y, scheme=scheme, n_train=n_train, n_test=n_test, alpha=alpha, df=df, rope=rope,
                       scoring=scoring)
