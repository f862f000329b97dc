"""The Jinja2 side of the site: the environment, word diffs as HTML, what a page is."""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import io
import json
import pickle
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache, partial
from importlib import resources
from operator import attrgetter, methodcaller
from typing import Any, cast

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from jinja2.bccache import Bucket, BytecodeCache
from markupsafe import Markup, escape
from rulesarchive.corpus.derived import DerivedData, Kind, entry_key
from rulesarchive.corpus.model import Release, example_label

Context = dict[str, object]  # what a template renders: names to values of any kind

LANGUAGE_NAMES = {"en": "English", "zh-Hans": "简体中文", "it": "Italiano", "ko": "한국어"}


class _Environment(Environment):
    """Jinja2's environment, reading a plain dict's field (`rule.number`) as its item at once.

    Jinja2 tries the attribute first and takes the item after the AttributeError: a third of
    the time of a page whose thousands of rules are dicts. The same answer, since a dict has
    no attribute but those of its type (`items`, `get`, ...), which are looked up as before.
    """

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


_DICT_ATTRIBUTES = frozenset(dir(dict))


def environment(compiled: DerivedData | None = None) -> Environment:
    """Return the Jinja2 environment over templates/ (autoescaping: rule text is only text).

    With `compiled`, the store where the templates are kept compiled from one build to the next.
    """
    folder = str(resources.files("rulesarchive.templates"))
    env = _Environment(
        loader=FileSystemLoader(folder),
        autoescape=select_autoescape(["html", "xml"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        bytecode_cache=_CompiledTemplates(compiled) if compiled else None,
    )
    env.globals["language_names"] = LANGUAGE_NAMES
    env.filters["diff_html"] = diff_html
    env.filters["say_problem"] = say_problem
    env.filters["labelled"] = labelled
    return env


def labelled(example: str, language: str) -> Markup:
    """An example (HTML) after what a document of `language` prints before one ('Example: ';
    the parser keeps examples without it), unless it holds it already; a page may show
    another language's text."""
    label = example_label(language)
    if example.startswith(label.strip()):
        return Markup(example)
    return Markup('<span class="example-label">{}</span>{}').format(label, Markup(example))


# What differ.translations.check_structure says of a translated rule, read back to be said in
# a page's language (a wording it does not know is shown as it is).
_TRANSLATION_PROBLEMS = (
    ("problem_examples", re.compile(r"(?P<mine>\d+) examples, English has (?P<theirs>\d+)")),
    ("problem_cites", re.compile(r"cites (?P<mine>.*), English cites (?P<theirs>.*)")),
    ("problem_names", re.compile(r"names (?P<names>.*) are not in the English")),
    ("problem_numbers", re.compile(r"numbers (?P<mine>.*), English has (?P<theirs>.*)")),
)


def say_problem(problem: str, t: dict[str, str]) -> str:
    """Say a translated rule's problem (as the translation report words it) in `t`'s language."""
    for key, pattern in _TRANSLATION_PROBLEMS:
        found = pattern.fullmatch(problem)
        if found:
            values = found.groupdict()
            return t[key].format(
                **{k: t["nothing"] if v == "nothing" else v for k, v in values.items()}
            )
    return problem


class _CompiledTemplates(BytecodeCache):
    """The templates' compiled code kept between builds (compiling them took a fifth of a second).

    Jinja2 names an entry by the template and checks its source's hash and its own version
    and Python's on reading: a changed template is compiled afresh.
    """

    def __init__(self, derived: DerivedData) -> None:
        self.derived = derived

    def load_bytecode(self, bucket: Bucket) -> None:
        kept = self.derived.get(entry_key(Kind.TEMPLATE, bucket.key), bytes)
        if kept is not None:
            bucket.bytecode_from_string(kept)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.derived.put(entry_key(Kind.TEMPLATE, bucket.key), bucket.bytecode_to_string())


@cache
def messages(language: str) -> dict[str, str]:
    """Return a language's interface strings (messages/<language>.json; English fills gaps)."""
    folder = resources.files("rulesarchive.templates").joinpath("messages")
    english: dict[str, str] = json.loads(folder.joinpath("en.json").read_text(encoding="utf-8"))
    own = folder.joinpath(f"{language}.json")
    if language == "en" or not own.is_file():
        return english
    return english | cast(dict[str, str], json.loads(own.read_text(encoding="utf-8")))


def diff_html(pieces: Iterable[tuple[int, str]]) -> Markup:
    """Render a word diff as text with <del> and <ins> (escaped: rule text is only text)."""
    parts = []
    for op, text in pieces:
        safe = escape(text)
        parts.append(f"<del>{safe}</del>" if op < 0 else f"<ins>{safe}</ins>" if op > 0 else safe)
    return Markup("".join(parts))


@dataclass(frozen=True, slots=True)
class Job:
    """One file to make: a template and the whole context it renders, nothing else.

    Its fingerprint is a hash of that context (`fingerprint`), and `render_job` renders the
    template with that context alone: whatever a page shows is in what its fingerprint
    covers, so an incremental build never keeps a page made from other data. A data file
    (`template` None) is its `content`, hashed as it is.
    """

    path: str
    template: str | None
    context: Context


@dataclass(frozen=True, slots=True)
class Memoised:
    """A page known by a sum of what it is made from, before its job is made.

    `memo` hashes the inputs the page's context is worked out from (not the context): when
    the last build made the page under the same memo, the page is kept without working out
    its context; otherwise `make` makes the job, fingerprinted and rendered as any other.
    For pages whose context costs more than their inputs (a changelog's word diffs and
    links), where a new release leaves most of them as they were.

    `finer`, if any, works out a second memo, of fewer inputs than `memo` but costlier to
    find (what a rule's page shows of the newest release, say), asked for only when `memo`
    changed: a page is kept if either is last time's. Each must sum up all the page is made
    from; `finer` is a function of what `memo` sums up, so an equal `memo` means an equal one.
    """

    path: str
    memo: str
    make: Callable[[], Job]
    finer: Callable[[], str] | None = None

    def memos(self) -> str:
        """Return both memos as the manifest keeps them (`memo`, then `finer`'s if any)."""
        return f"{self.memo} {self.finer()}" if self.finer else self.memo


def fingerprint(job: Job, salt: str) -> str:
    """Hash a job's path, template and context; `salt` sums up what every page shares.

    Pickled, not printed: a context is plain data (strings, numbers, dates, tuples, lists,
    dicts, frozen dataclasses) and pickle refuses what is not, a function above all.
    """
    digest = hashlib.sha1(f"{salt}\0{job.path}\0{job.template}\0".encode())
    digest.update(_plain_bytes(job.context))
    return digest.hexdigest()


def memo(salt: str, path: str, inputs: object) -> str:
    """Hash what a memoised page is made from (plain data, as a context is; see `Memoised`)."""
    digest = hashlib.sha1(f"{salt}\0{path}\0".encode())
    digest.update(_plain_bytes(inputs))
    return digest.hexdigest()


def _plain_bytes(value: object) -> bytes:
    """Pickle without the memo: equal values give equal bytes, whatever objects they share."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.fast = True
    pickler.dispatch_table = _REDUCERS
    pickler.dump(value)
    return buffer.getvalue()


# What a reducer gives pickle: a global's name, or a callable and its arguments (and so on).
_Reduced = str | tuple[Callable[..., object], tuple[object, ...]]


class _Reducers(dict[type, Callable[[Any], _Reduced]]):
    """How a fingerprint pickles what contexts hold, by type, worked out once per type.

    A frozen dataclass as its class and its fields (pickle's own way looks the fields up
    again for every object: most of the time of a fingerprint), an enumeration member as its
    class and value, a class as its name; any other type by its own `__reduce_ex__`, as
    pickle does, called from C.
    """

    def __missing__(self, cls: type) -> Callable[[Any], _Reduced]:
        reducer: Callable[[Any], _Reduced]
        names = [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else []
        if cls is Release:
            reducer = partial(_summed, cls, attrgetter(*names))
        elif names:
            reducer = partial(_fields_of, cls, attrgetter(*names))
        elif isinstance(cls, enum.EnumMeta):
            reducer = partial(_member_of, cls)
        elif issubclass(cls, type):
            reducer = attrgetter("__qualname__")  # a string: pickled as the global it names
        else:
            reducer = methodcaller("__reduce_ex__", pickle.HIGHEST_PROTOCOL)
        self[cls] = reducer
        return reducer


def _fields_of(cls: type, fields: attrgetter[object], obj: object) -> tuple[type, tuple[object]]:
    # Never unpickled, only hashed: the class and its fields' values (one or a tuple of them).
    return cls, (fields(obj),)


# A release's fields summed up, by the object: a context holds the same few hundred releases
# many times over (a translation-comparison page, a hundred), each as big as a page's text.
_SUMS: dict[int, tuple[object, bytes]] = {}


def _summed(cls: type, fields: attrgetter[object], obj: object) -> tuple[type, tuple[bytes]]:
    held = _SUMS.get(id(obj))
    if held is None or held[0] is not obj:  # the object kept beside its sum: an id is not reused
        held = (obj, hashlib.sha1(_plain_bytes(fields(obj))).digest())
        _SUMS[id(obj)] = held
    return cls, (held[1],)


def _member_of(cls: type, member: enum.Enum) -> tuple[type, tuple[object]]:
    return cls, (member.value,)


_REDUCERS = _Reducers()


def render_job(env: Environment, shared: Mapping[str, object], job: Job) -> str:
    """Render a job: its template with its context (and the language's shared strings)."""
    if job.template is None:
        return cast(str, job.context["content"])  # a data file's, always a string
    return env.get_template(job.template).render(**shared, **job.context)


@dataclass(frozen=True, slots=True)
class Page:
    """One output file: its path under the site root and its content."""

    path: str
    content: str
