"""Run the CLI as `python -m rulesarchive`."""

from rulesarchive.cli import main

main()
