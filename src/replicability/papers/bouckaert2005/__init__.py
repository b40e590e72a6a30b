"""Bouckaert (2005): Task I designs, the adaptive design, and the theory of Section 3 and the Appendix."""

__all__: list[str] = []
