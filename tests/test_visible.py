"""Characters a reader does not see (spacy_negation.visible): the format
characters and ANSI escape sequences that the negation components read past."""
import unicodedata

import pytest

from spacy_negation.visible import FORMAT_CHARS, has_hidden, hidden_spans, visible


def _format_chars() -> list:
    """Every character of FORMAT_CHARS' ranges."""
    chars, k = [], 0
    while k < len(FORMAT_CHARS):
        if k + 2 < len(FORMAT_CHARS) and FORMAT_CHARS[k + 1] == "-":
            chars += [chr(c) for c in range(ord(FORMAT_CHARS[k]), ord(FORMAT_CHARS[k + 2]) + 1)]
            k += 3
        else:
            chars.append(FORMAT_CHARS[k])
            k += 1
    return chars


def test_the_format_characters_are_unicode_format_characters():
    """Each is of category Cf, and the ones named by the issue are among them; letters,
    digits, spaces, punctuation and other symbols (U+FFFD) are not."""
    chars = _format_chars()
    assert len(chars) > 50
    assert [c for c in chars if unicodedata.category(c) != "Cf"] == []
    assert {"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"} <= set(chars)
    for kept in "aZ09 \t\n.,;-\u00e9\u4e2d\ufffd\u2013":
        assert not has_hidden(kept), repr(kept)


@pytest.mark.parametrize("text,shown", [
    ("not\u200b", "not"),
    ("\ufeffNo", "No"),
    ("un\u00adhappy", "unhappy"),
    ("\u2060not\u200d\u200c", "not"),
    ("\x1b[31mHe", "He"),
    ("\x1b[1;31mHe", "He"),
    ("not\x1b[0", "not"),  # spaCy cuts "\x1b[0m" after "0"
    ("not\x1b[0m", "not"),
    ("\x1b]0;title\x07not", "not"),
    ("\x1bcnot\x1b", "cnot"),  # a lone ESC goes; what follows it is text unless it is a sequence
    ("not", "not"),
])
def test_visible(text, shown):
    assert visible(text) == shown


def test_an_ansi_sequence_is_found_across_the_tokens_spacy_cuts_it_into():
    text = "\x1b[31mHe did not\x1b[0m go."
    assert [text[s:e] for s, e in hidden_spans(text)] == ["\x1b[31m", "\x1b[0m"]
    assert visible(text) == "He did not go."
