"""Data sources: the ARFF reader, the UCI data sets, synthetic sources, Bayesian networks, count sampling."""

__all__: list[str] = []
