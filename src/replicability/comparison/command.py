"""The practitioner's command line: ``replicability compare DATA --target COLUMN -a LEARNER -b LEARNER``.

Compares two scikit-learn compatible learners on a CSV, ARFF or Parquet file with
:func:`replicability.comparison.run.compare`, prints its summary and optionally writes it
as JSON; ``--rope WIDTH`` adds the Bayesian correlated t-test with that region of
practical equivalence. A learner is given in one of three forms:

* ``module.Class``, any importable estimator class, with ``--param-a`` / ``--param-b
  NAME=VALUE`` options (values read as Python literals);
* a pipeline spec, steps ``module.Class`` or ``module.Class(NAME=VALUE, ...)`` joined by
  ``|``, e.g. ``"sklearn.preprocessing.StandardScaler |
  sklearn.linear_model.LogisticRegression(C=0.1)"``, built by
  :func:`sklearn.pipeline.make_pipeline`;
* ``FILE.py``, a Python file that binds an estimator instance to the module-level name
  ``estimator`` (e.g. a pipeline with a ``ColumnTransformer`` selecting columns by
  name); ``--param-a NAME=VALUE`` then goes to its ``set_params``.

Each class is checked to be an estimator class (``fit``, ``get_params``,
``set_params``) before any is instantiated; a file is checked for existence, syntax and
the name ``estimator`` before it is run, and it is run (not as ``__main__``) only after
the data file has been checked and read.

Real files need a default preprocessing, stated in the output and switched off by
``--no-preprocessing``: numeric columns with missing values are imputed by their
median, text and nominal columns by their most frequent value and one-hot encoded, both
inside the pipeline fitted on each training set. It goes in front of learners given by
class or spec; a Python file's estimator is given the columns as read (its own pipeline
prepares them). Errors are one line on standard error, exit code 2; the JSON path, the
data file, the scheme and the learners' descriptions are checked before the heavy
imports (scikit-learn, pandas) and before any fit.
"""

from __future__ import annotations

import ast
import csv
import importlib
import importlib.util
import json
import os
import runpy
import sys
from pathlib import Path

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


def _literal_keywords(call, step):
    """A spec step's ``NAME=VALUE`` arguments as a dict of Python literals."""
    if call.args:
        raise ValueError(f"step {step!r}: parameters are NAME=VALUE, not positional")
    kwargs = {}
    for keyword in call.keywords:
        if keyword.arg is None or keyword.arg in kwargs:
            raise ValueError(f"step {step!r}: each parameter once, as NAME=VALUE")
        try:
            kwargs[keyword.arg] = ast.literal_eval(keyword.value)
        except ValueError:
            raise ValueError(f"step {step!r}: the value of {keyword.arg} must be a Python literal") from None
    return kwargs


def _dotted(node):
    """``a.b.C`` of an expression that is one, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _parse_learner(text, params, which):
    """Read a learner's description without importing anything; raise ValueError (one line) if it is wrong.

    Three forms: ``module.Class``; a pipeline spec, steps ``module.Class`` or
    ``module.Class(NAME=VALUE, ...)`` (values Python literals) joined by ``|``; or a
    Python file ``FILE.py`` that binds an estimator instance to the module-level name
    ``estimator``. The file is checked here for existence, syntax and that name, not run.

    Returns
    -------
    tuple
        ``("file", path, params)`` or ``("steps", [(dotted_name, kwargs), ...], params)``.
    """
    kwargs = {}
    for item in params:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError(f"estimator parameters are NAME=VALUE; got {item!r}")
        kwargs[key] = parse_literal(value)
    if text.lower().endswith(".py"):
        path = Path(text)
        problem = not_a_regular_file(path)
        if problem is not None:
            raise ValueError(f"`{which}` {text} {problem}; give a Python file that defines `estimator`")
        try:
            tree = ast.parse(path.read_bytes(), filename=text)
        except (OSError, SyntaxError, ValueError) as exc:
            raise ValueError(f"`{which}` {text} cannot be read as Python: {str(exc).splitlines()[0]}") from None
        if "estimator" not in _module_names(tree):
            raise ValueError(f"`{which}` {text} defines no module-level `estimator` (an estimator instance)")
        return "file", path, kwargs
    try:
        nodes = _pipe_steps(ast.parse(text.strip(), mode="eval").body)
    except SyntaxError as exc:
        raise ValueError(f"cannot read estimator {text!r}: {exc.msg} (`{which}` takes module.Class, e.g. "
                         f"sklearn.naive_bayes.GaussianNB, steps joined by |, or FILE.py)") from None
    steps = []
    for node in nodes:
        step = ast.get_source_segment(text.strip(), node)
        call = node if isinstance(node, ast.Call) else None
        name = _dotted(call.func if call is not None else node)
        if name is None or "." not in name:
            raise ValueError(f"cannot read estimator {step!r} (`{which}` takes module.Class, e.g. "
                             f"sklearn.naive_bayes.GaussianNB, steps joined by |, or FILE.py)")
        steps.append((name, _literal_keywords(call, step) if call is not None else {}))
    if len(steps) > 1 and kwargs:
        raise ValueError(f"a pipeline's parameters go inside its spec, as module.Class(NAME=VALUE); "
                         f"`--param-{which[1:]}` sets a single class's")
    if kwargs:
        clash = sorted(set(kwargs) & set(steps[0][1]))
        if clash:
            raise ValueError(f"{', '.join(clash)} given both in `{which}` and in `--param-{which[1:]}`")
        steps[0] = (steps[0][0], {**steps[0][1], **kwargs})
    return "steps", steps, {}


def _pipe_steps(node):
    """The steps of ``a | b | c`` (a left-nested ``|``), in order."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _pipe_steps(node.left) + _pipe_steps(node.right)
    return [node]


def _module_names(tree):
    """The names a module binds at its top level by assignment, definition or import."""
    names = set()
    for node in tree.body:
        targets = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            targets = [node.target]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        for target in targets:
            names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return names


def _estimator_class(name, which):
    """The class named ``module.Class``, checked to be an estimator class before anything instantiates it."""
    module, _, attribute = name.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module), attribute, None)
    except ImportError:
        cls = None
    if cls is None:
        raise ValueError(f"cannot import estimator {name!r} (`{which}` takes module.Class, "
                         f"e.g. sklearn.naive_bayes.GaussianNB)")
    # checked on the class, before it is instantiated: naming any other callable must run nothing
    missing = [m for m in ("fit", "get_params", "set_params") if not callable(getattr(cls, m, None))]
    if not isinstance(cls, type) or missing:
        raise ValueError(f"{name} is not a scikit-learn estimator class (`{which}` needs a class with fit, "
                         f"get_params and set_params); nothing was run")
    return cls


def _estimator(learner, which):
    """The estimator a :func:`_parse_learner` description names: a class's instance, a pipeline, a file's."""
    kind, spec, kwargs = learner
    if kind == "file":
        try:
            # the user's own code, run as they would run it (not as __main__)
            estimator = runpy.run_path(str(spec), run_name="replicability_compare_learner")["estimator"]
        except Exception as exc:  # noqa: BLE001 - any failure of the user's file is one line, not a traceback
            raise ValueError(f"`{which}` {spec} failed: {type(exc).__name__}: {exc}") from None
        if isinstance(estimator, type) or not all(
                callable(getattr(estimator, m, None)) for m in ("fit", "get_params", "set_params")):
            raise ValueError(f"`estimator` in {spec} is not a scikit-learn estimator instance (`{which}` needs "
                             f"an object with fit, get_params and set_params); got {type(estimator).__name__}")
        unknown = sorted(set(kwargs) - set(estimator.get_params(deep=True)))
        if unknown:
            raise ValueError(f"`estimator` in {spec} has no parameter {', '.join(unknown)} (`--param-{which[1:]}` "
                             f"names one of its get_params(), e.g. step__parameter)")
        return estimator.set_params(**kwargs)
    classes = [_estimator_class(name, which) for name, _ in spec]  # every step checked before any is built
    steps = []
    for cls, (name, step_kwargs) in zip(classes, spec):
        try:
            steps.append(cls(**step_kwargs))
        except TypeError as exc:
            raise ValueError(f"{name}: {exc}") from exc
    if len(steps) == 1:
        return steps[0]
    from sklearn.pipeline import make_pipeline

    return make_pipeline(*steps)


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
        learners = {"A": _parse_learner(args.learner_a, args.param_a, "-a"),
                    "B": _parse_learner(args.learner_b, args.param_b, "-b")}
        # only now the heavy imports (scikit-learn, pandas: seconds), by the learners' modules and the reading
        X, y = _read_table(args.data, args.target, checked)
        estimators = {side: _estimator(learner, f"-{side.lower()}") for side, learner in learners.items()}
        preprocessing = "none (both learners are Python files' estimators, given the columns as read)"
        own = [side for side, learner in learners.items() if learner[0] == "file"]
        if len(own) < 2:
            preprocess, preprocessing = _preprocessing(X, args.preprocessing)
            for side in estimators.keys() - own if preprocess is not None else ():
                estimators[side] = _with(preprocess, estimators[side])
            if own and preprocess is not None:
                preprocessing += (f"; before {'B' if own == ['A'] else 'A'} only ({own[0]}, a Python file's "
                                  f"estimator, is given the columns as read)")
        a, b = estimators["A"], estimators["B"]
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
