"""Display helpers of the Bouckaert pages: tidy numbers, whole claim texts.

The notebooks of Bouckaert (2004) and Bouckaert (2005) show their tables through
these helpers so that a page reads as a report: numbers rounded to what is
shown (never ``-0.0``), counts as integers, and claim statements never cut
("binom...").
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["CLAIM_COLUMNS", "claims_table", "plain", "show", "tidy"]

#: Columns of a claims table as shown on a page (key, paper and page are in the file).
CLAIM_COLUMNS = ["statement", "source", "rule", "measured", "tolerance", "verdict"]


def tidy(frame, digits=3):
    """Round the float columns of a table for display, without ``-0.0``.

    Float columns whose values are all whole numbers (counts that went through
    a float) become integers; other float columns are rounded to ``digits``
    decimals and ``0.0`` is added so that a rounded ``-0.0`` shows as ``0.0``.

    Parameters
    ----------
    frame : pandas.DataFrame
    digits : int or dict
        Decimals, for every float column or per column name.

    Returns
    -------
    pandas.DataFrame
        A copy.

    Examples
    --------
    >>> import pandas as pd
    >>> tidy(pd.DataFrame({"count": [1000.0, 10.0], "x": [-0.00001, 0.12345]}), 2).to_dict("list")
    {'count': [1000, 10], 'x': [0.0, 0.12]}
    """
    out = frame.copy()
    for column in out.columns:
        values = out[column]
        if not pd.api.types.is_float_dtype(values):
            continue
        v = values.to_numpy()
        if v.size and np.all(np.isfinite(v)) and np.all(v == np.round(v)):
            out[column] = values.astype(np.int64)
            continue
        d = digits.get(column, 3) if isinstance(digits, dict) else digits
        out[column] = values.round(d) + 0.0
    return out


def show(frame, digits=3):
    """Display a table with every text in full and numbers tidied (:func:`tidy`)."""
    from IPython.display import display

    table = tidy(frame, digits) if isinstance(frame, pd.DataFrame) else frame
    with pd.option_context("display.max_colwidth", None, "display.width", 250, "display.max_rows", 200):
        display(table)


def claims_table(claims):
    """The claims of a page, one row per claim, indexed by key, in the columns of :data:`CLAIM_COLUMNS`.

    Examples
    --------
    >>> from replicability.papers.claims import Claims
    >>> c = Claims("bouckaert2004", "demo")
    >>> _ = c.exactly("k", "A statement", "p. 1", condition=True, measured="yes", rule="identity")
    >>> claims_table(c)["verdict"].tolist()
    ['holds']
    """
    return claims.frame().set_index("key")[CLAIM_COLUMNS]


def plain(values):
    """The values to glue into a page as plain Python numbers, strings and booleans (no ``np.float64(...)``).

    Examples
    --------
    >>> import numpy as np
    >>> plain({"x": np.float64(0.5), "n": np.int64(3), "ok": np.bool_(True), "s": "holds"})
    {'x': 0.5, 'n': 3, 'ok': True, 's': 'holds'}
    """
    return {key: value.item() if isinstance(value, np.generic) else value for key, value in values.items()}
