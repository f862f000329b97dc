"""Run the CLI as `python -m rulesarchive`."""

from rulesarchive.launch import main

main()
