"""Fitting and scoring the learners on one split; every failure and undefined score named with its split.

A worker never raises for a learner's failure: :func:`score_split` returns the failure's
cause, and :func:`gather`, reading the results in split order, raises one ``ValueError``
that names the learner, the split and the cause, before any test is computed. A score is
undefined when the metric says so (scikit-learn's ``UndefinedMetricWarning``: an F1 on a
test fold without positives, a ROC AUC on a fold with one class) or is not finite; it is
reported, never turned silently into 0 or a late NaN error.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.utils import _safe_indexing
from sklearn.utils.validation import _num_samples

from .inputs import fit_rows
from .seeds import seeded_clone

__all__ = ["gather", "score_split", "split_name"]


def _cause(exc):
    """An exception as one line: its type and the first line of its message."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _score(scorer, model, X, y):
    """The score, and the cause when it is undefined; other warnings are passed on."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        score = scorer(model, X, y)
    undefined = None
    for w in caught:
        if issubclass(w.category, UndefinedMetricWarning):
            undefined = undefined or f"{w.category.__name__}: {str(w.message).splitlines()[0]}"
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    values = np.asarray(list(score.values()) if isinstance(score, dict) else [score], dtype=float)
    if undefined is None and not np.all(np.isfinite(values)):
        undefined = f"the score is {score!r}"
    return score, undefined


def score_split(learners, X, y, train, test, seeds, fit_params=None, failed=None):
    """Fit and score every learner on one split.

    Parameters
    ----------
    learners : sequence of (label, estimator, scorer, drawn parameter names)
    X, y : array-like, sparse matrix or DataFrame
        Rows are taken with scikit-learn's ``_safe_indexing`` (a DataFrame stays one).
    train, test : ndarray of int
    seeds : sequence of ndarray
        Per learner, the values of its drawn ``random_state`` parameters.
    fit_params : dict, optional
        Passed to every ``fit``; values with one entry per sample taken at ``train``.
    failed : dict, optional
        Given, a learner that fails (or whose score is undefined) scores NaN and the
        others go on; the first message of each failing learner is recorded under its
        index. Without it the first failure ends the split.

    Returns
    -------
    scores : list
        One score per learner scored so far (a float, or a dict for several metrics).
    problem : str or None
        Why the next learner has no score: ``"A (SVC) failed to fit: ValueError: ..."``.
    """
    X_train, y_train = _safe_indexing(X, train), _safe_indexing(y, train)
    X_test, y_test = _safe_indexing(X, test), _safe_indexing(y, test)
    params = fit_rows(fit_params or {}, _num_samples(X), train)
    scores = []
    for index, (learner, learner_seeds) in enumerate(zip(learners, seeds)):
        score, problem = _fit_and_score(learner, learner_seeds, (X_train, y_train, X_test, y_test), params)
        if problem is not None:
            if failed is None:
                return scores, problem
            failed.setdefault(index, problem)
        scores.append(score)
    return scores, None


def _fit_and_score(learner, learner_seeds, data, params):
    """One learner's ``(score, None)`` on one split, or ``(nan, why it has none)``."""
    label, estimator, scorer, names = learner
    name = f"{label} ({type(estimator).__name__})"
    X_train, y_train, X_test, y_test = data
    try:
        model = seeded_clone(estimator, names, learner_seeds).fit(X_train, y_train, **params)
    except Exception as exc:  # any failure of the user's estimator is reported with its split
        return np.nan, f"{name} failed to fit: {_cause(exc)}"
    try:
        score, undefined = _score(scorer, model, X_test, y_test)
    except Exception as exc:
        return np.nan, f"{name} could not be scored: {_cause(exc)}"
    if undefined is not None:
        return np.nan, (f"{name}'s score is undefined on this test set: {undefined} (a scorer that defines it, "
                        f"e.g. with zero_division set, or other folds are needed)")
    return score, None


def split_name(index, n_runs, n_folds, kind):
    """``"randomization 0, run 2, fold 4"`` (r x k cv) or ``"randomization 0, split 3"`` of a flat split index."""
    repeat, rest = divmod(index, n_runs * n_folds)
    run, fold = divmod(rest, n_folds)
    if kind == "resampling":
        return f"randomization {repeat}, split {run}"
    return f"randomization {repeat}, run {run}, fold {fold}"


def gather(results, name):
    """The scores of ``results`` (pairs from :func:`score_split`) in order; on a problem, ``ValueError``.

    ``name(index)`` names the split of a result; the error names it, the learner and the cause.
    """
    out = []
    for index, (scores, problem) in enumerate(results):
        if problem is not None:
            raise ValueError(f"on {name(index)}: {problem}; nothing was tested.")
        out.append(scores)
    return out
