"""Lexical cue substitution (spacy_negation.corpora.cue_lexicon and cue_substitute, scripts/substitute_cues.py):
the shipped lexicon and its splits, offsets and scopes moved onto the new words, held-out
words never written."""
from collections import Counter
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import re

import pytest
import spacy
from spacy.tokens import Doc, DocBin

from spacy_negation.corpora.cue_lexicon import CueWord, load_negation_lexicon
from spacy_negation.corpora.cue_substitute import (SUBSTITUTION_KEY, lexical_cues, replacement_pools, substitute,
                                                   substituted_copies)
from spacy_negation.corpora.docs import META_KEY
from spacy_negation.negation import get_convention, get_negations, set_convention, set_negations

#: A small lexicon for the tests: multiword and bracketed words in both directions.
TEST_LEXICON = """# test lexicon
nothing\tpron\ttrain\tnothing
not a thing\tpron\ttrain\tnot a thing
nobody\tpron\theldout\tnobody
without\tprep\ttrain\twithout
free [of]\tprep\ttrain\tfree
negative [for]\tprep\ttrain\tnegative
lack\tverb_obj.base\ttrain\tlack
rule out\tverb_obj.base\ttrain\trule out
deny\tverb_obj.base\theldout\tdeny
not\tadv\ttrain\tnot
never\tadv\ttrain\tnever
"""

Parts = List[Tuple[int, int, int]]


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


@pytest.fixture
def lexicon(tmp_path) -> List[CueWord]:
    path = tmp_path / "lexicon.tsv"
    path.write_text(TEST_LEXICON, encoding="utf-8")
    return load_negation_lexicon(path)


def entry(lexicon: Sequence[CueWord], text: str) -> CueWord:
    return next(e for e in lexicon if e.text == text)


def make(nlp, words: List[str], negations: List[Dict[str, Parts]], convention: Optional[str] = "bioscope",
         **attrs) -> Doc:
    spaces = [i + 1 < len(words) and words[i + 1] not in {".", ","} for i in range(len(words))]
    doc = Doc(nlp.vocab, words=words, spaces=spaces, sent_starts=[True] + [False] * (len(words) - 1), **attrs)
    set_negations(doc, negations)
    set_convention(doc, convention)
    return doc


def w(words: Sequence[str], *idx: int) -> Parts:
    return [(i, 0, len(words[i])) for i in idx]


def texts(doc: Doc) -> List[Tuple[str, str, str]]:
    return [(n.cue_text, n.scope_text, n.text("event")) for n in get_negations(doc)]


def check_offsets(doc: Doc) -> None:
    """Every part's character offsets read the part's text in the doc's text."""
    for neg in get_negations(doc):
        for role in ("cue", "scope", "event"):
            for p in neg.parts(role):
                start, end = p.offsets(doc)
                assert doc.text[start:end] == p.text(doc)


# --- the lexicon ------------------------------------------------------------------------------

def test_shipped_lexicon_splits_never_mix_and_hold_the_missed_words():
    lexicon = load_negation_lexicon()
    by_split: Dict[str, set] = {"train": set(), "heldout": set()}
    lemmas: Dict[str, set] = {"train": set(), "heldout": set()}
    for e in lexicon:
        by_split[e.split].add(e.key)
        lemmas[e.split].add(e.lemma)
    assert not by_split["train"] & by_split["heldout"] and not lemmas["train"] & lemmas["heldout"]
    # the words the default model misses are held out, to measure generalisation to them
    assert {"denies", "denied", "nobody", "free", "ruled out", "negative", "refuses"} <= by_split["heldout"]
    assert {"not", "no", "never", "without", "lack", "lacks", "fails", "absent", "nor", "nothing"} <= by_split["train"]
    assert {e.cls for e in lexicon} >= {"det", "pron", "adv", "conj", "prep", "adj", "noun", "verb_obj.3sg",
                                        "verb_inf.past"}
    free = next(e for e in lexicon if e.key == "free")
    assert free.cue_words == ("free",) and free.after == ("of",) and free.text == "free [of]"
    pools = replacement_pools(lexicon)
    assert all(e.split == "train" for pool in pools.values() for e in pool)
    assert {e.key for e in pools["verb_obj.3sg"]} == {"lacks", "excludes", "prevents"}


@pytest.mark.parametrize("row,reason", [
    ("nobody\tpron\ttrain", "3 fields"),
    ("Nobody\tpron\ttrain\tnobody", "is not lower-case words"),
    ("[of] free\tprep\ttrain\tfree", "is not lower-case words"),
    ("nobody\tpronoun\ttrain\tnobody", "unknown class 'pronoun'"),
    ("nobody\tpron\ttest\tnobody", "unknown split 'test'"),
    ("nobody\tpron\ttrain\tNobody", "the lemma 'Nobody' is not lower case"),
    ("nothing\tpron\ttrain\tnothing", "'nothing' of the class 'pron' twice"),
])
def test_bad_lexicon_rows_are_coded_errors_with_file_and_line(tmp_path, row, reason):
    path = tmp_path / "lexicon.tsv"
    path.write_text("# comment\nnothing\tpron\ttrain\tnothing\n" + row + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[NEG-E980\]") as err:
        load_negation_lexicon(path)
    assert f"{path}:3: " in str(err.value) and reason in str(err.value)


@pytest.mark.parametrize("rows,what", [
    ("deny\tverb_obj.base\theldout\tdeny\ndenies\tverb_obj.3sg\ttrain\tdeny\n", "lemma 'deny'"),
    ("negative\tadj\ttrain\tnegative\nnegative [for]\tprep\theldout\tneg\n", "cue 'negative'"),
])
def test_a_lemma_or_a_cue_in_both_splits_is_refused(tmp_path, rows, what):
    path = tmp_path / "lexicon.tsv"
    path.write_text(rows, encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[NEG-E981\]") as err:
        load_negation_lexicon(path)
    assert what in str(err.value) and "lines 1, 2" in str(err.value)


# --- substitution -----------------------------------------------------------------------------

def test_single_token_cue_by_multiword_cue_shifts_the_later_parts(nlp, lexicon):
    words = ["Cells", "lack", "the", "receptor", "and", "did", "not", "divide", "."]
    doc = make(nlp, words, [{"cue": w(words, 1), "scope": w(words, 2, 3)},
                            {"cue": w(words, 6), "scope": w(words, 0, 5, 7)}])
    match, not_ = lexical_cues(doc, lexicon)
    assert (match.start, match.end, match.entry.key) == (1, 2, "lack") and not_.entry.key == "not"
    new = substitute(doc, match, entry(lexicon, "rule out"))
    assert new.text == "Cells rule out the receptor and did not divide."
    assert texts(new) == [("rule out", "the receptor", ""), ("not", "Cells did divide", "")]
    first, second = get_negations(new)
    assert first.cue_offsets == [(6, 14)] and [p.i for p in second.scope] == [0, 6, 8]
    assert second.cue_offsets == [(new.text.index(" not ") + 1, new.text.index(" not ") + 4)]
    check_offsets(new)
    assert new.user_data[SUBSTITUTION_KEY] == {"old": "lack", "new": "rule out"}
    assert get_convention(new) == "bioscope" and doc.text.startswith("Cells lack")  # original untouched
    back = substitute(new, lexical_cues(new, lexicon)[0], entry(lexicon, "lack"))
    assert back.text == doc.text and texts(back) == texts(doc)


def test_bracketed_words_join_the_scope_both_ways(nlp, lexicon):
    words = ["Cells", "without", "the", "receptor", "died", "."]
    doc = make(nlp, words, [{"cue": w(words, 1), "scope": w(words, 2, 3)}])
    new = substitute(doc, lexical_cues(doc, lexicon)[0], entry(lexicon, "free [of]"))
    assert new.text == "Cells free of the receptor died." and texts(new) == [("free", "of the receptor", "")]
    check_offsets(new)
    words = ["Culture", "negative", "for", "fungi", "."]
    doc = make(nlp, words, [{"cue": w(words, 1), "scope": w(words, 2, 3)}])
    match, = lexical_cues(doc, lexicon)
    assert match.entry.text == "negative [for]" and (match.start, match.end) == (1, 3)
    new = substitute(doc, match, entry(lexicon, "without"))
    assert new.text == "Culture without fungi." and texts(new) == [("without", "fungi", "")]
    check_offsets(new)
    # the scope does not reach the words after the cue: the bracketed words stay out of it
    words = ["Without", "doubt", ",", "it", "died", "."]
    doc = make(nlp, words, [{"cue": w(words, 0), "scope": []}])
    new = substitute(doc, lexical_cues(doc, lexicon)[0], entry(lexicon, "free [of]"))
    assert new.text == "Free of doubt, it died." and texts(new) == [("Free", "", "")]


def test_another_scope_over_the_replaced_cue_holds_every_new_word(nlp, lexicon):
    words = ["He", "did", "not", "say", "that", "nothing", "happened", "."]
    doc = make(nlp, words, [{"cue": w(words, 2), "scope": w(words, 0, 1, 3, 4, 5, 6), "event": w(words, 3)},
                            {"cue": w(words, 5), "scope": w(words, 6), "event": w(words, 6)}], convention="cdsco")
    match = next(m for m in lexical_cues(doc, lexicon) if m.entry.key == "nothing")
    new = substitute(doc, match, entry(lexicon, "not a thing"))
    assert new.text == "He did not say that not a thing happened."
    assert texts(new) == [("not", "He did say that not a thing happened", "say"),
                          ("not a thing", "happened", "happened")]
    check_offsets(new)
    # "not" after "did" is never replaced by an adverb that takes no do-support
    assert list(substituted_copies([doc], [e for e in lexicon if e.cls == "adv"], copies=3)) == []


def test_parts_that_cannot_be_moved_give_no_copy(nlp, lexicon):
    words = ["Nothing", "unusual", "happened", "."]
    # a part inside the replaced token
    doc = make(nlp, words, [{"cue": w(words, 0), "scope": w(words, 1, 2)},
                            {"cue": [(1, 0, 2)], "scope": [(1, 2, 7), (0, 0, 3)]}], convention="cdsco")
    match = next(m for m in lexical_cues(doc, lexicon) if m.entry.key == "nothing")
    assert substitute(doc, match, entry(lexicon, "not a thing")) is None
    # the matched negation's event on its own cue
    doc = make(nlp, words, [{"cue": w(words, 0), "scope": w(words, 1, 2), "event": w(words, 0)}],
               convention="cdsco")
    assert substitute(doc, lexical_cues(doc, lexicon)[0], entry(lexicon, "not a thing")) is None


def test_affixal_and_discontinuous_cues_are_not_lexical_cues(nlp, lexicon):
    words = ["Not", "he", "nor", "she", "was", "unkind", "."]
    doc = make(nlp, words, [{"cue": w(words, 0, 2), "scope": w(words, 1, 3, 4)},
                            {"cue": [(5, 0, 2)], "scope": [(5, 2, 6)]}], convention="cdsco")
    assert lexical_cues(doc, lexicon) == []


def test_tags_lemmas_case_sentence_starts_and_parse_are_kept(nlp, lexicon):
    words = ["NOTHING", "was", "found", "."]
    doc = make(nlp, words, [{"cue": w(words, 0), "scope": w(words, 1, 2)}], convention="cdsco",
               tags=["NN", "VBD", "VBN", "."], lemmas=["nothing", "be", "find", "."])
    doc.user_data[META_KEY] = {"doc_ids": ["d1"], "sent_nos": ["3"], "parse": ["(S(NP*)", "(VP*", "(VP*))", "*)"]}
    new = substitute(doc, lexical_cues(doc, lexicon)[0], entry(lexicon, "not a thing"))
    assert new.text == "NOT A THING was found."
    assert [t.tag_ for t in new] == ["NN", "NN", "NN", "VBD", "VBN", "."]
    assert [t.lemma_ for t in new] == ["not", "a", "thing", "be", "find", "."]
    assert [bool(t.is_sent_start) for t in new] == [True, False, False, False, False, False]
    meta = new.user_data[META_KEY]
    assert meta["doc_ids"] == ["d1"] and meta["parse"] == ["(S(NP*", "*", "*)", "(VP*", "(VP*))", "*)"]
    assert "".join(meta["parse"]).count("(") == "".join(meta["parse"]).count(")")
    assert texts(new) == [("NOT A THING", "was found", "")]


def test_copies_never_write_heldout_or_excluded_words(nlp, lexicon):
    docs = []
    for k in range(30):
        words = ["Nobody", "saw", f"it{k}", "."] if k % 2 else ["Cells", "lack", f"gene{k}", "."]
        docs.append(make(nlp, words, [{"cue": w(words, 1 if k % 2 == 0 else 0), "scope": w(words, 2)}]))
    written: Counter = Counter()
    for seed in range(5):
        for copy in substituted_copies(docs, lexicon, copies=2, seed=seed):
            written[copy.user_data[SUBSTITUTION_KEY]["new"]] += 1
            assert copy.user_data[SUBSTITUTION_KEY]["new"] not in {"nobody", "deny"}
            check_offsets(copy)
    assert set(written) == {"rule out", "nothing", "not a thing"}  # "lack" -> "rule out"; "Nobody" -> train words
    copies = list(substituted_copies(docs, lexicon, copies=2, seed=0, exclude=["not"]))
    assert {c.user_data[SUBSTITUTION_KEY]["new"] for c in copies} == {"rule out", "nothing"}  # not a thing holds "not"
    assert all(c.user_data[SUBSTITUTION_KEY]["old"] in {"lack", "nobody"} for c in copies)
    # deterministic for a seed, in the docs' order
    again = list(substituted_copies(docs, lexicon, copies=2, seed=0, exclude=["not"]))
    assert [c.text for c in again] == [c.text for c in copies]
    sources = [int(re.search(r"(?:gene|it)(\d+)", c.text).group(1)) for c in copies]
    assert sources == sorted(sources) and len(set(sources)) > 10


def test_ratio_and_the_limit_per_word(nlp, lexicon):
    docs = []
    for k in range(40):
        words = ["Cells", "lack", f"gene{k}", "."]
        docs.append(make(nlp, words, [{"cue": w(words, 1), "scope": w(words, 2)}]))
    assert len(list(substituted_copies(docs, lexicon, copies=2))) == 80
    assert len(list(substituted_copies(docs, lexicon, copies=2, max_per_word=7))) == 7
    some = len(list(substituted_copies(docs, lexicon, ratio=0.5, seed=3)))
    assert 5 < some < 35


@pytest.mark.parametrize("kwargs", [{"copies": 0}, {"copies": True}, {"ratio": 0.0}, {"ratio": 1.5},
                                    {"max_per_word": 0}])
def test_bad_settings_are_coded_errors(lexicon, kwargs):
    with pytest.raises(ValueError, match=r"\[NEG-E982\]"):
        list(substituted_copies([], lexicon, **kwargs))


def test_script_writes_inputs_then_copies_marked_with_their_convention(nlp, run_script, tmp_path):
    words = ["Patients", "lack", "symptoms", "."]
    docs = [make(nlp, words, [{"cue": w(words, 1), "scope": w(words, 2)}], convention=None) for _ in range(3)]
    DocBin(store_user_data=True, docs=docs).to_disk(tmp_path / "in.spacy")
    out = tmp_path / "out" / "train.spacy"
    proc = run_script("substitute_cues.py", f"bioscope={tmp_path / 'in.spacy'}", "--output", out, "--copies", "1")
    assert proc.returncode == 0, proc.stderr
    assert "3 docs and 3 copies" in proc.stdout and ("exclude" in proc.stdout or "prevent" in proc.stdout)
    got = list(DocBin().from_disk(out).get_docs(nlp.vocab))
    assert [d.text for d in got[:3]] == [d.text for d in docs]
    assert all(get_convention(d) == "bioscope" for d in got) and len(got) == 6
    assert {d.text.split()[1] for d in got[3:]} <= {"exclude", "prevent"}  # verb_obj.base, train


def test_a_copy_keeps_whether_its_sentence_annotates_speculation(nlp, lexicon):
    from spacy_negation.negation import SPECULATIONS_KEY, set_speculations

    words = ["Cells", "lack", "the", "receptor", "."]
    plain = make(nlp, words, [{"cue": w(words, 1), "scope": w(words, 2, 3)}])
    annotated = make(nlp, words, [{"cue": w(words, 1), "scope": w(words, 2, 3)}])
    set_speculations(annotated, [])  # speculation annotated, none in this sentence
    for doc, expected in ((plain, False), (annotated, True)):
        new = substitute(doc, lexical_cues(doc, lexicon)[0], entry(lexicon, "without"))
        assert (SPECULATIONS_KEY in new.spans) is expected
