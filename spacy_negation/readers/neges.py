"""SFU ReviewSP-NEG (Jiménez-Zafra et al. 2018), Spanish reviews: the NEGES 2018 task-2
CoNLL files (format ``neges2018``) and the NEGES 2019 XML (format ``neges2019``).

Both releases are tokenized, lemmatized and POS-tagged (FreeLing); the readers keep those
tokens (multiword tokens such as ``a_pesar_de`` stay one token), lemmas
(``token.lemma_``) and EAGLES tags (``token.tag_``), so no spaCy tokenizer is involved
(use a Spanish vocab, e.g. ``convert --lang es``). Spaces between tokens are guessed with
Spanish punctuation rules (:func:`spanish_spaces`); sentences of a doc are joined by one
space. A token's surrounding whitespace is stripped (one token of the release,
``JULIA_NAVARRO `` in libros_yes_5_10); inner whitespace is an error. Cues are whole
tokens in both releases; a CoNLL cue cell that is a proper substring of its word would
become a partial part.

**NEGES 2018 CoNLL** (``neges2018``; a file, or a folder: every ``*.txt`` below it): TAB
columns document id (``<domain>_<yes|no>_<stars>_<n>``), sentence number, token number
(from 1), word, lemma, POS, POS type, then ``***`` or three columns per negation (cue
word, ``-``, ``-``); ``-`` is empty; every line ends with a TAB. Test files have only the
7 token columns (no gold): their docs have no negations. Only cues are annotated in this
format (scope/event columns are always ``-``; they would be read like the cue column if
filled). Known quirk: 6 column triples of train and 1 of dev have no cue word (e.g.
libros_no_2_2 sentences 2 and 4, dev ordenadores_no_2_12 sentence 2); such an instance
cannot exist in the data model: it is dropped with warning W400 (so train has 2,505
instead of 2,511 triples, dev 593 instead of 594); :func:`parse_neges_conll` keeps them.
Comparing with the XML shows the cause: in 5 of these sentences the conversion put the
cues of two XML instances into one column (libros_no_2_2: "no … nada" where the XML has
the instances "no" and "nada") and left the other column empty; the sixth is the XML's
``neg_structure`` without ``negexp`` (peliculas_yes_4_18). For those sentences the XML
(``neges2019``) is the better source. The POS type column is not kept in docs. Token
numbers must be positive integers but are not checked for sequence: the release has 16
lines with gaps or inversions (e.g. coches_no_1_13 sentence 14 jumps from 13 to 15;
moviles_yes_4_4 sentence 90 reads 16, 15, 17); tokens are kept in file order and the
*SEM writer renumbers them from 0.

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
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union
from xml.etree.ElementTree import Element

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..errors import Errors, NegationFormatError, Warnings
from ..starsem import Instance, locate, repair_case
from ..util import check_on_error, skip_or_raise, split_lines
from . import (NegationRecord, SentenceRecord, XMLTree, check_token, decode_utf8, input_files,
               parse_xml, read_bytes, records_to_docs)

EMPTY = "-"
NO_NEGATION = "***"
N_TOKEN_COLUMNS = 7
STRUCTURE_TAGS = frozenset({"review", "sentence", "neg_structure", "scope", "negexp", "event"})
TEST_MAP_NAME = "DERIVED_test_filename_map.tsv"

_NO_SPACE_BEFORE = {",", ".", ";", ":", "!", "?", ")", "]", "}", "»", "”", "’", "%", "…", "..."}
_NO_SPACE_AFTER = {"(", "[", "{", "¿", "¡", "«", "“", "‘"}


def spanish_spaces(words: Sequence[str]) -> List[bool]:
    """Whether each word is followed by a space, by Spanish punctuation rules (no space
    before closing punctuation, none after opening punctuation, ``¿`` and ``¡``).

    words (Sequence[str]): the words of one sentence.
    RETURNS (List[bool]): one flag per word; the last word gets a space.
    """
    spaces: List[bool] = []
    for i, word in enumerate(words):
        if i + 1 == len(words):
            spaces.append(True)
            break
        spaces.append(not (word in _NO_SPACE_AFTER or words[i + 1] in _NO_SPACE_BEFORE))
    return spaces


# --- NEGES 2018 CoNLL ------------------------------------------------------------------------
@dataclass
class NegesRow:
    """One token line of a NEGES 2018 CoNLL file.

    form (str): the word (stripped).
    lemma (str): the lemma.
    pos (str): the EAGLES POS tag.
    pos_type (str): the POS type.
    line (int): the 1-based line.
    """

    form: str
    lemma: str
    pos: str
    pos_type: str
    line: int


@dataclass
class NegesSentence:
    """A sentence of a NEGES 2018 CoNLL file.

    doc_id (str): column 1.
    sent_no (str): column 2.
    rows (List[NegesRow]): the tokens.
    instances (List[Instance]): the negation column triples, in column order, including
        triples without any cue word (see the module docstring).
    annotated (bool): whether the sentence has annotation columns (False in test inputs).
    line (int): the line of its first token.
    """

    doc_id: str
    sent_no: str
    rows: List[NegesRow]
    instances: List[Instance] = field(default_factory=list)
    annotated: bool = True
    line: int = 0


def parse_neges_conll(path: Union[str, Path], on_error: str = "raise") -> List[NegesSentence]:
    """Parse a NEGES 2018 task-2 CoNLL file, validating it (a leading byte order mark is
    ignored; line endings are LF or CRLF).

    path (Union[str, Path]): the file.
    on_error (str): 'raise' stops at the first bad sentence; 'skip' skips each bad sentence
        with warning W402 and repairs a cell its word holds once in another letter case
        (warning W403).
    RETURNS (List[NegesSentence]): the sentences in file order.
    RAISES (NegationFormatError): malformed input, with file and line.
    """
    lenient = check_on_error(on_error)
    path = Path(path)
    text = decode_utf8(path, read_bytes(path))
    sentences: List[NegesSentence] = []
    block: List[Tuple[int, List[str]]] = []

    def parse(block: List[Tuple[int, List[str]]]) -> None:
        try:
            sentences.append(_parse_block(path, block, lenient))
        except NegationFormatError as err:
            skip_or_raise(err, lenient, path, block[0][0])

    for line_no, line in enumerate(split_lines(path, text), 1):
        line = line.rstrip("\r")
        if not line.strip():
            if block:
                parse(block)
                block = []
            continue
        cols = line.split("\t")
        if len(cols) > 1 and cols[-1] == "":
            cols = cols[:-1]  # the trailing TAB of every line
        block.append((line_no, cols))
    if block:
        parse(block)
    if not sentences and not text.strip():
        raise NegationFormatError(Errors.E410.format(path=path), path)
    return sentences


def _parse_block(path: Path, block: List[Tuple[int, List[str]]], repair: bool = False) -> NegesSentence:
    first_line, first = block[0]
    n_cols = len(first)
    rows: List[NegesRow] = []
    for line, cols in block:
        n = len(cols)
        if n < N_TOKEN_COLUMNS or (n > N_TOKEN_COLUMNS + 1 and (n - N_TOKEN_COLUMNS) % 3):
            raise NegationFormatError(
                Errors.E411.format(path=path, line=line, n=n, content="\t".join(cols)), path, line)
        if n != n_cols:
            raise NegationFormatError(
                Errors.E412.format(path=path, line=line, n=n, first_line=first_line, m=n_cols), path, line)
        if cols[0] != first[0] or cols[1] != first[1]:
            raise NegationFormatError(
                Errors.E414.format(path=path, line=line, first_line=first_line,
                                   a=f"{first[0]} {first[1]}", b=f"{cols[0]} {cols[1]}"), path, line)
        if not (cols[2].isascii() and cols[2].isdigit() and int(cols[2]) > 0):
            raise NegationFormatError(Errors.E413.format(path=path, line=line, value=cols[2]), path, line)
        form = check_token(path, line, cols[3])
        rows.append(NegesRow(form, cols[4], cols[5], cols[6], line))
    sent = NegesSentence(doc_id=first[0], sent_no=first[1], rows=rows, line=first_line)
    if n_cols == N_TOKEN_COLUMNS:
        sent.annotated = False
        return sent
    extra = [cols[N_TOKEN_COLUMNS:] for _, cols in block]
    if n_cols == N_TOKEN_COLUMNS + 1:
        for (line, _), cells in zip(block, extra):
            if cells[0] != NO_NEGATION:
                raise NegationFormatError(
                    Errors.E411.format(path=path, line=line, n=n_cols, content="\t".join(block[0][1])),
                    path, line)
        return sent
    for (line, _), cells in zip(block, extra):
        if NO_NEGATION in cells:
            raise NegationFormatError(Errors.E415.format(path=path, line=line, first_line=first_line),
                                      path, line)
    for k in range((n_cols - N_TOKEN_COLUMNS) // 3):
        inst = Instance()
        for pos, ((line, _), row, cells) in enumerate(zip(block, rows, extra)):
            for role, cell in zip(("cue", "scope", "event"), cells[3 * k: 3 * k + 3]):
                cell = cell.strip()
                if cell in (EMPTY, ""):
                    continue
                if cell not in row.form:
                    fixed = repair_case(row.form, cell) if repair else None
                    if fixed is None:
                        raise NegationFormatError(
                            Errors.E416.format(path=path, line=line, role=role, cell=cell, form=row.form),
                            path, line)
                    warnings.warn(Warnings.W403.format(path=path, line=line, role=role, cell=cell, fixed=fixed,
                                                       form=row.form), stacklevel=2)
                    cell = fixed
                getattr(inst, role).append((pos, cell))
        sent.instances.append(inst)
    return sent


def _instance_record(sent: NegesSentence, inst: Instance) -> NegationRecord:
    cue_ranges: Dict[int, Tuple[int, int]] = {}
    record: NegationRecord = {}
    for role in ("cue", "scope", "event"):
        record[role] = []
        for pos, cell in getattr(inst, role):
            start, end = locate(sent.rows[pos].form, cell, None if role == "cue" else cue_ranges.get(pos))
            if role == "cue":
                cue_ranges[pos] = (start, end)
            record[role].append((pos, start, end))
    return record


def conll_sentence_record(sent: NegesSentence, path: Optional[Path] = None) -> SentenceRecord:
    """A NEGES CoNLL sentence as a sentence record; instances without a cue word are
    dropped with warning W400.

    sent (NegesSentence): the sentence.
    path (Optional[Path]): the file, for the warning.
    RETURNS (SentenceRecord): the record.
    """
    words = [r.form for r in sent.rows]
    negations: List[NegationRecord] = []
    for k, inst in enumerate(sent.instances):
        if not inst.cue:
            col = N_TOKEN_COLUMNS + 3 * k + 1
            warnings.warn(Warnings.W400.format(path=path, line=sent.line, k=k + 1,
                                               cols=f"{col}-{col + 2}"), stacklevel=2)
            continue
        negations.append(_instance_record(sent, inst))
    return SentenceRecord(
        doc_id=sent.doc_id, sent_id=sent.sent_no, words=words, spaces=spanish_spaces(words),
        negations=negations, lemmas=[r.lemma for r in sent.rows], tags=[r.pos for r in sent.rows],
        line=sent.line,
    )


def iter_neges_conll_records(path: Union[str, Path], on_error: str = "raise") -> Iterator[SentenceRecord]:
    """The sentence records of a NEGES 2018 CoNLL file or of every ``*.txt`` below a folder.

    path (Union[str, Path]): a file or a folder.
    on_error (str): 'raise' or 'skip' (see :func:`parse_neges_conll`).
    YIELDS (SentenceRecord): the sentences.
    """
    for file in input_files(path, ".txt"):
        for sent in parse_neges_conll(file, on_error):
            yield conll_sentence_record(sent, file)


def read_neges2018(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10,
                   on_error: str = "raise") -> Iterator[Doc]:
    """Read NEGES 2018 task-2 CoNLL into docs with gold cues (the ``neges2018`` format).

    path (Union[str, Path]): a CoNLL file or a folder (every ``*.txt`` below it).
    vocab (Optional[Vocab]): the vocab; a new Spanish one if None.
    n_sents (int): sentences per doc (docs never cross reviews); 0 = whole reviews.
    on_error (str): 'raise' (default) or 'skip': skip each bad sentence with warning W402,
        repair a cell its word holds once in another letter case (W403).
    YIELDS (Doc): the docs.
    """
    if vocab is None:
        import spacy

        vocab = spacy.blank("es").vocab
    yield from records_to_docs(vocab, iter_neges_conll_records(path, on_error), n_sents)


# --- NEGES 2019 XML --------------------------------------------------------------------------
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
        raise NegationFormatError(Errors.E410.format(path=tree.path), tree.path)
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
                "cue": [(i, 0, len(words[i])) for i in st.cue],
                "scope": [(i, 0, len(words[i])) for i in st.scope if i not in cue],
                "event": [(i, 0, len(words[i])) for i in st.event if i not in cue],
            })
        records.append(SentenceRecord(
            doc_id=doc_id, sent_id=str(s), words=words, spaces=spanish_spaces(words), negations=negations,
            lemmas=[t.lemma for t in sent.tokens], tags=[t.pos for t in sent.tokens], line=sent.line,
        ))
    return records


def iter_neges_xml_records(path: Union[str, Path], values: Iterable[str] = ("neg",),
                           on_error: str = "raise") -> Iterator[SentenceRecord]:
    """The sentence records of a NEGES 2019 XML file or of every ``*.xml`` below a folder.

    path (Union[str, Path]): a file or a folder.
    values (Iterable[str]): the neg_structure values that become negation instances.
    on_error (str): 'raise' or 'skip' (see :func:`parse_neges_xml`).
    YIELDS (SentenceRecord): the sentences.
    """
    values = tuple(values)
    for file in input_files(path, ".xml"):
        yield from xml_sentence_records(file, values, on_error=on_error)


def read_neges2019(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10,
                   values: Iterable[str] = ("neg",), on_error: str = "raise") -> Iterator[Doc]:
    """Read NEGES 2019 XML into docs with gold cues, scopes and events (the ``neges2019``
    format).

    path (Union[str, Path]): a review XML file or a folder (every ``*.xml`` below it).
    vocab (Optional[Vocab]): the vocab; a new Spanish one if None.
    n_sents (int): sentences per doc (docs never cross reviews); 0 = whole reviews.
    values (Iterable[str]): the neg_structure values read as negations (default: neg).
    on_error (str): 'raise' (default) or 'skip': skip each bad sentence with warning W402.
    YIELDS (Doc): the docs.
    """
    if vocab is None:
        import spacy

        vocab = spacy.blank("es").vocab
    yield from records_to_docs(vocab, iter_neges_xml_records(path, values, on_error), n_sents)
