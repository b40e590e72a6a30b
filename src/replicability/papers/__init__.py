"""One module or small package per paper: its experiments, scale tables, published-vs-reproduced tables.

``rp.papers.bouckaert2003``, ``rp.papers.bouckaert2004``, ``rp.papers.bouckaert_frank2004``,
``rp.papers.bouckaert2005`` and ``rp.papers.raschka2018`` hold each paper's names;
``synthetic_runs`` and ``network_search`` serve the Bayesian-network experiments of the
first three; ``beyond`` (Bayesian comparisons and many learners on the UCI results) and
``bates2024`` (the coverage of cross-validation intervals) serve the part "Beyond the papers".
:func:`read_published` and :func:`write_reproduced` (from ``tables``) put a published
table beside the reproduced one; :class:`Claims` (from ``claims``) holds each page's
claims to the rules written there, and :func:`scorecard` collects them; every notebook page
is a :class:`Page` (from ``page``), its tables shown as :class:`Table`.
"""

from .._lazy import attach

_MODULES = {
    "tables": ("read_published", "write_reproduced"),
    "claims": (
        "HOLDS", "NOT_HOLDS", "SE_MULTIPLE", "WITHIN", "Claims", "comparison_summary", "rate_se", "scorecard",
        "scorecard_html", "se_multiple", "verdict_counts",
    ),
    "page": ("Page", "Table", "beside", "claims_table", "format_frame", "format_number", "plain", "show"),
    "steps": ("CONFIRMED", "ERRATUM", "Derivation", "Step", "identity", "require_sympy"),
}
_PAPERS = ("bouckaert2003", "bouckaert2004", "bouckaert2005", "bouckaert_frank2004", "raschka2018",
           "synthetic_runs", "network_search", "beyond", "bates2024", "reference")
__getattr__, __dir__, __all__ = attach(__name__, _MODULES, submodules=_PAPERS)
