"""The experiment engine: splitters, the runner and its registry of learner pairs, the result store, the CLI."""

# Importing the engine registers the package's learners, sources and pair evaluators
# with the runner (replicability.engine.pairs), whichever engine module is asked for.
from . import pairs  # noqa: F401

__all__: list[str] = []
