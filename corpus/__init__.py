"""The data model of rulesarchive and the archive on disk."""
