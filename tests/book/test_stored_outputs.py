"""Stored notebook outputs are portable: nothing in them carries a float's last bits.

A value that passes through the BLAS or a SIMD loop can differ in its last bit
between machines (another OpenBLAS kernel, another CPU). nbval compares stored
outputs exactly, so every glued float is rounded to the precision the book shows
(DESIGN.md, "Stored outputs are portable"). An unrounded float carries 15 to 17
significant digits; a rounded one a handful.
"""

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*/*.ipynb"))
MAX_SIGNIFICANT_DIGITS = 10


def significant_digits(text):
    """Significant digits of a float's repr, ``"90.09555555555555"`` -> 16, ``"2.75e-05"`` -> 3."""
    return len(text.lower().split("e")[0].lstrip("-").replace(".", "").strip("0"))


def glued_floats(path):
    nb = json.loads(path.read_text())
    for cell in nb["cells"]:
        for output in cell.get("outputs", []):
            name = output.get("metadata", {}).get("scrapbook", {}).get("name")
            text = output.get("data", {}).get("application/papermill.record/text/plain")
            if name is not None and text is not None and re.fullmatch(r"-?\d+\.\d*(e[-+]?\d+)?|-?\d+e[-+]?\d+", text):
                yield name, text


def test_significant_digits():
    assert significant_digits("90.09555555555555") == 16
    assert significant_digits("59.099999999999994") == 17
    assert significant_digits("90.1") == 3
    assert significant_digits("2.75e-05") == 3
    assert significant_digits("0.0319") == 3
    assert significant_digits("-0.0") == 0


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[f"{p.parent.name}/{p.stem}" for p in NOTEBOOKS])
def test_glued_floats_are_rounded(notebook):
    long = {name: text for name, text in glued_floats(notebook) if significant_digits(text) > MAX_SIGNIFICANT_DIGITS}
    assert not long, f"glue these rounded to the precision the book shows: {long}"


def figure_outputs(path):
    """(cell index, output) of every stored matplotlib figure: its text is ``<Figure size ... with N Axes>``."""
    nb = json.loads(path.read_text())
    for index, cell in enumerate(nb["cells"]):
        for output in cell.get("outputs", []):
            text = "".join(output.get("data", {}).get("text/plain", ""))
            if text.startswith("<Figure size"):
                yield index, output


def test_figure_outputs_are_recognized():
    figures = [list(figure_outputs(path)) for path in NOTEBOOKS]
    assert sum(map(len, figures)) > 20  # the book shows dozens of figures


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[f"{p.parent.name}/{p.stem}" for p in NOTEBOOKS])
def test_every_figure_output_carries_an_image(notebook):
    # A figure displayed before the inline backend is active is stored as its text alone
    # ("<Figure size 700x400 with 1 Axes>") and the book shows no plot.
    blank = [index for index, output in figure_outputs(notebook) if "image/png" not in output.get("data", {})]
    assert not blank, f"figure outputs without an image in cells {blank}"


# A Python value shown as its repr: a list, dict, tuple or set, an array, an object's default repr,
# or a dict printed inside a line of text.
RAW_VALUE = re.compile(r"\s*(\[|\{|\(|array\(|<[\w.]+ object at 0x)")
PRINTED_DICT = re.compile(r"\{'[^']*': ")


def raw_outputs(path):
    """(cell index, text) of every output that shows a bare Python value instead of a table or a sentence."""
    nb = json.loads(path.read_text())
    for index, cell in enumerate(nb["cells"]):
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream":
                text = "".join(output["text"])
                if RAW_VALUE.match(text) or PRINTED_DICT.search(text):
                    yield index, text
            elif output["output_type"] in ("execute_result", "display_data"):
                data = output.get("data", {})
                rich = [kind for kind in data if kind != "text/plain" and not kind.startswith("application/papermill")]
                text = "".join(data.get("text/plain", ""))
                if not rich and RAW_VALUE.match(text):
                    yield index, text


def test_raw_outputs_are_recognized(tmp_path):
    shown = {"cells": [
        {"cell_type": "code", "outputs": [{"output_type": "execute_result", "data": {"text/plain": "['a.csv']"}}]},
        {"cell_type": "code", "outputs": [{"output_type": "stream", "text": "first: {'pvalue': 0.03}\n"}]},
        {"cell_type": "code", "outputs": [{"output_type": "display_data",
                                           "data": {"text/plain": "<Figure>", "image/png": "..."}}]},
        {"cell_type": "code", "outputs": [{"output_type": "stream", "text": "same p-value: True\n"}]},
    ]}
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(shown))
    assert [index for index, _ in raw_outputs(path)] == [0, 1]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=[f"{p.parent.name}/{p.stem}" for p in NOTEBOOKS])
def test_no_output_shows_a_raw_python_value(notebook):
    raw = {index: text[:80] for index, text in raw_outputs(notebook)}
    assert not raw, f"show these as a table or a sentence: {raw}"
