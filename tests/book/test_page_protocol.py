"""Every notebook page is made one way: a page builder, then the page's own methods.

``page = <paper>.<what>_page(**params)`` followed only by ``page.glue()``,
``page.write()``, ``page.show(...)``, ``page.plot(...)``, ``page.verdicts()`` (and reading
``page.data[...]`` or ``page.summary``): no free ``show()``, no result objects assembled
into a page in the notebook, no figure functions called from a cell (DESIGN.md). The
practice notebook is a lesson whose code is its content, and is not a page.
"""

import ast
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [p for p in sorted((ROOT / "notebooks").glob("*/*.ipynb")) if p.parent.name != "practice"]
METHODS = {"glue", "write", "show", "plot", "verdicts"}
ATTRIBUTES = {"data", "summary"}


def _page_of(node, packages):
    """The builder call ``<package>.<what>_page(...)``, or None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name):
        if node.func.value.id in packages and node.func.attr.endswith("_page"):
            return node.func.attr
    return None


def _reads_page(node, pages):
    """``page.data[...]``, ``page.summary`` or ``print`` of them."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
        return all(_reads_page(arg, pages) for arg in node.args)
    if isinstance(node, ast.Subscript):
        node = node.value
    return (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in pages
            and node.attr in ATTRIBUTES)


def protocol_breaches(source_cells):
    """The statements of the cells (parameters cell excluded) that are not the protocol's."""
    packages, pages, breaches = set(), set(), []
    for source in source_cells:
        for statement in ast.parse(source).body:
            if isinstance(statement, ast.ImportFrom) and statement.module == "replicability.papers":
                packages |= {alias.asname or alias.name for alias in statement.names if alias.asname is None}
                if any(alias.asname for alias in statement.names):
                    breaches.append(ast.unparse(statement) + "  (import the paper's package by its name)")
                continue
            if (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                    and isinstance(statement.targets[0], ast.Name) and _page_of(statement.value, packages)):
                pages.add(statement.targets[0].id)
                continue
            value = statement.value if isinstance(statement, ast.Expr) else None
            if (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                    and isinstance(value.func.value, ast.Name) and value.func.value.id in pages
                    and value.func.attr in METHODS):
                continue
            if value is not None and _reads_page(value, pages):
                continue
            breaches.append(ast.unparse(statement))
    return breaches


def test_the_check_accepts_the_protocol_and_refuses_other_dialects():
    good = ["from replicability.papers import bouckaert2004",
            "page = bouckaert2004.table1_page(seed=seed)\npage.glue()\npage.write()\npage.show('table1')",
            "page.plot('figure')\nprint(page.data['sizes'])\npage.summary\npage.verdicts()"]
    assert protocol_breaches(good) == []
    bad = ["from replicability.papers import bouckaert2004 as paper",
           "from replicability.report.page import Page, show",
           "res = bouckaert2004.table1(seed=0)\npage = Page(*bouckaert2004.table1_claims(res))",
           "show(res.example, 4)\nfig = bouckaert2004.table1_figure(res)"]
    assert len(protocol_breaches(bad)) == 6


@pytest.mark.parametrize("notebook", PAGES, ids=[f"{p.parent.name}/{p.stem}" for p in PAGES])
def test_every_notebook_page_follows_the_one_protocol(notebook):
    cells = [cell.source for cell in nbformat.read(notebook, as_version=4).cells
             if cell.cell_type == "code" and "parameters" not in cell.metadata.get("tags", [])]
    breaches = protocol_breaches(cells)
    assert not breaches, f"statements outside the page protocol: {breaches}"
