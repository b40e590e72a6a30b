"""Book check: the Jupyter Book builds with warnings as errors, is served on
loopback, and every page of the table of contents opens in headless Chromium
without console errors, failed or external requests, with every figure loaded, with
no table or formula wider than the text column, no Python warning or traceback
among the outputs, and no markup the build left raw. A rerun's HTML page
(``replicability run -p ...``) passes the same check, offline.
"""

import functools
import http.server
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Flags for a closed network (see the machine notes): no background connections.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
#: A laptop screen: the theme's text column is then about 800 px wide.
VIEWPORT = {"width": 1280, "height": 800}
# Tables, display formulas and code outputs whose right edge passes the text column's
# (a table cut at the edge hides its last columns even inside a scrolling container).
OVERFLOW = r"""() => {
  const column = document.querySelector("article.bd-article") || document.querySelector("main");
  const right = column.getBoundingClientRect().right + 1;
  const wide = [];
  for (const el of document.querySelectorAll("article table, article mjx-container[display='true']")) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.left + el.scrollWidth > right) {
      wide.push(el.tagName.toLowerCase() + ": " + el.textContent.trim().slice(0, 60).replace(/\s+/g, " "));
    }
  }
  return wide;
}"""
# Outputs a reader must never see: stderr streams with a warning, and tracebacks.
PYTHON_NOISE = r"""() => Array.from(document.querySelectorAll(".cell_output .output, .cell_output pre"))
  .map(e => e.textContent)
  .filter(t => /Traceback \(most recent call last\)|\w+Warning:/.test(t))
  .map(t => t.trim().slice(0, 80))"""

# Text a reader must never see: MyST roles and fences the build did not render, display maths
# left as source, and Python reprs of values (code and maths elements are left out).
RAW_MARKUP = r"""() => {
  const column = document.querySelector("article.bd-article") || document.querySelector("main") || document.body;
  const copy = column.cloneNode(true);
  copy.querySelectorAll("pre, code, script, style, mjx-container, .highlight").forEach(e => e.remove());
  const raw = /\{(glue|cite|doc|ref|numref|eq|math|glue:text|cite:t|cite:p)\}`|^:::|\$\$|np\.float64\(|array\(\[/m;
  return copy.textContent.split("\n").filter(line => raw.test(line)).map(line => line.trim().slice(0, 80));
}"""

pytestmark = [pytest.mark.book, pytest.mark.slow]


def toc_pages():
    """Every document named in `_toc.yml`, root first, as paths without suffix."""
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    pages = [toc["root"]]

    def walk(entries):
        for entry in entries:
            if "file" in entry:
                pages.append(entry["file"])
            walk(entry.get("sections", []))
            walk(entry.get("chapters", []))

    walk(toc.get("parts", []))
    return pages


@pytest.fixture(scope="module")
def built_book(tmp_path_factory):
    out = tmp_path_factory.mktemp("book")
    jupyter_book = Path(sys.executable).with_name("jupyter-book")
    proc = subprocess.run(
        [str(jupyter_book), "build", str(ROOT), "--path-output", str(out),
         "--warningiserror", "--nitpick", "--keep-going"],
        capture_output=True, text=True, timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-5000:]
    return out / "_build" / "html"


@pytest.fixture(scope="module")
def server(built_book):
    httpd, url = _serve(built_book)
    yield url
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def test_every_toc_page_was_built(built_book):
    missing = [p for p in toc_pages() if not (built_book / f"{p}.html").is_file()]
    assert not missing
    assert (built_book / "index.html").is_file()


def _check_page(browser, url, server, problems):
    """Open ``url`` in a new page; append what a reader must not meet to ``problems``; return its figure count."""
    page = browser.new_page(viewport=VIEWPORT)
    page.on("console", lambda msg, u=url: msg.type == "error" and problems.append(f"{u}: console: {msg.text}"))
    page.on("pageerror", lambda err, u=url: problems.append(f"{u}: page error: {err}"))
    page.on("requestfailed", lambda req, u=url: problems.append(f"{u}: failed request {req.url}"))
    page.on("response", lambda res, u=url: res.status >= 400 and problems.append(f"{u}: HTTP {res.status} {res.url}"))
    page.on("request", lambda req, u=url: req.url.startswith(server) or req.url.startswith("data:")
            or problems.append(f"{u}: external request {req.url}"))
    response = page.goto(url, wait_until="networkidle")
    if response is None or response.status != 200:
        problems.append(f"{url}: HTTP {None if response is None else response.status}")
    broken = page.eval_on_selector_all(
        "img", "els => els.filter(e => !(e.complete && e.naturalWidth > 0)).map(e => e.src)")
    problems.extend(f"{url}: image not loaded {src}" for src in broken)
    figures = page.eval_on_selector_all("img", "els => els.length")
    problems.extend(f"{url}: wider than the text column: {what}" for what in page.evaluate(OVERFLOW))
    problems.extend(f"{url}: Python output: {what}" for what in page.evaluate(PYTHON_NOISE))
    problems.extend(f"{url}: raw markup or value: {what}" for what in page.evaluate(RAW_MARKUP))
    page.close()
    return figures


def _serve(directory):
    handler = functools.partial(_QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


def test_every_page_renders_in_chromium(server):
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "Debian's chromium is required: apt-get install chromium"
    problems = []
    figures = 0
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for page_name in toc_pages():
            url = f"{server}/{page_name}.html"
            figures += _check_page(browser, url, server, problems)
        browser.close()
    assert not problems, "\n".join(problems)
    assert figures > 0, "no figure found in the book"


def test_a_rerun_renders_in_chromium_offline_with_its_banner_and_maths(tmp_path):
    from playwright.sync_api import sync_playwright

    notebook = ROOT / "notebooks" / "bouckaert_frank2004" / "02_table1_5x2cv.ipynb"
    out = tmp_path / "rerun" / "table1.ipynb"
    proc = subprocess.run([sys.executable, "-m", "replicability.cli", "run", str(notebook), "-p", "alpha", "0.01",
                           "-o", str(out)], capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    httpd, server = _serve(out.parent)
    problems = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
            url = f"{server}/table1.html"
            _check_page(browser, url, server, problems)
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(url, wait_until="networkidle")
            banner = page.inner_text(".rerun-banner")
            maths = page.eval_on_selector_all("mjx-container", "els => els.length")
            level = page.inner_text("body")
            browser.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert not problems, "\n".join(problems)
    assert "alpha = 0.01 (the book: 0.05)" in banner
    assert maths > 0
    assert "here at a 1% level" in level
