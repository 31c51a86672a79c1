"""BioScope reader on hand-made excerpts: tokens, CD-SCO conversion, ids, round trip, bad input."""
from pathlib import Path
from typing import List

import pytest
import spacy

from spacy_negation.cli import main as cli_main
from spacy_negation.corpora.bioscope import normalize_space, parse_bioscope, read_bioscope
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.docs import META_KEY
from spacy_negation.corpora.starsem_docs import read_starsem_docs, write_starsem_docs
from spacy_negation.corpora.stats import negation_statistics
from spacy_negation.errors import NegationFormatError

from util import assert_coded_error, negation_keys

HEADER = ('<?xml version="1.0" encoding="utf-8"?>\n'
          '<!DOCTYPE Annotation PUBLIC "-//BIOSCOPE//DTD  SCOPE ANNOTATION 1.0//EN" "BioScope.dtd">\n')

SAMPLE = HEADER + """<Annotation created="23/6/2008" creator="test">
<DocumentSet>
<Document type="Biological_abstract">
<DocID type="PMID">111</DocID>
<DocumentPart type="AbstractText">
<sentence id="S1.1">PMA, and <xcope id="X1.1.1"><cue type="negation" ref="X1.1.1">not</cue> retinoic acid</xcope> acts.</sentence>
<sentence id="S1.2">It binds <xcope id="X1.2.1"><cue type="negation" ref="X1.2.1">neither</cue> in B cells <cue type="negation" ref="X1.2.1">nor</cue> in T cells</xcope>.</sentence>
<sentence id="S1.3">No hedge: <xcope id="X1.3.2"><cue type="speculation" ref="X1.3.2">may</cue> be <xcope id="X1.3.1"><cue type="negation" ref="X1.3.1">absent</cue></xcope></xcope>.</sentence>
</DocumentPart>
</Document>
<Document type="Biological_abstract">
<DocID type="PMID">222</DocID>
<DocumentPart type="AbstractText">
<sentence id="S2.1">The  factor is in its
 <xcope id="X2.1.1"><cue type="negation" ref="X2.1.1">in</cue>active form</xcope>.</sentence>
<sentence id="S2.2">Nothing here.</sentence>
</DocumentPart>
</Document>
</DocumentSet>
</Annotation>
"""


def write(tmp_path: Path, text: str, name: str = "abstracts.xml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def read(path: Path, n_sents: int = 10) -> List[spacy.tokens.Doc]:
    return list(read_bioscope(path, spacy.blank("en").vocab, n_sents))


def test_reader_tokens_sentences_negations(tmp_path):
    docs = read(write(tmp_path, SAMPLE))
    assert len(docs) == 2  # docs never cross documents
    doc = docs[0]
    assert doc.text == ("PMA, and not retinoic acid acts. It binds neither in B cells nor in T cells. "
                        "No hedge: may be absent.")
    assert [s.text for s in doc.sents][1] == "It binds neither in B cells nor in T cells."
    not_, neither, absent = doc._.negations
    # the cue is not part of the scope (CD-SCO convention), no events
    assert not_.cue_text == "not" and not_.scope_text == "retinoic acid" and not_.event_text == ""
    assert neither.cue_text == "neither nor" and neither.is_discontinuous
    assert neither.scope_text == "in B cells in T cells"
    # speculation is ignored; a scope made of the cue alone becomes empty
    assert absent.cue_text == "absent" and absent.scope == ()
    assert len(doc._.negations) == 3


def test_whitespace_normalised_and_partial_token_parts(tmp_path):
    doc = read(write(tmp_path, SAMPLE))[1]
    assert doc.text == "The factor is in its inactive form. Nothing here."
    (neg,) = doc._.negations
    assert neg.cue_text == "in" and neg.is_affixal and neg.cue_offsets == [(21, 23)]
    assert neg.scope_text == "active form"
    assert [(p.i, p.start, p.end) for p in neg.scope] == [(5, 2, 8), (6, 0, 4)]


def test_normalize_space_mapping():
    text, mapping = normalize_space("  a \n\u00a0b ")
    assert text == "a b"
    assert mapping == [-1, -1, 0, -1, -1, -1, 2, -1]


def test_ids_in_metadata_and_sentences_per_doc(tmp_path):
    docs = read(write(tmp_path, SAMPLE), n_sents=2)
    assert [len(list(d.sents)) for d in docs] == [2, 1, 2]
    meta = docs[0].user_data[META_KEY]
    assert meta["doc_ids"] == ["111", "111"] and meta["sent_nos"] == ["S1.1", "S1.2"]
    assert meta["parse"] == ["_"] * len(docs[0])
    assert docs[2].user_data[META_KEY]["doc_ids"] == ["222", "222"]


def test_parse_keeps_cue_elements(tmp_path):
    sents = list(parse_bioscope(write(tmp_path, SAMPLE)))
    assert [s.sent_id for s in sents] == ["S1.1", "S1.2", "S1.3", "S2.1", "S2.2"]
    assert [n.n_cue_elements for n in sents[1].negations] == [2]


def test_directory_input_reads_every_xml(tmp_path):
    write(tmp_path, SAMPLE, "a.xml")
    write(tmp_path, SAMPLE.replace(">111<", ">333<").replace(">222<", ">444<"), "b.xml")
    stats = negation_statistics(read(tmp_path))
    assert stats["documents"] == 4 and stats["sentences"] == 10 and stats["negations"] == 8
    assert stats["negation_sentences"] == 8 and stats["discontinuous"] == 2 and stats["affixal"] == 2


def test_round_trip_through_starsem(tmp_path):
    docs = read(write(tmp_path, SAMPLE), n_sents=2)
    out = tmp_path / "out.txt"
    write_starsem_docs(docs, out)
    text = out.read_text(encoding="utf-8")
    assert text.startswith("111\tS1.1\t0\tPMA\t_\t_\t_\t")
    assert "222\tS2.1\t5\tinactive\t_\t_\t_\tin\tactive\t_" in text
    back = read_starsem_docs(out, spacy.blank("en").vocab, n_sents=2)
    assert [negation_keys(d) for d in back] == [negation_keys(d) for d in docs]
    assert [[t.text for t in d] for d in back] == [[t.text for t in d] for d in docs]


@pytest.mark.parametrize("text,code,line", [
    (SAMPLE.replace("</cue> retinoic", "</cu> retinoic"), "E400", 8),
    (SAMPLE.replace('ref="X1.2.1">nor', 'ref="X9">nor'), "E407", 9),
    (SAMPLE.replace('<DocID type="PMID">222</DocID>', ""), "E408", 13),
    (SAMPLE.replace('<sentence id="S2.2">', "<sentence>"), "E406", 18),
    (SAMPLE.replace('<cue type="negation" ref="X1.1.1">', '<cue ref="X1.1.1">'), "E406", 8),
    (HEADER + "<DOCUMENT></DOCUMENT>\n", "E404", 3),
    (HEADER + "<Annotation><DocumentSet></DocumentSet></Annotation>\n", "E108", None),
    ("", "E400", 1),
])
def test_bad_input_coded_error_with_line(tmp_path, text, code, line):
    path = write(tmp_path, text)
    assert_coded_error(read, path, code, line)


def test_missing_input_and_empty_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"\[NEG-E130\]"):
        read(tmp_path / "missing.xml")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E402\]"):
        read(tmp_path)


def test_cli_convert(tmp_path, capsys):
    path = write(tmp_path, SAMPLE)
    out = tmp_path / "out.spacy"
    assert cli_main(["convert", "--format", "bioscope", "--quiet", str(path), str(out)]) == 0
    docs = read_docbin(out)
    assert [negation_keys(d) for d in docs] == [negation_keys(d) for d in read(path)]
    bad = write(tmp_path, SAMPLE.replace('ref="X1.2.1">nor', 'ref="X9">nor'), "bad.xml")
    out2 = tmp_path / "bad.spacy"
    assert cli_main(["convert", "--format", "bioscope", "--quiet", str(bad), str(out2)]) == 1
    assert "[NEG-E407]" in capsys.readouterr().err
    assert not out2.exists() and not list(tmp_path.glob(".bad.spacy*"))
