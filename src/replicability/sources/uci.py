"""The 27 UCI data sets of the papers, in Weka's ARFF form, verified by checksum.

Bouckaert & Frank (2004, Table 1) and Bouckaert (2004, Table 2) run their
experiments on 27 UCI data sets as distributed with Weka. The compendium never
ships those files: ``uci_manifest.csv`` (package data) records, for each, the file name, its
SHA-256, a checksum of its parsed content and its properties (instances,
attributes, classes, missing values), next to the paper's figures and the id of
the same data set on OpenML. The files themselves come from

* a folder the user names (``directory=`` or the environment variable
  ``REPLICABILITY_UCI_DIR``), read by :func:`load_uci` only after the file's
  SHA-256 matches the manifest; or
* OpenML, through :func:`download_uci`, for users with network access.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import urllib.error
import urllib.request
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

from .._validation import check_positive, not_a_regular_file
from .arff import ArffError, _parse_bytes

__all__ = ["OPENML_URL", "ChecksumError", "download_uci", "list_uci", "load_uci"]

#: Base address of the OpenML REST API used by :func:`download_uci`.
OPENML_URL = "https://api.openml.org"

_ENV_DIR = "REPLICABILITY_UCI_DIR"
_MANIFEST = "uci_manifest.csv"
_MISSING_CELL = "\x00"  # cannot occur in an ARFF value, unlike a quoted '?'


class ChecksumError(ValueError):
    """A data file whose bytes or content differ from the manifest's record."""


# --- manifest ------------------------------------------------------------------


def _manifest_path():
    """The manifest shipped with the package (``replicability/sources/uci_manifest.csv``)."""
    return resources.files(__package__) / _MANIFEST


def list_uci():
    """Return the manifest of the 27 UCI data sets as a DataFrame.

    Returns
    -------
    pandas.DataFrame
        One row per data set. Columns: ``dataset`` (the key :func:`load_uci`
        takes: the file stem), ``paper_name``, ``file``, ``sha256`` (of the
        file's bytes), ``content_sha256`` (of its parsed values, see
        :func:`download_uci`), ``relation``, ``class_attribute``, the figures
        recomputed from the file (``instances``, ``attributes`` without the
        class, ``declared_classes``, ``observed_classes``, ``missing_values``),
        the paper's figures (``paper_instances``, ``paper_attributes``,
        ``paper_classes``), ``openml_id``, ``openml_confirmed`` (False where
        OpenML's feature count differs from the file), ``source`` and ``notes``.

    References
    ----------
    .. [1] Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of
       significance tests for comparing learning algorithms. PAKDD 2004, LNCS
       3056, 3-12. https://doi.org/10.1007/978-3-540-24775-3_3

    Examples
    --------
    >>> manifest = list_uci()
    >>> len(manifest), int(manifest["instances"].sum())
    (27, 11794)
    >>> manifest.set_index("dataset").loc["iris", ["instances", "attributes", "observed_classes"]].tolist()
    [150, 4, 3]
    """
    return pd.read_csv(_manifest_path(), keep_default_na=False, dtype={"openml_confirmed": bool})


def _manifest_row(name):
    manifest = list_uci()
    if isinstance(name, str):
        key = name.strip().lower()
        for column in ("dataset", "file", "paper_name"):
            hits = manifest[manifest[column].str.lower() == key]
            if len(hits):
                return hits.iloc[0]
    keys = manifest["dataset"].tolist()
    close = difflib.get_close_matches(str(name), keys, n=3)
    hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
    raise ValueError(
        f"`name` must be one of the 27 UCI data sets of list_uci() (a `dataset`, `file` or "
        f"`paper_name` entry); got {name!r}.{hint}"
    )


def _sha256(raw):
    return hashlib.sha256(raw).hexdigest()


def _content_sha256(dataset):
    """SHA-256 of a data set's values, independent of how the file writes them.

    Each cell becomes a string: ``repr`` of the float for numeric attributes,
    the label for nominal ones (class included), NUL for a missing value; cells
    are joined by U+001F and rows by U+001E. Names, declarations, comments,
    quoting, blanks and number formatting (``1`` vs ``1.0``) do not enter, so two
    files holding the same table in different layouts share this checksum.
    """
    columns = []
    for j, kind in enumerate(dataset.attribute_types):
        col = dataset.X[:, j]
        if kind == "nominal":
            labels = np.array(dataset.nominal_values[j] + (_MISSING_CELL,), dtype=object)
            codes = np.where(np.isnan(col), -1, col).astype(np.int64)
            columns.append(labels[codes])
        else:
            columns.append(np.array([_MISSING_CELL if np.isnan(v) else repr(float(v)) for v in col], dtype=object))
    class_labels = np.array(dataset.class_values + (_MISSING_CELL,), dtype=object)
    columns.append(class_labels[dataset.y])
    rows = ("\x1f".join(cells) for cells in zip(*columns))
    return _sha256("\x1e".join(rows).encode("utf-8"))


# --- local files ---------------------------------------------------------------


def _what_to_do(name):
    return (
        f"Set the environment variable {_ENV_DIR} (or pass `directory=`) to a folder "
        "holding the 27 Weka ARFF files listed by list_uci(), or, with network access, "
        f"call download_uci({name!r}, cache_dir=...) to fetch the data set from OpenML."
    )


def load_uci(name, *, directory=None):
    """Load one of the 27 UCI data sets after checking its SHA-256.

    Parameters
    ----------
    name : str
        The data set: its key in :func:`list_uci` (``"iris"``, ``"credit-g"``),
        its file name (``"credit-g.arff"``) or the paper's name (``"German
        credit"``); case-insensitive.
    directory : str or path-like, optional
        Folder holding the ARFF files. Defaults to the environment variable
        ``REPLICABILITY_UCI_DIR``.

    Returns
    -------
    Dataset
        ``name`` is the manifest key; the class is the last attribute.

    Raises
    ------
    FileNotFoundError
        When no folder is given or the file is not in it; the message says what
        to do (set ``REPLICABILITY_UCI_DIR``, or call :func:`download_uci`).
    ChecksumError
        When the file's SHA-256 differs from the manifest's: the message names
        the file and both checksums, and the file is not parsed.
    ArffError
        When the file, despite a matching checksum, does not parse (cannot
        happen with the manifest's files).

    Notes
    -----
    The check is on the bytes, so a copy with other line ends or another
    comment header is refused even when its values are the same: the paper's
    results are tied to one version of each file, and the manifest records
    which.

    References
    ----------
    .. [1] Bouckaert, R. R. & Frank, E. (2004). Evaluating the replicability of
       significance tests for comparing learning algorithms. PAKDD 2004, LNCS
       3056, 3-12. https://doi.org/10.1007/978-3-540-24775-3_3
    .. [2] Dua, D. & Graff, C. (2019). UCI Machine Learning Repository.
       University of California, Irvine. https://archive.ics.uci.edu

    Examples
    --------
    >>> import os
    >>> folder = os.environ.get("REPLICABILITY_UCI_DIR", "../shared/data/uci")  # the Weka files
    >>> ds = load_uci("iris", directory=folder)
    >>> ds.X.shape, ds.class_values
    ((150, 4), ('Iris-setosa', 'Iris-versicolor', 'Iris-virginica'))
    >>> ds.attribute_types[0], round(float(ds.X[:, 0].mean()), 4)
    ('numeric', 5.8433)
    """
    row = _manifest_row(name)
    if directory is None:
        directory = os.environ.get(_ENV_DIR)
        if not directory:
            raise FileNotFoundError(
                f"No folder for the UCI data set {row['dataset']!r}: {_ENV_DIR} is not set. "
                + _what_to_do(row["dataset"])
            )
    path = Path(directory) / row["file"]
    problem = not_a_regular_file(path)
    if problem is not None:
        raise FileNotFoundError(f"{path} {problem}. " + _what_to_do(row["dataset"]))
    raw = path.read_bytes()
    actual = _sha256(raw)
    if actual != row["sha256"]:
        raise ChecksumError(
            f"{path}: SHA-256 mismatch; expected {row['sha256']}, got {actual}. This is not the "
            "file the compendium uses (changed line ends, header or data?); refusing to read it. "
            "Restore the original file (see the `source` column of list_uci())."
        )
    return _parse_bytes(raw, source=str(path), name=row["dataset"])


# --- OpenML --------------------------------------------------------------------


def _fetch(url, timeout):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.read()
    except (urllib.error.URLError, OSError) as exc:
        raise ConnectionError(f"could not fetch {url}: {exc}") from exc


def _verify(raw, row, origin):
    """Parse downloaded bytes and check them against the manifest; return the Dataset."""
    if _sha256(raw) == row["sha256"]:
        return _parse_bytes(raw, source=origin, name=row["dataset"])
    try:
        dataset = _parse_bytes(raw, source=origin, name=row["dataset"])
    except ArffError as exc:
        raise ChecksumError(f"{origin} is not a readable ARFF file: {exc}") from exc
    actual = _content_sha256(dataset)
    if actual != row["content_sha256"]:
        raise ChecksumError(
            f"{origin} does not hold the same data as the paper's file {row['file']}: content "
            f"checksum expected {row['content_sha256']}, got {actual} ({dataset.n_instances} "
            f"instances, {dataset.n_attributes} attributes; the manifest has {row['instances']} "
            f"and {row['attributes']}). Use the Weka file with load_uci() instead."
        )
    return dataset


def download_uci(name, *, cache_dir, openml_url=OPENML_URL, timeout=60.0):
    """Fetch one of the 27 UCI data sets from OpenML, verify it, and cache it.

    Parameters
    ----------
    name : str
        As for :func:`load_uci`.
    cache_dir : str or path-like
        Folder for downloaded files (created if needed). The file is stored as
        ``<cache_dir>/openml/<openml_id>/<file>`` and read from there on later
        calls, verified again each time. There is no default: the cache lives
        where the caller says.
    openml_url : str, optional
        Base address of the OpenML API; the data set's description is read from
        ``<openml_url>/api/v1/json/data/<openml_id>`` and the file from the
        ``url`` it gives.
    timeout : float, optional
        Seconds to wait for each request.

    Returns
    -------
    Dataset

    Raises
    ------
    ConnectionError
        Without network access (or when OpenML does not answer); the message
        says what to do instead.
    ChecksumError
        When the bytes differ from OpenML's published MD5, or the data differ
        from the paper's file (see Notes). Nothing is cached then.

    Notes
    -----
    OpenML stores the data set under the manifest's ``openml_id`` but is not
    guaranteed to serve Weka's file byte for byte (its copies may differ in
    comments, quoting, line ends or number formatting). Two checks are made:

    1. transfer: the MD5 of the bytes received must equal the ``md5_checksum``
       of OpenML's data set description;
    2. identity: if the bytes' SHA-256 equals the manifest's, the file is Weka's;
       otherwise it is parsed and the SHA-256 of its *values*
       (``content_sha256`` in :func:`list_uci`: every cell in order, numbers
       compared as floats, nominal values as labels, missing cells marked;
       attribute names, comments and layout ignored) must equal the manifest's.

    So a file is used only if it holds exactly the paper's table. For colic
    (OpenML 25) and vowel (OpenML 307), whose OpenML feature counts differ from
    the Weka files (``openml_confirmed`` is False), the second check is expected
    to fail; use :func:`load_uci` with the Weka files for them.

    References
    ----------
    .. [1] Vanschoren, J., van Rijn, J. N., Bischl, B. & Torgo, L. (2014).
       OpenML: networked science in machine learning. SIGKDD Explorations
       15(2), 49-60. https://doi.org/10.1145/2641190.2641198

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as cache:
    ...     try:  # nothing answers on this port: the error says what to do instead
    ...         download_uci("iris", cache_dir=cache, openml_url="http://127.0.0.1:9")
    ...     except ConnectionError as exc:
    ...         print(str(exc).split(":")[0])
    OpenML is not reachable
    """
    row = _manifest_row(name)
    timeout = check_positive(timeout, "timeout")
    openml_id = int(row["openml_id"])
    path = Path(cache_dir) / "openml" / str(openml_id) / row["file"]
    if path.is_file():
        return _verify(path.read_bytes(), row, str(path))

    description_url = f"{openml_url.rstrip('/')}/api/v1/json/data/{openml_id}"
    try:
        description = json.loads(_fetch(description_url, timeout))["data_set_description"]
        file_url = description["url"]
        if not str(file_url).startswith(("http://", "https://")):
            raise ValueError(f"the file address {file_url!r} is not http(s)")
        raw = _fetch(file_url, timeout)
    except ConnectionError as exc:
        raise ConnectionError(
            f"OpenML is not reachable: {exc}. Without network access, set {_ENV_DIR} (or pass "
            f"`directory=` to load_uci) to a folder holding the 27 Weka ARFF files listed by "
            "list_uci()."
        ) from exc.__cause__
    except (KeyError, TypeError, ValueError) as exc:
        raise ConnectionError(
            f"OpenML's description of data set {openml_id} ({description_url}) is not what was "
            f"expected (no http(s) `data_set_description.url`): {exc!r}."
        ) from exc
    expected_md5 = description.get("md5_checksum")
    if expected_md5 and hashlib.md5(raw).hexdigest() != expected_md5:
        raise ChecksumError(
            f"{file_url}: MD5 mismatch with OpenML's description; expected {expected_md5}, got "
            f"{hashlib.md5(raw).hexdigest()} (transfer error?). Nothing was cached; try again."
        )
    dataset = _verify(raw, row, file_url)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".part")
    partial.write_bytes(raw)
    os.replace(partial, path)  # atomic: an interrupted download never leaves a half file
    return dataset


# --- manifest derivation -------------------------------------------------------

_MANIFEST_COLUMNS = [
    "dataset", "paper_name", "file", "sha256", "content_sha256", "relation", "class_attribute",
    "instances", "attributes", "declared_classes", "observed_classes", "missing_values",
    "paper_instances", "paper_attributes", "paper_classes", "openml_id", "openml_confirmed",
    "source", "notes",
]


def _build_manifest(shared_manifest, directory):
    """Derive the package's ``uci_manifest.csv`` from the shared MANIFEST.csv and the files.

    Recomputes every property from the file (and fails on any disagreement
    with the shared manifest), adds ``content_sha256``, the relation and class
    names, and splits the shared ``openml_id`` (``"25?"``) into an integer and
    ``openml_confirmed``.
    """
    shared = pd.read_csv(shared_manifest, keep_default_na=False, dtype=str)
    records = []
    for _, row in shared.iterrows():
        raw = (Path(directory) / row["file"]).read_bytes()
        if _sha256(raw) != row["sha256"]:
            raise ChecksumError(f"{row['file']}: SHA-256 differs from {shared_manifest}.")
        ds = _parse_bytes(raw, source=row["file"], name=Path(row["file"]).stem)
        computed = {
            "instances": ds.n_instances,
            "attributes": ds.n_attributes,
            "declared_classes": ds.n_classes,
            "observed_classes": len(np.unique(ds.y[ds.y >= 0])),
            "missing_values": ds.n_missing,
        }
        for key, value in computed.items():
            if int(row[key]) != value:
                raise ValueError(f"{row['file']}: {key} is {value}, the shared manifest says {row[key]}.")
        records.append(
            {
                "dataset": ds.name,
                "paper_name": row["paper_name"],
                "file": row["file"],
                "sha256": row["sha256"],
                "content_sha256": _content_sha256(ds),
                "relation": ds.relation,
                "class_attribute": ds.class_name,
                **computed,
                "paper_instances": int(row["paper_instances"]),
                "paper_attributes": int(row["paper_attributes"]),
                "paper_classes": int(row["paper_classes"]),
                "openml_id": int(row["openml_id"].rstrip("?")),
                "openml_confirmed": not row["openml_id"].endswith("?"),
                "source": row["source"],
                "notes": row["notes"],
            }
        )
    return pd.DataFrame.from_records(records, columns=_MANIFEST_COLUMNS)
