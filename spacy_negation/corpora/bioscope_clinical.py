"""BioScope clinical (Vincze et al. 2008): negation and speculation cues and scopes of the
radiology reports of the CMC 2007 Medical NLP Challenge (Pestian et al. 2007), with their words
merged back.

BioScope distributes its clinical sub-corpus (1,954 reports, 6,383 sentences) with every word
masked: each maximal run of letters and digits (``str.isalnum``) is one ``*``, while
punctuation, spaces and the annotation are kept. The words are in the challenge's own files
(``<docs><doc id><texts><text type>``).

Input: the folder holding both halves. Every ``*.xml`` below it (in name order) is read; one
whose root element is ``<Annotation>`` is a masked BioScope file (``clinical_records_anon.xml``),
one whose root is ``<docs>`` a challenge file (``2007ChallengeTrainData.xml``,
``2007ChallengeTestDataNoCodes.xml``). Another root element, a file instead of a folder, or a
folder without either kind is an error (E145). Challenge reports that BioScope does not
annotate are not read.

What the reader does:

- **Parts.** A masked ``<Document>``'s ``<DocID>`` is the id of a challenge report (E142 if
  none has it); its ``<DocumentPart type="Impression">`` is the report's ``<text
  type="IMPRESSION">`` and ``type="History"`` its ``<text type="CLINICAL_HISTORY">`` (E143: other
  part type; E144: the report lacks the text). A report id or a text type given twice in the
  challenge files is an error (E146).
- **Alignment** (:mod:`.bioscope_unmask`). The sentences of a part are matched in order against
  the part's text. A sentence starts at the first non-space character after the previous one
  (the first at the start of the text); its k-th ``*`` is the k-th following run of letters and
  digits. Before, between and after its words, the masked sentence's punctuation (spaces
  ignored) must be the report's or a subsequence of it: BioScope's copy lacks a few characters
  of the report (e.g. the ``/`` of "fever/." in report 99606302); such a sentence is kept, with
  the report's characters, and reported with warning W140. After its last word a sentence takes
  the shortest stretch of the report's punctuation that holds its own; the last sentence of a
  part ends where the part's text ends (punctuation the masked sentence lacks there is kept
  with W140 too).
- **Mismatch.** A sentence that cannot be matched (the text has fewer words left than it has
  ``*``, punctuation that differs, or report text left after the part's last sentence) is an
  error naming its document id (E140); the later sentences of its part cannot be placed
  (E141). ``on_error="raise"`` (the default) stops at the first such sentence, ``"skip"``
  skips each with warning W402. In the distributed files one sentence is affected: the last
  History sentence of report 99636934 (``* * * *.``), whose text "Last ultrasound of Jan. 27,
  2001 demonstrated ..." BioScope cut at "Jan.".
- **Annotation.** The masked sentences are read by the BioScope reader
  (:func:`.bioscope.parse_sentence`); each annotated masked character moves to the report: a
  ``*`` to its whole word (BioScope cues are whole words), a punctuation mark to the report
  character it was matched with. A report character the masked sentence lacks belongs to a cue
  or scope when the matched characters on both sides of it do. The sentence text is the
  report's text of the sentence, whitespace normalised (:func:`.bioscope.normalize_space`).
  Tokens, the CD-SCO convention (a cue is not part of its scope), empty events, the
  speculations beside the negations (``doc._.speculations``: 1,137 speculation ``<cue>``
  elements in 1,111 instances in the masked file) and the ids (``<DocID>``, sentence
  ``id``) are those of :mod:`.bioscope`. With spaCy 3.8's tokenizer one
  negation cue of the distributed files covers part of a token: "No" of "1.No" (report
  99689407); so does one speculation cue, "No evidence" of "1.No evidence".
"""
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple, Union
from xml.etree.ElementTree import Element

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..errors import Errors, NegationFormatError, Warnings
from ..util import check_on_error, skip_or_raise
from .bioscope import (ROOT_TAG, BioScopeSentence, document_id, flatten, normalize_space, parse_sentence,
                       sentence_records)
from .bioscope_unmask import QUOTE_CHARS, MaskMismatch, align_sentence, restore_sentence, word_runs
from .docs import records_to_docs
from .files import input_files
from .registry import formats
from .xmltree import XMLTree, parse_xml

#: The root element of the challenge files.
TEXTS_ROOT = "docs"
#: ``<DocumentPart type>`` of the masked file -> ``<text type>`` of the challenge files.
PART_TEXTS: Dict[str, str] = {"Impression": "IMPRESSION", "History": "CLINICAL_HISTORY"}


@dataclass
class Report:
    """One radiology report of the challenge files.

    doc_id (str): the ``<doc id>``.
    path (Path): the file.
    line (int): the line of the ``<doc>`` tag.
    texts (Dict[str, str]): ``<text type>`` -> its character data.
    """

    doc_id: str
    path: Path
    line: int
    texts: Dict[str, str] = field(default_factory=dict)


def read_inputs(path: Union[str, Path]) -> Tuple[List[XMLTree], Dict[str, Report]]:
    """The masked BioScope files and the challenge reports of an input folder.

    path (Union[str, Path]): the folder.
    RETURNS (Tuple[List[XMLTree], Dict[str, Report]]): the masked files, in name order, and
        the reports by id.
    RAISES (NegationFormatError): not such a folder (E145), a malformed file, a report id or
        text type given twice (E146).
    """
    path = Path(path)
    if not path.is_dir():
        reason = "it is a file" if path.exists() else "no such folder"
        raise NegationFormatError(Errors.E145.format(path=path, reason=reason), path)
    trees = [parse_xml(file) for file in input_files(path, ".xml")]
    for tree in trees:
        if tree.root.tag not in (ROOT_TAG, TEXTS_ROOT):
            reason = f"{tree.path.name} has the root element <{tree.root.tag}>"
            raise NegationFormatError(Errors.E145.format(path=path, reason=reason), path)
    masked = [tree for tree in trees if tree.root.tag == ROOT_TAG]
    challenge = [tree for tree in trees if tree.root.tag == TEXTS_ROOT]
    for kind, found in (("masked BioScope file", masked), ("challenge file", challenge)):
        if not found:
            raise NegationFormatError(Errors.E145.format(path=path, reason=f"it holds no {kind}"), path)
    reports: Dict[str, Report] = {}
    for tree in challenge:
        for el in tree.root.iter("doc"):
            report = _read_report(tree, el)
            if report.doc_id in reports:
                first = reports[report.doc_id]
                raise tree.error(Errors.E146, el, what=f"report {report.doc_id}", first=f"{first.path}:{first.line}")
            reports[report.doc_id] = report
    return masked, reports


def _read_report(tree: XMLTree, doc: Element) -> Report:
    doc_id = doc.get("id")
    if doc_id is None or not doc_id.strip():
        raise tree.error(Errors.E406, doc, tag="doc", attr="id")
    report = Report(doc_id.strip(), tree.path, tree.line(doc))
    first: Dict[str, int] = {}
    for el in doc.iter("text"):
        text_type = el.get("type")
        if text_type is None:
            raise tree.error(Errors.E406, el, tag="text", attr="type")
        if text_type in report.texts:
            raise tree.error(Errors.E146, el, what=f"<text type={text_type!r}> of report {report.doc_id}",
                             first=f"{tree.path}:{first[text_type]}")
        report.texts[text_type] = flatten(el)[0]
        first[text_type] = tree.line(el)
    return report


def parse_bioscope_clinical(path: Union[str, Path], on_error: str = "raise") -> Iterator[BioScopeSentence]:
    """The sentences of BioScope clinical with their words restored from the challenge files.

    path (Union[str, Path]): the folder with the masked file and the challenge files.
    on_error (str): 'raise' stops at the first sentence that cannot be restored; 'skip' skips
        each with warning W402 (errors outside sentences, such as malformed XML, are raised).
    YIELDS (BioScopeSentence): the restored sentences, in the order of the masked files.
    RAISES (NegationFormatError): bad input, with file and line (see the module docstring).
    """
    lenient = check_on_error(on_error)
    masked_files, reports = read_inputs(path)
    for tree in masked_files:
        n = 0
        for document in tree.root.iter("Document"):
            doc_id = document_id(tree, document)
            in_parts: Set[int] = set()
            for part in document.iter("DocumentPart"):
                sentences = list(part.iter("sentence"))
                in_parts.update(id(sent) for sent in sentences)
                n += len(sentences)
                yield from _restore_part(tree, part, sentences, doc_id, reports, lenient)
            for sent in document.iter("sentence"):
                if id(sent) not in in_parts:
                    n += 1
                    err = tree.error(Errors.E417, sent, tag="sentence", parent="DocumentPart")
                    skip_or_raise(err, lenient, tree.path, tree.line(sent))
        if not n:
            raise NegationFormatError(Errors.E108.format(path=tree.path), tree.path)


def _part_text(tree: XMLTree, part: Element, doc_id: str, reports: Dict[str, Report]) -> str:
    """The report text of a masked document part (E142, E143, E144 if there is none)."""
    part_type = part.get("type")
    if part_type not in PART_TEXTS:
        raise tree.error(Errors.E143, part, type=part_type, doc_id=doc_id, expected=", ".join(PART_TEXTS))
    report = reports.get(doc_id)
    if report is None:
        files = ", ".join(sorted({str(r.path) for r in reports.values()}))
        raise tree.error(Errors.E142, part, doc_id=doc_id, files=files)
    text = report.texts.get(PART_TEXTS[part_type])
    if text is None:
        raise tree.error(Errors.E144, part, doc_id=doc_id, type=PART_TEXTS[part_type], part=part_type)
    return text


def _restore_part(tree: XMLTree, part: Element, sentences: List[Element], doc_id: str,
                  reports: Dict[str, Report], lenient: bool) -> Iterator[BioScopeSentence]:
    """The restored sentences of one masked document part; each one that cannot be restored
    is raised or, leniently, skipped with W402."""
    try:
        text = _part_text(tree, part, doc_id, reports)
    except NegationFormatError as err:
        for sent in sentences:
            skip_or_raise(err, lenient, tree.path, tree.line(sent))
        return
    runs = word_runs(text)
    pos = 0
    failed: Optional[str] = None
    for k, sent in enumerate(sentences):
        try:
            masked = parse_sentence(tree, sent, doc_id)
            if failed is not None:
                raise tree.error(Errors.E141, sent, doc_id=doc_id, part=part.get("type"), sent_id=masked.sent_id,
                                 first=failed)
            try:
                alignment = align_sentence(masked.text, text, runs, pos, last=k == len(sentences) - 1)
            except MaskMismatch as mismatch:
                quote = text[pos:pos + QUOTE_CHARS].strip()
                raise tree.error(Errors.E140, sent, doc_id=doc_id, part=part.get("type"), sent_id=masked.sent_id,
                                 reason=mismatch, masked=masked.text, text=quote) from None
        except NegationFormatError as err:
            failed = failed or sent.get("id", "?")
            skip_or_raise(err, lenient, tree.path, tree.line(sent))
            continue
        pos = alignment.end
        if alignment.differs:
            differences = "; ".join(f"{m!r} vs {t!r}" for m, t in alignment.differs)
            warnings.warn(Warnings.W140.format(path=tree.path, line=tree.line(sent), doc_id=doc_id,
                                               sent_id=masked.sent_id, differences=differences), stacklevel=2)
        yield restore_sentence(masked, text, alignment)


@formats.register("bioscope_clinical")
def read_bioscope_clinical(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10,
                           on_error: str = "raise") -> Iterator[Doc]:
    """Read BioScope clinical into docs with gold negations and speculations, words merged back
    from the CMC 2007 challenge files (the ``bioscope_clinical`` format of convert).

    path (Union[str, Path]): the folder holding ``clinical_records_anon.xml`` and the
        challenge files (e.g. ``../shared/corpora/bioscope-clinical``).
    vocab (Optional[Vocab]): the vocab; a new English one if None.
    n_sents (int): sentences per doc (docs never cross reports); 0 = whole reports.
    on_error (str): 'raise' (default) or 'skip': skip each sentence that cannot be restored
        with warning W402.
    RETURNS (Iterator[Doc]): the docs, read as they are consumed.
    """
    return records_to_docs(sentence_records(parse_bioscope_clinical(path, on_error)), vocab, n_sents)
