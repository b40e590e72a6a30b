"""`replicability compare`: two learners on a CSV, ARFF or Parquet file, from the command line."""

import json
import os

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

def test_compare_rejects_text_features(tmp_path, capsys):
    path = tmp_path / "t.csv"
    path.write_text("colour,size,label\nred,1,0\nblue,2,1\nred,3,0\nblue,4,1\n")
    assert main(["compare", str(path), "--target", "label", *COMPARE]) == 2
    assert "not numeric: colour" in capsys.readouterr().err
