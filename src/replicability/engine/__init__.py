"""The experiment engine: splitters, the runner and its registry of learner pairs, the result store, the CLI."""

__all__: list[str] = []
