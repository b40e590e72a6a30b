"""The listing of a notebook's parameters (report/parameter_list.py): the command and the book's table."""

import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from replicability.cli import main
from replicability.report.notebooks import notebook_parameters
from replicability.report.parameter_list import format_parameters, parameter_rows, parameters_markdown

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*/*.ipynb"))
TABLE1 = ROOT / "notebooks" / "bouckaert_frank2004" / "02_table1_5x2cv.ipynb"


def _notebook(folder, source):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A notebook"),
                nbformat.v4.new_code_cell(source, metadata={"tags": ["parameters"]})]
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                   "language_info": {"name": "python"}}
    folder.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, folder / "nb.ipynb")
    return folder / "nb.ipynb"


def test_rows_give_type_default_range_and_meaning_in_the_cell_s_order():
    rows = parameter_rows(TABLE1)
    assert [row.name for row in rows] == list(notebook_parameters(TABLE1)) == ["alpha", "scale"]
    alpha, scale = rows
    assert (alpha.kind, alpha.default, alpha.allowed) == ("a number", "0.05", "a number in (0, 1)")
    assert alpha.meaning == "significance level of the tests (5% in the papers)"
    assert (scale.kind, scale.default, scale.allowed) == ("a string", "'paper'", "one of 'smoke', 'quick', 'paper'")
    assert scale.meaning.startswith("'paper': the committed 27 UCI data sets")


def test_lists_and_parameters_checked_for_their_type_only_are_described_as_such():
    sweep = {row.name: row for row in parameter_rows(ROOT / "notebooks" / "bouckaert2004" / "03_sweep.ipynb")}
    assert (sweep["learner_pairs"].kind, sweep["learner_pairs"].allowed) == ("a list of lists", "its default's type")
    sizes = {row.name: row for row in parameter_rows(ROOT / "notebooks" / "bouckaert2005" / "02_task1_curves.ipynb")}
    assert sizes["sizes"].kind == "a list of integers"
    assert sizes["sizes"].allowed == "a non-empty list, each element an integer >= 1"
    fidelity = {row.name: row for row in parameter_rows(ROOT / "notebooks" / "bouckaert_frank2004" /
                                                         "00_uci_fidelity.ipynb")}
    assert (fidelity["uci_dir"].kind, fidelity["uci_dir"].allowed) == ("any (computed default or None)", "any value")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[f"{p.parent.name}/{p.stem}" for p in NOTEBOOKS])
def test_every_parameter_of_every_notebook_is_listed_with_a_meaning(path):
    rows = parameter_rows(path)
    assert [row.name for row in rows] == list(notebook_parameters(path))
    assert all(row.meaning != "(not declared)" and not row.allowed.startswith("not declared") for row in rows)


def test_an_undeclared_parameter_is_listed_as_such(tmp_path):
    (row,) = parameter_rows(_notebook(tmp_path, "colour = 'red'"))
    assert (row.kind, row.allowed, row.meaning) == ("a string", "not declared: its default's type", "(not declared)")


def test_list_parameters_prints_every_parameter_and_executes_nothing(tmp_path, capsys):
    before = TABLE1.read_bytes()
    assert main(["run", str(TABLE1), "--list-parameters"]) == 0
    out = capsys.readouterr().out
    assert out == format_parameters(TABLE1) + "\n"
    assert out.splitlines() == [
        f"{TABLE1}: 2 parameters (set one with -p NAME VALUE)",
        "  alpha = 0.05",
        "      a number in (0, 1); type: a number",
        "      significance level of the tests (5% in the papers)",
        "  scale = 'paper'",
        "      one of 'smoke', 'quick', 'paper'; type: a string",
        "      'paper': the committed 27 UCI data sets x 10 randomizations; 'smoke': iris, labor and zoo, "
        "2 randomizations (seconds)",
    ]
    assert TABLE1.read_bytes() == before


def test_list_parameters_says_when_a_notebook_has_none(tmp_path, capsys):
    nb = nbformat.v4.new_notebook()
    nbformat.write(nb, tmp_path / "plain.ipynb")
    assert main(["run", str(tmp_path / "plain.ipynb"), "--list-parameters"]) == 0
    assert "no parameters" in capsys.readouterr().out


def test_list_parameters_of_a_missing_notebook_is_one_line_with_exit_code_2(capsys):
    assert main(["run", "missing.ipynb", "--list-parameters"]) == 2
    assert capsys.readouterr().err.splitlines()[0] == "replicability run: error: no such notebook: missing.ipynb"


def test_list_parameters_takes_no_parameter_values(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["run", str(TABLE1), "--list-parameters", "-p", "alpha", "0.01"])
    assert exited.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "replicability: error: --list-parameters executes nothing: it takes no -p or -o")


def test_the_book_table_has_one_table_per_notebook_with_a_link_and_escaped_cells(tmp_path):
    root = tmp_path / "book"
    first = _notebook(root / "notebooks" / "a", "alpha = 0.05\nscale = 'paper'")
    plain = root / "notebooks" / "b" / "plain.ipynb"
    plain.parent.mkdir(parents=True)
    nbformat.write(nbformat.v4.new_notebook(), plain)
    lines = parameters_markdown([first, plain], root)
    assert lines == [
        "", "{doc}`/notebooks/a/nb`", "",
        "| Parameter | Default | Allowed values | Meaning |", "| --- | --- | --- | --- |",
        "| `alpha` | `0.05` | a number in (0, 1) | significance level of the tests (5% in the papers) |",
        "| `scale` | `'paper'` | one of 'smoke', 'quick', 'paper' | 'smoke' (seconds, for tests), 'quick' (minutes) "
        "or 'paper' (the papers' sizes, committed results) |",
    ]


def test_the_book_extension_renders_the_tables_with_links(tmp_path):
    """A one-page Sphinx project with myst-nb and the book's extension, built with warnings as errors."""
    src = tmp_path / "src"
    _notebook(src / "notebooks" / "a", "alpha = 0.05\nseed = 1")
    (src / "conf.py").write_text(
        f"import sys\nsys.path.insert(0, {str(ROOT / 'book' / '_ext')!r})\n"
        "extensions = ['myst_nb', 'parameter_table']\nnb_execution_mode = 'off'\n"
        "exclude_patterns = ['_build']\n")
    (src / "index.md").write_text("# Rerun\n\n```{parameter-table}\n```\n\n```{toctree}\nnotebooks/a/nb\n```\n")
    out = tmp_path / "html"
    done = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "-n", "-q", str(src), str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    html = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="notebooks/a/nb.html"' in html
    assert "<table" in html and "an integer &gt;= 0" in html and "root seed of every random draw" in html
    assert "parameter-table" not in html.replace('class="parameter-table', "")
