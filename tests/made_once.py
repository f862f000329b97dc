"""Costly session fixtures made once per test run, whatever the number of workers."""

from __future__ import annotations

import fcntl
import os
import pickle
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pytest

T = TypeVar("T")


def made_once(
    factory: pytest.TempPathFactory, name: str, make: Callable[[Path], T]
) -> tuple[Path, T]:
    """Make a costly session fixture once for the whole run: in folder `name`, by `make`,
    whose result is kept beside it. Under pytest -n every worker asks; the first makes it
    (holding a lock), the others wait for it and read it (xdist's groups are not kept by
    pytest 9, so each worker would make its own)."""
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent  # shared by the workers of this run
    folder, result = base / name, base / f"{name}.pickle"
    with (base / f"{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not result.exists():
            shutil.rmtree(folder, ignore_errors=True)  # what a worker that failed left
            folder.mkdir()
            made = make(folder)
            result.write_bytes(pickle.dumps(made))
            return folder, made
    return folder, pickle.loads(result.read_bytes())
