"""The data model of rulesarchive and the archive on disk."""

from pathlib import Path

# The data the package ships (the release catalogue, the registries of ids). Read as files:
# importlib.resources would cost every command ~10 ms of imports (tempfile, shutil, ...).
DATA = Path(__file__).with_name("data")
