"""Affixal cue augmentation (spacy_negation.corpora.cue_augment, concat_docbins.py --affixal)."""
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Doc, DocBin

from spacy_negation.corpora.cue_augment import (AffixalWord, affixal_copies, affixal_cue, affixal_cue_words,
                                                is_excluded, load_affixal_lexicon, substitute)
from spacy_negation.negation import get_convention, get_negations, set_convention, set_negations


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def unhappy(nlp, word: str = "unhappy", tag: str = "JJ") -> Doc:
    """ "She was not WORD ." with the CD-SCO annotation of both cues: *not* scoping over
    the subject, the verb and the whole WORD; its affix scoping over the rest of WORD."""
    words = ["She", "was", "not", word, "."]
    doc = Doc(nlp.vocab, words=words, spaces=[True, True, True, False, False], tags=["PRP", "VBD", "RB", tag, "."],
              lemmas=["she", "be", "not", word.lower(), "."], sent_starts=[True, False, False, False, False])
    entry = load_affixal_lexicon()
    assert entry  # the shipped lexicon loads
    lower = word.lower()
    cue, rest = ((lower.rindex("less"), lower.rindex("less") + 4), (0, lower.rindex("less"))) if "less" in lower \
        else ((0, 2), (2, len(word)))
    set_negations(doc, [{"cue": [doc[2]], "scope": [doc[0], doc[1], doc[3]], "event": [doc[3]]},
                        {"cue": [(3, *cue)], "scope": [doc[0], doc[1], (3, *rest)], "event": [(3, *rest)]}])
    set_convention(doc, "cdsco")
    return doc


def test_shipped_lexicon_is_valid_and_holds_no_duplicate():
    lexicon = load_affixal_lexicon()
    words = [entry.word for entry in lexicon]
    assert len(words) == len(set(words)) >= 300
    assert {entry.affix for entry in lexicon} >= {"un", "in", "im", "il", "ir", "dis", "less"}
    assert {entry.cls for entry in lexicon} == {"adj", "adv", "noun"}


def test_affix_and_rest_of_prefix_and_suffix_words():
    assert AffixalWord("unkind", "un", "adj").cue == (0, 2) and AffixalWord("unkind", "un", "adj").rest == (2, 6)
    aimlessly = AffixalWord("aimlessly", "less", "adv")
    assert aimlessly.cue == (3, 7) and aimlessly.rest == (0, 3)


@pytest.mark.parametrize("row,reason", [
    ("unkind\tun", "2 fields"),
    ("unkind\tunn\tadj", "unknown affix 'unn'"),
    ("unkind\tun\tverb", "unknown class 'verb'"),
    ("kind\tun\tadj", "does not carry the affix 'un'"),
    ("helpful\tless\tadj", "does not carry the affix 'less'"),
    ("Unkind\tun\tadj", "is not one lower-case word"),
    ("unkind\tun\tadj\nunkind\tun\tadj", "'unkind' twice"),
])
def test_bad_lexicon_rows_are_coded_errors_with_file_and_line(tmp_path, row, reason):
    path = tmp_path / "lexicon.tsv"
    path.write_text("# comment\nunwise\tun\tadj\n" + row + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[NEG-E148\]") as err:
        load_affixal_lexicon(path)
    line = 4 if "twice" in reason else 3
    assert f"{path}:{line}: " in str(err.value) and reason in str(err.value)


def test_substitute_moves_affix_rest_and_whole_token(nlp):
    doc = unhappy(nlp)
    old = affixal_cue(doc, get_negations(doc)[1].cue)
    assert old == AffixalWord("unhappy", "un", "adj")
    new = substitute(doc, 3, old, AffixalWord("inexact", "in", "adj"))
    assert new.text == "She was not inexact." and len(new) == len(doc)
    outer, inner = get_negations(new)
    assert [t.text for t in outer.scope_tokens] == ["She", "was", "inexact"] and outer.text("event") == "inexact"
    assert inner.text("cue") == "in" and inner.text("scope") == "She was exact" and inner.text("event") == "exact"
    assert new[3].lemma_ == "inexact" and new[3].tag_ == "JJ" and new[0].lemma_ == "she"
    assert get_convention(new) == "cdsco" and new[0].is_sent_start
    assert doc.text == "She was not unhappy."  # the original is untouched


def test_substitute_suffix_and_case(nlp):
    doc = unhappy(nlp, "Carelessly", tag="RB")
    old = affixal_cue(doc, get_negations(doc)[1].cue)
    assert old == AffixalWord("carelessly", "less", "adv")
    new = substitute(doc, 3, old, AffixalWord("aimlessly", "less", "adv"))
    inner = get_negations(new)[1]
    assert new[3].text == "Aimlessly" and inner.text("cue") == "less" and inner.text("scope") == "She was Aim"


def test_a_part_that_cannot_be_moved_gives_no_copy(nlp):
    doc = unhappy(nlp)
    negs = get_negations(doc)
    set_negations(doc, [*negs, {"cue": [doc[0]], "scope": [(3, 0, 4)]}])
    assert substitute(doc, 3, AffixalWord("unhappy", "un", "adj"), AffixalWord("unkind", "un", "adj")) is None


def test_affixal_cue_only_for_known_affixes(nlp):
    doc = nlp("It is nonsense and unhappy")
    assert affixal_cue(doc, [get_part(doc, 2, 0, 3)]) is not None  # non
    assert affixal_cue(doc, [get_part(doc, 4, 0, 2)]) == AffixalWord("unhappy", "un", "adj")
    assert affixal_cue(doc, [get_part(doc, 4, 0, 7)]) is None  # a whole token
    assert affixal_cue(doc, [get_part(doc, 4, 2, 4)]) is None  # not an affix at the start
    assert affixal_cue(doc, [get_part(doc, 4, 0, 2), get_part(doc, 2, 0, 3)]) is None  # two parts


def get_part(doc, i, start, end):
    from spacy_negation.alignment import Part

    return Part(i, start, end)


def test_exclusion_covers_extensions_both_ways():
    assert is_excluded("unusually", {"unusual"}) and is_excluded("unlike", {"unlikely"})
    assert not is_excluded("unkind", {"unkempt"})


def test_affixal_copies_are_sentences_with_replaced_words_never_excluded(nlp):
    first = unhappy(nlp)
    two = Doc(nlp.vocab, words=["It", "rained", ".", *[t.text for t in first]],
              spaces=[True, False, True, True, True, True, False, False],
              tags=["PRP", "VBD", ".", *[t.tag_ for t in first]],
              sent_starts=[True, False, False, True, False, False, False, False])
    set_negations(two, [{"cue": [(6, 0, 2)], "scope": [two[3], two[4], (6, 2, 7)], "event": [(6, 2, 7)]}])
    plain = nlp("Nothing to see")
    lexicon = [AffixalWord("unkind", "un", "adj"), AffixalWord("unwise", "un", "adj"),
               AffixalWord("unkindly", "un", "adv"), AffixalWord("aimless", "less", "adj"),
               AffixalWord("unhappy", "un", "adj")]
    copies = list(affixal_copies([two, plain], lexicon, copies=20, seed=3, exclude={"unwis"}))
    assert len(copies) == 20
    assert {c.text for c in copies} == {"She was not unkind."}  # same class and position, not unwise, not itself
    (neg,) = get_negations(copies[0])
    assert neg.text("cue") == "un" and neg.text("scope") == "She was kind"
    with pytest.raises(ValueError, match=r"\[NEG-E149\]"):
        list(affixal_copies([two], lexicon, copies=0))
    with pytest.raises(ValueError, match=r"\[NEG-E149\]"):
        list(affixal_copies([two], lexicon, copies=True))
    assert affixal_cue_words([two, plain]) == {"unhappy"}


def test_concat_docbins_affixal_leaves_out_the_held_out_words(nlp, run_script, tmp_path):
    train = DocBin(store_user_data=True, docs=[unhappy(nlp), unhappy(nlp, "useless")])
    train.to_disk(tmp_path / "train.spacy")
    held_out = DocBin(store_user_data=True, docs=[unhappy(nlp, "unkind")])
    held_out.to_disk(tmp_path / "test.spacy")
    proc = run_script("concat_docbins.py", tmp_path / "train.spacy", "--output", tmp_path / "out.spacy",
                      "--affixal", "3", "--affixal-exclude-from", tmp_path / "test.spacy")
    assert proc.returncode == 0, proc.stderr
    assert "added 6 affixal copies (1 held-out affixal words left out)" in proc.stdout
    docs = list(DocBin().from_disk(tmp_path / "out.spacy").get_docs(nlp.vocab))
    assert [d.text for d in docs[:2]] == ["She was not unhappy.", "She was not useless."]
    replaced = [d[3].text for d in docs[2:]]
    assert len(replaced) == 6 and "unkind" not in replaced and not {"unhappy", "useless"} & set(replaced)
    assert all(w.endswith("less") for w in replaced[3:]) and all(get_negations(d) for d in docs[2:])
    lexicon = load_affixal_lexicon()
    assert set(replaced) <= {e.word for e in lexicon}
