"""Fetch the 27 UCI ARFF files from the sources the manifest names, verified byte for byte.

``replicability data fetch-uci DEST`` (and :func:`fetch_uci`) puts into ``DEST`` exactly
the files :func:`replicability.sources.uci.load_uci` reads: each one is downloaded from the
``source`` column of the package's manifest (``uci_manifest.csv``) and written only if its
SHA-256 is the manifest's. Two kinds of source:

* ``owner/repo@commit:path``: a file of a public GitHub repository at a fixed commit
  (18 files), fetched from GitHub's raw-file host;
* ``debian weka 3.6.14 examples``: a file of the folder ``usr/share/doc/weka/examples/``
  inside Debian's package ``weka_3.6.14-3_all.deb`` (9 files), whose own SHA-256 is
  checked before anything is extracted from it (an ``ar`` archive holding a ``data.tar``).

Files already in ``DEST`` with the right checksum are kept and not downloaded again; a
file there with another checksum is left alone and reported (the user's file is never
overwritten). Files are written atomically: an interrupted fetch leaves no partial file.
Unlike :func:`replicability.sources.uci.download_uci` (OpenML's versions, of which two, colic
and vowel, cannot be verified against the manifest), these are the compendium's files.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

from .._validation import command_error
from .uci import list_uci

__all__ = ["GITHUB_RAW_URL", "WEKA_DEB", "WEKA_DEB_SHA256", "WEKA_DEB_URL", "deb_files", "fetch_uci", "source_url"]

#: Where a file of a GitHub repository at a commit is fetched from.
GITHUB_RAW_URL = "https://raw.githubusercontent.com"
#: Debian's Weka 3.6.14 package, which ships nine of the files among its examples.
WEKA_DEB = "weka_3.6.14-3_all.deb"
WEKA_DEB_URL = f"https://deb.debian.org/debian/pool/main/w/weka/{WEKA_DEB}"
WEKA_DEB_SHA256 = "58ea5ec3b42ca9719be5756d1bd64ebed0e69d16d6fffa200b3cebf4ccccab16"
_DEB_SOURCE = "debian weka 3.6.14 examples"
_DEB_FOLDER = "usr/share/doc/weka/examples/"
_GITHUB_SOURCE = re.compile(r"^(?P<repo>[\w.-]+/[\w.-]+)@(?P<commit>[0-9a-f]{40}):(?P<path>\S+)$")


def source_url(source):
    """The address a manifest ``source`` is downloaded from.

    Examples
    --------
    >>> source_url("Hyarcher/Weka@56dbbc858b2d9465c34326bfda537778cdd26cfe:ecoli.arff")
    'https://raw.githubusercontent.com/Hyarcher/Weka/56dbbc858b2d9465c34326bfda537778cdd26cfe/ecoli.arff'
    >>> source_url("debian weka 3.6.14 examples") == WEKA_DEB_URL
    True
    """
    if source == _DEB_SOURCE:
        return WEKA_DEB_URL
    match = _GITHUB_SOURCE.match(source)
    if match is None:
        raise ValueError(f"`source` must be 'owner/repo@<40 hex commit>:path' or {_DEB_SOURCE!r}; got {source!r}")
    return f"{GITHUB_RAW_URL}/{match['repo']}/{match['commit']}/{match['path']}"


def _ar_members(raw):
    """The members of an ``ar`` archive (a .deb): name -> bytes."""
    if not raw.startswith(b"!<arch>\n"):
        raise ValueError("not a Debian package: no ar archive signature")
    members, offset = {}, 8
    while offset + 60 <= len(raw):
        header = raw[offset:offset + 60]
        name = header[:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        members[name] = raw[offset + 60:offset + 60 + size]
        offset += 60 + size + size % 2  # members are aligned on even offsets
    return members


def deb_files(raw, names, *, folder=_DEB_FOLDER):
    """The files ``names`` of ``folder`` inside the Debian package ``raw`` (bytes): name -> bytes.

    Raises
    ------
    ValueError
        If ``raw`` is not a Debian package, or has no ``data.tar`` member.
    """
    data = next((body for name, body in _ar_members(raw).items() if name.startswith("data.tar")), None)
    if data is None:
        raise ValueError("the Debian package has no data.tar member")
    wanted = {f"{folder}{name}": name for name in names}
    found = {}
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as archive:
        for member in archive:
            path = member.name.removeprefix("./")
            if path in wanted and member.isfile():
                found[wanted[path]] = archive.extractfile(member).read()
    return found


def _download(url, timeout=60.0):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.read()
    except (urllib.error.URLError, OSError) as exc:
        raise ConnectionError(f"could not fetch {url}: {exc}") from exc


def _write_atomically(path, raw):
    handle, scratch = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(raw)
        os.replace(scratch, path)
    except BaseException:
        Path(scratch).unlink(missing_ok=True)
        raise


def _sha256(raw):
    return hashlib.sha256(raw).hexdigest()


def fetch_uci(dest, *, download=_download, deb_sha256=WEKA_DEB_SHA256, progress=None):
    """Put the 27 UCI ARFF files of the manifest into ``dest``, each verified by its SHA-256.

    Parameters
    ----------
    dest : str or path-like
        The folder (created if needed); point ``REPLICABILITY_UCI_DIR`` at it.
    download : callable, optional
        ``download(url) -> bytes``; the default fetches over HTTPS (tests pass local files).
    deb_sha256 : str
        Expected SHA-256 of Debian's ``weka_3.6.14-3_all.deb``.
    progress : callable, optional
        Called with one line per file (what was done with it).

    Returns
    -------
    dict
        ``{"written": [...], "kept": [...], "differs": [...]}``: file names written,
        already present with the right checksum, and present with another checksum
        (left untouched).

    Raises
    ------
    ValueError
        If a downloaded file, or the Debian package, does not have the manifest's
        SHA-256 (nothing of it is written), or the package lacks a file.
    ConnectionError
        If a download fails; the files written before stay (they are verified).
    """
    dest = Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    report = progress or (lambda line: None)
    done = {"written": [], "kept": [], "differs": []}
    todo = []
    for row in list_uci().to_dict("records"):
        path = dest / row["file"]
        if path.is_file():
            state = "kept" if _sha256(path.read_bytes()) == row["sha256"] else "differs"
            done[state].append(row["file"])
            report(f"{row['file']}: " + ("already there, checksum verified" if state == "kept" else
                                         "present with another SHA-256; left untouched (remove it to fetch it)"))
        else:
            todo.append(row)
    debian = [row for row in todo if row["source"] == _DEB_SOURCE]
    files = {}
    if debian:
        package = download(WEKA_DEB_URL)
        if _sha256(package) != deb_sha256:
            raise ValueError(f"{WEKA_DEB} from {WEKA_DEB_URL}: SHA-256 {_sha256(package)}, expected {deb_sha256}")
        files = deb_files(package, [row["file"] for row in debian])
    for row in todo:
        if row["source"] == _DEB_SOURCE:
            if row["file"] not in files:
                raise ValueError(f"{WEKA_DEB} has no {_DEB_FOLDER}{row['file']}")
            raw, origin = files[row["file"]], f"{WEKA_DEB}:{_DEB_FOLDER}{row['file']}"
        else:
            origin = source_url(row["source"])
            raw = download(origin)
        if _sha256(raw) != row["sha256"]:
            raise ValueError(f"{row['file']} from {origin}: SHA-256 {_sha256(raw)}, expected {row['sha256']}; "
                             f"not written")
        _write_atomically(dest / row["file"], raw)
        done["written"].append(row["file"])
        report(f"{row['file']}: written from {origin}, checksum verified")
    return done


def fetch_uci_command(args):
    """Carry out ``replicability data fetch-uci [DEST]``; return the exit code.

    ``DEST`` defaults to ``REPLICABILITY_UCI_DIR``. Errors are one line on standard
    error: exit code 2 for a missing or unusable ``DEST``, 1 for a failed download or a
    checksum mismatch; 1 also when a file present in ``DEST`` has another checksum.
    """
    dest = args.dest or os.environ.get("REPLICABILITY_UCI_DIR")
    if not dest:
        return command_error("give the folder to fetch into (DEST), or set REPLICABILITY_UCI_DIR", "data fetch-uci")
    dest = Path(dest)
    if dest.exists() and not dest.is_dir():
        return command_error(f"{dest} exists and is not a folder", "data fetch-uci")
    try:
        done = fetch_uci(dest, progress=print)
    except (ValueError, ConnectionError, OSError) as exc:
        print(f"replicability data fetch-uci: error: {exc}", file=sys.stderr)
        return 1
    print(f"{len(done['written'])} files written, {len(done['kept'])} already there, into {dest}"
          + (f"; {len(done['differs'])} differ from the manifest: {', '.join(done['differs'])}"
             if done["differs"] else "") + f"; set REPLICABILITY_UCI_DIR={dest} to use them")
    return 1 if done["differs"] else 0
