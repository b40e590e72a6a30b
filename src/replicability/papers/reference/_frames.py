"""A frame shown on a page exactly as pandas shows it (the reference pages' raw tables)."""

__all__ = ["AsPandas"]


class AsPandas:
    """``frame`` displayed by its own HTML and text, as a notebook shows a bare DataFrame.

    :meth:`~replicability.report.page.Page.show` turns a DataFrame into a
    :class:`~replicability.report.page.Table`; the reference pages that have always shown
    pandas' own rendering keep it through this wrapper, which ``Page.show`` shows as it
    is (an object with ``_repr_html_``).

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"x": [1, 2]})
    >>> shown = AsPandas(frame)
    >>> shown._repr_html_() == frame._repr_html_(), repr(shown) == repr(frame)
    (True, True)
    """

    def __init__(self, frame):
        self.frame = frame

    def _repr_html_(self):
        return self.frame._repr_html_()

    def __repr__(self):
        return repr(self.frame)
