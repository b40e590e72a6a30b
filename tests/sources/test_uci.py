"""Tests of the UCI loaders: manifest, checksums, properties, OpenML download path."""

import hashlib
import http.server
import json
import os
import threading
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from replicability.sources.arff import load_arff, parse_arff
from replicability.sources.uci import (
    ChecksumError,
    _build_manifest,
    _content_sha256,
    download_uci,
    list_uci,
    load_uci,
)

ROOT = Path(__file__).resolve().parents[2]
# CI sets REPLICABILITY_UCI_DIR; a checkout next to the shared data falls back on it.
UCI_DIR = Path(os.environ.get("REPLICABILITY_UCI_DIR") or ROOT.parent / "shared" / "data" / "uci")
MANIFEST = pd.read_csv(ROOT / "src" / "replicability" / "sources" / "uci_manifest.csv", keep_default_na=False)


@pytest.fixture(scope="module")
def uci_dir():
    if not all((UCI_DIR / name).is_file() for name in MANIFEST["file"]):
        pytest.skip(f"the 27 UCI ARFF files are not in {UCI_DIR}: "
                    "get them with `replicability data fetch-uci DEST` and set REPLICABILITY_UCI_DIR=DEST")
    return UCI_DIR


# --- manifest -------------------------------------------------------------------


def test_list_uci_is_the_committed_manifest():
    manifest = list_uci()
    assert len(manifest) == 27 and manifest["dataset"].is_unique and manifest["file"].is_unique
    pd.testing.assert_frame_equal(manifest, MANIFEST, check_dtype=False)
    assert manifest["openml_confirmed"].dtype == bool
    # The two OpenML ids marked '?' in the shared MANIFEST.csv (README.md, OpenML).
    assert sorted(manifest.loc[~manifest["openml_confirmed"], "dataset"]) == ["colic", "vowel"]


def test_committed_manifest_is_derived_from_shared_manifest(uci_dir):
    # Rebuilding from the shared MANIFEST.csv and the files reproduces the committed
    # CSV exactly (and recomputes every property from the files on the way).
    if not (uci_dir / "MANIFEST.csv").is_file():
        pytest.skip(f"no MANIFEST.csv in {uci_dir}: the shared data folder's, not written by fetch-uci")
    rebuilt = _build_manifest(uci_dir / "MANIFEST.csv", uci_dir)
    pd.testing.assert_frame_equal(rebuilt, MANIFEST, check_dtype=False)


def test_paper_figures_in_manifest():
    # Bouckaert & Frank (2004), Table 1: instances agree for all 27 data sets; the
    # attribute counts differ for the four files named in the shared README.md.
    assert (MANIFEST["instances"] == MANIFEST["paper_instances"]).all()
    assert (MANIFEST["observed_classes"] == MANIFEST["paper_classes"]).all()
    differ = MANIFEST.loc[MANIFEST["attributes"] != MANIFEST["paper_attributes"], "dataset"]
    assert sorted(differ) == ["arrhythmia", "credit-a", "ecoli", "zoo"]


def test_repository_holds_no_copy_of_the_data():
    # The compendium must never ship the ARFF files, under any name. The only ARFF
    # files allowed are the small synthetic ones Weka reads for the test fixtures.
    checksums = set(MANIFEST["sha256"])
    fixtures = ROOT / "tests" / "fixtures"
    for folder, subfolders, files in os.walk(ROOT):
        subfolders[:] = [d for d in subfolders if d not in (".venv", ".git")]
        for path in (Path(folder) / name for name in files):
            if not path.is_relative_to(fixtures):
                assert path.suffix.lower() != ".arff", f"ARFF file in the repository: {path}"
            if 5_000 < path.stat().st_size < 500_000:  # the 27 files are 7 kB to 420 kB
                assert hashlib.sha256(path.read_bytes()).hexdigest() not in checksums, path


# --- loading the 27 files -------------------------------------------------------


@pytest.mark.parametrize("dataset", MANIFEST["dataset"].tolist())
def test_every_file_loads_with_manifest_properties(uci_dir, dataset):
    row = MANIFEST.set_index("dataset").loc[dataset]
    ds = load_uci(dataset, directory=uci_dir)
    assert ds.name == dataset
    assert ds.relation == row["relation"] and ds.class_name == row["class_attribute"]
    assert ds.X.shape == (row["instances"], row["attributes"])
    assert ds.n_classes == row["declared_classes"]
    assert len(np.unique(ds.y)) == row["observed_classes"]
    assert ds.n_missing == row["missing_values"]
    assert _content_sha256(ds) == row["content_sha256"]


def test_anneal_quoted_question_mark_is_a_label(uci_dir):
    # Shared README.md: 22175 cells of anneal.arff hold the declared label '?'.
    ds = load_uci("anneal", directory=uci_dir)
    is_label = [
        (ds.X[:, j] == values.index("?")).sum() for j, values in enumerate(ds.nominal_values) if "?" in values
    ]
    assert sum(is_label) == 22175 and ds.n_missing == 0


@pytest.mark.parametrize("name", ["credit-g", "CREDIT-G", "credit-g.arff", "German credit", " german credit "])
def test_name_resolution(uci_dir, name):
    assert load_uci(name, directory=uci_dir).name == "credit-g"


def test_unknown_name():
    with pytest.raises(ValueError, match=r"`name` must be one of the 27 UCI data sets.*got 'irsi'.*'iris'"):
        load_uci("irsi")


def test_environment_variable_is_used(uci_dir, monkeypatch):
    monkeypatch.setenv("REPLICABILITY_UCI_DIR", str(uci_dir))
    assert load_uci("iris").n_instances == 150


def test_no_directory_says_what_to_do(monkeypatch):
    monkeypatch.delenv("REPLICABILITY_UCI_DIR", raising=False)
    with pytest.raises(FileNotFoundError) as info:
        load_uci("iris")
    message = str(info.value)
    assert "REPLICABILITY_UCI_DIR is not set" in message
    assert "download_uci('iris', cache_dir=...)" in message


def test_missing_file_says_what_to_do(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"iris.arff does not exist\. Set the environment variable"):
        load_uci("iris", directory=tmp_path)
    (tmp_path / "iris.arff").mkdir()
    with pytest.raises(FileNotFoundError, match=r"iris.arff is a folder\. Set the environment variable"):
        load_uci("iris", directory=tmp_path)


def test_checksum_mismatch_names_file_and_both_checksums(tmp_path, uci_dir):
    raw = bytearray((uci_dir / "iris.arff").read_bytes())
    raw[raw.index(b"5.1,3.5")] = ord("6")  # one changed value
    (tmp_path / "iris.arff").write_bytes(bytes(raw))
    expected = MANIFEST.set_index("dataset").loc["iris", "sha256"]
    actual = hashlib.sha256(bytes(raw)).hexdigest()
    with pytest.raises(ChecksumError, match=rf"iris.arff: SHA-256 mismatch; expected {expected}, got {actual}"):
        load_uci("iris", directory=tmp_path)


def test_changed_line_ends_are_a_mismatch(tmp_path, uci_dir):
    raw = (uci_dir / "iris.arff").read_bytes().replace(b"\n", b"\r\n")
    (tmp_path / "iris.arff").write_bytes(raw)
    with pytest.raises(ChecksumError, match="iris.arff: SHA-256 mismatch"):
        load_uci("iris", directory=tmp_path)


# --- content checksum -----------------------------------------------------------


def test_content_checksum_ignores_layout_but_not_values(uci_dir):
    original = load_arff(uci_dir / "iris.arff")
    text = (uci_dir / "iris.arff").read_text()
    header, data = text.split("@DATA\n")
    # Another layout of the same table: no comments, blanks after commas, quoted
    # labels, `5.0` written `5`, lower-case keywords and other attribute names.
    lines = [line for line in header.splitlines() if line and not line.startswith("%")]
    header = "\n".join(line.replace("@ATTRIBUTE", "@attribute").replace("sepal", "s_") for line in lines)
    rows = []
    for line in data.splitlines():
        if line and not line.startswith("%"):
            *numbers, label = line.split(",")
            numbers = [n.removesuffix(".0") for n in numbers]
            rows.append(", ".join(numbers + [f"'{label}'"]))
    relaid = parse_arff(header + "\n@data\n" + "\n".join(rows) + "\n")
    assert relaid.attribute_names != original.attribute_names
    assert _content_sha256(relaid) == _content_sha256(original)
    changed = parse_arff(header + "\n@data\n" + "\n".join(rows[:-1] + ["5.9, 3, 5.1, 1.8, 'Iris-setosa'"]))
    assert _content_sha256(changed) != _content_sha256(original)


def test_content_checksum_distinguishes_missing_from_question_mark_label():
    head = "@relation r\n@attribute c {'?', a}\n@data\n"
    assert _content_sha256(parse_arff(head + "'?'\n")) != _content_sha256(parse_arff(head + "?\n"))


# --- OpenML download, against a local HTTP server --------------------------------


class _Server:
    """Serve fixed bytes per path on 127.0.0.1 and record the paths requested."""

    def __init__(self):
        self.routes, self.requests = {}, []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                server.requests.append(self.path)
                body = server.routes.get(self.path)
                self.send_response(200 if body is not None else 404)
                self.send_header("Content-Length", str(len(body or b"")))
                self.end_headers()
                self.wfile.write(body or b"")

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, args=(0.05,), daemon=True)
        self.thread.start()

    def publish(self, openml_id, raw, *, md5=None):
        """Serve an OpenML-style description of `openml_id` and its file."""
        file_url = f"{self.url}/data/v1/download/{openml_id}"
        description = {"data_set_description": {
            "id": str(openml_id), "url": file_url, "md5_checksum": md5 or hashlib.md5(raw).hexdigest()}}
        self.routes[f"/api/v1/json/data/{openml_id}"] = json.dumps(description).encode()
        self.routes[f"/data/v1/download/{openml_id}"] = raw

    def close(self):
        if not self.thread.is_alive():
            return
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


@pytest.fixture
def server():
    srv = _Server()
    yield srv
    srv.close()


def test_download_of_weka_bytes_is_cached(tmp_path, uci_dir, server):
    raw = (uci_dir / "iris.arff").read_bytes()
    server.publish(61, raw)  # OpenML id of iris in the manifest
    ds = download_uci("iris", cache_dir=tmp_path, openml_url=server.url)
    reference = load_uci("iris", directory=uci_dir)
    np.testing.assert_array_equal(ds.X, reference.X)
    np.testing.assert_array_equal(ds.y, reference.y)
    assert server.requests == ["/api/v1/json/data/61", "/data/v1/download/61"]
    cached = tmp_path / "openml" / "61" / "iris.arff"
    assert cached.read_bytes() == raw
    assert [p.name for p in cached.parent.iterdir()] == ["iris.arff"]  # no partial file left
    # Second call: read from the cache, no request.
    again = download_uci("iris", cache_dir=tmp_path, openml_url=server.url)
    np.testing.assert_array_equal(again.X, reference.X)
    assert len(server.requests) == 2


def test_download_of_other_layout_with_same_values_is_accepted(tmp_path, uci_dir, server):
    # OpenML may serve the table in another layout: the content checksum decides.
    raw = (uci_dir / "breast-w.arff").read_bytes()
    header, data = raw.split(b"@data")
    header = header.replace(b"\r\n", b"\n").replace(b"integer [1,10]", b"numeric")
    relaid = header + b"@DATA" + data.replace(b"\r\n", b"\n")
    assert relaid != raw
    server.publish(15, relaid)
    ds = download_uci("Wisconsin breast cancer", cache_dir=tmp_path, openml_url=server.url)
    reference = load_uci("breast-w", directory=uci_dir)
    np.testing.assert_array_equal(ds.X, reference.X)
    assert (tmp_path / "openml" / "15" / "breast-w.arff").read_bytes() == relaid


def test_download_of_different_data_is_refused(tmp_path, uci_dir, server):
    raw = (uci_dir / "iris.arff").read_bytes().replace(b"5.1,3.5,1.4,0.2", b"5.1,3.5,1.4,0.3", 1)
    server.publish(61, raw)
    message = r"does not hold the same data as the paper's file iris.arff: content checksum"
    with pytest.raises(ChecksumError, match=message):
        download_uci("iris", cache_dir=tmp_path, openml_url=server.url)
    assert not (tmp_path / "openml").exists()


def test_download_with_wrong_md5_is_refused(tmp_path, uci_dir, server):
    raw = (uci_dir / "iris.arff").read_bytes()
    server.publish(61, raw, md5="0" * 32)
    message = r"MD5 mismatch with OpenML's description; expected 0{32}, got [0-9a-f]{32}"
    with pytest.raises(ChecksumError, match=message):
        download_uci("iris", cache_dir=tmp_path, openml_url=server.url)
    assert not (tmp_path / "openml").exists()


def test_download_of_unreadable_file_is_refused(tmp_path, server):
    server.publish(61, b"<html>not found</html>")
    with pytest.raises(ChecksumError, match=r"download/61 is not a readable ARFF file"):
        download_uci("iris", cache_dir=tmp_path, openml_url=server.url)


def test_corrupted_cache_is_refused(tmp_path, uci_dir, server):
    cached = tmp_path / "openml" / "61" / "iris.arff"
    cached.parent.mkdir(parents=True)
    cached.write_bytes((uci_dir / "iris.arff").read_bytes().replace(b"Iris-setosa\n", b"Iris-virginica\n", 1))
    with pytest.raises(ChecksumError, match=rf"{cached}.*does not hold the same data"):
        download_uci("iris", cache_dir=tmp_path, openml_url=server.url)
    assert server.requests == []


def test_bad_description_is_reported(tmp_path, server):
    server.routes["/api/v1/json/data/61"] = b'{"error": "no such data set"}'
    with pytest.raises(ConnectionError, match=r"description of data set 61 .* not what was expected"):
        download_uci("iris", cache_dir=tmp_path, openml_url=server.url)


def test_offline_download_says_what_to_do(tmp_path, server):
    url = server.url
    server.close()  # nothing listens on the port any more
    with pytest.raises(ConnectionError) as info:
        download_uci("iris", cache_dir=tmp_path, openml_url=url, timeout=5)
    message = str(info.value)
    assert message.startswith(f"OpenML is not reachable: could not fetch {url}/api/v1/json/data/61")
    assert "set REPLICABILITY_UCI_DIR" in message and "27 Weka ARFF files" in message


def test_download_http_error_is_a_connection_error(tmp_path, server):
    with pytest.raises(ConnectionError, match="OpenML is not reachable: .*HTTP Error 404"):
        download_uci("iris", cache_dir=tmp_path, openml_url=server.url)


@pytest.mark.parametrize("timeout", [0, -1.0, True, "5"])
def test_download_timeout_validation(tmp_path, timeout):
    with pytest.raises(ValueError, match=r"`timeout` must be a positive finite number; got"):
        download_uci("iris", cache_dir=tmp_path, timeout=timeout)


def test_download_unknown_name(tmp_path):
    with pytest.raises(ValueError, match="`name` must be one of the 27 UCI data sets"):
        download_uci("nope", cache_dir=tmp_path)
