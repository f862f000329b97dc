"""A text cut at spans and woven back: each span's text rendered by `link`, the rest by
`plain`, a span overlapping the one before left out."""

from rulesarchive.site_builder.spans import cut_at_spans, weave

TEXT = "See rule 100.1 and rules 100.2-3."


def test_a_text_is_cut_at_its_spans_and_the_rest_is_kept():
    spans = [(9, 14, "a"), (25, 30, "b"), (31, 32, "c")]
    assert cut_at_spans(TEXT, spans) == (
        (("See rule ", "100.1", "a"), (" and rules ", "100.2", "b"), ("-", "3", "c")),
        ".",
    )
    assert cut_at_spans(TEXT, []) == ((), TEXT)


def test_a_span_starting_inside_the_one_before_is_left_out():
    assert cut_at_spans(TEXT, [(9, 14, "a"), (12, 20, "b"), (14, 18, "c")]) == (
        (("See rule ", "100.1", "a"), ("", " and", "c")),
        " rules 100.2-3.",
    )


def test_weave_renders_the_pieces_in_the_texts_order():
    seen = []

    def plain(piece: str) -> str:
        seen.append(piece)
        return piece.upper()

    woven = weave(TEXT, [(9, 14, "r1")], plain, lambda shown, value: f"<{value}:{shown}>")
    assert woven == "SEE RULE <r1:100.1> AND RULES 100.2-3."
    assert seen == ["See rule ", " and rules 100.2-3."]
