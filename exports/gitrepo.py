"""`export git`: a git repository with one commit per release, so git answers rule history.

Each release is a commit on `main`, oldest first, dated (author and committer) by its effective
date, tagged `<date>`, with the set as its subject and the release's renumbering in its body
(`702.18b → 702.19b`, folded into shifts as the changelog says them). `rules/<id>.txt` holds a
rule's text on its first line and each example on its own line after, under the rule's
permanent id, which no renumbering changes; the text, and each example, change only where
the release diff saw their wording change, so a quote or dash printed otherwise leaves them
alone. `numbers.txt` names each rule's file by number (`400.6 <id>`), `glossary.txt` holds one
entry per line. Then `git log rules/<id>.txt` lists a rule's wording changes, `git log -L 1,1`
its text's, and `git blame` names the release that last reworded each line. The same archive
gives the same commit ids every time. Written with `git fast-import`, in one pass.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

from rulesarchive.differ.changes import align_examples
from rulesarchive.differ.classify import ReleaseDiff
from rulesarchive.differ.headings import heading_moves
from rulesarchive.differ.kinds import Kind
from rulesarchive.differ.renumbering import shift_text, summarise_renumbering
from rulesarchive.differ.texts import words_key
from rulesarchive.exports import ExportError
from rulesarchive.exports.collect import Collected, ReleaseText
from rulesarchive.exports.place import staged

AUTHOR = "rulesarchive <rulesarchive@users.noreply.github.com>"


def export_git(language: Collected, dest: Path) -> None:
    """Write a new repository of one language's releases at `dest` (replaced whole)."""
    git = shutil.which("git")
    if git is None:
        raise ExportError("export git needs the git command, which is not on PATH")
    # The user's git configuration (templates, hooks, signing) has no say in the result.
    environment = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    what = "a git export (.git, rules/, numbers.txt, glossary.txt)"
    with staged(dest, _is_git_export, what) as folder:
        _git(git, environment, "init", "--quiet", "--initial-branch=main", str(folder))
        importer = subprocess.Popen(
            [git, "-C", str(folder), "fast-import", "--quiet", "--done"],
            stdin=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=environment,
        )
        assert importer.stdin is not None and importer.stderr is not None
        try:
            for chunk in _stream(language):
                importer.stdin.write(chunk)
            importer.stdin.close()
        except BrokenPipeError:
            pass  # fast-import stopped: its exit status and message say why
        with importer.stderr:
            error = importer.stderr.read().decode(errors="replace").strip()
        if importer.wait() != 0:
            raise ExportError(f"{dest}: git fast-import failed: {error}")
        _git(git, environment, "-C", str(folder), "checkout", "--quiet", "main")


_EXPORTED = {".git", "rules", "numbers.txt", "glossary.txt"}


def _is_git_export(path: Path) -> bool:
    names = {child.name for child in path.iterdir()} if path.is_dir() else {".git"}
    return path.is_dir() and ".git" in names and names <= _EXPORTED


def _git(git: str, environment: dict[str, str], *arguments: str) -> None:
    result = subprocess.run([git, *arguments], capture_output=True, text=True, env=environment)
    if result.returncode != 0:
        raise ExportError(f"git {' '.join(arguments)} failed: {result.stderr.strip()}")


def _stream(language: Collected) -> Iterator[bytes]:
    """Yield a fast-import stream: per release, the files that changed since the one before."""
    worded = _worded(language)
    previous: dict[str, bytes] = {}
    for mark, text in enumerate(language.texts, start=1):
        files = release_files(text, worded[mark - 1])
        release = text.release
        when = dt.datetime.combine(release.effective_date, dt.time(), dt.UTC)
        stamp = f"{int(when.timestamp())} +0000"
        message = _message(text, language.gathered.diffs[mark - 1]).encode()
        header = [
            "commit refs/heads/main",
            f"mark :{mark}",
            f"author {AUTHOR} {stamp}",
            f"committer {AUTHOR} {stamp}",
            f"data {len(message)}",
        ]
        yield "\n".join(header).encode() + b"\n" + message + b"\n"
        for path in sorted(previous.keys() - files.keys()):
            yield f"D {path}\n".encode()
        for path, content in sorted(files.items()):
            if previous.get(path) != content:
                yield f"M 100644 inline {path}\ndata {len(content)}\n".encode() + content + b"\n"
        yield f"\nreset refs/tags/{release.effective_date.isoformat()}\nfrom :{mark}\n\n".encode()
        previous = files
    yield b"done\n"


def _worded(language: Collected) -> list[dict[str, bytes]]:
    """Return, per release, each printed rule's file content by line id: its text as of the last
    release whose diff saw the text's wording change, and each example as of the last release
    that reworded it (typography, a cut copy or a new number alone keep what was written)."""
    worded: list[dict[str, bytes]] = [{} for _ in language.texts]
    for line in language.gathered.lines:
        text = ""
        examples: tuple[str, ...] = ()
        for stretch in line.stretches:
            rule, change = stretch.rule, stretch.change
            if not text or change is None or change.kind in _NEW_TEXT:
                text = rule.text
            examples = _kept_examples(examples, rule.examples)
            lines = [_one_line(text), *(_one_line(example) for example in examples)]
            content = ("\n".join(lines) + "\n").encode()
            for index in range(stretch.first, stretch.last + 1):
                worded[index][line.id] = content
    return worded


# The kinds of change that reword a rule's text (an example's own rewording is seen per example).
_NEW_TEXT = {Kind.ADDED, Kind.SUBSTANTIVE, Kind.SWEEP, Kind.REFERENCE}


def _kept_examples(written: tuple[str, ...], printed: tuple[str, ...]) -> tuple[str, ...]:
    """Return a version's examples, each as written before where only its typography changed
    (paired as the differ pairs them), so that git blames an example on its last rewording."""
    if written == printed:  # most versions: the examples printed as before
        return printed
    return tuple(
        old if old and words_key(old) == words_key(new) else new
        for old, new in align_examples(written, printed)
        if new
    )


def _message(text: ReleaseText, diff: ReleaseDiff | None) -> str:
    release = text.release
    name = f"{release.set_name} ({release.set_code})" if release.set_code else release.set_name
    message = (
        f"{name or release.effective_date.isoformat()}\n\n"
        f"Comprehensive Rules ({release.language}) effective {release.effective_date}: "
        f"{release.rule_count} rules, {release.glossary_count} glossary entries.\n"
    )
    moves = [*diff.renumbering, *heading_moves(diff.headings)] if diff else []
    if moves:  # as the changelog says it
        shifts = "".join(f"{shift_text(shift)}\n" for shift in summarise_renumbering(moves))
        message += f"\nRenumbered:\n{shifts}"
    return message


def release_files(text: ReleaseText, worded: dict[str, bytes]) -> dict[str, bytes]:
    """Return the repository's files for one release: rules/<id>.txt (`worded`: each file's
    content by line id), numbers.txt and glossary.txt."""
    files = {f"rules/{line_id}.txt": worded[line_id] for line_id, _ in text.rules}
    numbers = "".join(f"{rule.number} {line_id}\n" for line_id, rule in text.rules)
    files["numbers.txt"] = numbers.encode()
    if text.glossary:
        glossary = "".join(f"{e.term}: {_one_line(e.text)}\n" for e in text.glossary)
        files["glossary.txt"] = glossary.encode()
    return files


def _one_line(text: str) -> str:
    return text.replace("\n", " ¶ ")
