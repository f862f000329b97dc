"""Render the archive as a static site: histories, changelogs, search, feeds and data."""
