"""Published tables transcribed from the papers, and the tables we reproduce.

Published values live in ``data/published/<paper>/<table>.csv`` with a ``source``
column (paper, table, row); each reproduction writes its table, in the same layout
and column names, to ``data/reproduced/<paper>/<table>.csv`` (DESIGN.md,
Conventions), so that any table can be diffed against the paper by a script.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from ..engine.store import data_dir

__all__ = ["read_published", "write_reproduced"]


def read_published(paper, table):
    """Read the transcription of a published table.

    Parameters
    ----------
    paper : str
        Folder name of the paper, e.g. ``"bouckaert2003"``.
    table : str
        File stem of the table, e.g. ``"figure1"``.

    Returns
    -------
    pandas.DataFrame
        The transcribed values with their ``source`` column.
    """
    path = data_dir() / "published" / paper / f"{table}.csv"
    if not path.is_file():
        raise FileNotFoundError(f"No published table {paper}/{table}: {path} does not exist.")
    return pd.read_csv(path)


def write_reproduced(frame, paper, table):
    """Write a reproduced table next to the published one, in the same layout.

    The folder is ``data/reproduced`` unless the environment variable
    ``REPLICABILITY_REPRODUCED_DIR`` names another (the smoke tests use a temporary
    one so that small-scale runs never overwrite the committed tables). Floats are
    written with 10 significant digits so that files are stable across platforms
    and diffs stay readable.

    Returns
    -------
    str
        ``"reproduced/<paper>/<table>.csv"``, the name of the file written inside
        its folder (never an absolute path, so notebook outputs stay portable).
    """
    root = Path(os.environ.get("REPLICABILITY_REPRODUCED_DIR") or data_dir() / "reproduced")
    path = root / paper / f"{table}.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, float_format="%.10g", lineterminator="\n")
    return f"reproduced/{paper}/{table}.csv"
