"""One module or small package per paper: its experiments, scale tables, published-vs-reproduced tables."""

__all__: list[str] = []
