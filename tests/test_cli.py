"""The `replicability` command and notebook normalization."""

import sys

import nbformat
import pytest

import replicability
from replicability.cli import main, notebook_parameters, run_notebook, strip_volatile_metadata


def _notebook(tmp_path, parameters_source="alpha = 0.05\nname = 'x'", body="print(alpha, name)"):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(parameters_source, metadata={"tags": ["parameters"]}),
        nbformat.v4.new_code_cell(body),
    ]
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    path = tmp_path / "nb.ipynb"
    nbformat.write(nb, path)
    return path


def test_notebook_parameters_reads_the_tagged_cell(tmp_path):
    assert notebook_parameters(_notebook(tmp_path)) == {"alpha": 0.05, "name": "x"}


def test_notebook_without_parameters_cell_has_none(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("1 + 1")]
    path = tmp_path / "plain.ipynb"
    nbformat.write(nb, path)
    assert notebook_parameters(path) == {}


def test_strip_volatile_metadata_removes_timings_and_keeps_tags():
    nb = nbformat.v4.new_notebook()
    nb.metadata["papermill"] = {"start_time": "2026-01-01T00:00:00"}
    nb.metadata["language_info"] = {"name": "python", "version": "3.11.7"}
    cell = nbformat.v4.new_code_cell("1", metadata={"tags": ["parameters"], "papermill": {"duration": 1.0},
                                                    "execution": {"iopub.status.busy": "t"}})
    nb.cells = [cell]
    strip_volatile_metadata(nb)
    assert "papermill" not in nb.metadata
    assert nb.metadata["language_info"] == {"name": "python"}
    assert dict(nb.cells[0].metadata) == {"tags": ["parameters"]}


def test_run_injects_parameters_and_strips_timings(tmp_path):
    path = _notebook(tmp_path)
    out = run_notebook(path, tmp_path / "out.ipynb", {"alpha": 0.01})
    nb = nbformat.read(out, as_version=4)
    assert "papermill" not in nb.metadata
    assert all("papermill" not in c.metadata and "execution" not in c.metadata for c in nb.cells)
    printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "0.01 x" in printed


def test_run_rejects_unknown_parameter(tmp_path):
    with pytest.raises(ValueError, match="`parameters`.*beta"):
        run_notebook(_notebook(tmp_path), tmp_path / "out.ipynb", {"beta": 1})


def test_command_line_writes_parameterized_run_outside_the_notebook(tmp_path, monkeypatch, capsys):
    path = _notebook(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(path), "-p", "alpha", "0.2", "-p", "name", "y"]) == 0
    nb = nbformat.read(tmp_path / "runs" / "nb.ipynb", as_version=4)
    printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "0.2 y" in printed
    assert nbformat.read(path, as_version=4).cells[1].outputs == []  # source notebook untouched
    assert "runs/nb.ipynb" in capsys.readouterr().out


def test_version_prints_the_package_version(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out == f"replicability {replicability.__version__}\n"


@pytest.mark.parametrize("command", [["run", "nb.ipynb"], ["reproduce"]])
def test_commands_without_the_book_extra_say_how_to_install_it(command, monkeypatch):
    monkeypatch.setitem(sys.modules, "papermill", None)  # as if papermill were not installed
    message = r"needs the \[book\] extra: pip install 'replicability\[book\]' \(missing: papermill\)"
    with pytest.raises(SystemExit, match=message):
        main(command)


# -- replicability compare -------------------------------------------------------------------

COMPARE = ["-a", "sklearn.naive_bayes.GaussianNB", "-b", "sklearn.tree.DecisionTreeClassifier",
           "--param-b", "random_state=0", "--param-b", "max_depth=2", "--scheme", "2x5cv", "--n-repeats", "2"]


@pytest.fixture
def iris_csv(tmp_path):
    from sklearn.datasets import load_iris

    path = tmp_path / "iris.csv"
    load_iris(as_frame=True).frame.to_csv(path, index=False)
    return path


def test_compare_on_a_csv_file_prints_and_writes_json(iris_csv, tmp_path, capsys):
    import json

    out = tmp_path / "out.json"
    assert main(["compare", str(iris_csv), "--target", "target", *COMPARE, "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "corrected repeated cv t" in printed and "replicability over randomizations" in printed
    result = json.loads(out.read_text())
    assert result["target"] == "target" and result["scheme"] == "2x5cv" and result["n_repeats"] == 2
    assert result["decision"] in ("A better", "no difference", "B better")
    assert [t["test"] for t in result["tests"]][0] == "corrected repeated cv t"


def test_compare_on_an_arff_file_equals_the_csv_of_the_same_data(iris_csv, tmp_path, capsys):
    import json

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


@pytest.mark.parametrize(("change", "message"), [
    ({"data": "missing.csv"}, "no such file"),
    ({"--target": "species"}, "no column 'species'"),
    ({"-a": "sklearn.naive_bayes.NoSuchNB"}, "cannot import estimator 'sklearn.naive_bayes.NoSuchNB'"),
    ({"-b": "nosuchpackage.Learner"}, "cannot import estimator 'nosuchpackage.Learner'"),
    ({"--param-b": "depth"}, "NAME=VALUE"),
])
def test_compare_errors_are_one_line_with_exit_code_2(iris_csv, tmp_path, capsys, change, message):
    options = {"data": str(iris_csv), "--target": "target", "-a": "sklearn.naive_bayes.GaussianNB",
               "-b": "sklearn.tree.DecisionTreeClassifier", "--param-b": "random_state=0"}
    options.update({k: (str(tmp_path / v) if k == "data" else v) for k, v in change.items()})
    argv = ["compare", options.pop("data")] + [x for kv in options.items() for x in kv] + ["--n-repeats", "2"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and err.startswith("replicability compare: error:")


def test_compare_with_a_rope_prints_and_writes_the_bayesian_test(iris_csv, tmp_path, capsys):
    import json

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


def test_a_rerun_elsewhere_writes_its_tables_beside_the_output(tmp_path, monkeypatch):
    monkeypatch.delenv("REPLICABILITY_REPRODUCED_DIR", raising=False)
    body = "from replicability.papers import write_reproduced\nimport pandas as pd\n" \
           "print(write_reproduced(pd.DataFrame({'a': [alpha]}), 'demo', 't'))"
    path = _notebook(tmp_path, body=body)
    run_notebook(path, tmp_path / "runs" / "nb.ipynb", {"alpha": 0.01})
    assert (tmp_path / "runs" / "reproduced" / "demo" / "t.csv").read_text() == "a\n0.01\n"
    assert "REPLICABILITY_REPRODUCED_DIR" not in __import__("os").environ
