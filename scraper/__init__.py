"""Bytes in, Document out: fetch, decode, extract, parse, normalise."""
