"""Tests of replicability.report.page: the one page object, table renderer, number format and claims display."""

import re

import numpy as np
import pandas as pd
import pytest

from replicability.report.claims import NOT_HOLDS, Claims
from replicability.report.page import Page, Table, beside, claims_table, format_frame, format_number, plain


@pytest.mark.parametrize("value, digits, signed, expected", [
    (-0.00004, 4, False, "0.0000"), (-0.0, 3, True, "0.000"), (1000.0, 0, False, "1000"), (-2.0, 0, True, "-2"),
    (3, 3, True, "+3"), (0.12345, 3, False, "0.123"), (float("nan"), 3, False, ""), (None, 3, False, ""),
    (True, 3, False, "yes"), ("x", 3, False, "x"), (float("inf"), 2, False, "∞"), (np.int64(7), 2, False, "7"),
])
def test_format_number(value, digits, signed, expected):
    assert format_number(value, digits, signed=signed) == expected


def test_format_frame_counts_are_integers_and_digits_per_column():
    frame = pd.DataFrame({"n": [1000.0, 5.0], "p": [0.123456, -1e-9], "q": [1.25, 2.0], "s": ["a", "b"]})
    shown = format_frame(frame, {"p": 3, "q": 1})
    assert shown["n"].tolist() == ["1000", "5"]
    assert shown["p"].tolist() == ["0.123", "0.000"]
    assert shown["q"].tolist() == ["1.2", "2.0"]  # round half to even, as Python rounds
    assert shown["s"].tolist() == ["a", "b"]


def test_table_html_is_deterministic_scoped_and_wraps_text():
    text = "a long statement " * 10
    frame = pd.DataFrame({"statement": [text], "n": [3.0], "x": [-0.00001]})
    first, second = Table(frame)._repr_html_(), Table(frame)._repr_html_()
    assert first == second  # no random ids: stored outputs do not change
    scope = re.search(r'<div class="(rp-[0-9a-f]{10})">', first).group(1)
    rules = re.search(r"<style>(.*)</style>", first).group(1)
    assert all(rule.strip().startswith(f".{scope}") for rule in rules.split("}") if rule.strip())
    assert text.strip() in first and "..." not in first  # never truncated
    assert "overflow-wrap: anywhere" in first and "min-width" in first  # the text column wraps
    assert "<td>3</td>" in first and "-0.000" not in first and "<td>0.000</td>" in first
    other = Table(frame.assign(n=4.0))._repr_html_()
    assert re.search(r'<div class="(rp-[0-9a-f]{10})">', other).group(1) != scope  # one scope per table
    assert text.strip() in repr(Table(frame))


def test_table_rejects_what_is_not_a_frame():
    with pytest.raises(TypeError, match="`frame` must be a pandas DataFrame"):
        Table([1, 2])


def test_beside_stacks_published_ours_difference():
    pub = pd.DataFrame({"10": [15.0, 0.801]}, index=["consistent", "R"])
    ours = pd.DataFrame({"10": [11.0, 0.7997]}, index=["consistent", "R"])
    out = beside(pub, ours, digits=[0, 3])
    assert out.index.tolist() == [("consistent", "published"), ("consistent", "ours"), ("consistent", "difference"),
                                  ("R", "published"), ("R", "ours"), ("R", "difference")]
    assert out["10"].tolist() == ["15", "11", "-4", "0.801", "0.800", "-0.001"]
    side = beside(pub["10"], ours["10"], digits=1)
    assert side.columns.tolist() == ["published", "ours", "difference"]
    assert side.loc["consistent"].tolist() == ["15.0", "11.0", "-4.0"]
    with pytest.raises(ValueError, match="same index and columns"):
        beside(pub, ours.iloc[:1], digits=0)


def test_claims_table_keeps_whole_statements():
    c = Claims("bouckaert2004", "test")
    long = "x" * 300
    c.exactly("k", long, "p. 1", condition=False, measured="m", rule="r")
    table = claims_table(c)
    assert table.frame.columns.tolist() == ["claim", "verdict", "judged by"]
    assert table.frame.loc[0, "claim"] == f"k: {long} (p. 1)" and table.frame.loc[0, "verdict"] == NOT_HOLDS
    assert long in table._repr_html_()


def test_plain_turns_numpy_scalars_into_python_values():
    out = plain({"a": np.float64(0.25), "b": np.int64(2), "c": np.bool_(False), "d": "text", "e": [1], "z": -0.0})
    assert [type(v) for v in out.values()] == [float, int, bool, str, list, float]
    assert str(out["z"]) == "0.0"


def test_page_glue_values_write_show_and_plot(tmp_path, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_REPRODUCED_DIR", str(tmp_path))
    claims = Claims("demo_paper", "01_demo")
    claims.exactly("k", "s", "p. 1", condition=True, measured="x", rule="r")
    page = Page(claims, {"x": np.float64(0.5)}, "summary line", tables={"t": pd.DataFrame({"a": [1.5]})},
                reproduced={"table": pd.DataFrame({"a": [1]})})
    assert (page.paper, page.name) == ("demo_paper", "01_demo")
    assert page.glue_values() == {"summary": "summary line", "x": 0.5, "k": "holds"}
    assert page.write() is None  # a notebook's last line `page.write()` displays nothing
    assert (tmp_path / "demo_paper" / "table.csv").is_file()
    assert (tmp_path / "claims" / "demo_paper" / "01_demo.csv").is_file()
    assert "1.500" in page.show("t")._repr_html_() and "1.5<" in page.show("t", 1)._repr_html_()
    with pytest.raises(KeyError, match="`name` must be one of"):
        page.show("nope")
    with pytest.raises(ValueError, match="`name` must be one of"):
        page.plot()
