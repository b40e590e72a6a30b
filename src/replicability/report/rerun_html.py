"""The HTML page of a rerun: the notebook rendered as the book shows it, offline, with its parameters named.

``replicability run NOTEBOOK -p NAME VALUE`` writes, beside the executed notebook, an HTML
page made with nbconvert. The notebook's markdown is written for the book (MyST), so
before rendering, :func:`book_markdown` turns what only the book's build understands into
what it would show:

* ``{glue:text}`name:spec``` roles become the glued values, formatted as the book does;
* ``{cite:t}`key``` and ``{cite:p}`key``` become "Author (year)" and "(Author, year)"
  from ``book/references.bib``, and the page ends with the references it cites;
* ``{doc}`text <target>``` becomes its text; MyST fences (``:::{container}``) their content.

Mathematics is rendered by the MathJax 3 shipped in the ``django-static-mathjax`` wheel (the
book's own), copied beside the page, so the page loads nothing from the network. A banner
at the top lists the parameters that differ from the notebook's defaults, the values the
book's page was computed with.
"""

from __future__ import annotations

import ast
import copy
import html
import re
import shutil
import warnings
from pathlib import Path

__all__ = ["book_markdown", "rerun_banner", "write_rerun_html"]

_GLUE_ROLE = re.compile(r"\{glue(?::text|:)?\}`([^`:]+)(?::([^`]*))?`")
_CITE_ROLE = re.compile(r"\{cite:([tp])\}`([^`]+)`")
_DOC_ROLE = re.compile(r"\{doc\}`(?:([^`<]+?)\s*<[^`>]+>|([^`]+))`")
_FENCE = re.compile(r"^:::+(\{[\w-]+\}.*)?$\n?", re.MULTILINE)
_RECORD = "application/papermill.record/"
# MathJax 3 of the django-static-mathjax wheel: the component and the fonts it loads (as book/_ext does)
_MATHJAX_FILES = ("tex-chtml.js", "output/chtml/fonts/woff-v2")
_MATHJAX_CONFIG = ("<script>window.MathJax = {tex: {inlineMath: [['$', '$'], ['\\\\(', '\\\\)']], "
                   "displayMath: [['$$', '$$'], ['\\\\[', '\\\\]']], processEscapes: true, "
                   "tags: 'ams'}};</script>\n")


def _glued_values(nb):
    values = {}
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            name = out.get("metadata", {}).get("scrapbook", {}).get("name")
            if name is not None and f"{_RECORD}text/plain" in out.get("data", {}):
                values[name] = out["data"][f"{_RECORD}text/plain"]
    return values


def _read_bibliography(path):
    """``{key: (authors as cited, year, reference line)}`` of a BibTeX file (empty if there is none)."""
    if path is None or not Path(path).is_file():
        return {}
    from pybtex.database import parse_file

    entries = {}
    for key, entry in parse_file(str(path)).entries.items():
        people = entry.persons.get("author", [])
        last = [" ".join(p.last_names).replace("{", "").replace("}", "") for p in people]
        cited = (last[0] if len(last) == 1 else f"{last[0]} and {last[1]}" if len(last) == 2
                 else f"{last[0]} et al.")
        year = entry.fields.get("year", "n.d.")
        title = entry.fields.get("title", "").replace("{", "").replace("}", "")
        where = entry.fields.get("booktitle") or entry.fields.get("journal") or ""
        line = f"{', '.join(last)} ({year}). {title}." + (f" {where}." if where else "")
        if "doi" in entry.fields:
            line += f" doi:{entry.fields['doi']}"
        entries[key] = (cited, year, line)
    return entries


def book_markdown(nb, bibliography=None):
    """A copy of ``nb`` whose markdown shows what the book shows (glued values, citations, links' text).

    Parameters
    ----------
    nb : nbformat.NotebookNode
        The executed notebook; it is not changed.
    bibliography : str or Path, optional
        The book's BibTeX file; without it, a citation shows its key.

    Returns
    -------
    nbformat.NotebookNode
        The copy; a markdown cell listing the works cited is appended when there are any.
    """
    values = _glued_values(nb)
    entries = _read_bibliography(bibliography)
    cited = []

    def glue(match):
        name, spec = match.group(1), match.group(2)
        if name not in values:
            return match.group(0)
        try:
            value = ast.literal_eval(values[name])
        except (ValueError, SyntaxError):
            return values[name]
        try:
            return format(value, spec or "")
        except (TypeError, ValueError):
            return values[name]

    def cite(match):
        style, keys = match.group(1), [k.strip() for k in match.group(2).split(",")]
        shown = []
        for key in keys:
            if key not in entries:
                shown.append(key)
                continue
            cited.append(key) if key not in cited else None
            name, year, _ = entries[key]
            shown.append(f"{name} ({year})" if style == "t" else f"{name}, {year}")
        return "; ".join(shown) if style == "t" else f"({'; '.join(shown)})"

    def doc(match):
        return match.group(1) or Path(match.group(2)).name

    nb = copy.deepcopy(nb)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            source = _GLUE_ROLE.sub(glue, cell.source)
            source = _CITE_ROLE.sub(cite, source)
            source = _DOC_ROLE.sub(doc, source)
            cell.source = _FENCE.sub("", source)
    if cited:
        import nbformat

        lines = "\n".join(f"* {entries[key][2]}" for key in cited)
        nb.cells.append(nbformat.v4.new_markdown_cell(f"## References\n\n{lines}"))
    return nb


def rerun_banner(changed, defaults):
    """The banner of a rerun: each parameter that differs from the notebook's default, with that default.

    Examples
    --------
    >>> import re
    >>> print(re.sub("<[^>]+>", "", rerun_banner({"alpha": 0.01}, {"alpha": 0.05, "scale": "paper"})))
    A rerun with parameters that differ from the book's:
    alpha = 0.01 (the book: 0.05).
    Every number on this page is computed with them.
    """
    items = "; ".join(f"<code>{html.escape(name)}</code> = <code>{html.escape(repr(value))}</code> "
                      f"(the book: <code>{html.escape(repr(defaults.get(name)))}</code>)"
                      for name, value in changed.items())
    style = ("border:2px solid #c60;background:#fff4e5;padding:0.8em 1em;margin:1em 0;"
             "font-family:sans-serif;border-radius:4px")
    if not changed:
        return (f'<div class="rerun-banner" style="{style}">A rerun at the book\'s own parameters '
                f"(every parameter at its default).</div>")
    return (f'<div class="rerun-banner" style="{style}"><strong>A rerun with parameters that differ from the '
            f"book's:</strong>\n{items}.\nEvery number on this page is computed with them.</div>")


def _copy_mathjax(folder):
    import mathjax

    source = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"
    target = folder / "mathjax"
    for name in _MATHJAX_FILES:
        if (source / name).is_dir():
            shutil.copytree(source / name, target / name, dirs_exist_ok=True)
        else:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source / name, target / name)
    return "mathjax/tex-chtml.js"


def write_rerun_html(nb, html_path, *, changed, defaults, bibliography=None):
    """Render the executed notebook ``nb`` to ``html_path`` as the book shows it, offline, with the banner.

    Parameters
    ----------
    nb : nbformat.NotebookNode
        The executed notebook.
    html_path : Path
        The page to write; MathJax is copied into ``mathjax/`` beside it.
    changed : dict
        The parameters that differ from the notebook's defaults, with their values.
    defaults : dict
        The notebook's defaults (:func:`replicability.report.notebooks.notebook_parameters`).
    bibliography : str or Path, optional
        The book's ``references.bib``.

    Returns
    -------
    Path
        ``html_path``.
    """
    from nbconvert import HTMLExporter

    html_path = Path(html_path)
    mathjax_url = _copy_mathjax(html_path.parent)
    # require.js is loaded only for widgets, which no page of the book has: no address outside the folder
    exporter = HTMLExporter(mathjax_url=mathjax_url, require_js_url="", jquery_url="")
    with warnings.catch_warnings():
        # glued values are stored under a mime type of their own, shown in the prose, not in the cell
        warnings.filterwarnings("ignore", message="Your element with mimetype", category=UserWarning)
        body, _ = exporter.from_notebook_node(book_markdown(nb, bibliography))
    body = body.replace('<script src=""></script>', "")
    # MathJax 3 reads its configuration from window.MathJax (the template's is MathJax 2's): $...$ as the book
    body = body.replace(f'<script src="{mathjax_url}">', _MATHJAX_CONFIG + f'<script src="{mathjax_url}">', 1)
    # no icon: a browser would otherwise ask the server for /favicon.ico, which a rerun's folder has not
    body = body.replace("</head>", '<link rel="icon" href="data:,">\n</head>', 1)
    body = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + "\n" + rerun_banner(changed, defaults), body, count=1)
    html_path.write_text(body, encoding="utf-8")
    return html_path
