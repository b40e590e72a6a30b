"""The one registry: every learner, source, sampling scheme and pair evaluator the runner names.

Each entry is declared here, explicitly, with the **version of the code that computes
its results**. A stored result records the versions of the components that computed
it (:func:`code_versions`); a result or chunk of other versions is stale and is
recomputed, never combined with new chunks (:mod:`replicability.engine.store`).

Rule for versions: bump a component's version when a change to its code changes any
result it computes; keep it when a change leaves results bit-identical, with the
evidence in the commit (e.g. ``benchmarks/bench_engine.py``, which checks that the
fast kernels give the counts of the reference loop, or the nbval run of the notebooks
against the committed results).

Built-in entries:

* learners ``"naive_bayes"``, ``"c45"``, ``"ib1"``, ``"tan"``, ``"voted_perceptron"``
  (``replicability.learners``);
* sources ``"independent_binary"``
  (:func:`~replicability.sources.synthetic.sample_independent_binary`) and
  ``"bayesnet"`` (:func:`~replicability.sources.bayesnet.bouckaert2003_source`); the
  UCI loader ``"uci"`` (:func:`~replicability.sources.uci.load_uci`) is versioned here
  too, for the UCI experiments;
* schemes ``"cv"``, ``"resample"``, ``"5x2"`` (the splits of scikit-learn's splitters
  seeded from the repeat's stream, drawn compiled but for stratified subsampling),
  ``"rxk_cv"`` (:func:`~replicability.engine.splits.rxk_cv_splits`;
  ``train_order="experimenter"`` shuffles each training set as Weka's Experimenter does)
  and, versioned for the UCI experiments, ``"weka_cv"`` (Weka's stratified folds),
  ``"random_subsampling"`` (:class:`~replicability.engine.splits.RandomSubsampling`) and
  ``"weka_random_split"`` (the Experimenter's 90/10 splits);
* pair evaluators for all 20 ordered pairs of the five learners, which fit both
  learners on all folds of a data set in compiled code when the attributes are
  binary (:mod:`replicability.learners.pairs`), under the kernel version ``"pairs"``.

Entries added with the ``register_*`` functions (version 1 unless given) sit beside
the built-in ones. A version names one piece of code: registering a name again with
another factory at a version it was registered at before is an error (the same factory
again is allowed). Beyond the version, a chunk of a run in progress records a
fingerprint of each component's code (:func:`code_fingerprint`), so that a resumed
run, in another process or on another host, refuses chunks computed by other code.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import types

import numpy as np
from sklearn.model_selection import StratifiedShuffleSplit

from .._validation import check_fraction, check_positive_int
from ..learners import C45, IB1, TAN, NaiveBayes, VotedPerceptron
from ..learners.pairs import FAST_LEARNERS, evaluate_nb_c45, evaluate_pair_fast
from ..sources.bayesnet import bouckaert2003_source
from ..sources.synthetic import sample_independent_binary
from ..stats.scheme_grammar import parse_scheme
from .splits import (
    RepeatedCV,
    _experimenter_splits,
    _kfold_splits,
    _shuffle_splits,
    _stratified_repeats,
    _stratified_splits,
    rxk_cv_splits,
)

__all__ = [
    "LEARNERS",
    "PAIR_EVALUATORS",
    "SCHEMES",
    "SOURCES",
    "VERSIONS",
    "code_fingerprint",
    "code_versions",
    "register_learner",
    "register_pair_evaluator",
    "register_scheme",
    "register_source",
    "resolve_scheme",
]


# -- built-in sampling schemes -----------------------------------------------------


def _int_seeds(rng, n):
    # scikit-learn splitters take integer seeds; draw them from the repeat's stream.
    return [int(s) for s in rng.integers(0, 2**32, size=n)]


def _cv(*, n_runs=10, n_folds=10, stratified=False):
    n_runs = check_positive_int(n_runs, "n_runs")
    n_folds = check_positive_int(n_folds, "n_folds", minimum=2)

    def split(X, y, rng):
        seeds = _int_seeds(rng, n_runs)
        if not stratified:
            # KFold(n_folds, shuffle=True, random_state=seed) per run, shuffled in one compiled call
            # (the same splits, tested).
            return _kfold_splits(len(X), n_folds, seeds)
        # StratifiedKFold(n_folds, shuffle=True, random_state=seed) per run, computed
        # without scikit-learn's per-call input checks (the same splits, tested).
        return _stratified_splits(y, n_folds, seeds=seeds)

    return split


def _resample(*, n_runs=10, test_size=1 / 3, stratified=False):
    n_runs = check_positive_int(n_runs, "n_runs")
    check_fraction(test_size, "test_size")

    def split(X, y, rng):
        seed = _int_seeds(rng, 1)[0]
        if not stratified:
            # ShuffleSplit(n_runs, test_size=test_size, random_state=seed), drawn in one compiled call
            # (the same splits, tested).
            splits = _shuffle_splits(len(X), n_runs, test_size, seed)
        else:
            splits = StratifiedShuffleSplit(n_splits=n_runs, test_size=test_size, random_state=seed).split(X, y)
        return [[fold] for fold in splits]

    return split


def _five_by_two(*, stratified=False):
    # Dietterich's 5x2 cv: five runs of two-fold cross-validation.
    return _cv(n_runs=5, n_folds=2, stratified=stratified)


def _rxk_cv(*, n_runs=10, n_folds=10, stratified=True, train_order="sorted"):
    """Stratified (by default) r x k cv from replicability.engine.splits, seeded per repeat.

    ``train_order="sorted"``: training rows ascending; ``"experimenter"``: shuffled per fold
    as Weka's Experimenter does (:func:`~replicability.engine.splits.experimenter_training_order`,
    one ``java.util.Random`` per run, its seed drawn from the repeat's stream after the folds').
    """
    if train_order not in ("sorted", "experimenter"):
        raise ValueError(f"`train_order` must be 'sorted' or 'experimenter'; got {train_order!r}.")
    r, k = RepeatedCV(n_runs, n_folds).shape

    def from_seeds(X, y, seeds):
        # The splits of one repeat per seed, in turn (each run-major), in the sorted training order; (runs, folds).
        if stratified and np.ndim(y) == 1:
            # rxk_cv_splits's splits (RepeatedStratifiedKFold(random_state=seed): one
            # generator for all runs), all repeats in the flat form the kernels read.
            return _stratified_repeats(y, k, r, seeds), (r, k)
        splits = [pair for seed in seeds for pair in rxk_cv_splits(y, n_runs=n_runs, n_folds=n_folds,
                                                                  stratified=stratified, random_state=int(seed))[0]]
        return splits, (r, k)

    def split(X, y, rng):
        seed = int(rng.integers(0, 2**32))
        if train_order == "sorted" and stratified and np.ndim(y) == 1:
            return _stratified_splits(y, k, n_runs=r, random_state=seed)
        flat, _ = rxk_cv_splits(y, n_runs=n_runs, n_folds=n_folds, stratified=stratified, random_state=seed)
        if train_order == "experimenter":
            flat = _experimenter_splits(flat, k, rng.integers(0, 2**31, size=r))
        return [flat[i * k:(i + 1) * k] for i in range(r)]

    if train_order == "sorted":
        # All split draws from its generator is the seed, the first integers(0, 2**32): a runner may
        # draw those of all repeats at once (engine._seed_kernels) and call from_seeds.
        split.from_seeds = from_seeds
    return split


def _independent_binary(rng, *, n_instances, **params):
    return sample_independent_binary(n_instances, rng=rng, **params)


def _evaluate_c45_nb(X, y, splits, *, params_a, params_b):
    return _prepare_c45_nb(X, y, splits, params_a=params_a, params_b=params_b)()


def _prepare_c45_nb(X, y, splits, *, params_a, params_b):
    # The fused naive Bayes / C4.5 kernel with A and B swapped: swap the two correct counts back.
    count = evaluate_nb_c45.prepare(X, y, splits, params_a=params_b, params_b=params_a)
    return lambda: count()[:, [1, 0, 2]]


_evaluate_c45_nb.prepare = _prepare_c45_nb


def _fast_pair(learner_a, learner_b):
    evaluate = functools.partial(evaluate_pair_fast, learner_a=learner_a, learner_b=learner_b)
    evaluate.prepare = functools.partial(evaluate_pair_fast.prepare, learner_a=learner_a, learner_b=learner_b)
    return evaluate


# -- the registry ----------------------------------------------------------------

#: name -> ``factory(**params) -> estimator`` with ``fit`` / ``predict``
LEARNERS = {
    "naive_bayes": NaiveBayes,
    "c45": C45,
    "ib1": IB1,
    "tan": TAN,
    "voted_perceptron": VotedPerceptron,
}
#: name -> ``factory(rng, *, n_instances, **params) -> (X, y)``
SOURCES = {"independent_binary": _independent_binary, "bayesnet": bouckaert2003_source}
#: name -> ``factory(**params) -> split(X, y, rng)`` returning runs of (train, test) folds
SCHEMES = {"cv": _cv, "resample": _resample, "5x2": _five_by_two, "rxk_cv": _rxk_cv}
#: (learner_a, learner_b) -> ``evaluate(X, y, splits, *, params_a, params_b)``
PAIR_EVALUATORS = {(a, b): _fast_pair(a, b) for a in FAST_LEARNERS for b in FAST_LEARNERS if a != b}
# The fused naive Bayes / C4.5 kernel fits both learners in one pass: faster.
PAIR_EVALUATORS[("naive_bayes", "c45")] = evaluate_nb_c45
PAIR_EVALUATORS[("c45", "naive_bayes")] = _evaluate_c45_nb

#: "<kind>:<name>" -> version of the code that computes its results (see the rule above).
VERSIONS = {
    "learner:naive_bayes": 1,
    "learner:c45": 1,
    "learner:ib1": 1,
    "learner:tan": 2,
    "learner:voted_perceptron": 1,
    "source:independent_binary": 1,
    "source:bayesnet": 1,
    "source:uci": 1,
    "scheme:cv": 1,
    "scheme:resample": 1,
    "scheme:5x2": 1,
    "scheme:rxk_cv": 1,
    "scheme:weka_cv": 1,
    "scheme:random_subsampling": 1,
    "scheme:weka_random_split": 1,
    "kernel:pairs": 1,
}
# (component, version) -> the factory registered under it, built-in ones included.
_REGISTERED = {(f"{kind}:{name}", VERSIONS[f"{kind}:{name}"]): factory
               for kind, table in (("learner", LEARNERS), ("source", SOURCES), ("scheme", SCHEMES))
               for name, factory in table.items()}


def code_versions(*components):
    """The versions of the named components, for a stored result's record.

    Parameters
    ----------
    *components : str
        ``"<kind>:<name>"`` keys of :data:`VERSIONS`, e.g. ``"learner:c45"``.

    Returns
    -------
    dict
        ``{component: version}``, sorted by component.

    Raises
    ------
    KeyError
        For a component without a declared version.

    Examples
    --------
    >>> code_versions("learner:c45", "source:uci")
    {'learner:c45': 1, 'source:uci': 1}
    """
    missing = [c for c in components if c not in VERSIONS]
    if missing:
        raise KeyError(f"No code version declared for {missing}; declared: {sorted(VERSIONS)}.")
    return {c: VERSIONS[c] for c in sorted(set(components))}


def _check_name(value, name):
    if not isinstance(value, str) or not value:
        raise ValueError(f"`{name}` must be a non-empty string; got {value!r}.")
    return value


def _check_callable(value, name):
    if not callable(value):
        raise TypeError(f"`{name}` must be callable; got {type(value).__name__}.")
    return value


def _register(table, kind, name, factory, version):
    key = f"{kind}:{_check_name(name, 'name')}"
    _check_callable(factory, "factory")
    version = check_positive_int(version, "version")
    _claim(key, factory, version)
    table[name] = factory
    VERSIONS[key] = version
    return factory


def _claim(key, factory, version):
    """Record that ``version`` of ``key`` is ``factory``; another factory at a version already used is an error."""
    previous = _REGISTERED.setdefault((key, version), factory)
    if previous is not factory:
        raise ValueError(f"`{key}` version {version} is registered already, with another factory ({previous!r}); "
                         f"register {factory!r} with another `version`.")


def _feed_code(digest, code):
    # Bytecode, names and constants (nested functions' code objects in turn): no file name or line number.
    digest.update(code.co_code)
    digest.update(repr(code.co_names).encode())
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            _feed_code(digest, const)
        else:
            digest.update(repr(const).encode())


def _feed(digest, obj):
    if isinstance(obj, functools.partial):
        _feed(digest, obj.func)
        for arg in (*obj.args, *(v for _, v in sorted(obj.keywords.items()))):
            _feed(digest, arg) if callable(arg) else digest.update(repr(arg).encode())
        digest.update(repr(sorted(obj.keywords)).encode())
        return
    target = inspect.unwrap(obj)
    # Not the module's name: one file imported under two names (a package, a script's folder) is one code.
    digest.update(getattr(target, "__qualname__", "").encode())
    try:
        digest.update(inspect.getsource(target).encode())
    except (OSError, TypeError):  # no source file (an interactive session): the bytecode
        code = getattr(target, "__code__", None)
        if code is not None:
            _feed_code(digest, code)


@functools.cache
def code_fingerprint(factory):
    """A digest of a registered factory's code: its qualified name and source text.

    The same in every process and on every host that runs the same source (no
    module or file name, line number or address enters it); another when the factory's own
    source changes. A factory without a source file (defined in an interactive
    session) is fingerprinted by its bytecode and constants, a
    :class:`functools.partial` by its function and arguments. Code the factory
    calls is not covered: that is what the declared version is for.

    Parameters
    ----------
    factory : callable

    Returns
    -------
    str
        16 hexadecimal digits.

    Examples
    --------
    >>> code_fingerprint(LEARNERS["c45"]) == code_fingerprint(LEARNERS["c45"])
    True
    >>> code_fingerprint(LEARNERS["c45"]) == code_fingerprint(LEARNERS["ib1"])
    False
    """
    digest = hashlib.sha256()
    _feed(digest, factory)
    return digest.hexdigest()[:16]


def register_source(name, factory, *, version=1):
    """Register a data source ``factory(rng, *, n_instances, **params) -> (X, y)``.

    ``rng`` is a :class:`numpy.random.Generator`; the source must draw all its
    randomness from it. ``version`` is the version of its code (bump it when its
    results change). Returns ``factory``.

    Raises
    ------
    ValueError
        When ``name`` was registered at ``version`` with another factory.
    """
    return _register(SOURCES, "source", name, factory, version)


def register_learner(name, factory, *, version=1):
    """Register a learner ``factory(**params)`` returning a fresh unfitted estimator.

    Learner randomness must be fixed through its parameters (``random_state``).
    ``version`` is the version of its code (bump it when its results change).

    Raises
    ------
    ValueError
        When ``name`` was registered at ``version`` with another factory: a
        version names one piece of code, so new code needs a new version.

    Examples
    --------
    >>> from sklearn.dummy import DummyClassifier
    >>> _ = register_learner("doc_constant", DummyClassifier)
    >>> _ = register_learner("doc_constant", DummyClassifier)  # the same factory again: accepted
    >>> register_learner("doc_constant", lambda: DummyClassifier(strategy="prior"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: `learner:doc_constant` version 1 is registered already, ...
    >>> _ = register_learner("doc_constant", lambda: DummyClassifier(strategy="prior"), version=2)
    """
    return _register(LEARNERS, "learner", name, factory, version)


def register_scheme(name, factory, *, version=1):
    """Register a sampling scheme ``factory(**params) -> split``.

    ``split(X, y, rng)`` returns a list of runs, each a list of ``(train, test)``
    index arrays, the same number of folds in every run. Raises :class:`ValueError`
    when ``name`` was registered at ``version`` with another factory, or when it is a
    spelling of the scheme grammar (``"10x10cv"``, ``"resampling"``): that name
    already means a scheme (:func:`resolve_scheme`).
    """
    if isinstance(name, str) and name not in SCHEMES and _grammar_spelling(name):
        raise ValueError(f"`name` {name!r} is a spelling of the scheme grammar (stats.parse_scheme) and means "
                         f"{resolve_scheme(name)}; register the scheme under another name.")
    return _register(SCHEMES, "scheme", name, factory, version)


def _grammar_spelling(name):
    try:
        parse_scheme(name)
    except ValueError:
        return False
    return True


def resolve_scheme(scheme, params=None):
    """The registry's name and parameters of a scheme spelled in the one grammar.

    A registered name (``"cv"``, ``"resample"``, ``"5x2"``, ``"rxk_cv"``, or one a user
    registered) is returned unchanged with its parameters: stored results are keyed by
    the configuration as written, so those spellings, and the keys, stay. Any other
    spelling is parsed by :func:`~replicability.stats.scheme_grammar.parse_scheme`:
    ``"RxKcv"`` is ``"rxk_cv"`` (stratified r x k cv) with its runs and folds,
    ``"resampling"`` is ``"resample"`` with ``params["n_runs"]`` (default 10) splits.

    Parameters
    ----------
    scheme : str
    params : dict, optional
        The scheme's parameters (``scheme_params`` of an experiment configuration).

    Returns
    -------
    tuple of (str, dict)

    Raises
    ------
    ValueError
        For a name neither registered nor in the grammar, naming the accepted forms.

    Examples
    --------
    >>> resolve_scheme("10x10cv")
    ('rxk_cv', {'n_runs': 10, 'n_folds': 10})
    >>> resolve_scheme("5x2", {"stratified": True})
    ('5x2', {'stratified': True})
    """
    params = {} if params is None else dict(params)
    if isinstance(scheme, str) and scheme in SCHEMES:
        return scheme, params
    spec = parse_scheme(scheme, n_runs=params.get("n_runs", 10))
    if spec.kind == "resampling":
        return "resample", {**params, "n_runs": spec.n_runs}
    return "rxk_cv", {**params, "n_runs": spec.n_runs, "n_folds": spec.n_folds}


def register_pair_evaluator(learner_a, learner_b, evaluate, *, version=1):
    """Register a fast path for the pair of learners ``(learner_a, learner_b)``.

    ``evaluate(X, y, splits, *, params_a, params_b)`` receives every split of a
    data set (all repeats, runs and folds, flattened) and returns an integer array
    of shape ``(len(splits), 3)``: ``correct_a, correct_b, correct_both`` per split.
    It must give the same numbers as fitting and predicting the two estimators. Its
    code version is recorded as ``"kernel:<learner_a>/<learner_b>"``.

    ``evaluate`` may also have an attribute ``prepare``, called as ``evaluate``
    is and returning a callable of no arguments that gives the same array: the
    runner then prepares several data sets (checks, summaries) before counting
    them in turn, so that their kernels run back to back. Raises :class:`ValueError`
    when the pair was registered at ``version`` with another evaluator.
    """
    key = (_check_name(learner_a, "learner_a"), _check_name(learner_b, "learner_b"))
    _check_callable(evaluate, "evaluate")
    version = check_positive_int(version, "version")
    _claim(f"kernel:{learner_a}/{learner_b}", evaluate, version)
    PAIR_EVALUATORS[key] = evaluate
    VERSIONS[f"kernel:{learner_a}/{learner_b}"] = version
    return evaluate
