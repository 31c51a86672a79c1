"""data/clinical_synth: the synthetic clinical training sentences are the generator's output,
share nothing with the held-out clinical set, follow the documented convention, and the
reader turns them into docs with the right negations (and refuses bad lines with codes)."""
import json
import re
from types import ModuleType
from typing import Any, Dict, List

import pytest
import spacy
from spacy.tokens import DocBin

from spacy_negation.errors import NegationFormatError
from spacy_negation.negation import get_negations
from spacy_negation.corpora.clinical_synth import convert, main, read_clinical_synth

from util import REPO, load_module

SYNTH = REPO / "data" / "clinical_synth"


@pytest.fixture(scope="module")
def gen() -> ModuleType:
    return load_module(SYNTH / "generate.py", "clinical_synth_generate")


@pytest.fixture(scope="module")
def records() -> List[Dict[str, Any]]:
    return [json.loads(line) for line in (SYNTH / "train.jsonl").read_text(encoding="utf-8").splitlines()]


def test_train_jsonl_is_the_generators_output(gen, capsys):
    assert gen.main(["--check"]) == 0
    table = capsys.readouterr().out.strip()
    readme = (SYNTH / "README.md").read_text(encoding="utf-8")
    assert table in readme  # the README's count table is this file's


def test_generation_is_seeded(gen, tmp_path):
    assert gen.generate(40, seed=1) == gen.generate(40, seed=1)
    assert gen.generate(40, seed=1) != gen.generate(40, seed=2)
    assert gen.main(["-n", "30", "--seed", "3", "--output", str(tmp_path / "x.jsonl")]) == 0
    assert len((tmp_path / "x.jsonl").read_text(encoding="utf-8").splitlines()) == 30


def test_nothing_from_the_held_out_set(gen, records):
    sentences, concepts = gen.held_out()
    assert len(sentences) > 300 and len(concepts) > 300
    assert gen.leaks(records) == []
    texts = [" ".join(r["text"].lower().split()) for r in records]
    for sentence in sentences:
        s = " ".join(sentence.lower().split())
        assert not any(s in t for t in texts), sentence


def test_a_leak_is_found_and_nothing_is_written(gen, records, tmp_path, monkeypatch, capsys):
    sentences, concepts = gen.held_out()
    planted = dict(records[0], id="x-01", text="ROS: " + sentences[5] + " Denies rigors.")
    assert any("contains the held-out sentence" in m for m in gen.leaks([planted]))
    concept = sorted(concepts - gen.ANATOMY_ALLOWED)[0]
    monkeypatch.setattr(gen, "SYMPTOMS", gen.SYMPTOMS + [concept])
    assert any(repr(concept) in m for m in gen.leaks([]))
    out = tmp_path / "t.jsonl"
    assert gen.main(["-n", "20", "--output", str(out)]) == 1
    assert not out.exists() and "held-out" in capsys.readouterr().err


def test_concepts_are_negated_exactly_inside_a_scope(records):
    for r in records:
        scopes = [set(range(a, b)) for n in r["negations"] for a, b in n["scope"]]
        chars = set().union(*scopes) if scopes else set()
        for c in r["concepts"]:
            span = set(range(c["start"], c["end"]))
            assert r["text"][c["start"]:c["end"]] == c["text"]
            if c["negated"]:
                assert span <= chars, (r["id"], c)
            else:
                assert not span & chars, (r["id"], c)


def test_convention(records):
    templates = {r["template"] for r in records}
    assert {"denial", "no-list", "no-initial", "negative-for", "no-evidence-of", "free-of", "ruled-out",
            "resolved", "minus-ve", "without", "header", "run-on", "preceding-clause", "termination",
            "affirmed", "affix", "pseudo"} <= templates
    cue_words = set()
    for r in records:
        for n in r["negations"]:
            assert n["cue"]
            cue_words.add(" ".join(r["text"][a:b].lower() for a, b in n["cue"]))
    assert {"denies", "no", "negative", "free", "ruled out", "resolved", "-ve", "without", "none"} <= cue_words
    for word in ("insufficiency", "unremarkable", "nontender", "failure", "increase", "only"):
        assert not any(word in w for w in cue_words), word
    counter = [r for r in records if r["template"] in ("affirmed", "affix")]
    assert counter and all(not r["negations"] for r in counter)
    assert any("nontender" in r["text"] for r in counter)


def test_a_bare_cue_after_a_header_negates_the_header(records):
    """ "ALLERGIES: None." / "ROS: Negative.": the header with its colon is the scope (the
    clinical reading; a contiguous span, as BioScope's)."""
    bare = 0
    for r in records:
        for n in r["negations"]:
            (a, b), = n["cue"]
            if (r["text"][a:b].lower() in ("none", "negative", "neg") and r["text"][a - 2:a] == ": "
                    and r["text"][b:b + 4] != " for"):
                bare += 1
                (s, e), = n["scope"]
                # the header and its colon: the scope joins the cue without a gap but a space
                assert e == a - 1 and (s == 0 or r["text"][s - 1] in " .;"), (r["id"], r["text"])
    assert bare > 30


def _line(text: str, cue: List[List[int]], scope: List[List[int]], id: str = "n1-01") -> str:
    return json.dumps({"id": id, "note": "n1", "text": text, "negations": [{"cue": cue, "scope": scope}]})


def _negs(doc) -> List[tuple]:
    return [(" ".join(t.text for t in n.cue_tokens), " ".join(doc[p.i].text for p in n.scope))
            for n in get_negations(doc)]


def test_reader_builds_the_negations(tmp_path):
    text = "The patient denies chest tightness, rigors, or hiccups."
    path = tmp_path / "s.jsonl"
    path.write_text(_line(text, [[12, 18]], [[19, 54]]) + "\n\n"
                    + _line("Lyme disease was ruled out.", [[17, 26]], [[0, 16]], id="n1-02") + "\n",
                    encoding="utf-8")
    docs = list(read_clinical_synth(path, n_sents=10))
    assert len(docs) == 1 and len(list(docs[0].sents)) == 2
    assert _negs(docs[0]) == [("denies", "chest tightness , rigors , or hiccups"),
                              ("ruled out", "Lyme disease was")]
    meta = docs[0].user_data["spacy_negation.starsem"]
    assert list(meta["doc_ids"]) == ["n1", "n1"] and list(meta["sent_nos"]) == ["n1-01", "n1-02"]


def test_the_whole_file_converts(records, tmp_path):
    out = tmp_path / "train.spacy"
    n_docs, n_sents = convert(SYNTH / "train.jsonl", out)
    assert n_sents == len(records)
    docs = list(DocBin().from_disk(out).get_docs(spacy.blank("en").vocab))
    assert len(docs) == n_docs
    from spacy_negation.negation import register_extensions

    register_extensions()
    assert sum(len(get_negations(d)) for d in docs) == sum(len(r["negations"]) for r in records)


@pytest.mark.parametrize("line,code", [
    ("{not json", "E720"),
    ("[1, 2]", "E720"),
    (json.dumps({"id": "a", "note": "n", "negations": []}), "E721"),
    (json.dumps({"id": "a b", "note": "n", "text": "No rigors.", "negations": []}), "E721"),
    (json.dumps({"id": "a", "note": "n", "text": "No  rigors.", "negations": []}), "E721"),
    (json.dumps({"id": "a", "note": "n", "text": "No rigors.", "negations": [{"cue": [[0, "2"]]}]}), "E721"),
    (_line("No rigors.", [[0, 2]], [[3, 40]]), "E722"),
    (_line("No rigors.", [[2, 2]], []), "E722"),
    (_line("No rigors.", [[0, 2]], [[3, 6]]), "E723"),
    (_line("No rigors.", [], [[3, 9]]), "E724"),
    (_line("No rigors.", [[0, 2]], [[0, 9]]), "E725"),
])
def test_bad_lines_are_coded_errors_with_file_and_line(tmp_path, line, code):
    path = tmp_path / "bad.jsonl"
    path.write_text(_line("No hiccups.", [[0, 2]], [[3, 10]], id="ok-01") + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(NegationFormatError, match=rf"\[NEG-{code}\] {re.escape(str(path))}:2:"):
        list(read_clinical_synth(path))
    out = tmp_path / "out.spacy"
    assert main([str(path), str(out)]) == 1 and not out.exists()


def test_duplicate_ids_empty_files_and_skipping(tmp_path):
    path = tmp_path / "dup.jsonl"
    path.write_text(_line("No hiccups.", [[0, 2]], [[3, 10]]) + "\n" + _line("No rigors.", [[0, 2]], [[3, 9]]) + "\n",
                    encoding="utf-8")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E727\].*line 1"):
        list(read_clinical_synth(path))
    with pytest.warns(UserWarning, match=r"\[NEG-W402\].*:2:.*\[NEG-E727\]"):
        docs = list(read_clinical_synth(path, on_error="skip"))
    assert [d.text for d in docs] == ["No hiccups."]
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n", encoding="utf-8")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E108\]"):
        list(read_clinical_synth(empty))
