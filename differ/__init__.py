"""Align rules across releases, diff their words, classify each change."""
