"""The declared ranges of the notebooks' parameters (report/parameters.py)."""

from pathlib import Path

import pytest

from replicability.report.notebooks import notebook_parameters
from replicability.report.parameters import ANY, NOTEBOOK_RULES, RULES, Rule, parameter_problem, parameter_rule

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*/*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[f"{p.parent.name}/{p.stem}" for p in NOTEBOOKS])
def test_every_parameter_of_every_notebook_is_declared_and_its_default_in_range(path):
    for name, default in notebook_parameters(path).items():
        assert parameter_rule(path, name) is not None, f"{name!r} of {path.name} has no declared rule"
        if default is not None:
            assert parameter_problem(path, name, default) is None, (name, default)

def test_every_override_names_a_parameter_of_an_existing_notebook():
    for key, rules in NOTEBOOK_RULES.items():
        path = ROOT / "notebooks" / f"{key}.ipynb"
        assert path.is_file(), key
        assert set(rules) <= set(notebook_parameters(path)), key

def test_every_declared_name_is_a_parameter_of_some_notebook():
    names = {name for path in NOTEBOOKS for name in notebook_parameters(path)}
    assert set(RULES) <= names, sorted(set(RULES) - names)

@pytest.mark.parametrize(("rule", "words", "inside", "outside"), [
    (RULES["alpha"], "a number in (0, 1)", [0.05, 1e-9], [0, 1, -1, float("inf"), float("nan"), True, "0.1"]),
    (RULES["seed"], "an integer >= 0", [0, 2**40], [-1, 1.0, False]),
    (RULES["n_folds"], "an integer >= 2", [2, 10], [1, 2.5]),
    (RULES["rope"], "a number >= 0", [0, 0.01], [-0.01, float("inf")]),
    (RULES["prior"], "a number > 0", [0.5], [0]),
    (RULES["circles_factor"], "a number in [0, 1)", [0, 0.5], [1]),
    (RULES["scale"], "one of 'smoke', 'quick', 'paper'", ["smoke"], ["huge", 1]),
    (ANY, "any value of its default's type", [None, "x", [1]], []),
])
def test_rules_say_what_they_admit(rule, words, inside, outside):
    assert rule.describe() == words
    assert all(rule.admits(v) for v in inside)
    assert not any(rule.admits(v) for v in outside)

def test_a_list_is_in_range_when_non_empty_and_each_element_is():
    path = ROOT / "notebooks" / "bouckaert2005" / "02_task1_curves.ipynb"
    assert parameter_problem(path, "sizes", [1000, 20]) is None
    for value in ([], [1000, 0], [1000, 2.5]):
        assert parameter_problem(path, "sizes", value) == "must be a non-empty list, each element an integer >= 1"

def test_a_notebook_override_narrows_the_shared_rule():
    holdout = ROOT / "notebooks" / "raschka2018" / "01_holdout.ipynb"
    sources = ROOT / "notebooks" / "bouckaert2003" / "04_table3_sources.ipynb"
    assert parameter_problem(holdout, "n_test", 150) == "must be an integer in [1, 149]"
    assert parameter_problem(sources, "n_test", 150) is None
    assert parameter_rule(holdout, "n_test") == Rule(1, 149, integer=True)

def test_an_undeclared_name_is_checked_for_its_type_only(tmp_path):
    assert parameter_rule(tmp_path / "nb.ipynb", "anything") is None
    assert parameter_problem(tmp_path / "nb.ipynb", "anything", -1) is None
