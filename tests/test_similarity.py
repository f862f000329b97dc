"""differ.words.similarity (rapidfuzz's Indel distance) equals the diff-match-patch reference."""

from diff_match_patch import diff_match_patch
from rulesarchive.corpus.lookup import find_release
from rulesarchive.differ.align import align_rules
from rulesarchive.differ.words import similarity, tokenise

PAIRS = (("en", "2009-05-01", "2009-07-08"), ("en", "2018-10-05", "2019-01-25"))


def reference_similarity(old: str, new: str) -> float:
    """Share of tokens in common, counted on diff-match-patch's untimed (optimal) token diff."""
    old_tokens, new_tokens = tokenise(old), tokenise(new)
    total = len(old_tokens) + len(new_tokens)
    if not total:
        return 1.0
    codes: dict[str, str] = {}
    for token in old_tokens + new_tokens:
        codes.setdefault(token, chr(len(codes) + 0x4E00 + 0x10000))
    engine = diff_match_patch()
    engine.Diff_Timeout = 0
    diffs = engine.diff_main(
        "".join(map(codes.get, old_tokens)), "".join(map(codes.get, new_tokens)), False
    )
    return 2 * sum(len(text) for op, text in diffs if op == 0) / total


def test_small_cases_equal_the_reference():
    cases = [
        ("", ""),
        ("", "Reserved for future use."),
        ("Its owner looks at it.", "All players look at it."),
        ("Add {G}{G}.", "Add {G}."),
        ("a b c d e", "e d c b a"),
        ("见规则702.19。", "见规则702.20和702.21。"),
    ]
    for old, new in cases:
        assert similarity(old, new, floor=0.0) == reference_similarity(old, new), (old, new)


def test_real_rule_pairs_equal_the_reference(ingested):
    archive, _ = ingested
    compared = 0
    for language, old_ref, new_ref in PAIRS:
        old = archive.load(find_release(archive, old_ref, language))
        new = archive.load(find_release(archive, new_ref, language))
        pairs = [
            (p.old.text, p.new.text) for p in align_rules(old.rules, new.rules) if p.old and p.new
        ]
        # Neighbours are unrelated rules: low scores must agree too.
        pairs += [(a.text, b.text) for a, b in zip(new.rules, new.rules[1:], strict=False)]
        for old_text, new_text in pairs[::7]:
            assert similarity(old_text, new_text, floor=0.0) == reference_similarity(
                old_text, new_text
            ), (old_text, new_text)
            compared += 1
    assert compared > 1000
