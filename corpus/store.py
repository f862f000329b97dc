"""The archive on disk: one folder per release, written atomically, read back as typed objects.

Layout (git-friendly):  ARCHIVE/<language>/<effective date>/
    release.json   metadata (Release)
    document.json  the parsed, normalised document (printed text kept where it differs)
    rules.txt      normalised text, one rule or glossary entry per line, for `git diff`
    original.<ext> the bytes as they were ingested
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from sys import intern

from rulesarchive.corpus.model import Document, GlossaryEntry, Heading, Release, Rule, Source


class ArchiveError(Exception):
    """A release that cannot be found, read or written."""


class Archive:
    """A folder of releases."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def releases(self, language: str | None = None) -> list[Release]:
        """Return the stored releases, oldest first (of one language, or all)."""
        found = [_read_release(path) for path in self._release_files(language)]
        return sorted(found, key=lambda release: (release.language, release.effective_date))

    def get(self, language: str, effective_date: dt.date) -> Release | None:
        """Return the release of this language and date, or None."""
        path = self._folder(language, effective_date) / "release.json"
        return _read_release(path) if path.exists() else None

    def load(self, release: Release) -> Document:
        """Read the document of a release."""
        path = self._folder(release.language, release.effective_date) / "document.json"
        try:
            return document_from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError) as error:
            raise ArchiveError(f"{path}: unreadable document ({error})") from None

    def save(self, release: Release, document: Document, raw: bytes) -> None:
        """Write a release, replacing any with the same key; all or nothing."""
        self.root.mkdir(parents=True, exist_ok=True)
        target = self._folder(release.language, release.effective_date)
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".incoming-", dir=target.parent))
        try:
            _write(staging / "release.json", json.dumps(release_to_json(release), indent=1))
            _write(
                staging / "document.json",
                json.dumps(document_to_json(document), ensure_ascii=False),
            )
            _write(staging / "rules.txt", render_rules_text(document))
            (staging / f"original.{release.source.format}").write_bytes(raw)
            _swap_into_place(staging, target)
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _folder(self, language: str, effective_date: dt.date) -> Path:
        return self.root / language / effective_date.isoformat()

    def _release_files(self, language: str | None) -> Iterator[Path]:
        if not self.root.is_dir():
            return iter(())
        pattern = f"{language}/*/release.json" if language else "*/*/release.json"
        return self.root.glob(pattern)


def _write(path: Path, text: str) -> None:
    with path.open("w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())


def _swap_into_place(staging: Path, target: Path) -> None:
    """Rename the finished folder over the old one; the old one survives any failure before."""
    if not target.exists():
        staging.rename(target)
        return
    retired = target.with_name(f".retired-{target.name}-{os.getpid()}")
    target.rename(retired)
    try:
        staging.rename(target)
    except OSError:
        retired.rename(target)
        raise
    shutil.rmtree(retired, ignore_errors=True)


def render_rules_text(document: Document) -> str:
    """Render the normalised text one rule (and one glossary entry) per line."""
    lines = []
    for rule in document.rules:
        lines.append(f"{rule.number} {rule.text}")
        lines.extend(f"{rule.number} Example: {example}" for example in rule.examples)
    lines.extend(
        f"Glossary: {entry.term}: {entry.text.replace(chr(10), ' ¶ ')}"
        for entry in document.glossary
    )
    return "\n".join(lines) + "\n"


def release_to_json(release: Release) -> dict:
    """Return the JSON form of a release's metadata."""
    data = asdict(release)
    data["effective_date"] = release.effective_date.isoformat()
    data["normalisation"] = dict(release.normalisation)
    return data


def _read_release(path: Path) -> Release:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Release(
            language=data["language"],
            effective_date=dt.date.fromisoformat(data["effective_date"]),
            set_code=data["set_code"],
            set_name=data["set_name"],
            rule_count=data["rule_count"],
            glossary_count=data["glossary_count"],
            content_sha256=data["content_sha256"],
            source=Source(**data["source"]),
            flags=tuple(data["flags"]),
            notes=tuple(data["notes"]),
            normalisation=tuple(data["normalisation"].items()),
            decode_repairs=tuple(data["decode_repairs"]),
        )
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ArchiveError(f"{path}: unreadable release metadata ({error})") from None


def document_to_json(document: Document) -> dict:
    """Return the JSON form of a document, leaving out printed text equal to the normalised."""
    return {
        "language": document.language,
        "effective_date": document.effective_date.isoformat() if document.effective_date else None,
        "title": document.title,
        "introduction": document.introduction,
        "contents": list(document.contents),
        "headings": [[heading.number, heading.title] for heading in document.headings],
        "rules": [_rule_to_json(rule) for rule in document.rules],
        "glossary": [_entry_to_json(entry) for entry in document.glossary],
        "credits": document.credits,
        "notes": list(document.notes),
        "normalisation": dict(document.normalisation),
        "set_name": document.set_name,
        "excerpt": document.excerpt,
    }


def _rule_to_json(rule: Rule) -> dict:
    data: dict = {"number": rule.number, "text": rule.text}
    if rule.examples:
        data["examples"] = list(rule.examples)
    if rule.original:
        data["original"] = rule.original
    if rule.original_examples:
        data["original_examples"] = list(rule.original_examples)
    return data


def _entry_to_json(entry: GlossaryEntry) -> dict:
    data = {"term": entry.term, "text": entry.text}
    if entry.original:
        data["original"] = entry.original
    return data


def document_from_json(data: dict) -> Document:
    """Rebuild a Document from its JSON form."""
    date = data["effective_date"]
    return Document(
        language=data["language"],
        effective_date=dt.date.fromisoformat(date) if date else None,
        title=data["title"],
        introduction=data["introduction"],
        contents=tuple(data["contents"]),
        headings=tuple(Heading(number, title) for number, title in data["headings"]),
        # Interned: a text that several loaded releases share is one object (less memory, and
        # comparing releases compares pointers, not characters).
        rules=tuple(
            Rule(
                intern(r["number"]),
                intern(r["text"]),
                tuple(map(intern, r.get("examples", ()))),
                intern(r.get("original", "")),
                tuple(map(intern, r.get("original_examples", ()))),
            )
            for r in data["rules"]
        ),
        glossary=tuple(
            GlossaryEntry(g["term"], g["text"], g.get("original", "")) for g in data["glossary"]
        ),
        credits=data["credits"],
        notes=tuple(data["notes"]),
        normalisation=tuple(data["normalisation"].items()),
        set_name=data.get("set_name", ""),
        excerpt=data.get("excerpt", False),
    )
