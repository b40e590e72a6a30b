"""`replicability compare`: two learners on a CSV, ARFF or Parquet file, from the command line."""

import json
import os

import numpy as np
import pytest

from replicability.cli import main

COMPARE = ["-a", "sklearn.naive_bayes.GaussianNB", "-b", "sklearn.tree.DecisionTreeClassifier",
           "--param-b", "random_state=0", "--param-b", "max_depth=2", "--scheme", "2x5cv", "--n-repeats", "2"]

@pytest.fixture
def iris_csv(tmp_path):
    from sklearn.datasets import load_iris

    path = tmp_path / "iris.csv"
    load_iris(as_frame=True).frame.to_csv(path, index=False)
    return path

def test_compare_on_a_csv_file_prints_and_writes_json(iris_csv, tmp_path, capsys):

    out = tmp_path / "out.json"
    assert main(["compare", str(iris_csv), "--target", "target", *COMPARE, "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "corrected repeated cv t" in printed and "replicability over randomizations" in printed
    result = json.loads(out.read_text())
    assert result["target"] == "target" and result["scheme"] == "2x5cv" and result["n_repeats"] == 2
    assert result["decision"] in ("A better", "no difference", "B better")
    assert [t["test"] for t in result["tests"]][0] == "corrected repeated cv t"

@pytest.mark.parametrize(("change", "message"), [
    ({"data": "missing.csv"}, "no such file"),
    ({"--target": "species"}, "no column 'species'"),
    ({"-a": "sklearn.naive_bayes.NoSuchNB"}, "cannot import estimator 'sklearn.naive_bayes.NoSuchNB'"),
    ({"-b": "nosuchpackage.Learner"}, "cannot import estimator 'nosuchpackage.Learner'"),
    ({"--param-b": "depth"}, "NAME=VALUE"),
    ({"data": "folder.csv"}, "folder.csv is a folder; give a CSV, ARFF or Parquet file"),
    ({"data": "pipe.arff"}, "pipe.arff is a named pipe (FIFO); give a CSV, ARFF or Parquet file"),
])
def test_compare_errors_are_one_line_with_exit_code_2(iris_csv, tmp_path, capsys, change, message):
    (tmp_path / "folder.csv").mkdir()
    os.mkfifo(tmp_path / "pipe.arff")  # reading it would block: it must be named, not opened
    options = {"data": str(iris_csv), "--target": "target", "-a": "sklearn.naive_bayes.GaussianNB",
               "-b": "sklearn.tree.DecisionTreeClassifier", "--param-b": "random_state=0"}
    options.update({k: (str(tmp_path / v) if k == "data" else v) for k, v in change.items()})
    argv = ["compare", options.pop("data")] + [x for kv in options.items() for x in kv] + ["--n-repeats", "2"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("replicability compare: error:")

def test_compare_on_an_arff_file_equals_the_csv_of_the_same_data(iris_csv, tmp_path, capsys):

    import pandas as pd

    frame = pd.read_csv(iris_csv)
    lines = ["@relation iris"] + [f"@attribute '{c}' numeric" for c in frame.columns[:-1]]
    lines += ["@attribute target {0,1,2}", "@data"] + [",".join(map(str, row)) for row in frame.itertuples(False)]
    arff = tmp_path / "iris.arff"
    arff.write_text("\n".join(lines) + "\n")
    results = []
    for data in (iris_csv, arff):
        out = tmp_path / f"{data.suffix[1:]}.json"
        assert main(["compare", str(data), "--target", "target", *COMPARE, "--json", str(out)]) == 0
        results.append(json.loads(out.read_text()))
    assert results[0]["tests"] == results[1]["tests"]

def test_compare_with_a_rope_prints_and_writes_the_bayesian_test(iris_csv, tmp_path, capsys):

    out = tmp_path / "out.json"
    assert main(["compare", str(iris_csv), "--target", "target", *COMPARE, "--rope", "0.01", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Bayesian correlated t, rope 0.01: P(A better)" in printed
    result = json.loads(out.read_text())
    assert result["rope"] == 0.01
    assert result["bayesian"]["decision"] in ("A better", "equivalent", "B better", "undecided")
    assert result["tests"][-1]["test"] == "Bayesian correlated t, rope 0.01"
    # without --rope: no Bayesian test
    assert main(["compare", str(iris_csv), "--target", "target", *COMPARE]) == 0
    assert "Bayesian" not in capsys.readouterr().out

def test_compare_with_a_negative_rope_fails_in_one_line(iris_csv, capsys):
    assert main(["compare", str(iris_csv), "--target", "target", *COMPARE, "--rope", "-0.01"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "`rope` must be a non-negative finite number" in err

def test_compare_rejects_text_features_without_preprocessing(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text("colour,size,label\nred,1,0\nblue,2,1\nred,3,0\nblue,4,1\n")
    assert main(["compare", str(path), "--target", "label", *COMPARE, "--no-preprocessing"]) == 2
    assert "not numeric: colour" in capsys.readouterr().err


def _messy_frame():
    """Iris with missing values, a text column and a target with one missing value."""
    from sklearn.datasets import load_iris

    frame = load_iris(as_frame=True).frame
    frame.iloc[::7, 0] = np.nan
    frame["colour"] = np.array(["red", "green", "blue"], dtype=object)[np.arange(150) % 3]
    frame.loc[::11, "colour"] = np.nan
    frame.loc[5, "target"] = np.nan
    return frame


def test_missing_values_and_text_columns_get_the_stated_default_preprocessing(tmp_path, capsys):
    from sklearn.compose import ColumnTransformer
    from sklearn.impute import SimpleImputer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import OneHotEncoder
    from sklearn.tree import DecisionTreeClassifier

    import replicability as rp

    frame = _messy_frame()
    path = tmp_path / "messy.csv"
    frame.to_csv(path, index=False, sep=";")  # a semicolon CSV: the delimiter is detected
    out = tmp_path / "out.json"
    assert main(["compare", str(path), "--target", "target", *COMPARE, "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    said = ("median imputation of 1 numeric columns with missing values; most frequent value and one-hot encoding "
            "of 1 text columns")
    assert f"preprocessing: {said}" in printed
    result = json.loads(out.read_text())
    assert result["preprocessing"] == said
    # reference: the same pipeline through the API, on the rows with a target
    rows = frame[frame["target"].notna()].reset_index(drop=True)
    steps = ColumnTransformer([
        ("numeric", SimpleImputer(strategy="median"), ["sepal length (cm)", "sepal width (cm)", "petal length (cm)",
                                                       "petal width (cm)"]),
        ("text", make_pipeline(SimpleImputer(strategy="most_frequent"), OneHotEncoder(handle_unknown="ignore")),
         ["colour"])], sparse_threshold=0)
    a = make_pipeline(steps, GaussianNB())
    b = make_pipeline(steps, DecisionTreeClassifier(random_state=0, max_depth=2))
    ref = rp.compare(a, b, rows.drop(columns="target"), rows["target"].to_numpy(), scheme="2x5cv", n_repeats=2,
                     rng=0).to_dict()
    assert result["tests"] == ref["tests"] and result["mean_difference"] == ref["mean_difference"]


def test_a_header_only_csv_has_no_rows(tmp_path, capsys):
    path = tmp_path / "empty.csv"
    path.write_text("a,b,target\n")
    assert main(["compare", str(path), "--target", "target", *COMPARE]) == 2
    assert capsys.readouterr().err == f"replicability compare: error: no rows in {path} (a header only)\n"
    path.write_text("a;b;target\n1;2;\n")  # a semicolon CSV whose one row has no target
    assert main(["compare", str(path), "--target", "target", *COMPARE]) == 2
    assert capsys.readouterr().err == f"replicability compare: error: no rows with a 'target' value in {path}\n"


def test_inputs_are_checked_before_the_heavy_imports(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "data.csv"
    path.write_text("a,b,label\n1,2,0\n")
    code = ("import sys; from replicability.cli import main; "
            f"code = main(['compare', {str(path)!r}, '--target', 'target', '-a', 'x.A', '-b', 'x.B']); "
            "print(code, 'sklearn' in sys.modules, 'pandas' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["2", "False", "False"]
    assert "no column 'target'" in run.stderr


def test_an_unwritable_json_path_fails_before_the_run(iris_csv, tmp_path, capsys):
    argv = ["compare", str(iris_csv), "--target", "target", "-a", "subprocess.Popen", "-b", "nosuch.Learner"]
    assert main([*argv, "--json", str(tmp_path / "no" / "out.json")]) == 2  # checked before the learners
    assert f"--json {tmp_path / 'no' / 'out.json'}: no such directory" in capsys.readouterr().err
    assert main([*argv, "--json", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err

@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_the_same_seed_gives_byte_identical_json_for_learners_left_at_random_state_none(iris_csv, tmp_path, capsys):
    argv = ["compare", str(iris_csv), "--target", "target", "-a", "sklearn.ensemble.RandomForestClassifier",
            "--param-a", "n_estimators=5", "-b", "sklearn.neural_network.MLPClassifier",
            "--param-b", "hidden_layer_sizes=(4,)", "--param-b", "max_iter=20",
            "--scheme", "2x3cv", "--n-repeats", "2", "--seed", "3"]
    outputs = []
    for name in ("first", "second"):
        out = tmp_path / f"{name}.json"
        assert main([*argv, "--json", str(out)]) == 0
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1]
    result = json.loads(outputs[0])
    assert result["seed"] == 3
    assert result["estimator_seeds"] == {"A": {"drawn": ["random_state"], "fixed": {}},
                                         "B": {"drawn": ["random_state"], "fixed": {}}}
    assert "A: random_state drawn from rng for every split" in capsys.readouterr().out


def test_a_class_that_is_not_an_estimator_is_refused_before_it_is_instantiated(iris_csv, tmp_path, capsys,
                                                                               monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = ["compare", str(iris_csv), "--target", "target", "-a", "subprocess.Popen",
            "--param-a", "args=['touch', 'ran']", "-b", "sklearn.naive_bayes.GaussianNB", "--n-repeats", "2"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == ("replicability compare: error: subprocess.Popen is not a scikit-learn estimator class (`-a` "
                   "needs a class with fit, get_params and set_params); nothing was run\n")
    assert not (tmp_path / "ran").exists()


@pytest.mark.parametrize(("learner_b", "message"), [
    ("sklearn.linear_model.LinearRegression",
     "`estimator_a` is a classifier and `estimator_b` is a regressor: each would be scored by its own `score`"),
    ("sklearn.preprocessing.StandardScaler", "`estimator_b` must predict (a classifier or regressor)"),
])
def test_learners_that_cannot_be_compared_are_refused_in_one_line(iris_csv, capsys, learner_b, message):
    argv = ["compare", str(iris_csv), "--target", "target", "-a", "sklearn.naive_bayes.GaussianNB",
            "-b", learner_b, "--n-repeats", "2"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err


def test_quick_and_estimator_seeds_reach_compare(iris_csv, tmp_path, capsys):
    out = tmp_path / "quick.json"
    argv = ["compare", str(iris_csv), "--target", "target", "-a", "sklearn.naive_bayes.GaussianNB",
            "-b", "sklearn.tree.DecisionTreeClassifier", "--param-b", "random_state=0", "--quick",
            "--estimator-seeds", "all", "--json", str(out)]
    assert main(argv) == 0
    assert "QUICK LOOK (40 fits)" in capsys.readouterr().out
    result = json.loads(out.read_text())
    assert result["quick"] is True and result["scheme"] == "1x10cv" and result["n_repeats"] == 2
    assert result["estimator_seeds"]["B"] == {"drawn": ["random_state"], "fixed": {}}
    assert main([*argv[:-2], "--scheme", "5x2cv"]) == 2
    assert "`quick` sets the scheme" in capsys.readouterr().err


def _uci_files():
    import os
    from pathlib import Path

    from replicability.sources.uci import list_uci

    folder = Path(os.environ.get("REPLICABILITY_UCI_DIR") or Path(__file__).parents[3] / "shared" / "data" / "uci")
    return [(folder / row.file, row.class_attribute) for row in list_uci().itertuples()]


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:class .* fewer than the 10 folds:UserWarning")
@pytest.mark.parametrize(("path", "target"), _uci_files(), ids=lambda v: getattr(v, "stem", None))
def test_every_uci_arff_file_runs_in_quick_mode(path, target, capsys):
    if not path.is_file():
        pytest.skip(f"UCI file {path} not found: "
                    "get them with `replicability data fetch-uci DEST` and set REPLICABILITY_UCI_DIR=DEST")
    argv = ["compare", str(path), "--target", target, "-a", "sklearn.naive_bayes.GaussianNB",
            "-b", "sklearn.tree.DecisionTreeClassifier", "--quick"]
    assert main(argv) == 0, capsys.readouterr().err
    assert "QUICK LOOK (40 fits)" in capsys.readouterr().out


def test_a_bad_scheme_is_refused_before_the_heavy_imports(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "data.csv"
    path.write_text("a,b,target\n1,2,0\n")
    code = ("import sys; from replicability.cli import main; "
            f"code = main(['compare', {str(path)!r}, '--target', 'target', '-a', 'x.A', '-b', 'x.B', "
            "'--scheme', 'sorted_runs']); "
            "print(code, 'sklearn' in sys.modules, 'pandas' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["2", "False", "False"]
    assert "`scheme` must be 'RxKcv'" in run.stderr and "names the sample a test takes" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_a_pipeline_spec_equals_make_pipeline_through_the_api(iris_csv, tmp_path, capsys):
    import pandas as pd
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    import replicability as rp

    out = tmp_path / "out.json"
    spec = "sklearn.preprocessing.StandardScaler | sklearn.linear_model.LogisticRegression(C=0.5, max_iter=50)"
    argv = ["compare", str(iris_csv), "--target", "target", "-a", spec, "-b", "sklearn.naive_bayes.GaussianNB",
            "--scheme", "2x5cv", "--n-repeats", "2", "--json", str(out)]
    assert main(argv) == 0
    assert f"A: {spec}" in capsys.readouterr().out
    result = json.loads(out.read_text())
    assert result["learner_a"] == spec
    # reference: the pipeline make_pipeline builds, through the API on the same frame
    frame = pd.read_csv(iris_csv)
    ref = rp.compare(make_pipeline(StandardScaler(), LogisticRegression(C=0.5, max_iter=50)), GaussianNB(),
                     frame.drop(columns="target"), frame["target"].to_numpy(), scheme="2x5cv", n_repeats=2,
                     rng=0).to_dict()
    assert result["tests"] == ref["tests"] and result["mean_difference"] == ref["mean_difference"]
    # one step with its parameters inline is that class; --param-a adds to them
    assert main(["compare", str(iris_csv), "--target", "target", "-a", "sklearn.tree.DecisionTreeClassifier("
                 "max_depth=2)", "--param-a", "random_state=0", *COMPARE[2:], "--json", str(out)]) == 0
    inline = json.loads(out.read_text())
    assert main(["compare", str(iris_csv), "--target", "target", "-a", "sklearn.tree.DecisionTreeClassifier",
                 "--param-a", "max_depth=2", "--param-a", "random_state=0", *COMPARE[2:], "--json", str(out)]) == 0
    assert json.loads(out.read_text())["tests"] == inline["tests"]


LEARNER_FILE = '''
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import OneHotEncoder

columns = ColumnTransformer([
    ("numeric", SimpleImputer(), ["sepal length (cm)", "sepal width (cm)", "petal length (cm)"]),
    ("colour", make_pipeline(SimpleImputer(strategy="constant", fill_value="none"), OneHotEncoder()), ["colour"]),
])
estimator = make_pipeline(columns, LogisticRegression(max_iter=50))

if __name__ == "__main__":
    raise SystemExit("run as a script: not by compare")
'''


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_a_python_file_gives_a_pipeline_that_selects_columns_by_name(tmp_path, capsys):
    from sklearn.base import clone
    from sklearn.naive_bayes import GaussianNB
    from sklearn.pipeline import make_pipeline

    import replicability as rp
    from replicability.comparison.command import _preprocessing

    frame = _messy_frame()
    path = tmp_path / "messy.csv"
    frame.to_csv(path, index=False)
    learner = tmp_path / "learner.py"
    learner.write_text(LEARNER_FILE)
    out = tmp_path / "out.json"
    argv = ["compare", str(path), "--target", "target", "-a", str(learner), "--param-a", "logisticregression__C=0.5",
            "-b", "sklearn.naive_bayes.GaussianNB", "--scheme", "2x5cv", "--n-repeats", "2", "--json", str(out)]
    assert main(argv) == 0
    said = ("median imputation of 1 numeric columns with missing values; most frequent value and one-hot encoding "
            "of 1 text columns; before B only (A, a Python file's estimator, is given the columns as read)")
    assert f"preprocessing: {said}" in capsys.readouterr().out
    result = json.loads(out.read_text())
    # reference: the file's pipeline with C=0.5 on the frame as read; B behind the default preprocessing
    namespace = {}
    exec(LEARNER_FILE, namespace)  # noqa: S102 - the test's own file text
    rows = frame[frame["target"].notna()].reset_index(drop=True)
    features = rows.drop(columns="target")
    a = clone(namespace["estimator"]).set_params(logisticregression__C=0.5)
    b = make_pipeline(_preprocessing(features, True)[0], GaussianNB())
    ref = rp.compare(a, b, features, rows["target"].to_numpy(), scheme="2x5cv", n_repeats=2, rng=0).to_dict()
    assert result["tests"] == ref["tests"] and result["mean_difference"] == ref["mean_difference"]


def test_bad_learner_descriptions_fail_in_one_line_before_the_heavy_imports(tmp_path):
    import subprocess
    import sys

    data = tmp_path / "data.csv"
    data.write_text("a,b,target\n1,2,0\n")
    (tmp_path / "broken.py").write_text("estimator = (\n")
    (tmp_path / "nothing.py").write_text("import sklearn.tree\nmodel = sklearn.tree.DecisionTreeClassifier()\n")
    cases = [
        (["-a", "sklearn.preprocessing.StandardScaler |"], "cannot read estimator 'sklearn.preprocessing."),
        (["-a", "x.Scaler | GaussianNB"], "cannot read estimator 'GaussianNB'"),
        (["-a", "x.A(3)"], "step 'x.A(3)': parameters are NAME=VALUE, not positional"),
        (["-a", "x.A(n=len('ab'))"], "step \"x.A(n=len('ab'))\": the value of n must be a Python literal"),
        (["-a", "x.A(n=1, n=2)"], "step 'x.A(n=1, n=2)': each parameter once, as NAME=VALUE"),
        (["-a", "x.A | x.B", "--param-a", "n=1"], "a pipeline's parameters go inside its spec"),
        (["-a", "x.A(n=1)", "--param-a", "n=2"], "n given both in `-a` and in `--param-a`"),
        (["-a", str(tmp_path / "missing.py")], f"`-a` {tmp_path / 'missing.py'} does not exist"),
        (["-a", str(tmp_path / "broken.py")], "cannot be read as Python: "),
        (["-a", str(tmp_path / "nothing.py")], "defines no module-level `estimator`"),
    ]
    code = ("import sys; from replicability.cli import main; "
            f"print([main(['compare', {str(data)!r}, '--target', 'target', *argv, '-b', 'x.B']) "
            f"for argv in {[argv for argv, _ in cases]!r}], 'sklearn' in sys.modules, 'pandas' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split("]")[1].split() == ["False", "False"]
    assert run.stdout.startswith("[" + ", ".join(["2"] * len(cases)) + "]")
    errors = run.stderr.splitlines()
    assert len(errors) == len(cases)
    for line, (_, message) in zip(errors, cases):
        assert line.startswith("replicability compare: error: ") and message in line


def test_a_python_file_is_run_only_after_the_checks_and_must_bind_an_estimator(iris_csv, tmp_path, capsys,
                                                                              monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "fails.py").write_text("estimator = 1 / 0\n")
    (tmp_path / "a_class.py").write_text("from sklearn.naive_bayes import GaussianNB as estimator\n")
    (tmp_path / "touches.py").write_text("open('ran', 'w').close()\nestimator = None\n")
    cases = [("fails.py", "`-a` fails.py failed: ZeroDivisionError: division by zero"),
             ("a_class.py", "`estimator` in a_class.py is not a scikit-learn estimator instance (`-a` needs an "
                            "object with fit, get_params and set_params); got ABCMeta"),
             ("touches.py", "got NoneType")]
    for learner, message in cases:
        assert main(["compare", str(iris_csv), "--target", "target", "-a", learner, "-b",
                     "sklearn.naive_bayes.GaussianNB", "--n-repeats", "2"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and message in err
    (tmp_path / "tree.py").write_text("from sklearn.tree import DecisionTreeClassifier\n"
                                      "estimator = DecisionTreeClassifier()\n")
    assert main(["compare", str(iris_csv), "--target", "target", "-a", "tree.py", "--param-a", "depth=2", "-b",
                 "sklearn.naive_bayes.GaussianNB", "--n-repeats", "2"]) == 2
    assert capsys.readouterr().err == ("replicability compare: error: `estimator` in tree.py has no parameter depth "
                                       "(`--param-a` names one of its get_params(), e.g. step__parameter)\n")
    # the data file is checked before the learner's file is run
    (tmp_path / "ran").unlink()
    assert main(["compare", "missing.csv", "--target", "target", "-a", "touches.py", "-b", "x.B"]) == 2
    assert "no such file: missing.csv" in capsys.readouterr().err and not (tmp_path / "ran").exists()


def test_a_pipeline_spec_step_that_is_not_an_estimator_is_refused_before_any_step_is_built(iris_csv, tmp_path,
                                                                                           capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = "sklearn.preprocessing.StandardScaler | subprocess.Popen(args=['touch', 'ran'])"
    assert main(["compare", str(iris_csv), "--target", "target", "-a", spec, "-b",
                 "sklearn.naive_bayes.GaussianNB"]) == 2
    assert capsys.readouterr().err == ("replicability compare: error: subprocess.Popen is not a scikit-learn "
                                       "estimator class (`-a` needs a class with fit, get_params and "
                                       "set_params); nothing was run\n")
    assert not (tmp_path / "ran").exists()
