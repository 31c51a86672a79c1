"""SFU Review Corpus, English, annotated for negation and speculation (Konstantinova et
al. 2012): negation cues and scopes.

Input: one review XML file (``DOCUMENT/P/SENTENCE/W``), or a folder: every ``*.xml``
below it in natural path order (the release folder holds ``<DOMAIN>/{yes,no}<N>done.xml``).

What the reader does:

- **Tokens** are the ``<W>`` elements, as tokenized in the corpus ("n't" split off);
  ``<C>`` wrappers are transparent. Spaces between tokens are guessed with English
  punctuation rules (:func:`spacy_negation.corpus.guess_spaces`); sentences of a doc are
  joined by one space.
- **Character normalisation** (token text only): the release holds C1 control characters
  that are Windows-1252 bytes decoded as Latin-1. Each such character is replaced by its
  Windows-1252 character — U+0085 -> … (U+2026), U+0091 -> ‘ (U+2018), U+0092 -> ’
  (U+2019), U+0093 -> “ (U+201C), U+0094 -> ” (U+201D), U+0095 -> • (U+2022), U+0096 -> –
  (U+2013), U+0097 -> — (U+2014), U+0099 -> ™ (U+2122), and likewise the other C1 code
  points Windows-1252 defines (U+0080–U+009F except U+0081, U+008D, U+008F, U+0090,
  U+009D, which stay). In the release: 1,075 × U+0092 in 67 files, plus U+0094 ×269,
  U+0093 ×240, U+0096 ×103, U+0091 ×58, U+0085 ×41, U+0095 ×31, U+0097 ×26, U+0099 ×4.
  U+0085 is a line break for Python (``str.isspace``), so without this step 37 tokens such
  as ``mind\\x85at`` would contain "whitespace". Nothing else is changed; surrounding
  whitespace of a token would be stripped (none in the release).
- **Negation only.** One instance per ``<cue type="negation">`` element; its cue is the
  ``<W>`` tokens inside it (multi-token cues such as "do n't" are common). The XML does
  not link the parts of discontinuous cues (neither … nor are two cues), so neither does
  the reader. Speculation cues and scopes are ignored.
- **Scopes.** A scope is an element (``<xcope>``; in 5 cases a ``<cue>``) holding a
  ``<ref SRC="ids">``; it belongs to each cue whose ``ID`` is listed in ``SRC``. Cue ids
  are not unique within a file (10 files reuse an id), so an id is resolved to the cue with
  that id *in the same sentence*, else to the only cue with that id in the file; ids that
  stay unresolved (7 of the 9,528 in the release: no cue has them) are ignored, and a
  scope in another sentence than its cue is dropped (19 in the release, all of
  speculation cues; none of negation cues once ids are resolved this way).
  The scope of an instance is the union of the ``<W>`` tokens of its scope elements
  minus its own cue tokens (CD-SCO convention; SFU scopes never contain their own cue
  anyway). There are no events; 180 negation cues have no scope.
- **Ids.** ``doc_ids`` is ``<DOMAIN folder>/<file stem>`` (e.g. ``BOOKS/no1done``),
  ``sent_nos`` counts the sentences of a file from 0; no lemmas or tags.
"""
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Set, Tuple, Union
from xml.etree.ElementTree import Element

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..corpus import guess_spaces
from ..errors import Errors, NegationFormatError
from . import NegationRecord, SentenceRecord, input_files, parse_xml, records_to_docs

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


def parse_sfu(path: Union[str, Path], doc_id: Optional[str] = None) -> List[SentenceRecord]:
    """Parse one SFU Review XML file into sentence records with negations.

    path (Union[str, Path]): the XML file.
    doc_id (Optional[str]): the document id; default :func:`sfu_doc_id`.
    RETURNS (List[SentenceRecord]): the sentences in file order.
    RAISES (NegationFormatError): malformed XML or annotation, with file and line.
    """
    path = Path(path)
    tree = parse_xml(path, ROOT_TAG)
    doc_id = doc_id if doc_id is not None else sfu_doc_id(path)
    sentences = list(tree.root.iter("SENTENCE"))
    positions: List[Dict[int, int]] = []
    records: List[SentenceRecord] = []
    cue_by_id: Dict[str, List[Tuple[int, Element]]] = {}
    for s, sent in enumerate(sentences):
        pos: Dict[int, int] = {}
        words: List[str] = []
        for w in sent.iter("W"):
            pos[id(w)] = len(words)
            form = normalize_text(w.text or "").strip()
            if not form or len(form.split()) > 1:
                raise tree.error(Errors.E405, w, form=w.text or "")
            words.append(form)
        positions.append(pos)
        records.append(SentenceRecord(doc_id=doc_id, sent_id=str(s), words=words,
                                      spaces=guess_spaces(words), line=tree.line(sent)))
        for cue in sent.iter("cue"):
            cid = cue.get("ID")
            if cid is None:
                raise tree.error(Errors.E406, cue, tag="cue", attr="ID")
            if cue.get("type") is None:
                raise tree.error(Errors.E406, cue, tag="cue", attr="type")
            cue_by_id.setdefault(cid, []).append((s, cue))
    scopes: Dict[int, Set[int]] = {}  # id(cue element) -> scope token positions
    for s, sent in enumerate(sentences):
        parent = {id(child): el for el in sent.iter() for child in el}
        for ref in sent.iter("ref"):
            src = ref.get("SRC")
            if src is None:
                raise tree.error(Errors.E406, ref, tag="ref", attr="SRC")
            scope_el = parent[id(ref)]
            tokens = {positions[s][id(w)] for w in scope_el.iter("W")}
            for cid in src.split():
                cue = _resolve(cue_by_id.get(cid, []), s)
                if cue is None or cue[0] != s:
                    continue
                scopes.setdefault(id(cue[1]), set()).update(tokens)
    for s, sent in enumerate(sentences):
        for cue in sent.iter("cue"):
            if cue.get("type") != "negation":
                continue
            cue_tokens = sorted({positions[s][id(w)] for w in cue.iter("W")})
            if not cue_tokens:
                raise tree.error(Errors.E409, cue, id=cue.get("ID"))
            words = records[s].words
            scope = sorted(scopes.get(id(cue), set()) - set(cue_tokens))
            record: NegationRecord = {
                "cue": [(i, 0, len(words[i])) for i in cue_tokens],
                "scope": [(i, 0, len(words[i])) for i in scope],
                "event": [],
            }
            records[s].negations.append(record)
    return [r for r in records if r.words]


def _resolve(candidates: List[Tuple[int, Element]], sentence: int) -> Optional[Tuple[int, Element]]:
    """A ref's cue: the cue with the id in the ref's sentence, else the only one in the file."""
    same = [c for c in candidates if c[0] == sentence]
    if same:
        return same[0]
    if len(candidates) == 1:
        return candidates[0]
    return None


def iter_sfu_records(path: Union[str, Path]) -> Iterator[SentenceRecord]:
    """The sentence records of an SFU Review file or of every XML file below a folder.

    path (Union[str, Path]): a file or a folder.
    YIELDS (SentenceRecord): the sentences.
    """
    for file in input_files(path, ".xml"):
        records = parse_sfu(file)
        if not records:
            raise NegationFormatError(Errors.E410.format(path=file), file)
        yield from records


def read_sfu(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10) -> Iterator[Doc]:
    """Read the SFU Review Corpus (English) into docs with gold negations (the ``sfu``
    format of convert).

    path (Union[str, Path]): a review XML file or a folder (searched recursively).
    vocab (Optional[Vocab]): the vocab; a new English one if None.
    n_sents (int): sentences per doc (docs never cross reviews); 0 = whole reviews.
    YIELDS (Doc): the docs.
    """
    if vocab is None:
        import spacy

        vocab = spacy.blank("en").vocab
    yield from records_to_docs(vocab, iter_sfu_records(path), n_sents)
