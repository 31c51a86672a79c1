"""The docs the negation component sends to its model (spacy_negation.pipeline.host_docs):
a host doc with characters a reader does not see (a zero-width space or an ANSI colour
code glued to a cue) gets the negations of its visible text, on the host's own tokens and
character offsets; text without them is sent as it was."""
from pathlib import Path
from typing import List, Tuple

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc

from spacy_negation import get_negations
from spacy_negation.alignment import Part
from spacy_negation.pipeline.host_docs import TokenMap, VisibleTokens
from spacy_negation.visible import visible

from util import TEXTS

#: Each gold text with a hidden character glued to its words, as the issue found them.
HIDING = {
    "zero-width space": lambda text: text.replace(" ", "\u200b ", 2),
    "ANSI colour": lambda text: f"\x1b[31m{text.rsplit(' ', 1)[0]}\x1b[0m {text.rsplit(' ', 1)[1]}" if " " in text else text,
    "byte order mark and word joiner": lambda text: "\ufeff" + text.replace(" ", " \u2060"),
    "soft hyphen": lambda text: text.replace("un", "un\u00ad"),
}


def _seen(doc: Doc) -> List[Tuple[Tuple[str, ...], Tuple[str, ...], Tuple[str, ...]]]:
    """The negations of a doc as the visible text of their parts."""
    return [tuple(tuple(visible(p.text(doc)) for p in neg.parts(role)) for role in ("cue", "scope", "event"))
            for neg in get_negations(doc)]


def _host(model: Path) -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("negation", config={"model": str(model)})
    return nlp


@pytest.fixture(scope="module")
def prefiltered_dir(trained_cnn_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model with the sentence prefilter on, as the packaged models have it."""
    out = tmp_path_factory.mktemp("prefiltered") / "model"
    spacy.load(trained_cnn_dir, config={"components": {"negation_cue": {"prefilter": True}}}).to_disk(out)
    return out


@pytest.mark.parametrize("hiding", sorted(HIDING))
@pytest.mark.parametrize("prefilter", [False, True])
def test_hidden_characters_do_not_hide_a_negation(hiding, prefilter, trained_cnn_dir, prefiltered_dir):
    nlp = _host(prefiltered_dir if prefilter else trained_cnn_dir)
    texts = [HIDING[hiding](text) for text in TEXTS]
    assert texts != TEXTS
    clean = [_seen(doc) for doc in nlp.pipe(TEXTS)]
    assert sum(map(len, clean)) >= 8
    assert [_seen(doc) for doc in nlp.pipe(texts)] == clean


def test_the_issues_examples_keep_the_hosts_tokens_and_offsets(trained_cnn_dir):
    """'not\\u200b' and 'not\\x1b[0m' are the cue, as 'not' is; the parts are the host's
    tokens, whole tokens whole (hidden characters included), an affix's remainder after
    a soft hyphen starting after it."""
    nlp = _host(trained_cnn_dir)
    clean = nlp("He was not unkind.")
    zwsp = nlp("He was not\u200b unkind.")
    assert [t.text for t in zwsp] == ["He", "was", "not\u200b", "unkind", "."]
    assert [neg.cue for neg in get_negations(zwsp)] == [(Part(2, 0, 4),), (Part(3, 0, 2),)]
    assert [neg.scope for neg in get_negations(zwsp)] == [neg.scope for neg in get_negations(clean)]
    ansi = nlp("\x1b[31mHe was not\x1b[0m unkind.")
    assert [t.text for t in ansi] == ["\x1b[31mHe", "was", "not\x1b[0", "m", "unkind", "."]
    first, second = get_negations(ansi)
    assert first.cue == (Part(2, 0, 6),) and [p.i for p in first.scope] == [0, 1, 4]  # not the "m" of "\x1b[0m"
    assert first.scope[0] == Part(0, 0, 7)
    assert second.cue == (Part(4, 0, 2),)
    hyphen = nlp("He was un\u00adhappy.")
    (neg,) = get_negations(hyphen)
    assert neg.cue == (Part(2, 0, 2),) and Part(2, 3, 8) in neg.scope and neg.scope_text.endswith("happy")
    assert get_negations(nlp("\u200b \x1b[0m")) == []  # nothing visible: nothing sent


def test_a_host_with_sentence_boundaries(prefiltered_dir):
    """The host's sentences are kept (a start on a token left out passes to the next)."""
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("negation", config={"model": str(prefiltered_dir)})
    text = "The dog barked loudly. No one came to the party. He was not unkind."
    hidden = "\x1b[0m The dog\u200b barked loudly. \x1b[1mNo\x1b[0m one came to the party. He was not\u200b unkind."
    assert _seen(nlp(hidden)) == _seen(nlp(text)) and len(_seen(nlp(text))) == 3
    shown = VisibleTokens.of_doc(nlp.make_doc(hidden))
    assert shown is not None and shown.sent_starts is None
    doc = nlp(hidden)
    assert [s.text for s in doc.sents][1].startswith("\x1b[1mNo")


def test_the_model_used_directly_reads_past_them_in_its_prefilter(prefiltered_dir):
    """The model pipeline used without the host: its prefilter and word look-ups read a
    token's visible text, so the sentence of 'not\u200b' reaches the network."""
    nlp = spacy.load(prefiltered_dir)
    cue = nlp.get_pipe("negation_cue")
    doc = nlp.make_doc("He was not\u200b there.")
    assert cue.candidate_sentences(doc) == [(0, 5)]
    assert [neg.cue_text for neg in get_negations(nlp("He was not\u200b unkind."))] == ["not\u200b", "un"]


def test_visible_tokens_of_a_doc():
    nlp = spacy.blank("en")
    doc = nlp("\x1b[31mHe did not\x1b[0m go.")
    shown = VisibleTokens.of_doc(doc)
    assert shown is not None
    assert shown.words == ["He", "did", "not", "go", "."]
    assert shown.index == [0, 1, 2, 4, 5] and shown.spaces == [True, True, True, False, False]
    assert shown.chars[0] == [5, 6] and shown.chars[2] == [0, 1, 2] and shown.chars[1] is None
    assert shown.sent_starts is None
    assert VisibleTokens.of_doc(nlp("He did not go.")) is None
    piece = shown.placement(2, 4)
    assert piece == TokenMap(["not", "go"], [2, 4], [[0, 1, 2], None], [6, 2])
    assert piece.part(Part(0, 0, 3)) == Part(2, 0, 6) and piece.part(Part(0, 1, 2)) == Part(2, 1, 2)
    assert piece.span(0, 2) == (2, 5)


def test_plain_text_is_sent_as_it_was(trained_cnn_dir):
    """Without hidden characters the pieces are placed by offsets, as before."""
    nlp = _host(trained_cnn_dir)
    resolver = nlp.get_pipe("negation")
    pieces = resolver.model_pieces(nlp.make_doc("He was not unkind."), resolver.cue)
    assert [(piece.text, where) for piece, where in pieces] == [("He was not unkind.", 0)]


def test_a_lone_surrogate_never_reaches_the_component(trained_cnn_dir):
    """spaCy cannot store a lone surrogate: the tokenizer fails before any component runs
    and no doc can be built to hold one (so the host never meets one); the replacement
    docs/components.md gives makes the text a doc with its negation."""
    nlp = _host(trained_cnn_dir)
    text = "He was not\ud800 unkind."
    with pytest.raises(UnicodeEncodeError):
        nlp.make_doc(text)
    with pytest.raises(UnicodeEncodeError):
        Doc(nlp.vocab, words=["He", "was", "not\ud800"])
    cleaned = text.encode("utf-8", "replace").decode("utf-8")
    assert [neg.cue_text for neg in get_negations(nlp(cleaned))][:1] == ["not"]
