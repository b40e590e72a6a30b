"""Statistics: every test, sampling scheme, calibration, decision, replicability measure and estimator.

Pure functions over arrays (scipy.stats style), vectorized over leading axes. This room
imports nothing from the rest of the package but the shared private helpers.
"""

__all__: list[str] = []
