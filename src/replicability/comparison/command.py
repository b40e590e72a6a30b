"""The practitioner's command line: ``replicability compare DATA --target COLUMN -a CLASS -b CLASS``.

Compares two scikit-learn compatible estimators (any importable class, with ``--param-a``
/ ``--param-b NAME=VALUE`` options) on a CSV, ARFF or Parquet file with
:func:`replicability.comparison.run.compare`, prints its summary and optionally writes it
as JSON; ``--rope WIDTH`` adds the Bayesian correlated t-test with that region of
practical equivalence. Errors are one line on standard error, exit code 2.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys

import pandas as pd

from .._validation import command_error, not_a_regular_file, parse_literal
from ..sources.arff import load_arff
from .run import compare

__all__ = ["compare_command"]


def _read_table(path, target):
    """Features and target of a CSV, Parquet or ARFF file; raises ValueError with a one-line reason."""
    problem = not_a_regular_file(path)
    if problem == "does not exist":
        raise ValueError(f"no such file: {path}")
    if problem is not None:
        raise ValueError(f"data file {path} {problem}; give a CSV, ARFF or Parquet file")
    if path.suffix.lower() == ".arff":
        ds = load_arff(path, class_attribute=target)
        return ds.X, ds.y
    if path.suffix.lower() == ".parquet":
        if importlib.util.find_spec("pyarrow") is None:
            raise ValueError("reading Parquet needs the [parquet] extra: pip install 'replicability[parquet]'")
        frame = pd.read_parquet(path)
    else:
        frame = pd.read_csv(path)
    if target not in frame.columns:
        raise ValueError(f"no column {target!r} in {path}; columns: {', '.join(map(str, frame.columns))}")
    features = frame.drop(columns=[target])
    text = [str(c) for c in features.columns if not pd.api.types.is_numeric_dtype(features[c])]
    if text:
        raise ValueError(f"feature columns must be numeric; not numeric: {', '.join(text)}")
    return features.to_numpy(dtype=float), frame[target].to_numpy()


def _estimator(spec, params, which):
    """An instance of the class named ``module.Class`` with ``NAME=VALUE`` parameters."""
    module, _, name = spec.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), name, None) if module else None
    except ImportError:
        cls = None
    if cls is None:
        raise ValueError(f"cannot import estimator {spec!r} (`{which}` takes module.Class, "
                         f"e.g. sklearn.naive_bayes.GaussianNB)")
    kwargs = {}
    for item in params:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"estimator parameters are NAME=VALUE; got {item!r}")
        kwargs[key] = parse_literal(value)
    try:
        return cls(**kwargs)
    except TypeError as exc:
        raise ValueError(f"{spec}: {exc}") from exc


def compare_command(args):
    """Carry out ``compare`` (as parsed by :func:`replicability.cli.main`); return the exit code."""
    try:
        X, y = _read_table(args.data, args.target)
        a = _estimator(args.learner_a, args.param_a, "-a")
        b = _estimator(args.learner_b, args.param_b, "-b")
        result = compare(a, b, X, y, scheme=args.scheme, n_runs=args.n_runs, test_size=args.test_size,
                         scoring=args.scoring, n_repeats=args.n_repeats, alpha=args.alpha, rope=args.rope,
                         n_jobs=args.n_jobs,
                         progress=sys.stderr.isatty(), rng=args.seed)
    except ValueError as exc:
        return command_error(str(exc).splitlines()[0], "compare")
    print(f"A: {args.learner_a}\nB: {args.learner_b}")
    print(result.summary())
    if args.json is not None:
        args.json.write_text(json.dumps({"data": str(args.data), "target": args.target, "learner_a": args.learner_a,
                                         "learner_b": args.learner_b, **result.to_dict()}, indent=2) + "\n")
    return 0
