"""`export git`: a git repository with one commit per release, so git answers rule history.

Each release is a commit on `main`, oldest first, dated (author and committer) by its effective
date, tagged `<date>` and with the set as its message. `rules/<chapter>.txt` holds the
chapter's normalised rules one per line (`400.6 text`, each example on its own line as
`400.6 Example: text`), `glossary.txt` one entry per line: then
`git log -L '/^400.6 /,+1:rules/400.txt'`, `git log -S phrase` and `git blame` follow a rule.
The same archive gives the same commit ids every time. Written with `git fast-import`, in one pass.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

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
    with staged(dest, _is_git_export, "a git export (.git, rules/, glossary.txt)") as folder:
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


def _is_git_export(path: Path) -> bool:
    names = {child.name for child in path.iterdir()} if path.is_dir() else {".git"}
    return path.is_dir() and ".git" in names and names <= {".git", "rules", "glossary.txt"}


def _git(git: str, environment: dict[str, str], *arguments: str) -> None:
    result = subprocess.run([git, *arguments], capture_output=True, text=True, env=environment)
    if result.returncode != 0:
        raise ExportError(f"git {' '.join(arguments)} failed: {result.stderr.strip()}")


def _stream(language: Collected) -> Iterator[bytes]:
    """Yield a fast-import stream: per release, the files that changed since the one before."""
    previous: dict[str, bytes] = {}
    for mark, text in enumerate(language.texts, start=1):
        files = chapter_files(text)
        release = text.release
        when = dt.datetime.combine(release.effective_date, dt.time(), dt.UTC)
        stamp = f"{int(when.timestamp())} +0000"
        message = _message(text).encode()
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


def _message(text: ReleaseText) -> str:
    release = text.release
    name = f"{release.set_name} ({release.set_code})" if release.set_code else release.set_name
    return (
        f"{name or release.effective_date.isoformat()}\n\n"
        f"Comprehensive Rules ({release.language}) effective {release.effective_date}: "
        f"{release.rule_count} rules, {release.glossary_count} glossary entries.\n"
    )


def chapter_files(text: ReleaseText) -> dict[str, bytes]:
    """Return the repository's files for one release: rules/<chapter>.txt and glossary.txt."""
    chapters: dict[str, list[str]] = {}
    for _, rule in text.rules:
        lines = chapters.setdefault(f"rules/{rule.number.split('.')[0]}.txt", [])
        lines.append(f"{rule.number} {_one_line(rule.text)}")
        lines.extend(f"{rule.number} Example: {_one_line(example)}" for example in rule.examples)
    files = {path: ("\n".join(lines) + "\n").encode() for path, lines in chapters.items()}
    if text.glossary:
        glossary = "".join(f"{e.term}: {_one_line(e.text)}\n" for e in text.glossary)
        files["glossary.txt"] = glossary.encode()
    return files


def _one_line(text: str) -> str:
    return text.replace("\n", " ¶ ")
