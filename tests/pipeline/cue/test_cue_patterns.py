"""User cue lists (``cue_patterns``): validation with coded errors, matching, cues the
model never predicts, pseudo-negations, terminations and directions, serialization,
the host pipeline and multiprocessing."""
import json
import pickle
from pathlib import Path
from typing import Any, List, Optional, Tuple

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span, SpanGroup

from spacy_negation import Negation, get_negations, register_extensions, set_negations
from spacy_negation.errors import NegationFormatError
from spacy_negation.pipeline.cue.pattern_lists import KINDS, LISTS_DIR, load_cue_patterns, read_cue_patterns, shipped_lists
from spacy_negation.pipeline.cue.patterns import PATTERNS_KEY, CuePatterns, constrain_scopes

from util import negation_key

TEXTS = ["No one came to the party.", "The dog barked loudly.", "He was unhappy.", "", "I think not",
         "She denied the party was fun."]
#: A trigger the tiny model never predicts, a pseudo-negation over a cue it predicts, a
#: termination.
INLINE = [
    {"pattern": "denied", "kind": "preceding"},
    {"pattern": "unhappy", "kind": "pseudo"},
    {"pattern": "to", "kind": "termination"},
]


def _with_patterns(model_dir: Path, setting: Any) -> Language:
    return spacy.load(model_dir, config={"components": {"negation_cue": {"cue_patterns": setting}}})


def _summary(doc: Doc) -> List[Tuple[str, str]]:
    return [(neg.cue_text, neg.scope_text) for neg in get_negations(doc)]


def _scope_of_given_cue(nlp: Language, text: str, cue: int) -> Negation:
    """The negation the pipeline's scope component resolves for a cue set by hand."""
    doc = nlp.make_doc(text)
    set_negations(doc, [{"cue": [doc[cue]]}])
    for name, proc in nlp.pipeline:
        if name != "negation_cue":
            doc = proc(doc)
    (neg,) = get_negations(doc)
    return neg


@pytest.fixture(scope="module")
def plain(trained_cnn_dir) -> Language:
    return spacy.load(trained_cnn_dir)


# --- the cue and scope components -----------------------------------------------------
def test_user_cue_the_model_never_predicts_gets_its_scope_from_the_scope_model(trained_cnn_dir, plain):
    text = "The dog barked loudly."
    assert get_negations(plain(text)) == []
    by_hand = _scope_of_given_cue(plain, text, 2)
    assert {p.i for p in by_hand.scope} == {0, 1, 3}  # both sides of the cue
    nlp = _with_patterns(trained_cnn_dir, [{"pattern": "barked", "kind": "bidirectional"}])
    doc = nlp(text)
    (neg,) = get_negations(doc)
    assert (neg.cue, neg.scope, neg.event) == (by_hand.cue, by_hand.scope, by_hand.event)
    assert [(s.text, s.label_) for s in doc.spans[PATTERNS_KEY]] == [("barked", "BIDIRECTIONAL")]
    # a preceding trigger keeps the scope after the cue, a following one before it
    (after,) = get_negations(_with_patterns(trained_cnn_dir, [{"pattern": "barked", "kind": "preceding"}])(text))
    assert after.scope == tuple(p for p in by_hand.scope if p.i > 2)
    (before,) = get_negations(_with_patterns(trained_cnn_dir, [{"pattern": "barked", "kind": "following"}])(text))
    assert before.scope == tuple(p for p in by_hand.scope if p.i < 2)
    # a trigger replaces the model cues it overlaps; ids name the matches; ORTH is exact
    replaced = _with_patterns(trained_cnn_dir, [{"pattern": "No one", "kind": "preceding", "attr": "ORTH",
                                                 "id": "nobody"}])
    doc = replaced("No one came to the party.")
    assert [neg.cue_text for neg in get_negations(doc)] == ["No one"]
    assert [span.id_ for span in doc.spans[PATTERNS_KEY]] == ["nobody"]
    assert [neg.cue_text for neg in get_negations(replaced("no one came to the party."))] != ["no one"]
    # a token pattern (spaCy Matcher) works like a phrase
    token_nlp = _with_patterns(trained_cnn_dir, [{"pattern": [{"LOWER": {"IN": ["denies", "denied"]}}],
                                                  "kind": "preceding"}])
    assert [neg.cue_text for neg in get_negations(token_nlp("He denies it. She denied it."))] == ["denies", "denied"]


def test_pseudo_negation_suppresses_model_cues(trained_cnn_dir, plain):
    assert _summary(plain("He was unhappy.")) == [("un", "He was happy")]
    assert _summary(plain("No one came to the party.")) == [("No", "one came to the party")]
    nlp = _with_patterns(trained_cnn_dir, [{"pattern": "unhappy", "kind": "pseudo"},
                                           {"pattern": "no", "kind": "preceding"},
                                           {"pattern": "no one", "kind": "pseudo"}])
    for text in ("He was unhappy.", "No one came to the party."):
        doc = nlp(text)
        assert get_negations(doc) == []
        assert [s.label_ for s in doc.spans[PATTERNS_KEY]] == ["PSEUDO"]
    assert _summary(nlp("No dog came to the party."))[0][0] == "No"  # the trigger outside the pseudo


def test_termination_cuts_a_scope(trained_cnn_dir, plain):
    nlp = _with_patterns(trained_cnn_dir, [{"pattern": "to", "kind": "termination"}])
    doc = nlp("No one came to the party.")
    assert _summary(doc) == [("No", "one came")]  # a model cue, cut after its cue
    assert [(s.text, s.label_) for s in doc.spans[PATTERNS_KEY]] == [("to", "TERMINATION")]
    assert _summary(plain("No one came to the party.")) == [("No", "one came to the party")]


def test_constrain_scopes_by_direction_and_termination():
    doc = Doc(spacy.blank("en").vocab, words=list("abcdefgh"), sent_starts=[True] + [False] * 6 + [True])

    def scope_after(kind: Optional[str], terminations: List[int]) -> List[int]:
        spans = [Span(doc, t, t + 1, label="TERMINATION") for t in terminations]
        if kind is not None:
            spans.append(Span(doc, 3, 4, label=kind.upper()))
        doc.spans[PATTERNS_KEY] = SpanGroup(doc, name=PATTERNS_KEY, spans=spans)
        neg = Negation(doc, [doc[3]], [doc[i] for i in (0, 1, 2, 4, 5, 6)], [doc[2], doc[5]])
        (out,) = constrain_scopes(doc, [neg])
        assert {p.i for p in out.event} == {2, 5} & {p.i for p in out.scope}
        return [p.i for p in out.scope]

    assert scope_after(None, []) == [0, 1, 2, 4, 5, 6]
    assert scope_after("preceding", []) == [4, 5, 6]
    assert scope_after("following", []) == [0, 1, 2]
    assert scope_after("bidirectional", [1, 5]) == [2, 4]
    assert scope_after(None, [1, 5]) == [2, 4]  # a cue without a pattern: cut on both sides
    assert scope_after("preceding", [1, 5]) == [4]
    assert scope_after("following", [1, 7]) == [2]  # 7 is in the next sentence
    del doc.spans[PATTERNS_KEY]
    neg = Negation(doc, [doc[3]], [doc[0], doc[4]])
    assert constrain_scopes(doc, [neg]) == [neg]  # no patterns: unchanged


def test_a_trigger_without_model_scope_on_its_side_takes_contexts_scope():
    words = ["He", "coughs", ",", "blood", "cultures", "were", "negative", "today", "but", "fever", ",", "x", "."]
    doc = Doc(spacy.blank("en").vocab, words=words)

    def scope_of(kind: str, cue: Tuple[int, int], model_scope: List[int], terminations: List[int] = []) -> List[str]:
        spans = [Span(doc, t, t + 1, label="TERMINATION") for t in terminations]
        spans.append(Span(doc, cue[0], cue[1], label=kind.upper()))
        doc.spans[PATTERNS_KEY] = SpanGroup(doc, name=PATTERNS_KEY, spans=spans)
        neg = Negation(doc, [doc[i] for i in range(*cue)], [doc[i] for i in model_scope])
        (out,) = constrain_scopes(doc, [neg])
        return [doc[p.i].text for p in out.scope]

    # BioScope and SFU models give no subject: back to the comma
    assert scope_of("following", (5, 7), []) == ["blood", "cultures"]
    assert scope_of("following", (5, 7), [7]) == ["blood", "cultures"]  # the model's scope after it is dropped
    assert scope_of("following", (5, 7), [4]) == ["cultures"]  # the model's scope before it wins
    assert scope_of("following", (5, 7), [], terminations=[4]) == []  # stops at a termination
    assert scope_of("bidirectional", (6, 7), []) == ["blood", "cultures", "were", "today", "but", "fever"]
    assert scope_of("bidirectional", (6, 7), [], terminations=[8]) == ["blood", "cultures", "were", "today"]
    assert scope_of("preceding", (6, 7), []) == []  # a preceding trigger: the model's scope only
    # the first word of the sentence: nothing before it
    assert scope_of("following", (0, 1), []) == []
    # text without sentence boundaries: a full stop ends the clause too
    doc = Doc(doc.vocab, words=["Exam", ":", "negative", ".", "Lungs", "clear", "."])
    assert scope_of("bidirectional", (2, 3), []) == ["Exam"]


def test_following_triggers_negate_the_entity_before_them():
    register_extensions()
    nlp = spacy.blank("en")
    patterns = CuePatterns(nlp.vocab, load_cue_patterns("en_clinical", nlp.make_doc))
    doc = nlp("Blood cultures were negative.")
    doc.ents = [Span(doc, 0, 2, label="TEST")]
    (cue,) = patterns.apply(doc, [])  # writes the matches to doc.spans
    set_negations(doc, constrain_scopes(doc, [Negation(doc, cue, [])]))  # a BioScope model: no scope
    assert [(n.cue_text, n.scope_text) for n in get_negations(doc)] == [("were negative", "Blood cultures")]
    assert doc.ents[0]._.negated
    doc = nlp("Allergies: none.")
    assert [(m.start, m.end, m.kind) for m in patterns.find(doc)] == [(1, 3, "following")]


def test_matches_stay_within_sentences_and_longest_wins():
    nlp = spacy.blank("en")
    patterns = CuePatterns(nlp.vocab, load_cue_patterns(
        [{"pattern": "pain . denies", "kind": "preceding"}, {"pattern": "denies", "kind": "following"},
         {"pattern": "denies x", "kind": "pseudo"}], nlp.make_doc))
    words = ["pain", ".", "denies", "x", "denies"]
    one = Doc(nlp.vocab, words=words)
    two = Doc(nlp.vocab, words=words, sent_starts=[True, False, True, False, False])
    assert [(m.start, m.end, m.kind) for m in patterns.find(one)] == [(0, 3, "preceding"), (4, 5, "following")]
    assert [(m.start, m.end, m.kind) for m in patterns.find(two)] == [(2, 4, "pseudo"), (4, 5, "following")]
    for first, second in (("preceding", "following"), ("following", "preceding")):  # equal spans: the earlier
        tie = CuePatterns(nlp.vocab, load_cue_patterns([{"pattern": "denies", "kind": first},
                                                        {"pattern": [{"ORTH": "denies"}], "kind": second}],
                                                       nlp.make_doc))
        assert [m.kind for m in tie.find(one)] == [first, first]


def test_a_component_without_list_removes_stale_matches(plain):
    doc = plain.make_doc("The dog barked loudly.")
    doc.spans[PATTERNS_KEY] = SpanGroup(doc, name=PATTERNS_KEY, spans=[Span(doc, 2, 3, label="PRECEDING")])
    assert PATTERNS_KEY not in plain(doc).spans


# --- the shipped clinical list --------------------------------------------------------
def test_en_clinical_is_shipped_with_a_source_for_every_entry():
    assert "en_clinical" in shipped_lists()
    lines = (LISTS_DIR / "en_clinical.jsonl").read_text(encoding="utf-8").splitlines()
    raw = [json.loads(line) for line in lines]
    assert all(entry["kind"] in KINDS and "et al." in entry["source"] for entry in raw)
    assert len(raw) == 109  # the README's count
    assert set(entry["kind"] for entry in raw) == set(KINDS)
    phrases = {entry["pattern"]: entry["kind"] for entry in raw if isinstance(entry["pattern"], str)}
    for phrase, kind in [("denies", "preceding"), ("denied", "preceding"), ("denying", "preceding"),
                         ("negative for", "preceding"), ("no evidence of", "preceding"),
                         ("free of", "preceding"), ("without", "preceding"), ("absence of", "preceding"),
                         ("no", "preceding"), ("not", "preceding"), ("n't", "preceding"), ("never", "preceding"),
                         ("resolved", "following"), ("was ruled out", "following"),
                         ("ruled out", "bidirectional"), ("rule out", "pseudo"), ("no increase", "pseudo"),
                         ("not only", "pseudo"), ("gram negative", "pseudo"), ("but", "termination"),
                         ("however", "termination"), ("although", "termination")]:
        assert phrases[phrase] == kind, phrase
    assert len(load_cue_patterns("en_clinical", spacy.blank("en").make_doc)) == len(raw)


def test_en_clinical_selected_by_name(trained_cnn_dir, plain):
    nlp = _with_patterns(trained_cnn_dir, "en_clinical")
    doc = nlp("The patient denies chest pain, fever, or chills but has a cough.")
    (neg,) = get_negations(doc)
    assert neg.cue_text == "denies"
    assert all(2 < p.i < 10 for p in neg.scope)  # after the cue, before "but"
    assert get_negations(plain("The patient denies chest pain.")) == []
    doc = nlp("Pneumonia was ruled out. No increase in size. Gram negative rods.")
    assert [(s.text, s.label_) for s in doc.spans[PATTERNS_KEY]] == [
        ("was ruled out", "FOLLOWING"), ("No increase", "PSEUDO"), ("Gram negative", "PSEUDO")]
    (neg,) = get_negations(doc)
    assert neg.cue_text == "was ruled out" and all(p.i < 1 for p in neg.scope)
    doc = nlp("He has not yet received antibiotics.")  # the termination "yet" is part of the cue
    assert [(s.text, s.label_) for s in doc.spans[PATTERNS_KEY]] == [("not yet", "PRECEDING")]
    assert [neg.cue_text for neg in get_negations(doc)] == ["not yet"]
    for text in ("Ascites has not fully resolved.", "Anemia is not yet resolved.", "It hasn't resolved."):
        doc = nlp(text)  # a double negation: the finding persists
        assert [s.label_ for s in doc.spans[PATTERNS_KEY]] == ["PSEUDO"] and get_negations(doc) == [], text
    assert [neg.cue_text for neg in get_negations(nlp("Ascites has resolved."))] == ["resolved"]


# --- reading and validation -----------------------------------------------------------
BAD_FILES = [
    ('{"pattern": "no", "kind": "preceding"}\nnot json\n', "E352", 2),
    ('{"pattern": "x"}\n', "E353", 1),
    ('\n{"pattern": "x", "kind": "preceding", "weight": 1}\n', "E353", 2),
    ('["x"]\n', "E353", 1),
    ('{"pattern": "x", "kind": "forward"}\n', "E354", 1),
    ('{"pattern": " ", "kind": "preceding"}\n', "E355", 1),
    ('{"pattern": [], "kind": "preceding"}\n', "E355", 1),
    ('{"pattern": [{"LOWER": "x", "OP": "!!"}], "kind": "preceding"}\n', "E355", 1),
    ('{"pattern": [{"LEMMA": "deny"}], "kind": "preceding"}\n', "E356", 1),
    ('{"pattern": "no", "kind": "preceding"}\n\n{"pattern": "No", "kind": "pseudo"}\n', "E357", 3),
]


@pytest.mark.parametrize("content,code,line", BAD_FILES)
def test_bad_pattern_files_give_coded_errors_with_file_and_line(tmp_path, content, code, line):
    path = tmp_path / "cues.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(NegationFormatError, match=rf"\[NEG-{code}\] {path}:{line}:") as info:
        read_cue_patterns(path, spacy.blank("en").make_doc)
    assert (info.value.path, info.value.line) == (str(path), line)
    with pytest.raises(ValueError, match=rf"\[NEG-{code}\] {path}:{line}:"):
        spacy.blank("en").add_pipe("negation_cue", config={"cue_patterns": str(path)})


def test_bad_settings_give_coded_errors(tmp_path, trained_cnn_dir):
    make_doc = spacy.blank("en").make_doc
    (tmp_path / "empty.jsonl").write_text("\n\n", encoding="utf-8")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E358\]"):
        load_cue_patterns(str(tmp_path / "empty.jsonl"), make_doc)
    (tmp_path / "latin1.jsonl").write_bytes(b'{"pattern": "no", "kind": "preceding"}\n{"pattern": "\xe9"}\n')
    with pytest.raises(NegationFormatError, match=r"\[NEG-E111\] .*latin1.jsonl:2:"):
        load_cue_patterns(str(tmp_path / "latin1.jsonl"), make_doc)
    with pytest.raises(ValueError, match=r"\[NEG-E351\].*en_clinical"):
        load_cue_patterns("en_nope", make_doc)
    with pytest.raises(ValueError, match=r"\[NEG-E350\]"):
        load_cue_patterns(3, make_doc)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"\[NEG-E354\] cue_patterns\[1\]:"):
        load_cue_patterns([{"pattern": "x", "kind": "preceding"}, {"pattern": "y", "kind": "nope"}], make_doc)
    with pytest.raises(ValueError, match=r"\[NEG-E354\] cue_patterns\[0\]:"):
        spacy.blank("en").add_pipe("negation", config={"model": str(trained_cnn_dir),
                                                       "cue_patterns": [{"pattern": "x", "kind": "nope"}]})


@pytest.mark.parametrize("setting,shown", [
    (5, r"5 \(int\)"),
    (True, r"True \(bool\)"),
    ({"pattern": "no", "kind": "preceding"}, r".*\(dict\); put an entry in a list"),
    ([None], r"a list whose item 0 is None \(NoneType\)"),
    (["en_clinical", 3], r"a list whose item 1 is 3 \(int\)"),
])
def test_a_setting_of_another_type_is_the_packages_error(setting, shown, trained_cnn_dir):
    """A cue_patterns setting of another type is the package's E350 (spaCy's config
    validation would say "is not <class 'NoneType'>"), for negation_cue and the host."""
    with pytest.raises(ValueError, match=rf"\[NEG-E350\] .*got {shown}"):
        spacy.blank("en").add_pipe("negation_cue", config={"cue_patterns": setting})
    with pytest.raises(ValueError, match=rf"\[NEG-E350\] .*got {shown}"):
        spacy.blank("en").add_pipe("negation", config={"model": str(trained_cnn_dir), "cue_patterns": setting})


@pytest.mark.parametrize("path,kind", [("/dev/null", "a device"), (None, "a folder")])
def test_a_path_that_is_not_a_regular_file(path, kind, tmp_path):
    """/dev/null or a folder: not a regular file (E373), not "no existing file"."""
    value = path or str(tmp_path)
    if not Path(value).exists():
        pytest.skip(f"{value} does not exist here")
    with pytest.raises(ValueError, match=rf"\[NEG-E373\] cue_patterns: '{value}' is {kind}, not a regular file"):
        load_cue_patterns(value, spacy.blank("en").make_doc)
    with pytest.raises(ValueError, match=r"\[NEG-E373\]"):
        spacy.blank("en").add_pipe("negation_cue", config={"cue_patterns": [value]})


def test_a_path_object_is_a_file_path(tmp_path):
    path = tmp_path / "cues.jsonl"
    path.write_text('{"pattern": "denies", "kind": "preceding"}\n', encoding="utf-8")
    assert [e["pattern"] for e in load_cue_patterns(path, spacy.blank("en").make_doc)] == ["denies"]  # type: ignore[arg-type]


def test_duplicates_warn_and_later_items_replace_earlier_entries(tmp_path, monkeypatch):
    make_doc = spacy.blank("en").make_doc
    path = tmp_path / "cues.jsonl"
    path.write_text('{"pattern": "denies", "kind": "preceding"}\n{"pattern": "Denies", "kind": "preceding"}\n',
                    encoding="utf-8")
    with pytest.warns(UserWarning, match=r"\[NEG-W303\] .*cues.jsonl:2:"):
        assert len(read_cue_patterns(path, make_doc)) == 1
    (tmp_path / "one.jsonl").write_text('{"pattern": "denies", "kind": "preceding"}\n', encoding="utf-8")
    cue = spacy.blank("en").add_pipe("negation_cue", config={"cue_patterns": str(tmp_path / "one.jsonl")})
    assert [e["pattern"] for e in cue.cue_patterns] == ["denies"]
    monkeypatch.chdir(tmp_path)
    with pytest.warns(UserWarning, match=r"\[NEG-W302\]"):
        load_cue_patterns("one.jsonl", make_doc)
    clinical = load_cue_patterns("en_clinical", make_doc)
    changed = load_cue_patterns(["en_clinical", {"pattern": "not", "kind": "bidirectional"}], make_doc)
    assert len(changed) == len(clinical)
    assert [e["kind"] for e in clinical if e["pattern"] == "not"] == ["preceding"]
    assert [e["kind"] for e in changed if e["pattern"] == "not"] == ["bidirectional"]


# --- serialization and multiprocessing ------------------------------------------------
def test_serialization_of_a_negation_pipeline_with_a_list(trained_cnn_dir, plain, tmp_path):
    nlp = _with_patterns(trained_cnn_dir, INLINE)
    expected = [negation_key(doc) for doc in nlp.pipe(TEXTS)]
    assert expected != [negation_key(doc) for doc in plain.pipe(TEXTS)]
    # bytes: a pipeline without the setting gets the saved list
    restored = spacy.load(trained_cnn_dir).from_bytes(nlp.to_bytes())
    assert [negation_key(doc) for doc in restored.pipe(TEXTS)] == expected
    # disk, and a list set on the component (saved with it)
    nlp.to_disk(tmp_path / "with_config")
    assert [negation_key(doc) for doc in spacy.load(tmp_path / "with_config").pipe(TEXTS)] == expected
    by_method = spacy.load(trained_cnn_dir)
    by_method.get_pipe("negation_cue").set_cue_patterns(load_cue_patterns(INLINE, by_method.make_doc))
    by_method.to_disk(tmp_path / "by_method")
    loaded = spacy.load(tmp_path / "by_method")
    assert loaded.get_pipe("negation_cue").cue_patterns == nlp.get_pipe("negation_cue").cue_patterns
    assert [negation_key(doc) for doc in loaded.pipe(TEXTS)] == expected
    # a setting given at load time wins over the saved list
    cleared = _with_patterns(tmp_path / "by_method", [])
    assert [negation_key(doc) for doc in cleared.pipe(TEXTS)] == [negation_key(doc) for doc in plain.pipe(TEXTS)]
    # multiprocessing
    assert [negation_key(doc) for doc in nlp.pipe(TEXTS, n_process=2, batch_size=2)] == expected


def test_host_pipeline_with_a_list(trained_cnn_dir, tmp_path):
    host = spacy.blank("en")
    host.add_pipe("negation", config={"model": str(trained_cnn_dir), "cue_patterns": INLINE})
    expected = [negation_key(doc) for doc in host.pipe(TEXTS)]
    assert expected == [negation_key(doc) for doc in _with_patterns(trained_cnn_dir, INLINE).pipe(TEXTS)]
    doc = host("She denied the party was fun.")
    assert [(s.text, s.label_) for s in doc.spans[PATTERNS_KEY]] == [("denied", "PRECEDING")]
    assert all(s.doc is doc for s in doc.spans[PATTERNS_KEY])
    assert [negation_key(doc) for doc in host.pipe(TEXTS, n_process=2, batch_size=2)] == expected
    host.to_disk(tmp_path / "host")
    assert [negation_key(doc) for doc in spacy.load(tmp_path / "host").pipe(TEXTS)] == expected
    from_bytes = spacy.util.get_lang_class("en").from_config(host.config).from_bytes(host.to_bytes())
    assert [negation_key(doc) for doc in from_bytes.pipe(TEXTS)] == expected
    resolver = pickle.loads(pickle.dumps(host.get_pipe("negation")))
    assert [negation_key(resolver(host.make_doc(text))) for text in TEXTS] == expected
    # null keeps the model's own list, a given list (even empty) replaces it
    _with_patterns(trained_cnn_dir, INLINE).to_disk(tmp_path / "model_with_list")
    for setting, want in [(None, expected), ([], [negation_key(d) for d in spacy.load(trained_cnn_dir).pipe(TEXTS)])]:
        other = spacy.blank("en")
        other.add_pipe("negation", config={"model": str(tmp_path / "model_with_list"), "cue_patterns": setting})
        assert [negation_key(doc) for doc in other.pipe(TEXTS)] == want


# --- patterns that would match every token or nothing -------------------------------------
@pytest.fixture(scope="module")
def blank_en() -> Language:
    return spacy.blank("en")


@pytest.mark.parametrize("pattern,code", [
    ([{}], "E964"),
    ([{"OP": "*"}], "E964"),
    ([{"OP": "?"}, {"OP": "+"}], "E964"),
    ([{"LOWER": "no", "OP": "?"}], "E964"),
    ([{"LOWER": "no", "OP": "*"}, {}], "E964"),
    ([{"LOWER": "no", "OP": "!"}], "E964"),
    ([{"LOWER": "no", "OP": "{0,2}"}], "E964"),
    ([{"LOWER": {"REGEX": ".*"}}], "E963"),
    ([{"TEXT": {"REGEX": "x?"}}, {"LOWER": "no"}], "E963"),
    ("deni(es|ed)", "E962"),
    ("no.*", "E962"),
    ("not?", "E962"),
    ("rule[sd] out", "E962"),
    ("neg|no", "E962"),
    ("^no$", "E962"),
    ("\\bno\\b", "E962"),
    ("no{2}", "E962"),
])
def test_patterns_that_match_every_token_or_nothing_are_refused(blank_en, pattern, code):
    with pytest.raises(ValueError, match=rf"\[NEG-{code}\] cue_patterns\[0\]"):
        load_cue_patterns([{"pattern": pattern, "kind": "preceding"}], blank_en.make_doc)


@pytest.mark.parametrize("pattern", [
    "not", "n't", "no evidence of", "ruled out", "w/o", "no.", "non-", "3+",
    [{"LOWER": "no"}, {"OP": "?"}, {"LOWER": "evidence"}],
    [{"LOWER": "no"}, {}],
    [{"LOWER": {"REGEX": "^deni(es|ed)$"}}],
    [{"LOWER": "no", "OP": "+"}],
    [{"LOWER": "no", "OP": "{1,2}"}],
    [{"IS_PUNCT": True, "OP": "?"}, {"LOWER": "without"}],
])
def test_patterns_that_constrain_are_accepted(blank_en, pattern):
    (entry,) = load_cue_patterns([{"pattern": pattern, "kind": "preceding"}], blank_en.make_doc)
    assert entry["kind"] == "preceding"


def test_a_regex_token_pattern_matches_what_the_phrase_meant(blank_en, tmp_path):
    entries = load_cue_patterns([{"pattern": [{"LOWER": {"REGEX": "^deni(es|ed)$"}}], "kind": "preceding"}],
                                blank_en.make_doc)
    doc = blank_en("She denies pain but denied fever .")
    doc[0].is_sent_start = True
    assert [(m.start, m.end) for m in CuePatterns(blank_en.vocab, entries).find(doc)] == [(1, 2), (4, 5)]
    path = tmp_path / "list.jsonl"
    path.write_text('{"pattern": "no", "kind": "preceding"}\n{"pattern": [{}], "kind": "pseudo"}\n',
                    encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[NEG-E964\] .*list.jsonl:2"):
        load_cue_patterns(str(path), blank_en.make_doc)
