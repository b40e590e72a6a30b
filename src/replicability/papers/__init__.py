"""One package per paper: its experiment configurations, scale tables and page builders.

``rp.papers.bouckaert2003``, ``rp.papers.bouckaert2004``, ``rp.papers.bouckaert_frank2004``,
``rp.papers.bouckaert2005`` and ``rp.papers.raschka2018`` hold each paper's names and the page
builders of its notebooks; ``beyond`` the part "Beyond the papers" (Bayesian comparisons, many
learners, the coverage of cross-validation intervals); ``reference`` the reference pages.
``shared`` holds the experiments and readings several papers share (the synthetic and UCI
runs, the readings of r x k cv). Every page is a :class:`~replicability.report.page.Page`,
made by the machinery of :mod:`replicability.report`.
"""

from .._lazy import attach

_PAPERS = ("bouckaert2003", "bouckaert2004", "bouckaert2005", "bouckaert_frank2004", "raschka2018", "beyond",
           "reference", "shared")
__getattr__, __dir__, __all__ = attach(__name__, {}, submodules=_PAPERS)
