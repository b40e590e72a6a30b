"""Bouckaert & Frank (2004): the learners on the 27 UCI data sets, their fidelity to Weka, the tables."""

__all__: list[str] = []
