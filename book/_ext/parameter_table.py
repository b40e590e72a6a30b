"""The ``{parameter-table}`` directive: every notebook's parameters, from the declared schema.

The page "How to rerun" lists what each notebook takes with the rows that
``replicability run NOTEBOOK --list-parameters`` prints
(:func:`replicability.report.parameter_list.parameters_markdown`), generated while the
book is built: the table lives in ``_build`` only and cannot drift from the notebooks'
parameters cells or from the ranges ``run`` checks.
"""

from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective

from replicability.report.parameter_list import parameters_markdown


class ParameterTable(SphinxDirective):
    """Insert the parameter tables of the notebooks under ``notebooks/`` (one folder per paper)."""

    def run(self):
        root = Path(self.env.srcdir)
        notebooks = sorted((root / "notebooks").glob("*/*.ipynb"))
        for path in notebooks:
            self.env.note_dependency(str(path))
        container = nodes.container(classes=["parameter-table"])
        self.state.nested_parse(StringList(parameters_markdown(notebooks, root), source="parameter-table"),
                                self.content_offset, container)
        return container.children


def setup(app):
    app.add_directive("parameter-table", ParameterTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
