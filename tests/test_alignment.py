"""The alignment module: one tokenization's character ranges onto another's tokens."""
import subprocess
import sys
from typing import List, Optional

import pytest
from spacy.tokens import Doc
from spacy.vocab import Vocab

from spacy_negation.alignment import (CharIndex, CharProjection, Part, TokenOffsets, char_map,
                                      map_range, project_parts)


@pytest.fixture(scope="module")
def vocab() -> Vocab:
    return Vocab()


def _doc(vocab: Vocab, words: List[str], spaces: Optional[List[bool]] = None) -> Doc:
    return Doc(vocab, words=words, spaces=spaces)


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
    offsets = TokenOffsets([0, 2, 9], [1, 8, 11])
    assert list(offsets.pieces(5, 8)) == [(1, 3, 6)]            # 'not' inside 'cannot'
    assert list(offsets.pieces(0, 11)) == [(0, 0, 1), (1, 0, 6), (2, 0, 2)]
    assert list(offsets.pieces(1, 2)) == []                    # whitespace only
    assert list(offsets.pieces(7, 10)) == [(1, 5, 6), (2, 0, 1)]


def test_token_offsets_of_a_doc(vocab: Vocab) -> None:
    offsets = TokenOffsets.of(_doc(vocab, ["I", "cannot", "go"]))
    assert offsets.starts == [0, 2, 9] and offsets.ends == [1, 8, 11]


def test_char_projection_onto_reference_tokens() -> None:
    ref = TokenOffsets([0, 3, 6], [2, 5, 9])
    same = CharProjection("It is not", "It is not", ref)
    assert same.pieces(3, 9) == ([(1, 0, 2), (2, 0, 3)], True)
    spaced = CharProjection("It  is NOT", "It is not", ref)  # whitespace and case differ
    assert spaced.pieces(7, 10) == ([(2, 0, 3)], True)
    assert spaced.pieces(2, 4) == ([], True)  # whitespace only
    other = CharProjection("It is nut", "It is not", ref)  # 'u' is not the reference's 'o'
    assert other.pieces(6, 9) == ([(2, 0, 1), (2, 2, 3)], False)


def test_char_index_counts_non_space_characters(vocab: Vocab) -> None:
    doc = _doc(vocab, ["It", " ", "is", "not"], [True, False, True, False])  # "It  is not"
    index = CharIndex(doc)
    assert index.starts == [0, 2, 2, 4] and index.ends == [2, 2, 4, 7]
    assert index.part_range(Part(3, 1, 3)) == (5, 7)
    assert index.project(0, 7) == [Part(0, 0, 2), Part(2, 0, 2), Part(3, 0, 3)]  # " " skipped
    assert index.project(5, 6) == [Part(3, 1, 2)]


def test_project_parts_across_tokenizations(vocab: Vocab) -> None:
    ref = _doc(vocab, ["I", "cannot", "go"])
    pred = _doc(vocab, ["I", "can", "not", "go"], [True, False, True, False])
    ref_index, pred_index = CharIndex(ref), CharIndex(pred)
    # the affix 'not' of 'cannot' is the whole predicted token 'not'
    assert project_parts([Part(1, 3, 6)], ref_index, pred_index) == [Part(2, 0, 3)]
    assert project_parts([Part(2, 0, 3)], pred_index, ref_index) == [Part(1, 3, 6)]
    # two predicted parts on one reference token merge into their covering range
    both = [Part(1, 0, 3), Part(2, 0, 3)]
    assert project_parts(both, pred_index, ref_index) == [Part(1, 0, 6)]
    assert project_parts([Part(1, 0, 6), Part(2, 0, 2)], ref_index, pred_index) == [
        Part(1, 0, 3), Part(2, 0, 3), Part(3, 0, 2)]


def test_project_parts_ignores_whitespace_differences(vocab: Vocab) -> None:
    ref = _doc(vocab, ["It", "is", "not"])
    pred = _doc(vocab, ["It", " ", "is", "NOT"], [True, False, True, False])
    assert project_parts([Part(2, 0, 3)], CharIndex(ref), CharIndex(pred)) == [Part(3, 0, 3)]
    assert project_parts([Part(2, 0, 2)], CharIndex(pred), CharIndex(ref)) == [Part(1, 0, 2)]


def test_imports_no_spacy_and_works_on_plain_tokens() -> None:
    code = """
import sys
from types import SimpleNamespace as NS
from spacy_negation.alignment import CharIndex, Part, project_parts
tokens = [NS(i=0, idx=0, text="I"), NS(i=1, idx=2, text="cannot")]
class Doc:
    text = "I cannot"
    def __iter__(self):
        return iter(tokens)
    def __getitem__(self, i):
        return tokens[i]
index = CharIndex(Doc())
print(project_parts([Part(1, 3, 6)], index, index), Part.whole(tokens[1]), "spacy" in sys.modules)
"""
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.stdout.strip() == (
        "[Part(i=1, start=3, end=6)] Part(i=1, start=0, end=6) False"), res.stderr
