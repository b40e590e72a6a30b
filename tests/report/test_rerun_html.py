"""The HTML page of a rerun (report/rerun_html.py): rendered as the book shows it, offline, parameters named."""

import html
import re
from pathlib import Path

import nbformat

from replicability.report.rerun_html import book_markdown, rerun_banner, write_rerun_html

ROOT = Path(__file__).resolve().parents[2]
BIB = ROOT / "book" / "references.bib"
PREFIX = "application/papermill.record/"


def _notebook(markdown, glued=()):
    nb = nbformat.v4.new_notebook()
    code = nbformat.v4.new_code_cell("glue(...)")
    code.outputs = [nbformat.v4.new_output("display_data", data={f"{PREFIX}text/plain": value},
                                           metadata={"scrapbook": {"name": name, "mime_prefix": PREFIX}})
                    for name, value in glued]
    nb.cells = [code, nbformat.v4.new_markdown_cell(markdown)]
    nb.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
                   "language_info": {"name": "python"}}
    return nb


def test_citations_become_author_year_with_a_list_of_references():
    nb = _notebook("As {cite:t}`bouckaertfrank2004` show (see {cite:p}`bouckaert2003, demsar2006`); "
                   "{cite:t}`nokey`.")
    shown = book_markdown(nb, BIB)
    assert shown.cells[1].source == ("As Bouckaert and Frank (2004) show (see (Bouckaert, 2003; Demšar, 2006)); "
                                     "nokey.")
    references = shown.cells[-1].source
    assert references.startswith("## References\n\n* Bouckaert, Frank (2004). Evaluating the replicability")
    assert "doi:10.1007/978-3-540-24775-3_3" in references and references.count("\n* ") == 3
    assert len(nb.cells) == 2 and nb.cells[1].source.startswith("As {cite:t}")  # the notebook is not changed


def test_glue_doc_roles_and_fences_show_what_the_book_shows():
    nb = _notebook(":::{container} wide\nlevel {glue:text}`alpha:.0%`, see {doc}`the scorecard "
                   "<../reference/05_scorecard>` and {doc}`../reference/04_reproducibility`\n:::\n",
                   glued=[("alpha", "0.01")])
    assert book_markdown(nb).cells[1].source == "level 1%, see the scorecard and 04_reproducibility\n"


def test_the_banner_names_each_changed_parameter_with_the_book_s_value():
    banner = rerun_banner({"alpha": 0.01, "scale": "smoke"}, {"alpha": 0.05, "scale": "paper", "seed": 0})
    text = html.unescape(re.sub(r"<[^>]+>", "", banner))
    assert text == ("A rerun with parameters that differ from the book's:\nalpha = 0.01 (the book: 0.05); "
                    "scale = 'smoke' (the book: 'paper').\nEvery number on this page is computed with them.")
    assert "the book's own parameters" in rerun_banner({}, {"alpha": 0.05})


def test_the_page_loads_nothing_from_outside_its_folder_and_renders_maths_with_the_bundled_mathjax(tmp_path):
    nb = _notebook("Level $\\alpha$ of {cite:t}`bouckaert2003`:\n\n$$t = \\frac{\\bar d}{s}$$")
    page = write_rerun_html(nb, tmp_path / "nb.html", changed={"alpha": 0.01}, defaults={"alpha": 0.05},
                            bibliography=BIB)
    text = page.read_text()
    sources = re.findall(r'<(?:script|link|img)[^>]+(?:src|href)="([^"]*)"', text)
    assert sources and all(not re.match(r"(https?:)?//", s) for s in sources), sources
    assert '<script src="mathjax/tex-chtml.js">' in text and (tmp_path / "mathjax" / "tex-chtml.js").is_file()
    assert "window.MathJax = {tex: {inlineMath: [['$', '$']" in text
    assert "{cite:t}" not in text and "Bouckaert (2003)" in text
    body = text[text.index("<body"):]
    assert body.index('class="rerun-banner"') < body.index("Level")
