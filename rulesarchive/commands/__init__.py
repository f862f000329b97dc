"""The click commands, one module per group of them, loaded when one runs (see rulesarchive.cli)."""
