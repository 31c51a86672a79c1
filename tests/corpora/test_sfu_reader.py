"""SFU Review (English) reader on hand-made excerpts: tokens, normalisation, scopes, ids,
round trip, bad input."""
import re
from pathlib import Path
from typing import List

import pytest
import spacy
from spacy.tokens import Doc

from spacy_negation.cli import main as cli_main
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.docs import META_KEY
from spacy_negation.corpora.sfu import C1_TO_CP1252, normalize_text, parse_sfu, read_sfu
from spacy_negation.corpora.starsem_docs import read_starsem_docs, write_starsem_docs
from spacy_negation.corpora.stats import negation_statistics

from util import assert_coded_error, negation_keys


def W(*words: str) -> str:
    return "".join(f"<W>{w}</W>" for w in words)


S1 = ("<SENTENCE>" + W("I") + '<C><cue ID="1" type="negation">' + W("do", "n't") + "</cue></C>"
      + '<xcope ID="2"><ref ID="3" SRC="1"></ref>' + W("like", "it") + "</xcope>" + W(".") + "</SENTENCE>")
# speculation ignored; a negation cue inside a speculation scope; a cue without scope;
# U+0092 and U+0085 normalised; a ref listing two cue ids
S2 = ("<SENTENCE>" + '<cue ID="4" type="speculation">' + W("Maybe") + "</cue>"
      + '<xcope ID="5"><ref ID="6" SRC="4"></ref>' + W("it")
      + '<cue ID="7" type="negation">' + W("isn\x92t") + "</cue>"
      + '<xcope ID="8"><ref ID="9" SRC="7 10"></ref>' + W("good") + "</xcope></xcope>"
      + W(",") + '<cue ID="10" type="negation">' + W("nor") + "</cue>" + W("bad\x85really")
      + '<cue ID="11" type="negation">' + W("never") + "</cue>" + W("!") + "</SENTENCE>")
# cue id 1 again (ids are not unique in the release): the ref resolves to this sentence's
# cue; a dangling ref (id 99) is ignored with warning W404
S3 = ("<SENTENCE>" + W("It") + '<cue ID="1" type="negation">' + W("is", "not") + "</cue>"
      + '<xcope ID="12"><ref ID="13" SRC="1 99"></ref>' + W("cheap") + "</xcope>" + W(".") + "</SENTENCE>")
SAMPLE = ('<?xml version="1.0" encoding="UTF-8"?>\n<DOCUMENT><DESC></DESC><P></P><P>' + S1 + "</P>\n<P>"
          + S2 + "</P>\n<P>" + S3 + "</P></DOCUMENT>\n")


def write(folder: Path, text: str, name: str = "BOOKS/no1done.xml") -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def read(path: Path, n_sents: int = 10) -> List[Doc]:
    return list(read_sfu(path, spacy.blank("en").vocab, n_sents))


def test_reader_tokens_and_negations(tmp_path):
    path = write(tmp_path, SAMPLE)
    with pytest.warns(UserWarning, match=rf"\[NEG-W404\] {re.escape(str(path))}:4: <ref SRC='1 99'> names '99'"):
        (doc,) = read(path)
    assert doc.text == "I don't like it. Maybe it isn’t good, nor bad…really never! It is not cheap."
    assert len(list(doc.sents)) == 3
    negs = doc._.negations
    assert [(n.cue_text, n.scope_text, n.event_text) for n in negs] == [
        ("do n't", "like it", ""),
        ("isn’t", "good", ""),
        ("nor", "good", ""),
        ("never", "", ""),
        ("is not", "cheap", ""),
    ]
    assert negs[0].is_multiword and not negs[0].is_discontinuous


def test_character_normalisation_table():
    assert normalize_text("don\x92t \x93x\x94 \x85 \x96 \x81") == "don’t “x” … – \x81"
    assert C1_TO_CP1252[0x92] == "\u2019" and 0x81 not in C1_TO_CP1252 and len(C1_TO_CP1252) == 27


def test_ids_and_grouping(tmp_path):
    path = write(tmp_path, SAMPLE)
    docs = read(path, n_sents=2)
    assert [len(list(d.sents)) for d in docs] == [2, 1]
    meta = docs[0].user_data[META_KEY]
    assert meta["doc_ids"] == ["BOOKS/no1done"] * 2 and meta["sent_nos"] == ["0", "1"]
    assert docs[1].user_data[META_KEY]["sent_nos"] == ["2"]
    assert [r.doc_id for r in parse_sfu(path, doc_id="x")] == ["x"] * 3


def test_folder_input(tmp_path):
    write(tmp_path, SAMPLE, "BOOKS/no1done.xml")
    write(tmp_path, SAMPLE, "CARS/yes2done.xml")
    (tmp_path / "README.txt").write_text("not xml", encoding="utf-8")
    docs = read(tmp_path, n_sents=0)
    assert [d.user_data[META_KEY]["doc_ids"][0] for d in docs] == ["BOOKS/no1done", "CARS/yes2done"]
    stats = negation_statistics(docs)
    assert (stats["documents"], stats["sentences"], stats["negation_sentences"], stats["negations"],
            stats["multiword"], stats["without_scope"]) == (2, 6, 6, 10, 4, 2)


def test_round_trip_through_starsem(tmp_path):
    docs = read(write(tmp_path, SAMPLE), n_sents=2)
    out = tmp_path / "out.txt"
    write_starsem_docs(docs, out)
    assert out.read_text(encoding="utf-8").startswith("BOOKS/no1done\t0\t0\tI\t_\t_\t_\t_\t_\t_\n")
    back = read_starsem_docs(out, spacy.blank("en").vocab, n_sents=2)
    assert [negation_keys(d) for d in back] == [negation_keys(d) for d in docs]


@pytest.mark.parametrize("text,code,line", [
    (SAMPLE.replace("</P>\n<P>", "</P>\n<Q>", 1), "E400", 3),
    (SAMPLE.replace("<W>never</W>", ""), "E409", 3),
    (SAMPLE.replace('SRC="7 10"', ""), "E406", 3),
    (SAMPLE.replace('<cue ID="10" type="negation">', '<cue type="negation">'), "E406", 3),
    (SAMPLE.replace("<W>cheap</W>", "<W>too cheap</W>"), "E405", 4),
    (SAMPLE.replace("<W>cheap</W>", "<W> </W>"), "E405", 4),
    (SAMPLE.replace("DOCUMENT>", "Annotation>"), "E404", 2),
    ('<?xml version="1.0"?>\n<DOCUMENT><P></P></DOCUMENT>\n', "E108", None),
])
def test_bad_input_coded_error_with_line(tmp_path, text, code, line):
    path = write(tmp_path, text)
    assert_coded_error(read, path, code, line)


def test_cli_convert(tmp_path, capsys):
    path = write(tmp_path, SAMPLE)
    out = tmp_path / "out.spacy"
    assert cli_main(["convert", "--format", "sfu", "--quiet", str(tmp_path), str(out)]) == 0
    assert [negation_keys(d) for d in read_docbin(out)] == [negation_keys(d) for d in read(path)]
    write(tmp_path, SAMPLE.replace("<W>never</W>", ""), "CARS/bad.xml")
    out2 = tmp_path / "bad.spacy"
    assert cli_main(["convert", "--format", "sfu", "--quiet", str(tmp_path), str(out2)]) == 1
    assert "[NEG-E409]" in capsys.readouterr().err and not out2.exists()
