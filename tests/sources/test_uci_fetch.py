"""Fetching the 27 UCI files from the manifest's sources (sources/uci_fetch.py), without the network.

Downloads are replaced by local files: the shared copies of the ARFF files stand for the
GitHub files, and a Debian package is built here with the same ``ar`` + ``data.tar.xz``
layout as Debian's (the real one is used too when apt's cache holds it).
"""

import hashlib
import io
import os
import tarfile
from pathlib import Path

import pandas as pd
import pytest

from replicability.cli import main
from replicability.sources.uci_fetch import WEKA_DEB_SHA256, WEKA_DEB_URL, deb_files, fetch_uci, source_url

ROOT = Path(__file__).resolve().parents[2]
UCI_DIR = Path(os.environ.get("REPLICABILITY_UCI_DIR") or ROOT.parent / "shared" / "data" / "uci")
MANIFEST = pd.read_csv(ROOT / "src" / "replicability" / "sources" / "uci_manifest.csv", keep_default_na=False)
DEBIAN = MANIFEST[MANIFEST["source"] == "debian weka 3.6.14 examples"]
REAL_DEB = Path("/var/cache/apt/archives/weka_3.6.14-3_all.deb")
FETCH = "replicability data fetch-uci DEST"


def _deb(files, folder="./usr/share/doc/weka/examples/"):
    """A Debian package (bytes): an ar archive with debian-binary, control.tar.xz and data.tar.xz."""
    data = io.BytesIO()
    with tarfile.open(fileobj=data, mode="w:xz") as archive:
        for name, raw in files.items():
            info = tarfile.TarInfo(folder + name)
            info.size = len(raw)
            archive.addfile(info, io.BytesIO(raw))
    members = [("debian-binary", b"2.0\n"), ("control.tar.xz", b"x"), ("data.tar.xz", data.getvalue())]
    out = b"!<arch>\n"
    for name, body in members:
        out += f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{'100644':<8}{len(body):<10}`\n".encode() + body
        out += b"\n" if len(body) % 2 else b""
    return out


@pytest.fixture(scope="module")
def uci_dir():
    if not all((UCI_DIR / f).is_file() for f in MANIFEST["file"]):
        pytest.skip(f"the 27 UCI files are not in {UCI_DIR}: get them with `{FETCH}` and set REPLICABILITY_UCI_DIR")
    return UCI_DIR


def _downloads(uci_dir, deb, calls):
    """A stand-in for the network: GitHub addresses answered from the shared copies, the package from ``deb``."""
    by_url = {source_url(s): uci_dir / f for s, f in zip(MANIFEST["source"], MANIFEST["file"])}

    def download(url):
        calls.append(url)
        return deb if url == WEKA_DEB_URL else by_url[url].read_bytes()
    return download


def test_sources_name_a_commit_of_a_github_repository_or_debian_s_weka_package():
    assert source_url("holder66/HamNN@69a61739b7120f7dc248d7199c520622eddcd77b:datasets/UCI/zoo.arff") == (
        "https://raw.githubusercontent.com/holder66/HamNN/69a61739b7120f7dc248d7199c520622eddcd77b/datasets/UCI/zoo.arff")
    assert all(source_url(s).startswith("https://") for s in MANIFEST["source"])
    assert (len(DEBIAN), len(MANIFEST)) == (9, 27)
    with pytest.raises(ValueError, match="`source` must be 'owner/repo@<40 hex commit>:path'"):
        source_url("holder66/HamNN@main:zoo.arff")


def test_files_are_extracted_from_the_data_tar_of_a_debian_package():
    deb = _deb({"a.arff": b"@relation a\n", "b.arff": b"odd length!"})
    assert deb_files(deb, ["a.arff", "b.arff", "c.arff"]) == {"a.arff": b"@relation a\n", "b.arff": b"odd length!"}
    with pytest.raises(ValueError, match="not a Debian package"):
        deb_files(b"PK\x03\x04", ["a.arff"])


def test_the_real_weka_package_holds_the_nine_files(uci_dir):
    if not REAL_DEB.is_file():
        pytest.skip(f"{REAL_DEB} is not in apt's cache (apt-get install --download-only weka puts it there)")
    raw = REAL_DEB.read_bytes()
    assert hashlib.sha256(raw).hexdigest() == WEKA_DEB_SHA256
    files = deb_files(raw, list(DEBIAN["file"]))
    assert {f: hashlib.sha256(b).hexdigest() for f, b in files.items()} == dict(zip(DEBIAN["file"], DEBIAN["sha256"]))


def test_fetch_writes_the_27_verified_files_then_downloads_nothing_again(uci_dir, tmp_path):
    deb = _deb({f: (uci_dir / f).read_bytes() for f in DEBIAN["file"]})
    calls = []
    done = fetch_uci(tmp_path / "uci", download=_downloads(uci_dir, deb, calls),
                     deb_sha256=hashlib.sha256(deb).hexdigest())
    assert sorted(done["written"]) == sorted(MANIFEST["file"]) and done["kept"] == done["differs"] == []
    assert len(calls) == 27 - 9 + 1  # the package once for its nine files
    assert all((tmp_path / "uci" / f).read_bytes() == (uci_dir / f).read_bytes() for f in MANIFEST["file"])
    assert sorted(p.name for p in (tmp_path / "uci").iterdir()) == sorted(MANIFEST["file"])  # no partial file
    calls.clear()
    again = fetch_uci(tmp_path / "uci", download=_downloads(uci_dir, deb, calls))
    assert (again["written"], len(again["kept"]), calls) == ([], 27, [])


def test_a_download_with_another_checksum_is_not_written(uci_dir, tmp_path):
    deb = _deb({f: (uci_dir / f).read_bytes() for f in DEBIAN["file"]})
    download = _downloads(uci_dir, deb, [])

    def corrupted(url):
        raw = download(url)
        return raw.replace(b"\n", b"\r\n") if url.endswith("zoo.arff") else raw
    with pytest.raises(ValueError, match=r"zoo\.arff from https://\S+: SHA-256 \w+, expected \w+; not written"):
        fetch_uci(tmp_path, download=corrupted, deb_sha256=hashlib.sha256(deb).hexdigest())
    assert not (tmp_path / "zoo.arff").exists()
    with pytest.raises(ValueError, match="weka_3.6.14-3_all.deb from https://deb.debian.org/.*expected 58ea5e"):
        fetch_uci(tmp_path / "other", download=download)  # the package built here is not Debian's


def test_a_user_s_file_with_another_checksum_is_left_untouched_and_reported(uci_dir, tmp_path, capsys):
    deb = _deb({f: (uci_dir / f).read_bytes() for f in DEBIAN["file"]})
    (tmp_path / "iris.arff").write_bytes(b"my own iris")
    done = fetch_uci(tmp_path, download=_downloads(uci_dir, deb, []), deb_sha256=hashlib.sha256(deb).hexdigest(),
                     progress=print)
    assert done["differs"] == ["iris.arff"] and (tmp_path / "iris.arff").read_bytes() == b"my own iris"
    assert "iris.arff: present with another SHA-256; left untouched (remove it to fetch it)" in capsys.readouterr().out


def test_the_command_s_errors_are_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("REPLICABILITY_UCI_DIR", raising=False)
    assert main(["data", "fetch-uci"]) == 2
    assert capsys.readouterr().err == (
        "replicability data fetch-uci: error: give the folder to fetch into (DEST), or set REPLICABILITY_UCI_DIR\n")
    (tmp_path / "file").write_text("x")
    assert main(["data", "fetch-uci", str(tmp_path / "file")]) == 2
    assert capsys.readouterr().err == (
        f"replicability data fetch-uci: error: {tmp_path / 'file'} exists and is not a folder\n")


def test_the_command_says_what_it_kept(uci_dir, tmp_path, monkeypatch, capsys):
    for f in MANIFEST["file"]:
        (tmp_path / f).write_bytes((uci_dir / f).read_bytes())
    monkeypatch.setenv("REPLICABILITY_UCI_DIR", str(tmp_path))
    assert main(["data", "fetch-uci"]) == 0  # nothing to download: the network is never reached
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"0 files written, 27 already there, into {tmp_path}; set REPLICABILITY_UCI_DIR={tmp_path} to use them")
