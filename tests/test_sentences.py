"""spacy_negation.sentences: the sentence ranges the components and models read."""
import random

import numpy
import pytest
import spacy
from spacy.tokens import Doc

from spacy_negation.sentences import sentence_ranges


def _reference(doc: Doc, max_tokens=None):
    """The ranges as Doc.sents yields them, cut at max_tokens."""
    ranges = [(s.start, s.end) for s in doc.sents] if doc.has_annotation("SENT_START") else [(0, len(doc))]
    if max_tokens is not None:
        ranges = [(at, min(at + max_tokens, end)) for start, end in ranges for at in range(start, end, max_tokens)]
    return ranges


@pytest.mark.parametrize("max_tokens", [None, 1, 3])
def test_sentence_ranges_are_those_of_doc_sents(max_tokens):
    vocab = spacy.blank("en").vocab
    rng = random.Random(0)
    for _ in range(500):
        n = rng.randint(1, 12)
        starts = [rng.choice([True, False, None]) for _ in range(n)]
        doc = Doc(vocab, words=["w"] * n, sent_starts=starts)
        ranges, of_token = sentence_ranges(doc, max_tokens)
        assert ranges == _reference(doc, max_tokens)
        assert of_token.dtype == numpy.int32 and len(of_token) == n
        assert [int(of_token[i]) for i in range(n)] == [k for k, (s, e) in enumerate(ranges) for _ in range(s, e)]


def test_sentence_ranges_of_empty_and_unsegmented_docs():
    vocab = spacy.blank("en").vocab
    ranges, of_token = sentence_ranges(Doc(vocab, words=[]))
    assert ranges == [] and of_token.shape == (0,)
    ranges, of_token = sentence_ranges(Doc(vocab, words=["a", "b", "c"]))
    assert ranges == [(0, 3)] and of_token.tolist() == [0, 0, 0]


def test_sentence_ranges_follow_a_sents_hook():
    doc = Doc(spacy.blank("en").vocab, words=["a", "b", "c", "d"], sent_starts=[True, False, False, False])
    doc.user_hooks["sents"] = lambda d: iter([d[0:1], d[1:4]])
    ranges, of_token = sentence_ranges(doc)
    assert ranges == [(0, 1), (1, 4)] and of_token.tolist() == [0, 1, 1, 1]
