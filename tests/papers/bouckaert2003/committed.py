"""The committed ``data/reproduced/bouckaert2003`` tables that the page tests compare with."""

from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[3]
REPRODUCED = ROOT / "data" / "reproduced" / "bouckaert2003"


def committed(name):
    return pd.read_csv(REPRODUCED / f"{name}.csv")


def as_written(frame):
    """The CSV text write_reproduced writes for ``frame``."""
    return frame.to_csv(index=False, float_format="%.10g", lineterminator="\n")
