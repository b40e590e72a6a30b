"""One module or small package per paper: its experiments, scale tables, published-vs-reproduced tables.

``rp.papers.bouckaert2003``, ``rp.papers.bouckaert2004``, ``rp.papers.bouckaert_frank2004``,
``rp.papers.bouckaert2005`` and ``rp.papers.raschka2018`` hold each paper's names;
``synthetic_runs`` and ``network_search`` serve the Bayesian-network experiments of the
first three; :func:`read_published` and :func:`write_reproduced` (from ``tables``) put a
published table beside the reproduced one.
"""

from .._lazy import attach

_MODULES = {"tables": ("read_published", "write_reproduced")}
_PAPERS = ("bates2024", "bouckaert2003", "bouckaert2004", "bouckaert2005", "bouckaert_frank2004", "raschka2018",
           "synthetic_runs", "network_search")
__getattr__, __dir__, __all__ = attach(__name__, _MODULES, submodules=_PAPERS)
