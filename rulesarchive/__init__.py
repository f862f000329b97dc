"""The rulesarchive command line: thin wiring of the pipeline stages."""
