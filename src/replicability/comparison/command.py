"""The practitioner's command line: ``replicability compare DATA --target COLUMN -a CLASS -b CLASS``.

Compares two scikit-learn compatible estimators (any importable class, with ``--param-a``
/ ``--param-b NAME=VALUE`` options) on a CSV, ARFF or Parquet file with
:func:`replicability.comparison.run.compare`, prints its summary and optionally writes it
as JSON; ``--rope WIDTH`` adds the Bayesian correlated t-test with that region of
practical equivalence. Real files need a default preprocessing, stated in the output and
switched off by ``--no-preprocessing``: numeric columns with missing values are imputed
by their median, text and nominal columns by their most frequent value and one-hot
encoded, both inside the pipeline fitted on each training set. Errors are one line on
standard error, exit code 2; the JSON path is checked before the run.
"""

from __future__ import annotations

import csv
import importlib
import importlib.util
import json
import os
import sys

import numpy as np

from .. import comparison  # its names load on first use: compare's scikit-learn after the input checks
from .._validation import command_error, not_a_regular_file, parse_literal
from ..sources.arff import load_arff
from ..stats.scheme_grammar import parse_scheme

__all__ = ["compare_command"]


def _arff_frame(ds):
    """An ARFF data set's attributes as a frame (nominal ones as text, missing as NaN) and its class codes."""
    import pandas as pd

    columns = {}
    for j, name in enumerate(ds.attribute_names):
        values = ds.X[:, j]
        if ds.attribute_types[j] == "nominal":
            labels = np.array(ds.nominal_values[j] + ("",), dtype=object)
            codes = np.where(np.isnan(values), -1, values).astype(int)
            values = np.where(codes < 0, np.nan, labels[codes]).astype(object)
        columns[name] = values
    keep = ds.y >= 0  # rows whose class is missing cannot be scored
    return pd.DataFrame(columns)[keep].reset_index(drop=True), ds.y[keep]


def _check_data(path, target):
    """What the data file allows to check before the heavy imports: it exists, has the target and rows.

    Returns the ARFF data set (read with numpy alone), a CSV's delimiter (detected
    on its header line as pandas' ``sep=None`` does, among comma, semicolon, tab and
    bar), or None for Parquet.
    """
    problem = not_a_regular_file(path)
    if problem == "does not exist":
        raise ValueError(f"no such file: {path}")
    if problem is not None:
        raise ValueError(f"data file {path} {problem}; give a CSV, ARFF or Parquet file")
    suffix = path.suffix.lower()
    if suffix == ".arff":
        return load_arff(path, class_attribute=target)
    if suffix == ".parquet":
        if importlib.util.find_spec("pyarrow") is None:
            raise ValueError("reading Parquet needs the [parquet] extra: pip install 'replicability[parquet]'")
        return None
    with path.open(newline="", errors="replace") as handle:
        lines = [line for line in (handle.readline(), handle.readline()) if line.strip()]
    if not lines:
        raise ValueError(f"{path} is empty")
    try:
        delimiter = csv.Sniffer().sniff(lines[0], delimiters=",;\t|").delimiter
    except csv.Error:  # one column: no delimiter to find
        delimiter = ","
    header = next(csv.reader([lines[0]], delimiter=delimiter))
    if target not in header:
        raise ValueError(f"no column {target!r} in {path}; columns: {', '.join(header)}")
    if len(lines) < 2:
        raise ValueError(f"no rows in {path} (a header only)")
    return delimiter


def _read_table(path, target, checked):
    """Features (a frame) and target of the file :func:`_check_data` checked; rows without a target left out."""
    import pandas as pd

    if path.suffix.lower() == ".arff":
        features, y = _arff_frame(checked)
    else:
        frame = pd.read_parquet(path) if checked is None else pd.read_csv(path, sep=checked)
        if target not in frame.columns:
            raise ValueError(f"no column {target!r} in {path}; columns: {', '.join(map(str, frame.columns))}")
        frame = frame[frame[target].notna()]
        features, y = frame.drop(columns=[target]).reset_index(drop=True), frame[target].to_numpy()
    if len(y) == 0:
        raise ValueError(f"no rows with a {target!r} value in {path}")
    return features, y


def _preprocessing(features, enabled):
    """The default preprocessing a frame needs, and its description; None when it needs none.

    Numeric columns with missing values: median imputation; text or categorical
    columns: the most frequent value for a missing one, then one-hot encoding
    (categories unseen in training ignored). Switched off (``--no-preprocessing``),
    such columns are refused.
    """
    import pandas as pd
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder

    text = [str(c) for c in features.columns if not pd.api.types.is_numeric_dtype(features[c])]
    missing = [str(c) for c in features.columns if str(c) not in text and features[c].isna().any()]
    if not text and not missing:
        return None, "none (numeric, complete)"
    if not enabled:
        if text:
            raise ValueError(f"feature columns must be numeric with --no-preprocessing; not numeric: "
                             f"{', '.join(text)}")
        return None, f"none; {len(missing)} numeric columns with missing values left to the learners"
    numeric = [c for c in features.columns if str(c) not in text]
    steps = [("numeric", SimpleImputer(strategy="median"), numeric)] if numeric else []
    if text:
        steps.append(("text", make_pipeline(SimpleImputer(strategy="most_frequent"),
                                            OneHotEncoder(handle_unknown="ignore")),
                      [c for c in features.columns if str(c) in text]))
    said = []
    if missing:
        said.append(f"median imputation of {len(missing)} numeric columns with missing values")
    if text:
        said.append(f"most frequent value and one-hot encoding of {len(text)} text columns")
    # dense output: learners such as GaussianNB take no sparse matrix, and every learner takes a dense one
    return ColumnTransformer(steps, sparse_threshold=0), "; ".join(said)


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
    # checked on the class, before it is instantiated: naming any other callable must run nothing
    missing = [m for m in ("fit", "get_params", "set_params") if not callable(getattr(cls, m, None))]
    if not isinstance(cls, type) or missing:
        raise ValueError(f"{spec} is not a scikit-learn estimator class (`{which}` needs a class with fit, "
                         f"get_params and set_params); nothing was run")
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


def _with(preprocess, estimator):
    """``estimator`` behind a fresh copy of the preprocessing, in one pipeline."""
    from sklearn.base import clone
    from sklearn.pipeline import make_pipeline

    return make_pipeline(clone(preprocess), estimator)


def _check_writable(path):
    """Raise ValueError unless ``path`` can be written (checked before the run, not after it)."""
    if path.is_dir():
        raise ValueError(f"--json {path} is a directory")
    if not path.parent.is_dir():
        raise ValueError(f"--json {path}: no such directory {path.parent}")
    if not os.access(path if path.exists() else path.parent, os.W_OK):
        raise ValueError(f"--json {path} cannot be written")


def compare_command(args):
    """Carry out ``compare`` (as parsed by :func:`replicability.cli.main`); return the exit code."""
    try:
        if args.json is not None:
            _check_writable(args.json)
        checked = _check_data(args.data, args.target)
        if not args.quick:  # the scheme's spelling, by the one grammar, before the heavy imports
            parse_scheme(args.scheme, n_runs=args.n_runs)
        # only now the heavy imports (scikit-learn, pandas: seconds), by the learners' modules and the reading
        X, y = _read_table(args.data, args.target, checked)
        a = _estimator(args.learner_a, args.param_a, "-a")
        b = _estimator(args.learner_b, args.param_b, "-b")
        preprocess, preprocessing = _preprocessing(X, args.preprocessing)
        if preprocess is not None:
            a, b = _with(preprocess, a), _with(preprocess, b)
        result = comparison.compare(a, b, X, y, scheme=args.scheme, n_runs=args.n_runs, test_size=args.test_size,
                         scoring=args.scoring, n_repeats=args.n_repeats, alpha=args.alpha, rope=args.rope,
                         quick=args.quick, estimator_seeds=args.estimator_seeds, n_jobs=args.n_jobs,
                         progress=sys.stderr.isatty(), rng=args.seed)
    except (ValueError, TypeError) as exc:
        return command_error(str(exc).splitlines()[0], "compare")
    print(f"A: {args.learner_a}\nB: {args.learner_b}\npreprocessing: {preprocessing}")
    print(result.summary())
    if args.json is not None:
        record = {"data": str(args.data), "target": args.target, "learner_a": args.learner_a,
                  "learner_b": args.learner_b, "preprocessing": preprocessing, "seed": args.seed,
                  **result.to_dict()}
        args.json.write_text(json.dumps(record, indent=2) + "\n")
    return 0
