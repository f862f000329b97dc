"""Modules loaded when first used (importlib.util.LazyLoader, the standard library's recipe).

A command imports only what it runs: the library declares the differ's heavier parts (the
reference check, the lines of descent, the translations) as lazy modules, so `diff` does not
pay for the checker nor `rule` for the differ.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """Return the module `name`, to be executed at the first attribute looked up on it."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.loader is not None, name
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module
