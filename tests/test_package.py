"""The package's public surface: every public name is importable from the top level."""

import importlib
import pkgutil

import replicability


def _public_modules():
    for info in pkgutil.walk_packages(replicability.__path__, "replicability."):
        name = info.name.rsplit(".", 1)[-1]
        if not name.startswith("_") and name != "cli":
            yield importlib.import_module(info.name)


def test_every_public_name_is_exported_at_top_level():
    missing = []
    for module in _public_modules():
        for name in getattr(module, "__all__", []):
            if getattr(replicability, name, None) is not getattr(module, name):
                missing.append(f"{module.__name__}.{name}")
    assert not missing, f"not exported (or shadowed) at top level: {missing}"


def test_top_level_all_names_exist():
    assert all(hasattr(replicability, name) for name in replicability.__all__)
    assert len(set(replicability.__all__)) == len(replicability.__all__)
