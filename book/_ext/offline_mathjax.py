"""Serve MathJax from a wheel instead of a CDN.

The book must render formulas without network access (readers offline, and the
headless-browser check in CI, where any external request is an error). The
``django-static-mathjax`` wheel (no dependencies) ships MathJax 3; we copy its
``tex-chtml`` component and the web fonts it loads into ``_static/mathjax`` and
point Sphinx's mathjax extension there.
"""

import shutil
from pathlib import Path

import mathjax

ES5 = Path(mathjax.__file__).parent / "static" / "mathjax" / "es5"
FILES = ("tex-chtml.js", "output/chtml/fonts/woff-v2")


def _configure(app, config):
    config.mathjax_path = "mathjax/tex-chtml.js"


def _copy(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    target = Path(app.outdir) / "_static" / "mathjax"
    for name in FILES:
        source = ES5 / name
        if source.is_dir():
            shutil.copytree(source, target / name, dirs_exist_ok=True)
        else:
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)


def setup(app):
    app.connect("config-inited", _configure)
    app.connect("build-finished", _copy)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
