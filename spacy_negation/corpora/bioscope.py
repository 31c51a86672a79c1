"""BioScope (Vincze et al. 2008) abstracts and full papers: negation and speculation cues
and scopes.

Input: ``abstracts.xml`` / ``full_papers.xml`` (``Annotation/DocumentSet/Document/
DocumentPart/sentence`` with nested ``<xcope id>`` and ``<cue type ref>``), or a folder:
every ``*.xml`` below it, in name order.

What the reader does:

- **Negation and speculation.** One negation instance per distinct ``ref`` of the
  ``<cue type="negation">`` elements of a sentence, one speculation instance
  (:class:`~spacy_negation.negation.Speculation`, ``doc._.speculations``) per distinct
  ``ref`` of its ``<cue type="speculation">`` elements, each read the same way; several
  ``<cue>`` elements with one ``ref`` form one (multiword or discontinuous) cue, e.g.
  neither … nor, either … or. The scope of either kind is the ``<xcope>`` whose ``id`` is
  the cue's ``ref``; a bad cue of either kind is the same coded error (E406, E407, E409),
  and ``on_error="skip"`` skips its sentence. Cues of other types are ignored (none in
  the release). The release holds 2,694 speculation ``<cue>`` elements in 2,659 instances
  (abstracts) and 682 in 668 (full papers).
- **Text.** The sentence text is the concatenated character data of ``<sentence>``; every
  run of whitespace characters (``str.isspace``: newlines, tabs, no-break spaces U+00A0,
  repeated spaces) becomes one space and leading/trailing whitespace is removed
  (8 sentences of the release are affected: abstracts S128.10, S131.4, S184.8, S513.7;
  full papers S2.356, S2.359, S4.196, S7.133). Nothing else changes.
- **Tokens.** Each sentence is tokenized on its own with spaCy's English tokenizer
  (``spacy.blank("en").tokenizer`` of spaCy 3.8: its rules and exceptions, e.g.
  "cannot" -> "can" "not"); tokens never cross sentences. Sentences of a doc are joined
  by one space.
- **Parts from characters.** Cue and scope are character ranges in the XML; a token all
  of whose characters belong to a role is a whole part, a token only partly covered gets
  a :class:`~spacy_negation.negation.Part` with the covered character range (with
  spaCy 3.8 this occurs only in scopes ending before a period the tokenizer keeps on the
  token, e.g. ``B`` of ``B.``: 27 negation scope parts in the release; no negation cue is
  partial; of the speculations, 58 scope parts in the abstracts and 7 in the full papers,
  and one cue, ``whether`` of the token ``P.G.whether``).
- **CD-SCO convention.** BioScope scopes include their cue; here the scope of an
  instance is its ``<xcope>`` characters *minus the characters of its own cue* (cue
  elements with the same ``ref``), as in the *SEM 2012 / CD-SCO annotation; the same for
  speculations. Cues of *other* instances inside the scope stay in the scope. BioScope
  annotates no negated events: ``event`` is always empty (a speculation has none). Subjects are mostly outside BioScope scopes and are
  not added (the CD-SCO guidelines would include them). Annotations are otherwise taken
  as they are (e.g. abstracts S415.16 links "can not" to the scope of "failure").
- **Ids.** ``doc.user_data[spacy_negation.corpora.docs.META_KEY]`` holds the ``<DocID>`` text
  per sentence (``doc_ids``), the sentence ``id`` attribute (``sent_nos``, e.g. ``S1.4``)
  and ``_`` parse fragments, so the *SEM writer emits them. Docs never cross documents.
- No lemmas or POS tags (written as ``_`` in *SEM files). A sentence whose text is empty
  after normalisation would be skipped (none in the release).
"""
from dataclasses import dataclass, field
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union
from xml.etree.ElementTree import Element

from spacy.attrs import IDX, SPACY
from spacy.vocab import Vocab
from spacy.tokens import Doc

from ..errors import Errors, NegationFormatError
from ..util import check_on_error, skip_or_raise
from .docs import read_files
from .records import SentenceRecord, chars_to_parts
from .registry import formats
from .xmltree import XMLTree, parse_xml

ROOT_TAG = "Annotation"


#: The cue types read, each into its kind of instance.
CUE_TYPES = ("negation", "speculation")


@dataclass
class BioScopeNegation:
    """One negation (or speculation) instance of a BioScope sentence, as character offsets
    in the (whitespace-normalised) sentence text.

    ref (str): the scope id the cue elements refer to.
    cue (Set[int]): the cue characters.
    scope (Set[int]): the scope characters without the cue characters (CD-SCO convention).
    n_cue_elements (int): the number of ``<cue>`` elements of the instance.
    line (int): the line of the first cue element.
    """

    ref: str
    cue: Set[int]
    scope: Set[int]
    n_cue_elements: int
    line: int


@dataclass
class BioScopeSentence:
    """A BioScope sentence with its negations and speculations.

    doc_id (str): the ``<DocID>`` text.
    sent_id (str): the sentence ``id`` attribute.
    text (str): the whitespace-normalised text.
    negations (List[BioScopeNegation]): the negation instances, by first cue element.
    line (int): the line of the ``<sentence>`` tag.
    speculations (List[BioScopeNegation]): the speculation instances, by first cue element.
    """

    doc_id: str
    sent_id: str
    text: str
    negations: List[BioScopeNegation] = field(default_factory=list)
    line: int = 0
    speculations: List[BioScopeNegation] = field(default_factory=list)


@lru_cache(maxsize=1)
def _tokenizer() -> Any:
    import spacy

    return spacy.blank("en").tokenizer


def flatten(el: Element) -> Tuple[str, List[Tuple[Element, int, int]]]:
    """The character data of an element and the character range of each descendant.

    el (Element): the element.
    RETURNS (Tuple[str, List[Tuple[Element, int, int]]]): the text and, per descendant in
        document order, (element, start, end).
    """
    chunks: List[str] = []
    ranges: List[Tuple[Element, int, int]] = []
    pos = 0

    def visit(node: Element) -> None:
        nonlocal pos
        if node.text:
            chunks.append(node.text)
            pos += len(node.text)
        for child in node:
            k = len(ranges)
            ranges.append((child, pos, pos))
            visit(child)
            ranges[k] = (child, ranges[k][1], pos)
            if child.tail:
                chunks.append(child.tail)
                pos += len(child.tail)

    visit(el)
    return "".join(chunks), ranges


def normalize_space(text: str) -> Tuple[str, List[int]]:
    """Collapse whitespace runs into one space and strip the ends.

    text (str): the raw text.
    RETURNS (Tuple[str, List[int]]): the new text and, per raw character, its offset in the
        new text (-1 for removed whitespace).
    """
    out: List[str] = []
    mapping = [-1] * len(text)
    pending = False
    for i, ch in enumerate(text):
        if ch.isspace():
            pending = bool(out)
            continue
        if pending:
            out.append(" ")
            pending = False
        mapping[i] = len(out)
        out.append(ch)
    return "".join(out), mapping


def parse_bioscope(path: Union[str, Path], on_error: str = "raise") -> Iterator[BioScopeSentence]:
    """Parse one BioScope XML file into sentences with negation and speculation character
    ranges.

    path (Union[str, Path]): the XML file.
    on_error (str): 'raise' stops at the first bad sentence; 'skip' skips it with warning
        W402 (errors outside sentences, such as malformed XML, are raised).
    YIELDS (BioScopeSentence): the sentences in file order.
    RAISES (NegationFormatError): malformed XML or annotation, with file and line.
    """
    lenient = check_on_error(on_error)
    tree = parse_xml(path, ROOT_TAG)
    n = 0
    for document in tree.root.iter("Document"):
        doc_id = document_id(tree, document)
        for sent in document.iter("sentence"):
            n += 1
            try:
                parsed = parse_sentence(tree, sent, doc_id)
            except NegationFormatError as err:
                skip_or_raise(err, lenient, tree.path, tree.line(sent))
                continue
            yield parsed
    if not n:
        raise NegationFormatError(Errors.E108.format(path=tree.path), tree.path)


def document_id(tree: XMLTree, document: Element) -> str:
    """The ``<DocID>`` text of a ``<Document>``.

    tree (XMLTree): the parsed file.
    document (Element): the ``<Document>`` element.
    RETURNS (str): the id, stripped.
    RAISES (NegationFormatError): no usable id (E408).
    """
    el = document.find("DocID")
    value = (el.text or "") if el is not None else ""
    stripped = value.strip()
    if not stripped or any(c.isspace() for c in stripped):
        raise tree.error(Errors.E408, document, value=value)
    return stripped


def parse_sentence(tree: XMLTree, sent: Element, doc_id: str) -> BioScopeSentence:
    """One ``<sentence>``: its whitespace-normalised text and its negation and speculation
    instances as character offsets in that text (see the module docstring).

    tree (XMLTree): the parsed file.
    sent (Element): the ``<sentence>`` element.
    doc_id (str): the id of its document.
    RETURNS (BioScopeSentence): the sentence.
    RAISES (NegationFormatError): a malformed annotation (E406, E407, E409).
    """
    sent_id = sent.get("id")
    if sent_id is None:
        raise tree.error(Errors.E406, sent, tag="sentence", attr="id")
    raw, ranges = flatten(sent)
    text, mapping = normalize_space(raw)
    xcopes: Dict[str, Tuple[int, int]] = {}
    cues: Dict[str, Dict[str, List[Tuple[Element, int, int]]]] = {kind: {} for kind in CUE_TYPES}
    for el, start, end in ranges:
        if el.tag == "xcope":
            xid = el.get("id")
            if xid is None:
                raise tree.error(Errors.E406, el, tag="xcope", attr="id")
            xcopes[xid] = (start, end)
        elif el.tag == "cue":
            ctype = el.get("type")
            if ctype is None:
                raise tree.error(Errors.E406, el, tag="cue", attr="type")
            if ctype not in cues:
                continue
            ref = el.get("ref")
            if ref is None:
                raise tree.error(Errors.E406, el, tag="cue", attr="ref")
            cues[ctype].setdefault(ref, []).append((el, start, end))
    found: Dict[str, List[BioScopeNegation]] = {kind: [] for kind in CUE_TYPES}
    for kind, by_ref in cues.items():
        for ref, elements in by_ref.items():
            if ref not in xcopes:
                raise tree.error(Errors.E407, elements[0][0], ref=ref, kind=kind)
            cue_raw = {i for _, start, end in elements for i in range(start, end)}
            x_start, x_end = xcopes[ref]
            cue = {mapping[i] for i in cue_raw if mapping[i] >= 0}
            scope = {mapping[i] for i in range(x_start, x_end) if i not in cue_raw and mapping[i] >= 0}
            if not cue:
                raise tree.error(Errors.E409, elements[0][0], id=ref, kind=kind)
            found[kind].append(BioScopeNegation(ref, cue, scope, len(elements), tree.line(elements[0][0])))
    return BioScopeSentence(doc_id, sent_id, text, found["negation"], tree.line(sent), found["speculation"])


def sentence_record(sent: BioScopeSentence) -> SentenceRecord:
    """Tokenize a BioScope sentence and project its negations and speculations onto the
    tokens.

    sent (BioScopeSentence): the sentence.
    RETURNS (SentenceRecord): the sentence record.
    """
    text = sent.text
    # token offsets and trailing-space flags as arrays: much faster than Token objects
    array = _tokenizer()(text).to_array([IDX, SPACY]).tolist()
    spaces = [bool(flag) for _, flag in array]
    ends = [start for start, _ in array[1:]] + [len(text)]
    spans = [(start, end - flag) for (start, flag), end in zip(array, ends)]
    words = [text[start:end] for start, end in spans]
    negations = []
    for neg in sent.negations:
        negations.append({"cue": chars_to_parts(spans, neg.cue), "scope": chars_to_parts(spans, neg.scope),
                          "event": []})
    speculations = [{"cue": chars_to_parts(spans, spec.cue), "scope": chars_to_parts(spans, spec.scope)}
                    for spec in sent.speculations]
    return SentenceRecord(
        doc_id=sent.doc_id, sent_id=sent.sent_id, words=words, spaces=spaces,
        negations=negations, speculations=speculations, line=sent.line,
    )


def sentence_records(sentences: Iterable[BioScopeSentence]) -> Iterator[SentenceRecord]:
    """The records of BioScope sentences (:func:`sentence_record`); sentences with empty text
    are skipped.

    sentences (Iterable[BioScopeSentence]): the sentences.
    YIELDS (SentenceRecord): the records.
    """
    for sent in sentences:
        if sent.text:
            yield sentence_record(sent)


def bioscope_file_records(file: Path, on_error: str = "raise") -> Iterator[SentenceRecord]:
    """The sentence records of one BioScope file (sentences with empty text are skipped).

    file (Path): the XML file.
    on_error (str): 'raise' or 'skip' (see :func:`parse_bioscope`).
    YIELDS (SentenceRecord): the sentences.
    """
    return sentence_records(parse_bioscope(file, on_error))


@formats.register("bioscope")
def read_bioscope(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10,
                  on_error: str = "raise") -> Iterator[Doc]:
    """Read BioScope into docs with gold negations and speculations (the ``bioscope``
    format of convert).

    path (Union[str, Path]): abstracts.xml, full_papers.xml, or a folder of such files.
    vocab (Optional[Vocab]): the vocab; a new English one if None.
    n_sents (int): sentences per doc (docs never cross documents); 0 = whole documents.
    on_error (str): 'raise' (default) or 'skip': skip each bad sentence with warning W402.
    RETURNS (Iterator[Doc]): the docs, read as they are consumed.
    """
    return read_files(path, ".xml", partial(bioscope_file_records, on_error=on_error), vocab, n_sents)
