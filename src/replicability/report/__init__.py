"""The book's machinery: how every notebook page is made, judged and written.

A page builder of ``replicability.papers.<paper>`` returns a :class:`Page` (from
``page``): its tables (:class:`Table`, a published table :func:`beside` ours), the values
its text glues, its figures, and its :class:`Claims` (from ``claims``), each held to a rule
fixed before looking, with the standard errors of ``uncertainty``; :func:`scorecard`
collects the claims of every page. A derivation page is a :class:`Derivation` of
:class:`Step` (from ``steps``). :func:`read_published` reads a transcribed table and only
:meth:`Page.write` writes a reproduced one (``tables``). ``notebooks`` executes the
notebooks: the ``replicability run`` and ``replicability reproduce`` commands, which check
each parameter against its range declared in ``parameters`` (listed by ``parameter_list``)
and render a rerun's HTML page as the book would (``rerun_html``); ``book_slices`` runs
the notebooks as an array job's tasks and joins them.

This room sits below ``papers`` and above the engine and statistics.
"""

from .._lazy import attach

_MODULES = {
    "tables": ("read_published", "write_reproduced"),
    "claims": (
        "ALPHA", "HOLDS", "INCONCLUSIVE", "NOT_HOLDS", "QUALIFIERS", "SE_MULTIPLE", "Claims", "comparison_summary",
        "scorecard", "scorecard_html", "se_multiple", "verdict_counts",
    ),
    "uncertainty": ("difference_se", "paired_rate_difference_se", "percent_se", "rate_difference_se", "rate_se"),
    "page": ("Page", "Table", "beside", "claims_table", "format_frame", "format_number", "plain", "show"),
    "steps": ("CONFIRMED", "ERRATUM", "Derivation", "Step", "identity", "require_sympy"),
    "notebooks": (
        "CommandError", "OutputError", "Stopped", "notebook_command", "notebook_parameters", "require_book_extra",
        "run_folder", "run_notebook", "strip_volatile_metadata",
    ),
    "parameters": (
        "ANY", "MEANINGS", "NOTEBOOK_MEANINGS", "NOTEBOOK_RULES", "RULES", "Rule", "kind_words", "parameter_meaning",
        "parameter_problem", "parameter_rule",
    ),
    "parameter_list": (
        "ParameterRow", "format_parameters", "list_parameters_command", "parameter_rows", "parameters_markdown",
    ),
    "rerun_html": ("book_markdown", "rerun_banner", "write_rerun_html"),
    "book_slices": ("book_join", "book_slice"),
}
__getattr__, __dir__, __all__ = attach(__name__, _MODULES,
                                       submodules=("book_slices", "notebooks", "parameter_list", "parameters"))
