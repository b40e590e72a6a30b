"""No typed reproduced number in the book's prose (issue 40, point 3).

Every number in a notebook's markdown cells and in a book page (``book/**/*.md``) is
glued (a ``{glue}`` role), a published value (any number of ``data/published/``), a
design constant of :data:`DESIGN_CONSTANTS`, a year, or a reference (the number of a
section, table, figure, equation, notebook, issue, ...). Any other number was typed from
a result and would silently go stale when the result changes; it must be glued instead.
"""

import csv
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Sizes of the designs the papers and the book use (runs, folds, repetitions, pairs of
#: repetitions, data sets, cells, instances, train/test splits, levels as percentages,
#: fractions and interval ends), the bootstrap's 1 - 1/e, the sizes of the data sets
#: shipped with scikit-learn (breast cancer: 569 cases, 30 features; digits: 1797 images,
#: about 180 per digit, split 1257/540), and the performance page's targets and workloads.
DESIGN_CONSTANTS = frozenset({
    0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 20, 25, 27, 30, 45, 50, 66, 33, 81, 90, 95, 99, 100, 200, 300, 500, 810, 1000,
    2000, 6000, 10000, 20000, 100000, 200000, 1000000, 0.01, 0.05, 0.1, 0.5, 2.5, 97.5, 63.2, 63, 36.8,
    569, 1797, 180, 1257, 540,
    1.2, 1.3, 1024, 2048, 40000, 62, 64, 126, 256,
})
#: Words before a number that make it a reference or a name, not a value.
_REFERENCE = re.compile(
    r"(?:sections?|§|tables?|figures?|fig\.|eqs?\.|equations?|notebooks?|lemmas?|theorem|appendix|issues?|"
    r"chapters?|pages?|pp\.|steps?|tasks?|sets?|sources?|points?|version|python|weka|v|ubuntu|debian|"
    r"level|rounds?|columns?|rows?|sha-)\s*\(?(?:[\d.]+\s*[-–]\s*)?$", re.IGNORECASE)
_GLUE = re.compile(r"\{glue(?::\w+)?\}`[^`]*`")
_CODE = re.compile(r"``[^`]*``|`[^`]*`")
_LINK_TARGET = re.compile(r"\]\([^)]*\)|<https?://[^>]*>|https?://\S+|doi:\S+|\{(?:cite|doc|ref|numref|eq)(?::\w+)?\}"
                          r"|\d+\(\d+\),\s*\d+[–-]\d+")  # a link, a DOI, a role's name, "volume(issue), pages"
_DIRECTIVE_OPTION = re.compile(r"^\s*:\w[\w-]*:.*$", re.MULTILINE)
#: A "References" section lists volumes, issues and pages, no result.
_REFERENCES = re.compile(r"^#+ References\s*$.*?(?=^#|\Z)", re.MULTILINE | re.DOTALL)
_NUMBER = re.compile(r"(?<![\w.])(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:st|nd|rd|th)?(?!\w)")


def _published_values():
    values = set()
    for path in (ROOT / "data" / "published").rglob("*.csv"):
        with path.open(newline="") as f:
            for row in csv.reader(f):
                for cell in row:
                    for whole, frac in _NUMBER.findall(cell):
                        values.add(float(whole.replace(",", "") + frac))
    return values


PUBLISHED = _published_values()


def typed_numbers(text):
    """The numbers of ``text`` (markdown) that are not glued, published, a design constant, a year or a reference."""
    text = _REFERENCES.sub(" ", text)
    text = _DIRECTIVE_OPTION.sub(" ", _LINK_TARGET.sub(" ", _CODE.sub(" ", _GLUE.sub(" ", text))))
    found = []
    for match in _NUMBER.finditer(text):
        value = float(match.group(1).replace(",", "") + (match.group(2) or ""))
        if (value in DESIGN_CONSTANTS or value in PUBLISHED or (match.group(2) is None and 1900 <= value <= 2030)
                or _REFERENCE.search(text[max(0, match.start() - 20):match.start()])
                or text[match.end():match.end() + 1] in ("×", "x") and value in (5, 10)):
            continue
        found.append(match.group(0))
    return found


def _pages():
    for path in sorted((ROOT / "notebooks").glob("*/*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        text = "\n\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "markdown")
        yield pytest.param(text, id=str(path.relative_to(ROOT)))
    for path in sorted((ROOT / "book").rglob("*.md")):
        yield pytest.param(path.read_text(), id=str(path.relative_to(ROOT)))


@pytest.mark.parametrize("text", list(_pages()))
def test_no_typed_reproduced_number(text):
    assert typed_numbers(text) == []


def test_a_typed_number_is_caught_and_a_glued_one_is_not():
    glued = "Our rate is {glue:text}`rate:.1f`% at 10 runs of 10-fold cv (Table 2, 2003)."
    assert typed_numbers(glued) == []
    assert typed_numbers(glued.replace("{glue:text}`rate:.1f`", "7.31")) == ["7.31"]
    assert typed_numbers("53 of 81 cells agree (Table 2)") == ["53"]


def test_a_number_typed_into_a_glued_page_is_caught():
    page = (ROOT / "notebooks" / "bouckaert2005" / "03_in_text_numbers.ipynb").read_text()
    text = "\n".join("".join(c["source"]) for c in json.loads(page)["cells"] if c["cell_type"] == "markdown")
    assert typed_numbers(text) == []
    assert typed_numbers(text.replace("{glue:text}`wc_norm_delta`", "6.5%, 2.9% and 2.0%")) == ["6.5", "2.9"]
