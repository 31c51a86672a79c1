"""Speculation cues and scopes read by the BioScope (abstracts, clinical) and SFU Review
readers beside the negations, on the hand-made excerpts of the readers' tests: the
instances, the negations unchanged, bad speculation annotation with the negation's coded
errors and ``on_error="skip"``, speculation counts, and the corpora without speculation
annotation (no speculation span group)."""
import re
import warnings
from pathlib import Path
from typing import List

import pytest
import spacy
from spacy.tokens import Doc

from spacy_negation.corpora.bioscope import parse_bioscope, read_bioscope
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.sfu import read_sfu
from spacy_negation.corpora.starsem_docs import read_starsem_docs, write_starsem_docs
from spacy_negation.corpora.stats import SPECULATION_KEYS, corpus_statistics, speculation_statistics
from spacy_negation.negation import SPECULATIONS_KEY
from spacy_negation.cli import main as cli_main

from . import test_bioscope_clinical_reader as clinical
from . import test_bioscope_reader as bioscope
from . import test_sfu_reader as sfu
from util import assert_coded_error

# BioScope: an either … or speculation cue (two <cue> elements, one ref) whose scope holds
# a negation, and a speculation inside a negation's scope
SPEC_SENTENCES = """<Document type="Biological_abstract">
<DocID type="PMID">333</DocID>
<DocumentPart type="AbstractText">
<sentence id="S3.1">It <xcope id="X3.1.1"><cue type="speculation" ref="X3.1.1">either</cue> binds <cue type="speculation" ref="X3.1.1">or</cue> <xcope id="X3.1.2"><cue type="negation" ref="X3.1.2">fails</cue> to act</xcope></xcope>.</sentence>
<sentence id="S3.2">We found <xcope id="X3.2.1"><cue type="negation" ref="X3.2.1">no</cue> evidence that it <xcope id="X3.2.2"><cue type="speculation" ref="X3.2.2">might</cue> act</xcope></xcope>.</sentence>
</DocumentPart>
</Document>
</DocumentSet>"""
BIOSCOPE = bioscope.SAMPLE.replace("</DocumentSet>", SPEC_SENTENCES)


def read_bioscope_docs(path: Path, **kwargs) -> List[Doc]:
    return list(read_bioscope(path, spacy.blank("en").vocab, 10, **kwargs))


def texts(instances) -> list:
    return [(n.cue_text, n.scope_text) for n in instances]


def test_bioscope_reads_speculations_beside_negations(tmp_path):
    path = bioscope.write(tmp_path, BIOSCOPE)
    docs = read_bioscope_docs(path)
    assert [texts(d._.speculations) for d in docs] == [[("may", "be absent")], [],
                                                       [("either or", "binds fails to act"), ("might", "act")]]
    assert [texts(d._.negations) for d in docs][2] == [("fails", "to act"), ("no", "evidence that it might act")]
    either = docs[2]._.speculations[0]
    assert either.is_discontinuous and not hasattr(either, "event")
    assert docs[2][1]._.is_spec_cue and docs[2][4]._.uncertain and docs[2][4]._.is_neg_cue
    assert all(SPECULATIONS_KEY in d.spans for d in docs)  # BioScope annotates speculation: a group, maybe empty
    # the negations are those of the sample without the speculation sentences
    assert [texts(d._.negations) for d in read_bioscope_docs(bioscope.write(tmp_path, bioscope.SAMPLE, "b.xml"))] == \
        [texts(d._.negations) for d in docs[:2]]
    (sent,) = [s for s in parse_bioscope(path) if s.sent_id == "S3.1"]
    assert [(s.ref, s.n_cue_elements) for s in sent.speculations] == [("X3.1.1", 2)]


def test_bioscope_speculation_counts(tmp_path):
    docs = read_bioscope_docs(bioscope.write(tmp_path, BIOSCOPE))
    assert speculation_statistics(docs) == {"speculation_sentences": 3, "speculations": 3, "speculation_scopes": 3,
                                            "speculation_multiword": 1, "speculation_discontinuous": 1}
    stats = corpus_statistics(docs)
    assert stats["negations"] == 6 and tuple(stats)[-len(SPECULATION_KEYS):] == SPECULATION_KEYS


@pytest.mark.parametrize("edit,code", [
    (lambda t: t.replace('<cue type="speculation" ref="X3.2.2">', '<cue type="speculation">'), "E406"),
    (lambda t: t.replace('<cue type="speculation" ref="X3.2.2">', '<cue type="speculation" ref="X9">'), "E407"),
    (lambda t: t.replace('<cue type="speculation" ref="X3.2.2">might</cue>', '<cue type="speculation" ref="X3.2.2">'
                                                                              '</cue>'), "E409"),
])
def test_bioscope_bad_speculation_is_the_coded_error_of_a_bad_negation(tmp_path, edit, code):
    text = edit(BIOSCOPE)
    path = bioscope.write(tmp_path, text)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if 'id="S3.2"' in row)
    assert_coded_error(read_bioscope_docs, path, code, line)
    if code != "E406":
        with pytest.raises(Exception, match=r"speculation cue"):
            read_bioscope_docs(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        docs = read_bioscope_docs(path, on_error="skip")
    (message,) = [str(w.message) for w in caught]
    assert message.startswith(f"[NEG-W402] {path}:{line}: skipped") and f"[NEG-{code}]" in message
    assert [texts(d._.speculations) for d in docs][2] == [("either or", "binds fails to act")]


def test_bioscope_clinical_reads_speculations(tmp_path):
    docs = clinical.read(clinical.corpus(tmp_path))
    assert [texts(d._.speculations) for d in docs] == [[], [("Possible", "pneumonia")]]
    assert docs[1][4]._.uncertain and not docs[1][4]._.negated and docs[1][3]._.is_spec_cue
    bad = clinical.MASKED.replace('<cue type="speculation" ref="X2.2.1">', '<cue type="speculation" ref="X7">')
    with pytest.raises(Exception, match=r"\[NEG-E407\] .*speculation cue refers to scope 'X7'"):
        clinical.read(clinical.corpus(tmp_path / "bad", bad))
    docs, messages = clinical.read_leniently(clinical.corpus(tmp_path / "skip", bad))
    assert [d.text for d in docs] == [f"{clinical.IMPRESSION_111} {clinical.HISTORY_111}", "Normal chest."]
    assert len(messages) == 1 and "[NEG-E407]" in messages[0]


# --- SFU Review -------------------------------------------------------------------------------
# a speculation whose scope is linked from the next sentence ("Or" of the release): dropped, W150
S4 = ("<SENTENCE>" + sfu.W("Buy", "it") + "</SENTENCE><SENTENCE>" + '<cue ID="20" type="speculation">' + sfu.W("Or")
      + "</cue>" + sfu.W("not", ".") + "</SENTENCE>")
S5 = ("<SENTENCE>" + '<xcope ID="21"><ref ID="22" SRC="20"></ref>' + sfu.W("wait") + "</xcope>" + sfu.W(".")
      + "</SENTENCE>")
SFU_CROSS = sfu.SAMPLE.replace("</P></DOCUMENT>", "</P>\n<P>" + S4 + S5 + "</P></DOCUMENT>")


def read_sfu_docs(path: Path, **kwargs) -> List[Doc]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return list(read_sfu(path, spacy.blank("en").vocab, 10, **kwargs))


def test_sfu_reads_speculations_beside_negations(tmp_path):
    (doc,) = read_sfu_docs(sfu.write(tmp_path, sfu.SAMPLE))
    assert texts(doc._.speculations) == [("Maybe", "it isn’t good")]
    assert [n.cue_text for n in doc._.negations] == ["do n't", "isn’t", "nor", "never", "is not"]
    assert doc[9]._.uncertain and doc[9]._.negated and doc[6]._.is_spec_cue and not doc[6]._.uncertain
    assert speculation_statistics([doc]) == {"speculation_sentences": 1, "speculations": 1, "speculation_scopes": 1,
                                             "speculation_multiword": 0, "speculation_discontinuous": 0}


def test_sfu_speculation_scope_in_another_sentence_is_dropped_with_a_warning(tmp_path):
    path = sfu.write(tmp_path, SFU_CROSS)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (doc,) = list(read_sfu(path, spacy.blank("en").vocab, 0))
    messages = [str(w.message) for w in caught if "W150" in str(w.message)]
    assert len(messages) == 1 and re.match(rf"\[NEG-W150\] {re.escape(str(path))}:5: <ref SRC='20'> links a scope "
                                           r"to the speculation cue '20' of another sentence \(line 5\)", messages[0])
    assert texts(doc._.speculations) == [("Maybe", "it isn’t good"), ("Or", "")]
    # the same link to a negation cue is an error
    assert_coded_error(read_sfu_docs, sfu.write(tmp_path, SFU_CROSS.replace('ID="20" type="speculation"',
                                                                            'ID="20" type="negation"'), "x/a.xml"),
                       "E451", 5)


def test_sfu_bad_speculation_cue_is_skipped_as_a_bad_negation_cue(tmp_path):
    text = sfu.SAMPLE.replace(sfu.W("Maybe"), "")
    path = sfu.write(tmp_path, text)
    assert_coded_error(read_sfu_docs, path, "E409", 3)
    with pytest.raises(Exception, match=r"speculation cue '4' holds no token"):
        read_sfu_docs(path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (doc,) = list(read_sfu(path, spacy.blank("en").vocab, 10, on_error="skip"))
    assert any(str(w.message).startswith(f"[NEG-W402] {path}:3: skipped") for w in caught)
    assert len(list(doc.sents)) == 2 and doc._.speculations == []


# --- DocBin and the corpora without speculation -------------------------------------------------
def test_convert_keeps_the_speculations_and_starsem_docs_have_none(tmp_path):
    src = bioscope.write(tmp_path, BIOSCOPE)
    out = tmp_path / "out.spacy"
    assert cli_main(["convert", "--format", "bioscope", "--quiet", str(src), str(out)]) == 0
    docs = read_docbin(out)
    assert [texts(d._.speculations) for d in docs] == [texts(d._.speculations) for d in read_bioscope_docs(src)]
    conll = tmp_path / "out.txt"
    write_starsem_docs(docs, conll)  # *SEM files hold negations only
    back = read_starsem_docs(conll, spacy.blank("en").vocab, 0)
    assert all(SPECULATIONS_KEY not in d.spans and d._.speculations == [] for d in back)
