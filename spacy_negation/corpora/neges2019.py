"""SFU ReviewSP-NEG (Jiménez-Zafra et al. 2018), Spanish reviews, as the NEGES 2019 XML
(format ``neges2019``; the NEGES 2018 CoNLL files: :mod:`.neges2018`).

Tokens, lemmas, EAGLES tags and the spaces between tokens are taken as in
:mod:`.neges2018` (FreeLing's tokens as they are, Spanish punctuation rules, surrounding
whitespace of a token stripped). Cues are whole tokens.

**NEGES 2019 XML** (``neges2019``; a file, or a folder: every ``*.xml`` below it):
``review/sentence`` with token elements (attributes ``wd``, ``lem``, ``pos``) and the
annotation elements ``neg_structure`` (attribute ``value``: neg, noneg, contrast, comp),
``scope``, ``negexp`` (cue) and ``event``. Per ``<neg_structure value="neg">`` (the NEGES
negation instances; the other values hold a negation-like word that does not negate and
are skipped, see ``values``) one instance: cue = the tokens of its own ``negexp``
elements (all of them: parts linked by ``discid`` form one discontinuous cue), scope =
the tokens of its own ``scope`` elements, event = the tokens of its own ``event``
elements, where *own* means not inside a nested ``neg_structure`` (the tokens of a nested
structure that lies inside a scope or event element belong to that scope or event).
Converted to the CD-SCO convention: the scope and the event exclude the instance's own
cue tokens (in the XML the scope contains the cue, and 279 ``negexp`` elements of train
lie inside an ``event``). Elliptic events (``<word elliptic="yes"/>``, no word) and other
elements without ``wd`` are not tokens; an element with ``lem`` or ``pos`` but no ``wd`` is
an error (E406). A ``value="neg"`` structure with no cue token (1 in train,
peliculas_yes_4_18) is dropped with warning W401. Document ids are
``<domain folder>_<file stem>`` (``libros_no_2_6``, as in the CoNLL files); the test files
are named ``1.xml`` … ``10.xml`` per domain: if a ``DERIVED_test_filename_map.tsv``
(``test/<domain>/<n>.xml`` TAB NEGES 2018 id) lies in the file's folder or up to three
folders above, the NEGES 2018 id is used. Sentences are numbered from 1 per file, as in
the CoNLL files.
"""
import warnings
from dataclasses import dataclass
from functools import lru_cache, partial
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Set, Union
from xml.etree.ElementTree import Element

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..errors import Errors, NegationFormatError, Warnings
from ..util import check_on_error, skip_or_raise
from .docs import read_files
from .records import NegationRecord, SentenceRecord, check_token, whole_parts
from .registry import formats
from .spaces import SPANISH, guess_spaces
from .xmltree import XMLTree, parse_xml

STRUCTURE_TAGS = frozenset({"review", "sentence", "neg_structure", "scope", "negexp", "event"})
TEST_MAP_NAME = "DERIVED_test_filename_map.tsv"


@dataclass
class NegesToken:
    """A token element of the NEGES 2019 XML.

    form (str): ``wd`` (stripped).
    lemma (str): ``lem``.
    pos (str): ``pos``.
    line (int): the line of the element.
    """

    form: str
    lemma: str
    pos: str
    line: int


@dataclass
class NegStructure:
    """A ``<neg_structure>`` with its own cue, scope and event token positions.

    value (str): the ``value`` attribute (neg, noneg, contrast, comp; '' if missing).
    cue (List[int]): positions of the tokens of its own ``negexp`` elements.
    scope (List[int]): positions of the tokens of its own ``scope`` elements (the XML
        convention: cue included).
    event (List[int]): positions of the tokens of its own ``event`` elements.
    n_negexp (int): the number of its own ``negexp`` elements that are not inside another
        ``negexp`` (the release nests a negexp in a negexp 3 times).
    line (int): the line of the element.
    """

    value: str
    cue: List[int]
    scope: List[int]
    event: List[int]
    n_negexp: int
    line: int


@dataclass
class NegesXMLSentence:
    """A ``<sentence>`` of the NEGES 2019 XML.

    tokens (List[NegesToken]): the tokens in document order.
    structures (List[NegStructure]): all neg_structures in document order (outer first).
    line (int): the line of the element.
    number (int): the sentence's number in its file, from 1.
    """

    tokens: List[NegesToken]
    structures: List[NegStructure]
    line: int
    number: int = 0


def parse_neges_xml(path: Union[str, Path], on_error: str = "raise") -> List[NegesXMLSentence]:
    """Parse one NEGES 2019 review XML file.

    A token element is an element with a ``wd`` attribute; an element with ``lem`` or
    ``pos`` but without ``wd`` is an error (E406), other elements without ``wd`` (elliptic
    ``<word elliptic="yes"/>``, ``<inc/>``) are not tokens.

    path (Union[str, Path]): the file.
    on_error (str): 'raise' stops at the first bad sentence; 'skip' skips each bad sentence
        with warning W402 (errors outside sentences are raised).
    RETURNS (List[NegesXMLSentence]): the sentences in file order.
    RAISES (NegationFormatError): malformed XML or annotation, with file and line.
    """
    lenient = check_on_error(on_error)
    tree = parse_xml(path, "review")
    sentences: List[NegesXMLSentence] = []
    for child in tree.root:
        if child.tag != "sentence":
            if child.tag in STRUCTURE_TAGS or child.get("wd") is not None:
                raise tree.error(Errors.E417, child, tag=child.tag, parent="sentence")
    n = 0
    for n, sent in enumerate(tree.root.iter("sentence"), 1):
        try:
            sentences.append(_xml_sentence(tree, sent, n))
        except NegationFormatError as err:
            skip_or_raise(err, lenient, tree.path, tree.line(sent))
    if not n:
        raise NegationFormatError(Errors.E108.format(path=tree.path), tree.path)
    return sentences


def _xml_sentence(tree: XMLTree, sent: Element, number: int) -> NegesXMLSentence:
    positions: Dict[int, int] = {}
    tokens: List[NegesToken] = []
    for el in sent.iter():
        if el.tag in STRUCTURE_TAGS:
            continue
        if el.get("wd") is None:
            if el.get("lem") is not None or el.get("pos") is not None:
                raise tree.error(Errors.E406, el, tag=el.tag, attr="wd")
            continue
        line = tree.line(el)
        positions[id(el)] = len(tokens)
        tokens.append(NegesToken(check_token(tree.path, line, el.get("wd", "")), el.get("lem", ""),
                                 el.get("pos", ""), line))
    _check_nesting(tree, sent)
    structures = [_structure(tree, ns, positions) for ns in sent.iter("neg_structure")]
    return NegesXMLSentence(tokens, structures, tree.line(sent), number)


def _check_nesting(tree: XMLTree, sent: Element) -> None:
    def visit(el: Element, in_structure: bool) -> None:
        for child in el:
            if child.tag in ("scope", "negexp", "event") and not in_structure:
                raise tree.error(Errors.E417, child, tag=child.tag, parent="neg_structure")
            visit(child, in_structure or child.tag == "neg_structure")

    visit(sent, False)


def _structure(tree: XMLTree, ns: Element, positions: Dict[int, int]) -> NegStructure:
    roles: Dict[str, Set[int]] = {"negexp": set(), "scope": set(), "event": set()}
    n_negexp = 0

    def visit(el: Element, inside: Set[str]) -> None:
        nonlocal n_negexp
        for child in el:
            if child.tag == "neg_structure":
                # a nested structure: its tokens lie in the scope/event elements around it
                for tag in inside:
                    roles[tag].update(positions[id(t)] for t in child.iter() if id(t) in positions)
                continue
            now = inside
            if child.tag in roles:
                now = inside | {child.tag}
                if child.tag == "negexp" and "negexp" not in inside:
                    n_negexp += 1  # a negexp inside a negexp is not a further cue part
            if id(child) in positions:
                for tag in now:
                    roles[tag].add(positions[id(child)])
            visit(child, now)

    visit(ns, set())
    return NegStructure(value=ns.get("value", ""), cue=sorted(roles["negexp"]), scope=sorted(roles["scope"]),
                        event=sorted(roles["event"]), n_negexp=n_negexp, line=tree.line(ns))


@lru_cache(maxsize=8)
def _read_id_map(path: Path) -> Dict[str, str]:
    out: Dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")
        if len(cols) == 2:
            out[cols[0].strip()] = cols[1].strip()
    return out


def _test_id_map(file: Path) -> Optional[str]:
    for folder in list(file.parents)[:4]:
        candidate = folder / TEST_MAP_NAME
        if candidate.is_file():
            mapped = _read_id_map(candidate).get(file.relative_to(folder).as_posix())
            if mapped:
                return mapped
    return None


def neges_doc_id(path: Path) -> str:
    """The document id of a NEGES 2019 XML file: the NEGES 2018 id from a
    ``DERIVED_test_filename_map.tsv`` if one maps the file, else ``<folder>_<stem>``.

    path (Path): the file.
    RETURNS (str): the id, e.g. ``libros_no_2_6``.
    """
    mapped = _test_id_map(Path(path).resolve())
    if mapped:
        return mapped
    name = f"{path.parent.name}_{path.stem}" if path.parent.name else path.stem
    return "_".join(name.split())


def xml_sentence_records(path: Union[str, Path], values: Iterable[str] = ("neg",),
                         doc_id: Optional[str] = None, on_error: str = "raise") -> List[SentenceRecord]:
    """The sentence records of one NEGES 2019 XML file.

    path (Union[str, Path]): the file.
    values (Iterable[str]): the neg_structure values that become negation instances.
    doc_id (Optional[str]): the document id; default :func:`neges_doc_id`.
    on_error (str): 'raise' or 'skip' (see :func:`parse_neges_xml`).
    RETURNS (List[SentenceRecord]): the sentences (sentences without tokens are skipped).
    """
    path = Path(path)
    keep = set(values)
    doc_id = doc_id if doc_id is not None else neges_doc_id(path)
    records: List[SentenceRecord] = []
    for sent in parse_neges_xml(path, on_error):
        s = sent.number
        if not sent.tokens:
            continue
        words = [t.form for t in sent.tokens]
        negations: List[NegationRecord] = []
        for st in sent.structures:
            if st.value not in keep:
                continue
            if not st.cue:
                warnings.warn(Warnings.W401.format(path=path, line=st.line, value=st.value), stacklevel=2)
                continue
            cue = set(st.cue)
            negations.append({
                "cue": whole_parts(words, st.cue),
                "scope": whole_parts(words, (i for i in st.scope if i not in cue)),
                "event": whole_parts(words, (i for i in st.event if i not in cue)),
            })
        records.append(SentenceRecord(
            doc_id=doc_id, sent_id=str(s), words=words, spaces=guess_spaces(words, SPANISH), negations=negations,
            lemmas=[t.lemma for t in sent.tokens], tags=[t.pos for t in sent.tokens], line=sent.line,
        ))
    return records


@formats.register("neges2019")
def read_neges2019(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10,
                   values: Iterable[str] = ("neg",), on_error: str = "raise") -> Iterator[Doc]:
    """Read NEGES 2019 XML into docs with gold cues, scopes and events (the ``neges2019``
    format).

    path (Union[str, Path]): a review XML file or a folder (every ``*.xml`` below it).
    vocab (Optional[Vocab]): the vocab; a new Spanish one if None.
    n_sents (int): sentences per doc (docs never cross reviews); 0 = whole reviews.
    values (Iterable[str]): the neg_structure values read as negations (default: neg).
    on_error (str): 'raise' (default) or 'skip': skip each bad sentence with warning W402.
    RETURNS (Iterator[Doc]): the docs, read as they are consumed.
    """
    read_file = partial(xml_sentence_records, values=tuple(values), on_error=on_error)
    return read_files(path, ".xml", read_file, vocab, n_sents, lang="es")
