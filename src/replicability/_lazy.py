"""Public names of a package, imported from their modules on first use (PEP 562).

A package lists each public name under the module that defines it and calls
:func:`attach`; ``import`` of the package then loads none of those modules, and
each resolves when a name from it is first asked for. This keeps
``import replicability`` light (no numba, xarray or scikit-learn until needed).
"""

import sys
from importlib import import_module


def attach(package, modules, submodules=()):
    """Return ``__getattr__``, ``__dir__`` and ``__all__`` for a package.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    modules : dict of str to tuple of str
        Each public name, under the module (dotted, relative to ``package``) that
        defines it. These names make up ``__all__``.
    submodules : tuple of str, optional
        Subpackages reachable as attributes (``rp.stats``), not listed in ``__all__``.

    Returns
    -------
    tuple
        ``(__getattr__, __dir__, __all__)``, to be assigned in the package.
    """
    where = {name: module for module, names in modules.items() for name in names}
    if len(where) != sum(len(names) for names in modules.values()):
        raise ValueError(f"{package}: a public name is listed under two modules")

    def __getattr__(name):
        if name in submodules:
            return import_module(f".{name}", package)
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(import_module(f".{where[name]}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__():
        return sorted(set(vars(sys.modules[package])) | set(where) | set(submodules))

    return __getattr__, __dir__, list(where)
