"""SFU Review Corpus, English, annotated for negation and speculation (Konstantinova et
al. 2012): negation and speculation cues and scopes.

Input: one review XML file (``DOCUMENT/P/SENTENCE/W``), or a folder: every ``*.xml``
below it in natural path order (the release folder holds ``<DOMAIN>/{yes,no}<N>done.xml``).

What the reader does:

- **Tokens** are the ``<W>`` elements, as tokenized in the corpus ("n't" split off);
  ``<C>`` wrappers are transparent. Spaces between tokens are guessed with English
  punctuation rules (:func:`spacy_negation.corpora.spaces.guess_spaces`); sentences of a doc are
  joined by one space.
- **Character normalisation** (token text only): the release holds C1 control characters
  that are Windows-1252 bytes decoded as Latin-1. Each such character is replaced by its
  Windows-1252 character — U+0085 -> … (U+2026), U+0091 -> ‘ (U+2018), U+0092 -> ’
  (U+2019), U+0093 -> “ (U+201C), U+0094 -> ” (U+201D), U+0095 -> • (U+2022), U+0096 -> –
  (U+2013), U+0097 -> — (U+2014), U+0099 -> ™ (U+2122), and likewise the other C1 code
  points Windows-1252 defines (U+0080–U+009F except U+0081, U+008D, U+008F, U+0090,
  U+009D, which stay control characters: a token holding one is an error, E405; none in
  the release). In the release: 1,075 × U+0092 in 67 files, plus U+0094 ×269,
  U+0093 ×240, U+0096 ×103, U+0091 ×58, U+0085 ×41, U+0095 ×31, U+0097 ×26, U+0099 ×4.
  U+0085 is a line break for Python (``str.isspace``), so without this step 37 tokens such
  as ``mind\\x85at`` would contain "whitespace". Nothing else is changed; surrounding
  whitespace of a token would be stripped (none in the release).
- **Negation and speculation.** One negation instance per ``<cue type="negation">``
  element, one speculation instance (:class:`~spacy_negation.negation.Speculation`,
  ``doc._.speculations``) per ``<cue type="speculation">`` element (5,363 in the release),
  read the same way: its cue is the ``<W>`` tokens inside it (multi-token cues such as
  "do n't" are common). The XML does not link the parts of discontinuous cues (neither …
  nor, either … or are two cues), so neither does the reader. A cue of either kind without
  a token is E409.
- **Scopes.** A scope is an element (``<xcope>``; in 5 cases a ``<cue>``) holding a
  ``<ref SRC="ids">``; it belongs to each cue whose ``ID`` is listed in ``SRC``. Cue ids
  are not unique within a file (10 files reuse an id), so an id is resolved to the cue with
  that id *in the same sentence*, else to the only cue with that id in the file; ids that
  stay unresolved (7 of the 9,528 in the release: no cue has them; 6 name an ``<xcope>``)
  are ignored with warning W404 naming file and line; a scope in another sentence than
  its negation cue is an error (E451; none in the release once ids are resolved this way),
  and one in another sentence than its speculation cue is dropped with warning W150 (19 in
  the release, nearly all a sentence-initial "Or" whose scope is the sentence before: the
  speculation keeps its cue and the scope in its own sentence, if any). A
  ``<ref>`` must lie in an ``<xcope>`` (or ``<cue>``); sentences do not nest; tokens and
  annotations lie inside sentences (coded errors otherwise).
  The scope of an instance is the union of the ``<W>`` tokens of its scope elements
  minus its own cue tokens (CD-SCO convention; SFU scopes never contain their own cue
  anyway). There are no events; 180 negation cues have no scope.
- **Ids.** ``doc_ids`` is ``<DOMAIN folder>/<file stem>`` (e.g. ``BOOKS/no1done``),
  ``sent_nos`` counts the sentences of a file from 0; no lemmas or tags.
"""
import warnings
from functools import partial
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple, Union
from xml.etree.ElementTree import Element

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..errors import Errors, NegationFormatError, Warnings
from ..util import check_on_error, skip_or_raise
from .docs import read_files
from .records import NegationRecord, SentenceRecord, check_token, whole_parts
from .registry import formats
from .spaces import guess_spaces
from .xmltree import XMLTree, parse_xml

ROOT_TAG = "DOCUMENT"


def _c1_table() -> Dict[int, str]:
    table: Dict[int, str] = {}
    for code in range(0x80, 0xA0):
        try:
            table[code] = bytes([code]).decode("cp1252")
        except UnicodeDecodeError:
            continue
    return table


#: C1 control code point -> its Windows-1252 character (see the module docstring).
C1_TO_CP1252: Dict[int, str] = _c1_table()


def normalize_text(text: str) -> str:
    """Replace C1 control characters by their Windows-1252 characters.

    text (str): a token's text.
    RETURNS (str): the normalised text.
    """
    return text.translate(C1_TO_CP1252)


def sfu_doc_id(path: Path) -> str:
    """The document id of a review file: ``<parent folder>/<stem>``.

    path (Path): the file.
    RETURNS (str): the id, e.g. ``BOOKS/no1done`` (whitespace runs become ``_``).
    """
    name = f"{path.parent.name}/{path.stem}" if path.parent.name else path.stem
    return "_".join(name.split())


def parse_sfu(path: Union[str, Path], doc_id: Optional[str] = None, on_error: str = "raise") -> List[SentenceRecord]:
    """Parse one SFU Review XML file into sentence records with negations and speculations.

    path (Union[str, Path]): the XML file.
    doc_id (Optional[str]): the document id; default :func:`sfu_doc_id`.
    on_error (str): 'raise' stops at the first bad sentence; 'skip' skips each bad sentence
        with warning W402 (errors of the file's structure, such as malformed XML, nested
        sentences or tokens outside sentences, are raised).
    RETURNS (List[SentenceRecord]): the sentences in file order.
    RAISES (NegationFormatError): malformed XML or annotation, with file and line.
    """
    lenient = check_on_error(on_error)
    path = Path(path)
    tree = parse_xml(path, ROOT_TAG)
    doc_id = doc_id if doc_id is not None else sfu_doc_id(path)
    sentences = list(tree.root.iter("SENTENCE"))
    _check_structure(tree, sentences)
    bad: Set[int] = set()

    def skip(s: int, err: NegationFormatError) -> None:
        skip_or_raise(err, lenient, tree.path, tree.line(sentences[s]))
        bad.add(s)

    positions: List[Dict[int, int]] = []
    records: List[SentenceRecord] = []
    cue_by_id: Dict[str, List[Tuple[int, Element]]] = {}
    for s, sent in enumerate(sentences):
        try:
            words, pos, cues = _tokens_and_cues(tree, sent)
        except NegationFormatError as err:
            skip(s, err)
            words, pos, cues = [], {}, []
        positions.append(pos)
        records.append(SentenceRecord(doc_id=doc_id, sent_id=str(s), words=words, spaces=guess_spaces(words),
                                      speculations=[], line=tree.line(sent)))
        for cid, cue in cues:
            cue_by_id.setdefault(cid, []).append((s, cue))
    scopes: Dict[int, Set[int]] = {}  # id(cue element) -> scope token positions
    for s, sent in enumerate(sentences):
        if s in bad:
            continue
        try:
            found = _scopes(tree, sent, s, positions[s], cue_by_id)
        except NegationFormatError as err:
            skip(s, err)
            continue
        for key, tokens in found.items():
            scopes.setdefault(key, set()).update(tokens)
    for s, sent in enumerate(sentences):
        if s in bad:
            continue
        try:
            records[s].negations = _instances(tree, sent, positions[s], records[s].words, scopes, "negation")
            records[s].speculations = _instances(tree, sent, positions[s], records[s].words, scopes, "speculation")
        except NegationFormatError as err:
            skip(s, err)
    return [r for s, r in enumerate(records) if r.words and s not in bad]


def _check_structure(tree: XMLTree, sentences: List[Element]) -> None:
    """Sentences do not nest (E450); tokens and annotations lie inside sentences (E417)."""
    inside: Set[int] = set()
    for sent in sentences:
        for el in sent.iter():
            if el.tag == "SENTENCE" and el is not sent:
                raise tree.error(Errors.E450, el, outer=tree.line(sent))
            inside.add(id(el))
    for el in tree.root.iter():
        if el.tag in ("W", "cue", "xcope", "ref") and id(el) not in inside:
            raise tree.error(Errors.E417, el, tag=el.tag, parent="SENTENCE")


def _tokens_and_cues(tree: XMLTree, sent: Element) -> Tuple[List[str], Dict[int, int], List[Tuple[str, Element]]]:
    """A sentence's words, the position of each ``<W>`` element, and its cues by ID."""
    pos: Dict[int, int] = {}
    words: List[str] = []
    for w in sent.iter("W"):
        pos[id(w)] = len(words)
        words.append(check_token(tree.path, tree.line(w), normalize_text(w.text or "")))
    cues: List[Tuple[str, Element]] = []
    for cue in sent.iter("cue"):
        cid = cue.get("ID")
        if cid is None:
            raise tree.error(Errors.E406, cue, tag="cue", attr="ID")
        if cue.get("type") is None:
            raise tree.error(Errors.E406, cue, tag="cue", attr="type")
        cues.append((cid, cue))
    return words, pos, cues


def _scopes(tree: XMLTree, sent: Element, s: int, pos: Dict[int, int],
            cue_by_id: Dict[str, List[Tuple[int, Element]]]) -> Dict[int, Set[int]]:
    """The scope token positions a sentence's ``<ref>`` elements give to cues, by
    ``id(cue element)``."""
    parent = {id(child): el for el in sent.iter() for child in el}
    found: Dict[int, Set[int]] = {}
    for ref in sent.iter("ref"):
        src = ref.get("SRC")
        if src is None:
            raise tree.error(Errors.E406, ref, tag="ref", attr="SRC")
        scope_el = parent[id(ref)]
        if scope_el.tag not in ("xcope", "cue"):
            raise tree.error(Errors.E417, ref, tag="ref", parent="xcope")
        tokens = {pos[id(w)] for w in scope_el.iter("W")}
        for cid in src.split():
            cue = _resolve(cue_by_id.get(cid, []), s)
            if cue is None:
                warnings.warn(Warnings.W404.format(path=tree.path, line=tree.line(ref), src=src, id=cid),
                              stacklevel=2)
                continue
            if cue[0] != s:
                if cue[1].get("type") == "negation":
                    raise tree.error(Errors.E451, ref, src=src, id=cid, cue_line=tree.line(cue[1]))
                if cue[1].get("type") == "speculation":
                    warnings.warn(Warnings.W150.format(path=tree.path, line=tree.line(ref), src=src, id=cid,
                                                       cue_line=tree.line(cue[1])), stacklevel=2)
                continue
            found.setdefault(id(cue[1]), set()).update(tokens)
    return found


def _instances(tree: XMLTree, sent: Element, pos: Dict[int, int], words: List[str],
               scopes: Dict[int, Set[int]], kind: str) -> List[NegationRecord]:
    """One record per ``<cue type=kind>`` of a sentence ('negation': with an empty event,
    'speculation': cue and scope only)."""
    instances: List[NegationRecord] = []
    for cue in sent.iter("cue"):
        if cue.get("type") != kind:
            continue
        cue_tokens = sorted({pos[id(w)] for w in cue.iter("W")})
        if not cue_tokens:
            raise tree.error(Errors.E409, cue, id=cue.get("ID"), kind=kind)
        scope = sorted(scopes.get(id(cue), set()) - set(cue_tokens))
        record: NegationRecord = {"cue": whole_parts(words, cue_tokens), "scope": whole_parts(words, scope)}
        if kind == "negation":
            record["event"] = []
        instances.append(record)
    return instances


def _resolve(candidates: List[Tuple[int, Element]], sentence: int) -> Optional[Tuple[int, Element]]:
    """A ref's cue: the cue with the id in the ref's sentence, else the only one in the file."""
    same = [c for c in candidates if c[0] == sentence]
    if same:
        return same[0]
    if len(candidates) == 1:
        return candidates[0]
    return None


def sfu_file_records(file: Path, on_error: str = "raise") -> List[SentenceRecord]:
    """The sentence records of one SFU Review file; reading strictly, a file without
    sentences is an error (E108).

    file (Path): the XML file.
    on_error (str): 'raise' or 'skip' (see :func:`parse_sfu`).
    RETURNS (List[SentenceRecord]): the sentences.
    """
    records = parse_sfu(file, on_error=on_error)
    if not records and on_error == "raise":
        raise NegationFormatError(Errors.E108.format(path=file), file)
    return records


@formats.register("sfu")
def read_sfu(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10,
             on_error: str = "raise") -> Iterator[Doc]:
    """Read the SFU Review Corpus (English) into docs with gold negations and speculations
    (the ``sfu`` format of convert).

    path (Union[str, Path]): a review XML file or a folder (searched recursively).
    vocab (Optional[Vocab]): the vocab; a new English one if None.
    n_sents (int): sentences per doc (docs never cross reviews); 0 = whole reviews.
    on_error (str): 'raise' (default) or 'skip': skip each bad sentence with warning W402.
    RETURNS (Iterator[Doc]): the docs, read as they are consumed.
    """
    return read_files(path, ".xml", partial(sfu_file_records, on_error=on_error), vocab, n_sents)
