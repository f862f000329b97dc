"""Turn the bytes of a text file into str, whatever encoding and line endings it came in."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from rulesarchive.scraper.errors import InputError

# Card names with non-ASCII letters that the rules cite.  Files that are otherwise ASCII or
# cp1252 carry single cp437 or Mac Roman bytes in exactly these words (Arabian Nights cards in
# 2006-2007 and 2013-2019 files), so a word is repaired only when another code page spells one
# of them.  Fragments ('rûf' of Ma'rûf, 'Dûl' of Lim-Dûl) because the apostrophe and hyphen
# split words.
KNOWN_WORDS = frozenset(
    {
        "Dandân",
        "Hajjâj",
        "Junún",
        "Juzám",
        "Ghazbán",
        "Khabál",
        "rûf",
        "Æther",
        "Cátinò",
        "Dûl",
        "Jötun",
        "Séance",
        "Bíff",
        "Márton",
        "Ærathi",
    }
)
_CARD_NAME_CODECS = ("cp437", "mac_roman", "cp1252")


def _spellings() -> set[bytes]:
    """Return every byte spelling of the known words in the code pages that can spell them."""
    found = set()
    for word in KNOWN_WORDS:
        for codec in _CARD_NAME_CODECS:
            try:
                found.add(word.encode(codec))
            except UnicodeEncodeError:
                continue
    return found


# A known word's spelling ending a word (no letter or high byte after it); it must also start
# one, which _card_name_spellings checks (a look-behind first would make the pattern try every
# byte). Only such words can be repaired: looking for them spares a look at every word with a
# high byte.
_CARD_NAME_SPELLING = re.compile(
    rb"(?:"
    + b"|".join(re.escape(spelling) for spelling in sorted(_spellings()))
    + rb")(?![A-Za-z\x80-\xff])"
)
_WORD_BYTES = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") | frozenset(
    range(0x80, 0x100)
)

# Bytes that only typography explains in each single-byte code page (quotes, dashes, marks).
_CP1252_TYPOGRAPHY = frozenset(b"\x85\x91\x92\x93\x94\x96\x97\x99")
_MAC_ROMAN_TYPOGRAPHY = frozenset(b"\xa5\xaa\xc9\xd0\xd1\xd2\xd3\xd4\xd5")

_MOJIBAKE = re.compile(r"[ÂÃ][\u0080-\u00bf]|â€|\ufffd|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# The first characters of _MOJIBAKE's matches: one class is searched far quicker than the
# alternation, which is tried only where it finds one.
_MOJIBAKE_START = re.compile(r"[ÂÃâ\ufffd\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
_ODD_SYMBOLS = frozenset("ƒ‰£œ¢¤¥¦§¨ª«¬¯°±²³´µ¶·¸¹º»¼½¾¿ÐÑÒÓÔÕ×Ø†‡ˆ‹›")
# Where either may start, in one class (one class is searched far quicker than two): the odd
# symbols share no character with _MOJIBAKE_START.
_SUSPECT = re.compile(_MOJIBAKE_START.pattern[:-1] + "".join(sorted(_ODD_SYMBOLS)) + "]")
# The ASCII characters that are no control characters (tab, line feed, return among them).
_ASCII_ALLOWED = bytes(byte for byte in range(128) if not _MOJIBAKE_START.fullmatch(chr(byte)))


@dataclass(frozen=True, slots=True)
class Decoded:
    """Text with Unix line endings, the encoding it was read as, and any byte repairs made."""

    text: str
    encoding: str
    repairs: tuple[str, ...] = ()


def decode_bytes(data: bytes) -> Decoded:
    """Decode a text file: BOM, strict UTF-8, else cp1252 or Mac Roman with card-name repair."""
    text, encoding, repairs = _decode_characters(data)
    check_not_garbled(text)
    if "\r" in text:  # (looking for one character is far quicker than replacing two)
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return Decoded(text, encoding, tuple(repairs))


def _decode_characters(data: bytes) -> tuple[str, str, list[str]]:
    if data.startswith(b"\xef\xbb\xbf"):
        return _strict(data[3:], "utf-8", "utf-8 (BOM)"), "utf-8 (BOM)", []
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        codec = "utf-16-le" if data.startswith(b"\xff\xfe") else "utf-16-be"
        return _strict(data[2:], codec, f"{codec} (BOM)"), f"{codec} (BOM)", []
    if b"\x00" in data:
        codec = _utf16_without_bom(data)
        label = f"{codec.upper()} without a byte-order mark (damaged)"
        return _strict(data, codec, label), f"{codec} (no BOM)", []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _decode_single_byte(data)
    return text, ("ascii" if text.isascii() else "utf-8"), []


def _strict(data: bytes, codec: str, label: str) -> str:
    try:
        return data.decode(codec)
    except UnicodeDecodeError as error:
        raise InputError(f"not valid {label} at byte {error.start}") from None


def _utf16_without_bom(data: bytes) -> str:
    """Accept UTF-16 without a BOM only when nearly every other byte is NUL (ASCII-heavy text).

    Judged window by window: UTF-16 that lost or gained a byte flips its byte order part way,
    and is named as damaged UTF-16 rather than as binary data.
    """
    sample = data[:20000]
    orders = [_byte_order(sample[at : at + 200]) for at in range(0, len(sample) - 199, 200)]
    orders = orders or [_byte_order(sample)]
    sided = [order for order in orders if order]
    half_nul = 0.4 < sample.count(0) / len(sample) < 0.6  # the shape of UTF-16 Latin text
    if len(sided) < 0.8 * len(orders) and not half_nul:
        raise InputError("binary data (NUL bytes) and no byte-order mark: not a text document")
    if len(sided) < 0.8 * len(orders) or len(set(sided)) > 1:
        raise InputError(
            "damaged UTF-16 text without a byte-order mark: its byte order flips part way "
            "(a byte lost or added)"
        )
    return sided[0]


def _byte_order(window: bytes) -> str | None:
    even = window[0::2].count(0) / max(1, len(window[0::2]))
    odd = window[1::2].count(0) / max(1, len(window[1::2]))
    if odd > 0.9 and even < 0.1:
        return "utf-16-le"
    if even > 0.9 and odd < 0.1:
        return "utf-16-be"
    return None


def _decode_single_byte(data: bytes) -> tuple[str, str, list[str]]:
    cp1252_votes = sum(data.count(bytes([b])) for b in _CP1252_TYPOGRAPHY)
    mac_votes = sum(data.count(bytes([b])) for b in _MAC_ROMAN_TYPOGRAPHY)
    base = "mac_roman" if mac_votes > cp1252_votes else "cp1252"
    # A single-byte code page: one byte is one character, so the text and the bytes line up.
    text = data.decode(base, errors="replace")
    pieces: list[str] = []
    repairs: list[str] = []
    done = 0
    for match in _card_name_spellings(data):
        word = text[match.start() : match.end()]
        repaired = None if word in KNOWN_WORDS else _card_name(match.group())
        if repaired:
            repairs.append(f"{word} -> {repaired[0]} ({repaired[1]})")
            pieces += [text[done : match.start()], repaired[0]]
            done = match.end()
    label = "mac-roman" if base == "mac_roman" else "cp1252"
    return "".join([*pieces, text[done:]]), label, repairs


def _card_name_spellings(data: bytes) -> Iterator[re.Match[bytes]]:
    """Yield the known words' spellings that are whole words of the bytes."""
    for match in _CARD_NAME_SPELLING.finditer(data):
        if match.start() == 0 or data[match.start() - 1] not in _WORD_BYTES:
            yield match


def _card_name(word: bytes) -> tuple[str, str] | None:
    for codec in _CARD_NAME_CODECS:
        candidate = word.decode(codec, errors="replace")
        if candidate in KNOWN_WORDS:
            return candidate, codec.replace("_", "-")
    return None


def check_not_garbled(text: str) -> None:
    """Raise InputError when decoded text still shows replacement characters or mojibake."""
    # In ASCII only control characters can be wrong: looked for by deleting every other byte
    # (far quicker than a pattern); only where some are left does the pattern look.
    if text.isascii() and not text.encode("ascii").translate(None, _ASCII_ALLOWED):
        return
    match = None
    odd = None
    # One pass for both kinds: mojibake anywhere wins over an odd symbol seen before it.
    for start in _SUSPECT.finditer(text):
        at = start.start()
        if start.group() not in _ODD_SYMBOLS:
            if match := _MOJIBAKE.match(text, at):
                break
        elif odd is None and _in_word(text, at):
            odd = at
    position = match.start() if match else odd
    if position is not None:
        context = text[max(0, position - 20) : position + 20].replace("\n", " ").replace("\r", " ")
        raise InputError(f"text still garbled after decoding (near {context!r})")


def _in_word(text: str, at: int) -> bool:
    """Tell a symbol inside a word ('Dandƒn'): a byte read in the wrong code page."""
    return 0 < at < len(text) - 1 and _ascii_letter(text[at - 1]) and _ascii_letter(text[at + 1])


def _ascii_letter(char: str) -> bool:
    return char.isascii() and char.isalpha()
