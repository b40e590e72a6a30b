"""A reader for Weka's ARFF files (Attribute-Relation File Format).

The UCI data sets of Bouckaert & Frank (2004) and Bouckaert (2004) are the ARFF
files distributed with Weka. This module reads them without a third-party ARFF
library, following what Weka's own ``ArffLoader`` accepts (Hall et al. 2009;
the Weka ARFF documentation):

* keywords (``@relation``, ``@attribute``, ``@data``) and type names are
  case-insensitive; ``%`` starts a comment anywhere outside quotes;
* values are separated by commas *or* blanks (Weka's tokenizer treats both as
  separators), so a value with a blank or comma in it must be quoted, with ``'``
  or ``"``; inside quotes ``\\`` escapes the next character (``\\n``, ``\\t``
  and ``\\r`` stand for newline, tab and carriage return);
* an unquoted ``?`` is a missing value; a quoted ``'?'`` is an ordinary nominal
  label (anneal.arff declares and uses it as one);
* attribute types ``numeric``, ``real`` and ``integer`` (with Weka's old optional
  range, ``integer [1,10]``, which is enforced) and nominal ``{a, b, ...}``;
* dense rows and sparse rows ``{index value, ...}`` (0-based indices; omitted
  entries are 0, i.e. the first label of a nominal attribute, as in Weka).

It is stricter than Weka where Weka would read a damaged file without a word:

* a file must be UTF-8 (ASCII is UTF-8); a UTF-8 byte-order mark is skipped.
  UTF-16 (either byte order, with or without a byte-order mark), NUL bytes and
  bytes that are not UTF-8 are errors saying what the file is and how to convert
  it (Weka 3.6 stops on the byte-order mark of UTF-8 and UTF-16 with
  "keyword @relation expected", and, under Java's default UTF-8 charset,
  replaces bytes that are not UTF-8 by U+FFFD);
* a header without data rows (a file cut off right after ``@data``) is an error
  unless ``allow_empty=True`` (Weka reads it as 0 instances);
* a numeric value must be a finite number: ``NaN``, ``nan``, ``inf``,
  ``Infinity``, ``-inf``, ... in any case, and numbers that overflow a double
  (``1e999``), are errors; a missing value is written ``?``. Weka 3.6 reads
  ``NaN`` as a missing value and ``Infinity`` / ``-Infinity`` / ``1e999`` as
  infinities, and rejects ``nan``, ``inf``, ``Inf`` and ``INF``; so every
  numeric value read here is one Weka reads the same;
* empty fields (``1,,2``), which Weka skips, are errors;
* a file with sparse rows is refused when its dense array would hold more than
  :data:`MAX_SPARSE_CELLS` cells (10 million, 80 MB), since a two-byte sparse row
  ``{}`` stands for a whole row.

Reading time and memory grow linearly with the file size (the benchmark
``benchmarks/bench_arff.py`` measures it; files of 40,000 and 4,000 attributes).

``string``, ``date`` and ``relational`` attributes and instance weights are
rejected with an error: no data set of the papers uses them, and the arrays
returned here hold numbers only. Every error is an :class:`ArffError` naming the
file and line, and what is missing (``@relation missing``, ``no @attribute
declarations``, ``no @data section``, ``no data rows after @data``).

.. rubric:: References

M. Hall, E. Frank, G. Holmes, B. Pfahringer, P. Reutemann and I. H. Witten
(2009). The WEKA data mining software: an update. SIGKDD Explorations 11(1),
10-18. https://doi.org/10.1145/1656274.1656278

Weka documentation, "ARFF (stable version)".
https://waikato.github.io/weka-wiki/formats_and_processing/arff_stable/
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .._validation import check_bool, not_a_regular_file

__all__ = ["MAX_SPARSE_CELLS", "ArffError", "Dataset", "load_arff", "parse_arff"]

#: The most cells (rows x attributes) a file with sparse rows is expanded to: 80 MB of floats.
#: A dense row spells out every value, so its array grows with the file; a sparse row
#: ``{}`` of two bytes is a whole row of zeros, so without a bound a small file could
#: ask for any amount of memory.
MAX_SPARSE_CELLS = 10_000_000


class ArffError(ValueError):
    """Malformed ARFF input; the message starts with ``<file>, line <n>:``.

    Attributes
    ----------
    source : str
        The file (or the ``source`` label given to :func:`parse_arff`).
    lineno : int
        1-based line number of the offending line.
    """

    def __init__(self, source, lineno, message):
        self.source = str(source)
        self.lineno = int(lineno)
        super().__init__(f"{self.source}, line {self.lineno}: {message}")


@dataclass(frozen=True, eq=False)
class Dataset:
    """A classification data set read from an ARFF file.

    Attributes
    ----------
    name : str
        Identifier: the file stem for :func:`load_arff` and the UCI loaders, else
        the relation name.
    relation : str
        The ``@relation`` name written in the file.
    X : ndarray of float, shape (n_instances, n_attributes)
        The non-class attributes. Numeric attributes hold their values; nominal
        attributes hold the integer code of the label (its 0-based position in
        ``nominal_values[j]``) stored as float, so that one array carries both
        kinds; NaN marks a missing value. Read-only.
    y : ndarray of int, shape (n_instances,)
        Code of the class label (position in ``class_values``); -1 where the
        class is missing. Read-only.
    attribute_names : tuple of str
        Names of the non-class attributes, in file order.
    attribute_types : tuple of str
        ``"numeric"`` or ``"nominal"`` per attribute.
    nominal_values : tuple of tuple of str
        Declared labels per attribute, in declaration order; ``()`` for numeric
        attributes.
    class_name : str
        Name of the class attribute.
    class_values : tuple of str
        Declared class labels, in declaration order (some may never occur).
    """

    name: str
    relation: str
    X: np.ndarray = field(repr=False)
    y: np.ndarray = field(repr=False)
    attribute_names: tuple = field(repr=False)
    attribute_types: tuple = field(repr=False)
    nominal_values: tuple = field(repr=False)
    class_name: str = ""
    class_values: tuple = ()

    @property
    def n_instances(self):
        """Number of rows."""
        return self.X.shape[0]

    @property
    def n_attributes(self):
        """Number of attributes, not counting the class."""
        return self.X.shape[1]

    @property
    def n_classes(self):
        """Number of declared class labels."""
        return len(self.class_values)

    @property
    def nominal_mask(self):
        """Boolean array, True where an attribute is nominal."""
        return np.array([t == "nominal" for t in self.attribute_types], dtype=bool)

    @property
    def n_missing(self):
        """Number of missing cells, class column included."""
        return int(np.isnan(self.X).sum() + (self.y < 0).sum())


# --- tokenizer -----------------------------------------------------------------

_OPEN, _CLOSE = object(), object()  # brace tokens, distinct from quoted "{" values
_MISSING = None

_TOKEN_RE = re.compile(
    r"""
      (?P<sep>[\s,]+)
    | '(?P<sq>(?:[^'\\]|\\.)*)'
    | "(?P<dq>(?:[^"\\]|\\.)*)"
    | (?P<open>\{)
    | (?P<close>\})
    | (?P<comment>%.*)
    | (?P<word>[^\s,'"{}%]+)
    """,
    re.VERBOSE | re.DOTALL,
)
_ESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r"}
_PLAIN_RE = re.compile(r"^[^'\"{}%\\]*$")  # lines the fast path can split


_EMPTY_FIELD = "empty value (two commas in a row, or a comma at the start or end of a row)"


class _LineError(Exception):
    """Problem on the current line; the caller adds file and line number."""


def _unescape(text):
    return _ESCAPE_RE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(1)), text)


def _tokenize(line):
    """Split a line into values, ``None`` for an unquoted ``?``, and brace markers."""
    if _PLAIN_RE.match(line):
        # No quotes, braces or comments: Weka's tokenizer reduces to splitting on
        # commas and blanks.
        fields = line.split(",")
        if any(not f.strip() for f in fields):
            raise _LineError(_EMPTY_FIELD)
        return [None if t == "?" else t for f in fields for t in f.split()]
    tokens = []
    pos, end = 0, len(line)
    while pos < end:
        m = _TOKEN_RE.match(line, pos)
        if m is None:
            raise _LineError(f"unterminated quoted value starting at column {pos + 1}")
        kind = m.lastgroup
        if kind == "sep":
            commas = m.group(kind).count(",")
            # Weka would skip an empty field silently; it is almost surely an error.
            if commas > 1 or (commas and (pos == 0 or m.end() == end or line[m.end()] in "%}")):
                raise _LineError(_EMPTY_FIELD)
            pos = m.end()
            continue
        pos = m.end()
        if kind == "comment":
            break
        if kind == "open":
            tokens.append(_OPEN)
        elif kind == "close":
            tokens.append(_CLOSE)
        elif kind == "word":
            word = m.group("word")
            tokens.append(None if word == "?" else word)
        else:
            tokens.append(_unescape(m.group(kind)))
    return tokens


# --- header --------------------------------------------------------------------

_NUMERIC_TYPES = ("numeric", "real", "integer")
_UNSUPPORTED_TYPES = ("string", "date", "relational")
# Bounds are stripped after matching: blanks both inside `\s*` and inside a lazy bound
# made the match backtrack in cubic time on `integer [1,` followed by many blanks.
_RANGE_RE = re.compile(r"([\[(])([^,\])]+),([^,\])]+)([\])])")


@dataclass
class _Attribute:
    name: str
    kind: str  # "numeric" or "nominal"
    values: tuple = ()
    codes: dict = field(default_factory=dict)
    bounds: tuple | None = None  # (lo, hi, lo_closed, hi_closed) of `integer [lo,hi]`


def _split_name(rest):
    """Return ``(name, remainder)`` of an ``@relation`` or ``@attribute`` line."""
    rest = rest.lstrip()
    if rest[:1] in ("'", '"'):
        m = _TOKEN_RE.match(rest)
        if m is None or m.lastgroup not in ("sq", "dq"):
            raise _LineError("unterminated quoted name")
        return _unescape(m.group(m.lastgroup)), rest[m.end():]
    m = re.match(r"[^\s{%]+", rest)
    if m is None:
        raise _LineError("missing name")
    return m.group(0), rest[m.end():]


def _strip_comment(text):
    """Remove an unquoted ``%`` comment (text holds no quotes where this is used)."""
    return text.split("%", 1)[0].strip()


def _parse_bound(text):
    """A bound of ``integer [lo,hi]``: a number, possibly infinite, not NaN."""
    value = float(text)  # ValueError propagates
    if "_" in text or math.isnan(value):
        raise ValueError(text)
    return value


def _number_problem(text, attribute):
    """Why ``text`` is no value of the numeric ``attribute`` (a message), or None if it is one."""
    message = f"value {text!r} of numeric attribute {attribute.name!r} is not a number"
    try:
        value = float(text)
    except ValueError:
        return message
    if "_" in text or not text.isascii():
        return message
    if math.isfinite(value):
        return None
    if math.isnan(value):
        return message + ": NaN is not accepted; write a missing value as ?"
    if text.lstrip("+-")[:1].isalpha():
        return message + ": infinite values are not accepted; write a missing value as ?"
    return message + ": it overflows to infinity, and infinite values are not accepted"


def _parse_attribute(rest):
    name, rest = _split_name(rest)
    rest = rest.strip()
    if not rest or rest.startswith("%"):
        raise _LineError(f"bad @attribute: attribute {name!r} has no type")
    if rest.startswith("{"):
        tokens = _tokenize(rest)
        if _CLOSE not in tokens:
            raise _LineError(f"bad @attribute: nominal declaration of {name!r} has no closing brace")
        close = tokens.index(_CLOSE)
        labels, trailing = tokens[1:close], tokens[close + 1:]
        if trailing:
            raise _LineError(f"bad @attribute: unexpected text after the nominal declaration of {name!r}")
        if not labels:
            raise _LineError(f"bad @attribute: nominal attribute {name!r} declares no labels")
        labels = ["?" if t is _MISSING else t for t in labels]
        if any(t is _OPEN for t in labels):
            raise _LineError(f"bad @attribute: nested brace in the declaration of {name!r}")
        codes = {}
        for label in labels:
            if label in codes:
                raise _LineError(f"bad @attribute: {name!r} declares the label {label!r} twice")
            codes[label] = len(codes)
        return _Attribute(name, "nominal", tuple(labels), codes)
    words = rest.split(None, 1)
    kind = words[0].lower()
    if kind in _UNSUPPORTED_TYPES:
        raise _LineError(
            f"attribute {name!r} has type {words[0]!r}; only numeric and nominal "
            "attributes are supported"
        )
    if kind not in _NUMERIC_TYPES:
        raise _LineError(f"bad @attribute: unknown type {words[0]!r} for attribute {name!r}")
    tail = _strip_comment(words[1]) if len(words) > 1 else ""
    bounds = None
    if tail:
        # Weka's old syntax `integer [lo,hi]`: brackets close, parentheses open.
        m = _RANGE_RE.fullmatch(tail)
        if m is None:
            raise _LineError(f"bad @attribute: unexpected text {_shown(tail)} after the type of {name!r}")
        try:
            lo, hi = _parse_bound(m.group(2).strip()), _parse_bound(m.group(3).strip())
        except ValueError:
            raise _LineError(f"bad @attribute: range {_shown(tail)} of {name!r} is not numeric") from None
        bounds = (lo, hi, m.group(1) == "[", m.group(4) == "]")
    return _Attribute(name, "numeric", bounds=bounds)


# --- data ----------------------------------------------------------------------


def _sparse_row(tokens, n_columns):
    """The entries of a sparse row ``{i v, ...}`` as a dict ``{index: value string}``.

    The omitted entries are not expanded here (that is what made a 0.19 MB file of
    5000 x 5000 sparse rows take 800 MB): :func:`_columns` fills them in, one column
    at a time.
    """
    if tokens[-1] is not _CLOSE:
        raise _LineError("sparse row has no closing brace")
    inner = tokens[1:-1]
    if any(t is _OPEN or t is _CLOSE for t in inner):
        raise _LineError("instance weights and nested braces are not supported")
    if len(inner) % 2:
        raise _LineError("sparse row must hold `index value` pairs")
    row = {}
    last = -1
    for index_text, value in zip(inner[::2], inner[1::2]):
        try:
            index = int(index_text)
        except (TypeError, ValueError):
            raise _LineError(f"sparse index {index_text!r} is not an integer") from None
        if not last < index < n_columns:
            raise _LineError(
                f"sparse index {index} out of order or outside 0..{n_columns - 1}"
            )
        row[index] = value
        last = index
    return row


def _columns(rows, attributes):
    """The value strings of each attribute in turn, a sparse row's omitted entries filled in.

    Omitted entries are 0: numeric 0, or the first declared nominal label (Weka's rule).
    """
    if not any(isinstance(row, dict) for row in rows):
        yield from zip(*rows) if rows else [()] * len(attributes)
        return
    for j, attribute in enumerate(attributes):
        omitted = "0" if attribute.kind == "numeric" else attribute.values[0]
        yield [row.get(j, omitted) if isinstance(row, dict) else row[j] for row in rows]


def _column(values, linenos, attribute, source):
    """Convert one column of value strings (None = missing) to floats."""
    out = np.empty(len(values), dtype=float)
    if attribute.kind == "nominal":
        codes = attribute.codes
        for i, v in enumerate(values):
            if v is _MISSING:
                out[i] = np.nan
            elif v in codes:
                out[i] = codes[v]
            else:
                shown = ", ".join(attribute.values[:10]) + (", ..." if len(attribute.values) > 10 else "")
                raise ArffError(
                    source,
                    linenos[i],
                    f"unknown nominal value {v!r} for attribute {attribute.name!r}; declared: {{{shown}}}",
                )
        return out
    n_missing = 0
    for i, v in enumerate(values):
        if v is _MISSING:
            out[i] = np.nan
            n_missing += 1
            continue
        try:
            out[i] = float(v)
        except ValueError:
            raise ArffError(source, linenos[i], _number_problem(v, attribute)) from None
    # What float() accepts and ARFF does not -- NaN and infinities (module
    # docstring), `1_000`, non-ASCII digits -- is caught by whole-column tests,
    # cheaper than one test per value; only a failing column is searched for the line.
    present = [v for v in values if v is not _MISSING] if n_missing else values
    joined = "".join(present)
    if np.count_nonzero(~np.isfinite(out)) != n_missing or "_" in joined or not joined.isascii():
        i = next(i for i, v in enumerate(values) if v is not _MISSING and _number_problem(v, attribute))
        raise ArffError(source, linenos[i], _number_problem(values[i], attribute))
    if attribute.bounds is not None:
        lo, hi, lo_closed, hi_closed = attribute.bounds
        with np.errstate(invalid="ignore"):
            bad = ((out < lo) | (out > hi) | ((out == lo) & (not lo_closed)) | ((out == hi) & (not hi_closed)))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise ArffError(
                source,
                linenos[i],
                f"value {values[i]!r} of attribute {attribute.name!r} is outside its declared range",
            )
    return out


def _class_index(class_attribute, attributes, source):
    names = [a.name for a in attributes]
    if class_attribute is None:
        return len(attributes) - 1
    if isinstance(class_attribute, str):
        if class_attribute not in names:
            raise ValueError(
                f"`class_attribute` must name an attribute of {source}; got {class_attribute!r}."
            )
        return names.index(class_attribute)
    if isinstance(class_attribute, bool) or not isinstance(class_attribute, (int, np.integer)) or not (
        -len(names) <= class_attribute < len(names)
    ):
        raise ValueError(
            f"`class_attribute` must be an attribute name or an index in "
            f"[-{len(names)}, {len(names) - 1}]; got {class_attribute!r}."
        )
    return int(class_attribute) % len(names)


def _shown(line):
    """A header line as quoted in an error message, cut to 40 characters."""
    return repr(line if len(line) <= 40 else line[:37] + "...")


def _not_a_header_line(line, relation, attributes):
    """The message for a line in the header that starts with no ``@`` keyword."""
    if relation is None:
        return (
            "expected a header line: an ARFF file starts with '@relation <name>' (after comments "
            f"and blank lines); found {_shown(line)}"
        )
    if not attributes:
        return f"no @attribute declarations: expected '@attribute <name> <type>'; found {_shown(line)}"
    return (
        f"no @data section: expected '@attribute' or '@data'; found {_shown(line)}. A '@data' line "
        "must separate the @attribute declarations from the data rows"
    )


def _no_data_line(relation, attributes, text):
    """The message for a text that ends before its ``@data`` line."""
    if relation is None:
        what = "is empty" if not text.strip() else "holds only comments and blank lines"
        return f"@relation missing: the file {what} (no @relation, @attribute or @data line)"
    if not attributes:
        return "no @attribute declarations and no @data section: the file ends after @relation (truncated?)"
    return "no @data section: the file ends after the @attribute declarations (truncated, or not an ARFF file)"


def parse_arff(text, *, source="<string>", name=None, class_attribute=None, allow_empty=False):
    """Parse the text of an ARFF file into a :class:`Dataset`.

    Parameters
    ----------
    text : str
        The whole file. A leading byte-order mark (U+FEFF) is skipped.
    source : str, optional
        Label used in error messages (the file name).
    name : str, optional
        The data set's identifier; defaults to the relation name.
    class_attribute : str or int, optional
        Name or index of the class attribute; the last attribute by default. It
        must be nominal.
    allow_empty : bool, default False
        Whether a ``@data`` section without rows is accepted (a data set of 0
        instances). By default it is an error, since it is also what a file cut
        off right after ``@data`` looks like.

    Returns
    -------
    Dataset

    Raises
    ------
    ArffError
        On malformed input, with file and line: ``@relation missing``, ``no
        @attribute declarations``, ``no @data section``, ``no data rows after
        @data`` (unless ``allow_empty``), a misplaced header line, a bad
        ``@attribute``, an unknown nominal value, a value of a numeric attribute
        that is not a finite number, a value outside a declared range, or a row
        with the wrong number of values (which is also what a file cut inside a
        row produces).
    ValueError
        When ``class_attribute`` names no attribute or is numeric.

    Notes
    -----
    Nominal attributes are returned as float codes in ``X`` (NaN = missing),
    so that learners receive one numeric matrix; ``attribute_types`` and
    ``nominal_values`` say how to read each column. A missing class is coded
    -1 in ``y``. Values are split on commas and blanks as by Weka's
    ``ArffLoader``, so ``1 2`` is two values: quote values that contain a blank
    or a comma. Unlike Weka, which skips them, empty fields (``1,,2``, or a
    comma at the start or end of a row) are rejected.

    A value of a numeric attribute is a decimal number as Python's ``float``
    reads it (``1``, ``-2.5``, ``3e-4``), without ``_`` or non-ASCII digits,
    and finite: the only missing-value marker is ``?``. ``NaN``, ``nan``,
    ``inf``, ``-inf``, ``Infinity`` (any case) and numbers beyond the range of
    a double (``1e999``) are rejected with an error that says so. Weka 3.6.14
    reads ``NaN`` as a missing value and ``Infinity``, ``-Infinity`` and
    ``1e999`` as infinities, and rejects ``nan``, ``inf`` and ``INF`` ("number
    expected"): every numeric value accepted here is one Weka reads the same.

    References
    ----------
    .. [1] Weka documentation, "ARFF (stable version)".
       https://waikato.github.io/weka-wiki/formats_and_processing/arff_stable/

    Examples
    --------
    >>> text = '''% a comment
    ... @relation toy
    ... @attribute 'width cm' numeric
    ... @attribute colour {red, 'dark blue'}
    ... @attribute class {yes, no}
    ... @data
    ... 1.5, 'dark blue', yes
    ... ?, red, no
    ... '''
    >>> ds = parse_arff(text)
    >>> ds.attribute_names, ds.class_values
    (('width cm', 'colour'), ('yes', 'no'))
    >>> ds.X.tolist(), ds.y.tolist()
    ([[1.5, 1.0], [nan, 0.0]], [0, 1])

    A header without data rows is an error unless it is asked for:

    >>> header = "@relation toy\\n@attribute a numeric\\n@attribute c {p, n}\\n@data\\n"
    >>> parse_arff(header)
    Traceback (most recent call last):
    ...
    replicability.sources.arff.ArffError: <string>, line 4: no data rows after @data: ...
    >>> parse_arff(header, allow_empty=True).X.shape
    (0, 1)
    """
    check_bool(allow_empty, "allow_empty")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    relation = None
    attributes, names = [], set()
    data_start = None
    for lineno, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if not line.startswith("@"):
            raise ArffError(source, lineno, _not_a_header_line(line, relation, attributes))
        keyword = re.split(r"[\s%]", line, maxsplit=1)[0].lower()
        rest = line[len(keyword):]
        try:
            if keyword == "@relation":
                if relation is not None:
                    raise _LineError("second @relation")
                relation, _ = _split_name(rest)
            elif keyword in ("@attribute", "@data") and relation is None:
                raise _LineError(f"@relation missing: the header must start with '@relation <name>', not {keyword}")
            elif keyword == "@attribute":
                attribute = _parse_attribute(rest)
                if attribute.name in names:  # a set: a list made 40,000 declarations take a minute
                    raise _LineError(f"bad @attribute: attribute {attribute.name!r} declared twice")
                attributes.append(attribute)
                names.add(attribute.name)
            elif keyword == "@data":
                if not attributes:
                    raise _LineError("no @attribute declarations before @data")
                if _strip_comment(rest):
                    raise _LineError("unexpected text after @data")
                data_start = lineno
                break
            else:
                last = not any(later.strip() for later in lines[lineno:])
                raise _LineError(
                    f"unknown header keyword {keyword!r}" + (" (the file ends here: truncated?)" if last else "")
                )
        except _LineError as exc:
            raise ArffError(source, lineno, str(exc)) from None
    if data_start is None:
        raise ArffError(source, len(lines), _no_data_line(relation, attributes, text))

    n_columns = len(attributes)
    rows, linenos = [], []
    first_sparse = None
    for lineno in range(data_start + 1, len(lines) + 1):
        line = lines[lineno - 1].strip()
        if not line or line.startswith("%"):
            continue
        if line.startswith("@"):
            raise ArffError(source, lineno, f"header keyword {line.split()[0]!r} inside the @data section")
        try:
            tokens = _tokenize(line)
            if tokens and tokens[0] is _OPEN:
                rows.append(_sparse_row(tokens, n_columns))
                linenos.append(lineno)
                first_sparse = lineno if first_sparse is None else first_sparse
                continue
            if any(t is _OPEN or t is _CLOSE for t in tokens):
                raise _LineError("braces in a dense row (instance weights are not supported)")
        except _LineError as exc:
            raise ArffError(source, lineno, str(exc)) from None
        if not tokens:
            continue  # a line holding only a trailing comment
        if len(tokens) != n_columns:
            raise ArffError(source, lineno, f"expected {n_columns} values, found {len(tokens)}")
        rows.append(tokens)
        linenos.append(lineno)
    if not rows and not allow_empty:
        raise ArffError(
            source,
            data_start,
            "no data rows after @data: the file holds a header only, or was cut off after @data; "
            "pass allow_empty=True to read it as a data set of 0 instances",
        )

    if first_sparse is not None and len(rows) * n_columns > MAX_SPARSE_CELLS:
        raise ArffError(
            source, first_sparse,
            f"sparse data of {len(rows)} rows x {n_columns} attributes would fill "
            f"{len(rows) * n_columns:,} cells, more than the {MAX_SPARSE_CELLS:,} (80 MB) this reader "
            "expands sparse rows to; the data sets it returns are dense arrays",
        )
    class_index = _class_index(class_attribute, attributes, source)
    class_attr = attributes[class_index]
    if class_attr.kind != "nominal":
        raise ValueError(
            f"`class_attribute` must be nominal; {class_attr.name!r} in {source} is numeric."
        )
    features = attributes[:class_index] + attributes[class_index + 1:]
    X = np.empty((len(rows), len(features)))
    for j, (column, attribute) in enumerate(zip(_columns(rows, attributes), attributes)):
        values = _column(column, linenos, attribute, source)
        if j == class_index:
            y_float = values
        else:
            X[:, j - (j > class_index)] = values
    y = np.where(np.isnan(y_float), -1, y_float).astype(np.int64)
    X.setflags(write=False)
    y.setflags(write=False)
    return Dataset(
        name=relation if name is None else name,
        relation=relation,
        X=X,
        y=y,
        attribute_names=tuple(a.name for a in features),
        attribute_types=tuple(a.kind for a in features),
        nominal_values=tuple(a.values for a in features),
        class_name=class_attr.name,
        class_values=class_attr.values,
    )


def load_arff(path, *, class_attribute=None, allow_empty=False):
    """Read an ARFF file into a :class:`Dataset`.

    The file must be UTF-8 (ASCII is UTF-8); a UTF-8 byte-order mark is skipped
    and CRLF or CR line ends are accepted. A UTF-16 file (either byte order,
    with or without a byte-order mark), NUL bytes, or bytes that are not UTF-8
    are errors that say how to convert the file.

    Parameters
    ----------
    path : str or path-like
        The file.
    class_attribute : str or int, optional
        Name or index of the class attribute; the last attribute by default.
    allow_empty : bool, default False
        Whether a file with a header and no data rows is read (as 0 instances)
        rather than rejected as truncated; see :func:`parse_arff`.

    Returns
    -------
    Dataset
        ``name`` is the file stem.

    Raises
    ------
    ArffError
        On malformed input or an encoding other than UTF-8; the message names
        the file and line.
    FileNotFoundError
        If ``path`` does not exist.
    ValueError
        If ``path`` is a folder, a named pipe or a device rather than a file
        (checked before reading, which would block on a pipe).

    See Also
    --------
    parse_arff : the format accepted, and the meaning of each field.
    replicability.sources.uci.load_uci : the UCI files of the papers, checksum-verified.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "toy.arff"
    ...     _ = path.write_text(
    ...         "@relation toy\\n@attribute a real\\n@attribute c {x,y}\\n@data\\n1,x\\n2,y\\n")
    ...     ds = load_arff(path)
    >>> ds.name, ds.n_instances, ds.n_attributes, ds.y.tolist()
    ('toy', 2, 1, [0, 1])
    """
    path = Path(path)
    problem = not_a_regular_file(path)
    if problem is not None:  # read_bytes would block on a named pipe, or say "Is a directory"
        error = FileNotFoundError if problem == "does not exist" else ValueError
        raise error(f"ARFF file {path} {problem}")
    return _parse_bytes(
        path.read_bytes(), source=str(path), name=path.stem, class_attribute=class_attribute, allow_empty=allow_empty
    )


_CONVERT = "convert it with `iconv -f {0} -t UTF-8 in.arff > out.arff` (or save it as UTF-8 in an editor)"
_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32", "LE"), (b"\x00\x00\xfe\xff", "UTF-32", "BE"),
         (b"\xff\xfe", "UTF-16", "LE"), (b"\xfe\xff", "UTF-16", "BE"))


def _line_of(raw, offset):
    """1-based line of byte ``offset`` (LF, CRLF or CR ends, counted as parse_arff does) and its byte in it."""
    before = raw[:offset].replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return before.count(b"\n") + 1, len(before) - before.rfind(b"\n")


def _decode(raw, source):
    """The text of an ARFF file: UTF-8, with or without a byte-order mark; else an ArffError."""
    for bom, encoding, order in _BOMS:
        if raw.startswith(bom):
            raise ArffError(
                source, 1, f"the file is {encoding} text ({order}, with a byte-order mark), not UTF-8: "
                + _CONVERT.format(encoding),
            )
    if b"\x00" in raw:
        # Without a byte-order mark, UTF-16 shows as ASCII characters (ARFF
        # keywords, digits) each with a NUL byte after (LE) or before (BE) it.
        head = raw[:4096]
        even, odd = head[0::2].count(0), head[1::2].count(0)
        if max(even, odd) > len(head) // 4 and min(even, odd) <= max(even, odd) // 10:
            order = "LE" if odd > even else "BE"
            raise ArffError(
                source, 1, f"the file is UTF-16 text ({order}, without a byte-order mark), not UTF-8: "
                + _CONVERT.format("UTF-16" + order),
            )
        lineno, byte = _line_of(raw, raw.index(b"\x00"))
        raise ArffError(
            source, lineno, f"NUL byte (byte {byte} of the line): a binary file, or text in an encoding "
            "other than UTF-8; " + _CONVERT.format("<its encoding>"),
        )
    try:
        return raw.decode("utf-8-sig")  # skips a UTF-8 byte-order mark
    except UnicodeDecodeError as exc:
        lineno, byte = _line_of(raw, exc.start)
        raise ArffError(
            source, lineno, f"byte 0x{raw[exc.start]:02X} (byte {byte} of the line) is not UTF-8, and the file "
            "must be UTF-8 or ASCII; if it is Latin-1, " + _CONVERT.format("LATIN1"),
        ) from None


def _parse_bytes(raw, *, source, name, class_attribute=None, allow_empty=False):
    text = _decode(raw, source).replace("\r\n", "\n").replace("\r", "\n")
    return parse_arff(text, source=source, name=name, class_attribute=class_attribute, allow_empty=allow_empty)
