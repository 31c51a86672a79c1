"""The alignment module: one tokenization's character ranges onto another's tokens."""
import subprocess
import sys

from spacy_negation.alignment import TokenOffsets, char_map, map_range


def test_equal_texts_map_to_none() -> None:
    assert char_map("It is not", "It is not") is None
    assert map_range(None, "It is not", 6, 9) == ([(6, 9)], True)


def test_whitespace_and_case_differences_map_character_by_character() -> None:
    source, target = "It  is NOT", "It is not"
    m = char_map(source, target)
    assert m is not None
    assert [m[i] for i in (0, 1, 4, 5, 7, 8, 9)] == [0, 1, 3, 4, 6, 7, 8]
    assert m[2] == m[3] == -1  # whitespace maps nowhere
    assert map_range(m, source, 4, 10) == ([(3, 5), (6, 9)], True)


def test_other_texts_map_only_equal_characters_in_place() -> None:
    m = char_map("It is nut", "It is not")
    assert m is not None and m[7] == -1 and m[6] == 6 and m[8] == 8
    ranges, complete = map_range(m, "It is nut", 6, 9)
    assert ranges == [(6, 7), (8, 9)] and not complete


def test_token_offsets_pieces_inside_tokens() -> None:
    # "I cannot go" as reference tokens I | cannot | go
    offsets = TokenOffsets([0, 2, 9], ["I", "cannot", "go"])
    assert list(offsets.pieces(5, 8)) == [(1, 3, 6)]            # 'not' inside 'cannot'
    assert list(offsets.pieces(0, 11)) == [(0, 0, 1), (1, 0, 6), (2, 0, 2)]
    assert list(offsets.pieces(1, 2)) == []                    # whitespace only
    assert list(offsets.pieces(7, 10)) == [(1, 5, 6), (2, 0, 1)]


def test_imports_no_spacy() -> None:
    code = "import sys, spacy_negation.alignment; print('spacy' in sys.modules)"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.stdout.strip() == "False", res.stderr
