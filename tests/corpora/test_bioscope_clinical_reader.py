"""BioScope clinical reader on hand-made masked files and challenge texts: words and character
offsets restored, mismatches refused (strict) or reported and skipped (lenient), bad input,
the committed split; and, marked slow, the real corpus."""
import json
import warnings
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest
import spacy
from spacy.tokens import Doc

from spacy_negation.cli import main as cli_main
from spacy_negation.corpora.bioscope_clinical import parse_bioscope_clinical, read_bioscope_clinical
from spacy_negation.corpora.bioscope_unmask import MaskMismatch, align_sentence, word_runs
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.corpora.docs import META_KEY, document_ids
from spacy_negation.corpora.registry import get_reader
from spacy_negation.corpora.splits import SPLIT_NAMES, load_split, read_split_ids, split_file
from spacy_negation.corpora.stats import corpus_statistics, negation_statistics
from spacy_negation.errors import NegationFormatError

REPO = Path(__file__).resolve().parents[2]

MASKED = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE Annotation PUBLIC "-//BIOSCOPE//DTD  SCOPE ANNOTATION 1.0//EN" "BioScope.dtd">
<Annotation created="6/10/2008" creator="test">
<DocumentSet>
<Document type="Medical_record">
<DocID type="CMC_DOCID">111</DocID>
<DocumentPart type="Impression">
<sentence id="S1.1">
	*.
</sentence>
<sentence id="S1.2">
	<xcope id="X1.2.1"><cue type="negation" ref="X1.2.1">*</cue> * *</xcope>.
</sentence>
<sentence id="S1.3">
	* * <xcope id="X1.3.1"><cue type="negation" ref="X1.3.1">*</cue> *-* *</xcope>.
</sentence>
</DocumentPart>
<DocumentPart type="History">
<sentence id="S1.4">
	* * * *, <xcope id="X1.4.1"><cue type="negation" ref="X1.4.1">*</cue> *</xcope>.
</sentence>
</DocumentPart>
</Document>
<Document type="Medical_record">
<DocID type="CMC_DOCID">222</DocID>
<DocumentPart type="Impression">
<sentence id="S2.1">
	* *.
</sentence>
</DocumentPart>
<DocumentPart type="History">
<sentence id="S2.2">
	<xcope id="X2.2.1"><cue type="speculation" ref="X2.2.1">*</cue> *</xcope>.
</sentence>
</DocumentPart>
</Document>
</DocumentSet>
</Annotation>
"""

IMPRESSION_111 = "1. No focal pneumonia. Lungs are without air-space disease."
HISTORY_111 = "Cough for two days, no fever."
TEXTS: Dict[str, Dict[str, str]] = {
    "111": {"CLINICAL_HISTORY": HISTORY_111, "IMPRESSION": IMPRESSION_111},
    "222": {"CLINICAL_HISTORY": "Possible pneumonia.", "IMPRESSION": "Normal\n   chest."},
    "333": {"CLINICAL_HISTORY": "Not in BioScope.", "IMPRESSION": "Ignored."},
}


def challenge_xml(texts: Dict[str, Dict[str, str]]) -> str:
    """A challenge-style file: <docs><doc id><codes/><texts><text type>."""
    docs = []
    for doc_id, parts in texts.items():
        rows = "".join(f'      <text origin="CCHMC_RADIOLOGY" type="{t}">{x}</text>\n' for t, x in parts.items())
        docs.append(f'  <doc id="{doc_id}" type="RADIOLOGY_REPORT">\n    <codes></codes>\n    <texts>\n{rows}'
                    '    </texts>\n  </doc>\n')
    return "<?xml version='1.0' standalone='yes'?>\n<docs>\n" + "".join(docs) + "</docs>\n"


def corpus(tmp_path: Path, masked: str = MASKED, texts: Optional[Dict[str, Dict[str, str]]] = None) -> Path:
    folder = tmp_path / "bioscope-clinical"
    folder.mkdir(parents=True)
    (folder / "clinical_records_anon.xml").write_text(masked, encoding="utf-8")
    (folder / "2007ChallengeTrainData.xml").write_text(challenge_xml(TEXTS if texts is None else texts),
                                                        encoding="utf-8")
    return folder


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def with_texts(**changes: Tuple[str, str]) -> Dict[str, Dict[str, str]]:
    texts = {doc_id: dict(parts) for doc_id, parts in TEXTS.items()}
    for doc_id, (text_type, text) in changes.items():
        texts[doc_id.lstrip("_")][text_type] = text
    return texts


def read(folder: Path, on_error: str = "raise", n_sents: int = 0) -> List[Doc]:
    return list(read_bioscope_clinical(folder, spacy.blank("en").vocab, n_sents, on_error=on_error))


def read_leniently(folder: Path) -> Tuple[List[Doc], List[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        docs = read(folder, on_error="skip")
    return docs, [str(w.message) for w in caught]


# --- the merge --------------------------------------------------------------------------------
def test_merge_restores_words_sentences_and_ids(tmp_path):
    docs = read(corpus(tmp_path))
    assert [doc.text for doc in docs] == [f"{IMPRESSION_111} {HISTORY_111}", "Normal chest. Possible pneumonia."]
    assert [s.text for s in docs[0].sents] == ["1.", "No focal pneumonia.", "Lungs are without air-space disease.",
                                               HISTORY_111]
    assert docs[0].user_data[META_KEY]["doc_ids"] == ["111"] * 4
    assert docs[0].user_data[META_KEY]["sent_nos"] == ["S1.1", "S1.2", "S1.3", "S1.4"]
    assert document_ids(docs) == ["111", "222"]  # report 333 is not in BioScope: not read
    assert get_reader("bioscope_clinical") is read_bioscope_clinical


def test_merge_puts_cues_and_scopes_at_the_report_characters(tmp_path):
    docs = read(corpus(tmp_path))
    doc = docs[0]
    no, without, no_fever = doc._.negations
    text = doc.text
    # whole-word cues; the scope without its cue (CD-SCO convention, as the bioscope reader)
    assert [text[s:e] for s, e in no.cue_offsets] == ["No"] and no.cue_offsets == [(3, 5)]
    assert [text[s:e] for s, e in no.scope_offsets] == ["focal pneumonia"]
    assert [text[s:e] for s, e in without.cue_offsets] == ["without"]
    assert [p.text(doc) for p in without.scope] == ["air", "-", "space", "disease"]
    assert [text[s:e] for s, e in without.scope_offsets] == ["air-space disease"]
    assert no_fever.cue_text == "no" and no_fever.scope_text == "fever"
    assert not no.is_affixal and all(n.event == () for n in doc._.negations)
    assert docs[1]._.negations == []  # speculation is not read


def test_sentences_as_character_sets(tmp_path):
    sents = list(parse_bioscope_clinical(corpus(tmp_path)))
    s12 = sents[1]
    (neg,) = s12.negations
    assert s12.text == "No focal pneumonia."
    assert "".join(s12.text[i] for i in sorted(neg.cue)) == "No"
    assert neg.scope == set(range(3, 8)) | set(range(9, 18))  # "focal", "pneumonia" (spaces play no part)
    assert sents[4].text == "Normal chest."  # the report's whitespace normalised


def test_word_runs_are_maximal_letters_and_digits():
    assert word_runs("10-year x2, a_b") == [(0, 2), (3, 7), (8, 10), (12, 13), (14, 15)]


def test_report_punctuation_the_masked_sentence_lacks_is_kept_with_w140(tmp_path):
    masked = MASKED.replace("\t* *.\n", "\t" + '<xcope id="X2.1.1"><cue type="negation" ref="X2.1.1">*</cue> * *</xcope>.\n')
    folder = corpus(tmp_path, masked, with_texts(_222=("IMPRESSION", "No cough, fever/.")))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc = read(folder)[1]
    (message,) = [str(w.message) for w in caught]
    line = line_of(masked, 'id="S2.1"')
    assert message.startswith(f"[NEG-W140] {folder / 'clinical_records_anon.xml'}:{line}: document 222, sentence S2.1")
    assert "(masked vs report: '' vs ','; '.' vs '/.')" in message
    assert doc.text == "No cough, fever/. Possible pneumonia."
    (neg,) = doc._.negations
    # the ',' between two scope words is in the scope; the '/' after the last one is not
    assert [p.text(doc) for p in neg.scope] == ["cough", ",", "fever"]
    assert neg.cue_text == "No"


def test_report_punctuation_after_the_last_sentence_of_a_part_is_kept_with_w140(tmp_path):
    folder = corpus(tmp_path, texts=with_texts(_222=("CLINICAL_HISTORY", "Possible pneumonia.) ")))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        doc = read(folder)[1]
    (message,) = [str(w.message) for w in caught]
    assert message.startswith("[NEG-W140]") and "sentence S2.2" in message and "'.' vs '.)'" in message
    assert doc.text == "Normal chest. Possible pneumonia.)"


def test_align_sentence_directly():
    text = "No focal pneumonia. Next."
    runs = word_runs(text)
    alignment = align_sentence("* * *.", text, runs, 0)
    assert (alignment.start, alignment.end, alignment.differs) == (0, 19, [])
    assert alignment.owner[:3] == [0, 0, -1] and alignment.owner[-1] == 5
    with pytest.raises(MaskMismatch, match="goes on after its last sentence"):
        align_sentence("* * *.", text, runs, 0, last=True)
    with pytest.raises(MaskMismatch, match="punctuation"):
        align_sentence("* *;", "No fever.", word_runs("No fever."), 0)


# --- mismatches: strict and lenient -------------------------------------------------------------
def test_star_count_mismatch_is_a_coded_error_with_document_id(tmp_path):
    # the report has one word more than the masked sentence S1.2
    folder = corpus(tmp_path, texts=with_texts(_111=("IMPRESSION", "1. No focal lobar pneumonia. Lungs are "
                                                                  "without air-space disease.")))
    path = folder / "clinical_records_anon.xml"
    line = line_of(MASKED, 'id="S1.2"')
    with pytest.raises(NegationFormatError, match=r"\[NEG-E140\]") as err:
        read(folder)
    assert err.value.line == line and f"{path}:{line}: document 111, Impression sentence S1.2" in str(err.value)


def test_star_count_mismatch_is_reported_and_skipped_leniently(tmp_path):
    folder = corpus(tmp_path, texts=with_texts(_111=("IMPRESSION", "1. No focal lobar pneumonia. Lungs are "
                                                                  "without air-space disease.")))
    docs, messages = read_leniently(folder)
    assert len(messages) == 2 and all(m.startswith("[NEG-W402]") for m in messages)
    assert "[NEG-E140]" in messages[0] and "document 111, Impression sentence S1.2" in messages[0]
    # the part's later sentence cannot be placed: reported too, never dropped silently
    assert "[NEG-E141]" in messages[1] and "sentence S1.3" in messages[1] and "sentence S1.2 of the same" in messages[1]
    assert [s.text for s in docs[0].sents] == ["1.", HISTORY_111]
    assert docs[0].user_data[META_KEY]["sent_nos"] == ["S1.1", "S1.4"]
    assert docs[1].text == "Normal chest. Possible pneumonia."


@pytest.mark.parametrize("impression,reason", [
    # the report part goes on after the last masked sentence
    (IMPRESSION_111 + " Stable heart size.", "goes on after its last sentence"),
    # the report has fewer words than the masked sentences
    ("1. No focal pneumonia. Lungs are without disease.", "6 masked word(s), but the report text has 4 left"),
    # the masked punctuation is not the report's
    ("1. No focal pneumonia; Lungs are without air-space disease.", "punctuation"),
])
def test_kinds_of_mismatch(tmp_path, impression, reason):
    folder = corpus(tmp_path, texts=with_texts(_111=("IMPRESSION", impression)))
    with pytest.raises(NegationFormatError, match=r"\[NEG-E140\]") as err:
        read(folder)
    assert reason in str(err.value) and "document 111" in str(err.value)
    docs, messages = read_leniently(folder)
    assert messages and all(m.startswith("[NEG-W402]") for m in messages)
    assert docs[1].text == "Normal chest. Possible pneumonia."


def test_convert_strict_refuses_and_lenient_reports(tmp_path, capsys):
    folder = corpus(tmp_path, texts=with_texts(_111=("IMPRESSION", IMPRESSION_111 + " Stable.")))
    out = tmp_path / "out.spacy"
    assert cli_main(["convert", "--format", "bioscope_clinical", "--quiet", str(folder), str(out)]) == 1
    assert "[NEG-E140]" in capsys.readouterr().err and not out.exists()  # nothing half-written
    assert cli_main(["convert", "--format", "bioscope_clinical", "--quiet", "--on-error", "skip",
                     str(folder), str(out)]) == 0
    err = capsys.readouterr().err
    assert "[NEG-W402]" in err and "document 111" in err and "1 sentence(s) skipped" in err
    docs = read_docbin(out)
    assert negation_statistics(docs)["sentences"] == 5


# --- bad input ------------------------------------------------------------------------------
def test_document_missing_from_the_challenge_files(tmp_path):
    folder = corpus(tmp_path, texts={k: v for k, v in TEXTS.items() if k != "222"})
    with pytest.raises(NegationFormatError, match=r"\[NEG-E142\].*document 222"):
        read(folder)
    docs, messages = read_leniently(folder)
    assert len(messages) == 2 and all("[NEG-E142]" in m for m in messages)  # both sentences of 222
    assert document_ids(docs) == ["111"]


def test_unknown_part_type_and_missing_report_text(tmp_path):
    folder = corpus(tmp_path, MASKED.replace('<DocumentPart type="History">\n<sentence id="S2.2">',
                                             '<DocumentPart type="Findings">\n<sentence id="S2.2">'))
    with pytest.raises(NegationFormatError, match=r"\[NEG-E143\].*'Findings'.*document 222"):
        read(folder)
    texts = with_texts()
    del texts["111"]["CLINICAL_HISTORY"]
    folder = corpus(tmp_path / "x", texts=texts)
    with pytest.raises(NegationFormatError, match=r"\[NEG-E144\].*document 111.*'CLINICAL_HISTORY'"):
        read(folder)
    docs, messages = read_leniently(folder)
    assert len(messages) == 1 and "[NEG-E144]" in messages[0] and len(list(docs[0].sents)) == 3


def test_sentence_outside_a_part(tmp_path):
    masked = MASKED.replace('<DocumentPart type="Impression">\n<sentence id="S2.1">\n\t* *.\n</sentence>\n'
                            '</DocumentPart>', '<sentence id="S2.1">\n\t* *.\n</sentence>')
    assert masked != MASKED
    with pytest.raises(NegationFormatError, match=r"\[NEG-E417\]"):
        read(corpus(tmp_path, masked))


def test_input_must_be_the_folder_with_both_halves(tmp_path):
    folder = corpus(tmp_path)
    with pytest.raises(NegationFormatError, match=r"\[NEG-E145\].*it is a file"):
        read(folder / "clinical_records_anon.xml")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E145\].*no such folder"):
        read(tmp_path / "missing")
    (folder / "2007ChallengeTrainData.xml").unlink()
    with pytest.raises(NegationFormatError, match=r"\[NEG-E145\].*no challenge file"):
        read(folder)
    (folder / "clinical_records_anon.xml").unlink()
    (folder / "other.xml").write_text("<other/>", encoding="utf-8")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E145\].*other.xml has the root element <other>"):
        read(folder)


def test_no_masked_file(tmp_path):
    folder = corpus(tmp_path)
    (folder / "clinical_records_anon.xml").unlink()
    with pytest.raises(NegationFormatError, match=r"\[NEG-E145\].*no masked BioScope file"):
        read(folder)


def test_report_or_text_given_twice(tmp_path):
    folder = corpus(tmp_path)
    (folder / "2007ChallengeTestDataNoCodes.xml").write_text(challenge_xml({"222": TEXTS["222"]}), encoding="utf-8")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E146\].*report 222 occurs twice"):
        read(folder)
    twice = challenge_xml(TEXTS).replace('<text origin="CCHMC_RADIOLOGY" type="IMPRESSION">Ignored.</text>',
                                         '<text type="IMPRESSION">A.</text><text type="IMPRESSION">B.</text>')
    folder = corpus(tmp_path / "x")
    (folder / "2007ChallengeTrainData.xml").write_text(twice, encoding="utf-8")
    with pytest.raises(NegationFormatError, match=r"\[NEG-E146\].*<text type='IMPRESSION'> of report 333"):
        read(folder)


# --- the committed split --------------------------------------------------------------------------
def test_committed_split_loads():
    data = json.loads(split_file("bioscope_clinical").read_text(encoding="utf-8"))
    assert data["format"] == "bioscope_clinical" and data["seed"] == 1273400 and data["fractions"] == [0.8, 0.1, 0.1]
    sizes = [len(read_split_ids("bioscope_clinical", split)) for split in SPLIT_NAMES]
    assert sizes == [1563, 195, 196]  # round(1954 * 0.8), round(1954 * 0.1), the rest
    ids = [d for split in SPLIT_NAMES for d in read_split_ids("bioscope_clinical", split)]
    assert len(set(ids)) == 1954


def test_split_selects_documents(tmp_path, capsys):
    folder = corpus(tmp_path)
    splits = tmp_path / "splits"
    splits.mkdir()
    (splits / "bioscope_clinical.json").write_text(
        json.dumps({"splits": {"train": ["111"], "dev": [], "test": ["222"]}}), encoding="utf-8")
    docs = load_split("bioscope_clinical", "test", folder, splits_dir=splits)
    assert document_ids(docs) == ["222"]
    # convert --split uses the committed ids: the tiny corpus has none of them
    out = tmp_path / "train.spacy"
    assert cli_main(["convert", "--format", "bioscope_clinical", "--quiet", "--split", "bioscope_clinical:train",
                     str(folder), str(out)]) == 1
    assert "[NEG-E433]" in capsys.readouterr().err and not out.exists()


# --- the real corpus ------------------------------------------------------------------------
@pytest.fixture(scope="module")
def real_corpus(shared_dir: Path) -> Path:
    path = shared_dir / "corpora" / "bioscope-clinical"
    if not path.is_dir():
        pytest.skip(f"{path} not found")
    return path


@pytest.mark.slow
def test_real_corpus_counts(real_corpus):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sents = list(parse_bioscope_clinical(real_corpus, on_error="skip"))
    messages = [str(w.message) for w in caught]
    # 1,954 reports, 6,383 masked sentences, 872 negation <cue> elements (870 instances)
    assert len({s.doc_id for s in sents}) == 1954
    assert len(sents) == 6382
    assert sum(len(s.negations) for s in sents) == 870
    assert sum(n.n_cue_elements for s in sents for n in s.negations) == 872
    # one sentence skipped: BioScope cut report 99636934's last History sentence at "Jan."
    skipped = [m for m in messages if m.startswith("[NEG-W402]")]
    assert len(skipped) == 1 and "[NEG-E140]" in skipped[0] and "document 99636934, History sentence S843.5" in skipped[0]
    assert "4 masked word(s), but the report part has 21 from here" in skipped[0]
    # one sentence kept whose report has a '/' the masked sentence lacks
    kept = [m for m in messages if m.startswith("[NEG-W140]")]
    assert len(kept) == 1 and "document 99606302, sentence S1068.3" in kept[0]
    assert len(messages) == 2
    with pytest.raises(NegationFormatError, match=r"\[NEG-E140\].*99636934"):
        list(parse_bioscope_clinical(real_corpus))  # strict by default


@pytest.mark.slow
def test_real_corpus_splits_and_statistics(real_corpus, tmp_path):
    stats = json.loads((REPO / "results" / "corpus_stats.json").read_text(encoding="utf-8"))["corpora"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        docs = read(real_corpus, on_error="skip", n_sents=10)
    totals = corpus_statistics(docs)
    assert totals == stats["bioscope_clinical"]["total"]
    assert (totals["documents"], totals["sentences"], totals["negations"], totals["negations"] - totals["without_scope"]) \
        == (1954, 6382, 870, 849)
    for split in SPLIT_NAMES:
        out = tmp_path / f"{split}.spacy"
        assert cli_main(["convert", "--format", "bioscope_clinical", "--quiet", "--on-error", "skip", "--split",
                         f"bioscope_clinical:{split}", str(real_corpus), str(out)]) == 0
        assert corpus_statistics(read_docbin(out)) == stats["bioscope_clinical"][split]
