"""The package's public surface: rooms, a small top level, a light import."""

import importlib
import pkgutil
import subprocess
import sys

import pytest

import replicability

ROOMS = ("stats", "learners", "sources", "engine", "papers")


def _public_modules():
    for info in pkgutil.walk_packages(replicability.__path__, "replicability."):
        name = info.name.rsplit(".", 1)[-1]
        if not name.startswith("_") and name != "cli" and not info.ispkg:
            yield importlib.import_module(info.name)


def test_every_public_name_is_exported_by_its_package():
    missing = []
    for module in _public_modules():
        package = importlib.import_module(module.__name__.rsplit(".", 1)[0])
        if module.__name__.rsplit(".", 1)[-1] in replicability.papers._PAPERS:
            continue  # a paper's module is its own namespace: rp.papers.bouckaert2003.FIGURE2_RUNS
        for name in module.__all__:
            if name not in package.__all__ or getattr(package, name) is not getattr(module, name):
                missing.append(f"{module.__name__}.{name}")
    assert not missing, f"not exported (or shadowed) by their package: {missing}"


def test_top_level_is_small_and_every_name_resolves():
    names = replicability.__all__
    assert len(names) < 80
    assert len(set(names)) == len(names)
    assert all(hasattr(replicability, name) for name in names)
    assert set(ROOMS) <= set(dir(replicability))


def test_top_level_holds_no_paper_names():
    assert not [module for module in replicability._MODULES if module.startswith("papers")]


def test_import_loads_no_heavy_dependency():
    heavy = ("numba", "xarray", "dask", "papermill", "matplotlib", "sklearn")
    code = f"import sys, replicability; print([m for m in {heavy!r} if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_unknown_name_raises_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'paired_t_test'"):
        replicability.paired_t_test  # noqa: B018
    with pytest.raises(AttributeError, match="replicability.stats"):
        replicability.stats.FIGURE2_RUNS  # noqa: B018
