"""The data model and the readers (issue 40, items 9, 10 and 13): the span group follows
retokenization; the *SEM readers refuse a scope holding its own cue, a repeated sentence and
a file cut inside its last cell; cue pattern lists that would match every token or nothing."""
from typing import List, Tuple

import pytest
import spacy
from spacy.pipeline.functions import merge_entities
from spacy.tokens import Doc, Span

from spacy_negation import register_extensions
from spacy_negation.negation import SPANS_KEY


@pytest.fixture(scope="module")
def nlp():
    register_extensions()
    return spacy.blank("en")


def _stored(doc: Doc) -> List[Tuple[str, str]]:
    """(label, text) of each span of the stored group, by the spans' token indices."""
    return sorted((span.label_, doc[span.start:span.end].text) for span in doc.spans[SPANS_KEY])


def _expected(doc: Doc) -> List[Tuple[str, str]]:
    """(label, text) of each part run as the negations see it."""
    out = []
    for neg in doc._.negations:
        for role, label in (("cue", "CUE"), ("scope", "SCOPE"), ("event", "EVENT")):
            for start, end in neg.offsets(role):
                out.append((label, doc.text[start:end]))
    return sorted(out)


# --- 9. the span group after retokenization ---------------------------------------------------
def test_span_group_follows_a_merge(nlp):
    d = nlp("The drug did not help the patient .")
    d._.negations = [{"cue": [d[3]], "scope": [d[0], d[1], d[2], d[4], d[5], d[6]], "event": [d[4]]}]
    with d.retokenize() as retokenizer:
        retokenizer.merge(d[0:2])  # "The drug"
    (neg,) = d._.negations
    assert neg.cue_text == "not" and neg.event_text == "help"
    assert ("CUE", "not") in _stored(d)  # was ("CUE", "help"): stale token indices
    assert _stored(d) == _expected(d)
    cue = [s for s in d.spans[SPANS_KEY] if s.label_ == "CUE"][0]
    assert (cue.start, cue.end, cue.text) == (2, 3, "not")


def test_span_group_follows_merge_entities(nlp):
    d = nlp("New York did not approve the plan .")
    d.ents = [Span(d, 0, 2, "GPE")]
    d._.negations = [{"cue": [d[3]], "scope": [d[0], d[1], d[2], d[4], d[5], d[6]]}]
    d = merge_entities(d)
    assert [n.cue_text for n in d._.negations] == ["not"]
    assert _stored(d) == _expected(d) and ("CUE", "not") in _stored(d)
    # a token extension is enough to bring the group up to date
    e = nlp("New York did not approve the plan .")
    e.ents = [Span(e, 0, 2, "GPE")]
    e._.negations = [{"cue": [e[3]], "scope": [e[4]]}]
    e = merge_entities(e)
    assert e[2]._.is_neg_cue and _stored(e) == [("CUE", "not"), ("SCOPE", "approve")]


def test_span_group_follows_a_split_and_an_affix(nlp):
    d = nlp("I am unhappy today .")
    d._.negations = [{"cue": [(2, 0, 2)], "scope": [(0, 0, 1), (1, 0, 2), (2, 2, 7)]}]
    with d.retokenize() as retokenizer:
        retokenizer.merge(d[0:2])
    assert [(p.i, p.start, p.end) for p in d._.negations[0].cue] == [(1, 0, 2)]
    stored = {s.label_: (s.start, s.end) for s in d.spans[SPANS_KEY] if s.label_ == "CUE"}
    assert stored == {"CUE": (1, 2)}
    with d.retokenize() as retokenizer:
        retokenizer.split(d[1], ["un", "happy"], heads=[(d[1], 1), d[0]])
    assert d._.negations[0].cue_text == "un" and d[1]._.is_neg_cue
    assert _stored(d) == _expected(d)
    # the stored group survives serialization with the right tokens
    again = Doc(d.vocab).from_bytes(d.to_bytes())
    assert _stored(again) == _stored(d) and again._.negations == d._.negations


def test_a_merge_that_joins_a_cue_warns_once_and_stores_the_affix(nlp):
    d = nlp("He did not go .")
    d._.negations = [{"cue": [d[2]], "scope": [d[0], d[1], d[3]]}]
    with d.retokenize() as retokenizer:
        retokenizer.merge(d[1:3])
    with pytest.warns(UserWarning, match=r"\[NEG-W003\]"):
        (neg,) = d._.negations
    assert neg.cue_text == "not" and neg.is_affixal
    cue = [s for s in d.spans[SPANS_KEY] if s.label_ == "CUE"][0]
    assert cue.text == "did not"  # the merged token that holds the cue characters
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert d._.negations[0].cue_text == "not"  # stored again: no second warning


def test_host_pipeline_with_merge_entities(trained_cnn_dir):
    for order in ("before", "after"):
        host = spacy.blank("en")
        ruler = host.add_pipe("entity_ruler")
        ruler.add_patterns([{"label": "EVENT", "pattern": "the party"},
                            {"label": "PERSON", "pattern": "Neither he"}])
        if order == "before":
            host.add_pipe("merge_entities")
        host.add_pipe("negation", config={"model": str(trained_cnn_dir)})
        if order == "after":
            host.add_pipe("merge_entities")
        doc = host("No one came to the party.")
        negs = doc._.negations
        assert [n.cue_text for n in negs] == ["No"], order
        assert _stored(doc) == _expected(doc), order
        assert doc[4].text == "the party" and doc[4]._.negated


# --- 10. the *SEM reader and export --------------------------------------------------------------
from pathlib import Path  # noqa: E402

from spacy.tokens import DocBin  # noqa: E402

from spacy_negation.cli import main  # noqa: E402
from spacy_negation.corpora.starsem_docs import read_starsem_docs, write_starsem_docs  # noqa: E402
from spacy_negation.errors import NegationFormatError  # noqa: E402


def _row(doc: str, sent: int, tok: int, form: str, *cells: str) -> str:
    return "\t".join([doc, str(sent), str(tok), form, form.lower(), "NN", "_", *cells])


def _sentence(sent: int, scope_of_not: str = "_", doc: str = "ch1") -> str:
    rows = [_row(doc, sent, 0, "He", "_", "He", "_"), _row(doc, sent, 1, "did", "_", "did", "_"),
            _row(doc, sent, 2, "not", "not", scope_of_not, "_"), _row(doc, sent, 3, "go", "_", "go", "go"),
            _row(doc, sent, 4, ".", "_", "_", "_")]
    return "\n".join(rows)


PLAIN = "\n".join(_row("ch1", 9, k, w, "***") for k, w in enumerate(["It", "rained", "."]))


def _write(path: Path, *blocks: str, end: str = "\n") -> Path:
    path.write_text("\n\n".join(blocks) + end, encoding="utf-8")
    return path


def _convert(capsys, *args) -> Tuple[int, str]:
    code = main(["convert", "--quiet", *map(str, args)])
    return code, capsys.readouterr().err


def test_scope_holding_its_own_cue_is_refused_with_its_line(tmp_path, capsys):
    path = _write(tmp_path / "in.txt", _sentence(0), _sentence(1, scope_of_not="not"), PLAIN)
    with pytest.raises(NegationFormatError, match=r"\[NEG-E958\] .*in.txt:9: .*'not'"):
        read_starsem_docs(path)
    code, err = _convert(capsys, path, tmp_path / "out.spacy")
    assert code == 1 and "[NEG-E958]" in err and not (tmp_path / "out.spacy").exists()
    # --on-error skip: skipped, and said so with the line
    with pytest.warns(UserWarning, match=r"\[NEG-W402\] .*in.txt:7: .*\[NEG-E958\]"):
        docs = read_starsem_docs(path, on_error="skip", n_sents=0)
    assert [len(list(d.sents)) for d in docs] == [2]
    for doc in docs:  # what is read passes the data model's own check (E015)
        doc._.negations = doc._.negations


def test_an_affixal_cue_inside_a_whole_token_scope_is_kept_with_a_warning(tmp_path):
    rows = [_row("ch1", 0, 0, "An", "_", "An", "_"), _row("ch1", 0, 1, "infinite", "in", "infinite", "_"),
            _row("ch1", 0, 2, "sea", "_", "sea", "_")]
    path = _write(tmp_path / "in.txt", "\n".join(rows))
    with pytest.warns(UserWarning, match=r"\[NEG-W951\] .*in.txt:2: .*'infinite'.* kept as annotated.* 'finite'"):
        (doc,) = read_starsem_docs(path)
    (neg,) = doc._.negations
    assert neg.cue_text == "in" and [(p.i, p.start, p.end) for p in neg.scope] == [(0, 0, 2), (1, 0, 8), (2, 0, 3)]


def test_a_repeated_sentence_is_refused(tmp_path, capsys):
    path = _write(tmp_path / "in.txt", _sentence(0), _sentence(1), _sentence(0))
    with pytest.raises(NegationFormatError, match=r"\[NEG-E959\] .*in.txt:13: .*'ch1' sentence '0'.* line 1"):
        read_starsem_docs(path)
    with pytest.warns(UserWarning, match=r"\[NEG-W402\] .*in.txt:13: .*\[NEG-E959\]"):
        docs = read_starsem_docs(path, on_error="skip", n_sents=0)
    assert sum(len(list(d.sents)) for d in docs) == 2
    # the same sentence numbers in another document, or files joined together, are fine
    ok = _write(tmp_path / "ok.txt", _sentence(0), _sentence(1), _sentence(0, doc="ch2"),
                _sentence(0, doc="ch1"))
    assert sum(len(list(d.sents)) for d in read_starsem_docs(ok, n_sents=0)) == 4


def test_a_file_cut_inside_its_last_cell_is_refused(tmp_path, capsys):
    last = "\n".join([_row("ch1", 1, 0, "He", "_", "He", "_"), _row("ch1", 1, 1, "is", "_", "is", "_"),
                      _row("ch1", 1, 2, "not", "not", "_", "_"), _row("ch1", 1, 3, "going", "_", "going", "going")])
    full = _sentence(0) + "\n\n" + last + "\n"
    cut = tmp_path / "cut.txt"
    cut.write_text(full[:-3], encoding="utf-8")  # the event cell 'going' cut to 'goi'
    assert cut.read_text(encoding="utf-8").endswith("\tgoing\tgoi")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E960\] .*cut.txt:10:"):
        read_starsem_docs(cut)
    code, err = _convert(capsys, cut, tmp_path / "out.spacy")
    assert code == 1 and "[NEG-E960]" in err and not (tmp_path / "out.spacy").exists()
    with pytest.warns(UserWarning, match=r"\[NEG-W402\] .*cut.txt:7: .*\[NEG-E960\]"):
        docs = read_starsem_docs(cut, on_error="skip", n_sents=0)
    assert sum(len(list(d.sents)) for d in docs) == 1
    # the complete file, and one whose last sentence was skipped for another reason
    assert len(read_starsem_docs(_write(tmp_path / "ok.txt", _sentence(0), last))) == 1
    broken = last.replace("\tNN\t_\t_\tis\t_", "\tNN\t_\t_\txx\t_")  # E107: no part of 'is'
    bad = _write(tmp_path / "bad.txt", _sentence(0), broken, end="")
    with pytest.warns(UserWarning) as caught:
        docs = read_starsem_docs(bad, on_error="skip", n_sents=0)
    messages = [str(w.message) for w in caught if "[NEG-W402]" in str(w.message)]
    assert len(messages) == 2 and "[NEG-E107]" in messages[0] and "bad.txt:10: skipped" in messages[1]
    assert sum(len(list(d.sents)) for d in docs) == 1


def test_export_of_a_whitespace_cue_is_a_coded_error(nlp, tmp_path, capsys):
    doc = Doc(nlp.vocab, words=["He", "\n", "left", "."], spaces=[False, False, False, False])
    doc._.negations = [{"cue": [doc[1]], "scope": [doc[0], doc[2]]}]
    with pytest.raises(ValueError, match=r"\[NEG-E961\] Doc 0: .*whitespace token 1"):
        write_starsem_docs([doc], tmp_path / "out.txt")
    assert not (tmp_path / "out.txt").exists()
    DocBin(docs=[doc], store_user_data=True).to_disk(tmp_path / "in.spacy")
    assert main(["export", str(tmp_path / "in.spacy"), str(tmp_path / "out.txt")]) == 1
    assert "[NEG-E961]" in capsys.readouterr().err and not (tmp_path / "out.txt").exists()


# --- 13. cue patterns that match every token or nothing -------------------------------------------
from spacy_negation.pipeline.cue.patterns import load_cue_patterns  # noqa: E402


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
def test_patterns_that_match_every_token_or_nothing_are_refused(nlp, pattern, code):
    with pytest.raises(ValueError, match=rf"\[NEG-{code}\] cue_patterns\[0\]"):
        load_cue_patterns([{"pattern": pattern, "kind": "preceding"}], nlp.make_doc)


@pytest.mark.parametrize("pattern", [
    "not", "n't", "no evidence of", "ruled out", "w/o", "no.", "non-", "3+",
    [{"LOWER": "no"}, {"OP": "?"}, {"LOWER": "evidence"}],
    [{"LOWER": "no"}, {}],
    [{"LOWER": {"REGEX": "^deni(es|ed)$"}}],
    [{"LOWER": "no", "OP": "+"}],
    [{"LOWER": "no", "OP": "{1,2}"}],
    [{"IS_PUNCT": True, "OP": "?"}, {"LOWER": "without"}],
])
def test_patterns_that_constrain_are_accepted(nlp, pattern):
    (entry,) = load_cue_patterns([{"pattern": pattern, "kind": "preceding"}], nlp.make_doc)
    assert entry["kind"] == "preceding"


def test_a_regex_token_pattern_matches_what_the_phrase_meant(nlp, tmp_path):
    from spacy_negation.pipeline.cue.patterns import CuePatterns

    entries = load_cue_patterns([{"pattern": [{"LOWER": {"REGEX": "^deni(es|ed)$"}}], "kind": "preceding"}],
                                nlp.make_doc)
    doc = nlp("She denies pain but denied fever .")
    doc[0].is_sent_start = True
    assert [(m.start, m.end) for m in CuePatterns(nlp.vocab, entries).find(doc)] == [(1, 2), (4, 5)]
    path = tmp_path / "list.jsonl"
    path.write_text('{"pattern": "no", "kind": "preceding"}\n{"pattern": [{}], "kind": "pseudo"}\n',
                    encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[NEG-E964\] .*list.jsonl:2"):
        load_cue_patterns(str(path), nlp.make_doc)
