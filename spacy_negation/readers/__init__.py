"""Readers for further negation corpora into the package's data model.

Every reader yields ``Doc`` objects with sentence boundaries, gold negations
(:func:`spacy_negation.negation.set_negations`) and, in
``doc.user_data[spacy_negation.corpus.META_KEY]``, the corpus's document ids and sentence
ids in the shape the *SEM reader uses (``{"doc_ids": per sentence, "sent_nos": per
sentence, "parse": per token}``), so :func:`spacy_negation.corpus.write_starsem_docs`
writes them as *SEM CoNLL with their original ids and every corpus can be scored by the
same tools. Docs never cross document ids.

- :mod:`.bioscope`: BioScope abstracts and full papers (XML; format ``bioscope``).
- :mod:`.sfu`: SFU Review Corpus, English, negation layer (XML; format ``sfu``).
- :mod:`.neges`: SFU ReviewSP-NEG (Spanish) as NEGES 2018 task-2 CoNLL (``neges2018``)
  and as NEGES 2019 XML (``neges2019``).

This module holds the helpers the readers share (XML parsing with line numbers, building
docs from sentence records, input file discovery), the document-level splits
(:func:`load_split`) and corpus statistics (:func:`negation_statistics`).
"""
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union
from xml.etree.ElementTree import Element
from xml.parsers import expat

from spacy.tokens import Doc
from spacy.vocab import Vocab

from .. import util
from ..corpus import META_KEY, group_sentences
from ..errors import Errors, NegationFormatError
from ..negation import ROLES, Negation, Part, get_negations, register_extensions, set_negations

#: The committed split files (document ids per split), relative to the repository root.
SPLITS_DIR = Path(__file__).resolve().parents[2] / "data" / "splits"
#: Split name -> (split file stem, format of the corpus the ids refer to).
SPLIT_CORPORA: Dict[str, Tuple[str, str]] = {
    "bioscope_abstracts": ("bioscope_abstracts", "bioscope"),
    "sfu": ("sfu", "sfu"),
}
SPLIT_NAMES = ("train", "dev", "test")

PartTuple = Tuple[int, int, int]  # (token position in the sentence, start, end)
NegationRecord = Dict[str, List[PartTuple]]  # role -> parts, positions sentence-relative


@dataclass
class SentenceRecord:
    """One sentence of a corpus, before it becomes part of a ``Doc``.

    doc_id (str): the document id (no whitespace).
    sent_id (str): the sentence id or number within the document (no whitespace).
    words (List[str]): the tokens (non-empty, no whitespace).
    spaces (List[bool]): whether each token is followed by a space.
    negations (List[NegationRecord]): per instance, role -> parts ``(position, start,
        end)`` with token positions relative to the sentence; every instance has a cue.
    lemmas (Optional[List[str]]): the lemmas, if the corpus has them.
    tags (Optional[List[str]]): the POS tags, if the corpus has them.
    line (int): the 1-based line where the sentence starts in its file (0: unknown).
    """

    doc_id: str
    sent_id: str
    words: List[str]
    spaces: List[bool]
    negations: List[NegationRecord] = field(default_factory=list)
    lemmas: Optional[List[str]] = None
    tags: Optional[List[str]] = None
    line: int = 0


def build_doc(vocab: Vocab, sentences: Sequence[SentenceRecord]) -> Doc:
    """Build one doc from sentence records: tokens, sentence starts, lemmas and tags
    (where given), gold negations and the *SEM metadata (ids; parse fragments ``_``).

    vocab (Vocab): the vocab.
    sentences (Sequence[SentenceRecord]): the sentences, in order, at least one.
    RETURNS (Doc): the doc.
    """
    register_extensions()
    words: List[str] = []
    spaces: List[bool] = []
    sent_starts: List[bool] = []
    has_lemmas = all(s.lemmas is not None for s in sentences)
    has_tags = all(s.tags is not None for s in sentences)
    lemmas: List[str] = []
    tags: List[str] = []
    for sent in sentences:
        words.extend(sent.words)
        spaces.extend(sent.spaces[:-1])
        spaces.append(True)  # sentences of a doc are separated by one space
        sent_starts.extend([True] + [False] * (len(sent.words) - 1))
        if has_lemmas:
            lemmas.extend(sent.lemmas or [])
        if has_tags:
            tags.extend(sent.tags or [])
    if spaces:
        spaces[-1] = False
    doc = Doc(vocab, words=words, spaces=spaces, sent_starts=sent_starts,
              lemmas=lemmas if has_lemmas else None, tags=tags if has_tags else None)
    negations: List[Negation] = []
    offset = 0
    for sent in sentences:
        for record in sent.negations:
            parts = {role: [Part(offset + i, start, end) for i, start, end in record.get(role, ())]
                     for role in ROLES}
            negations.append(Negation(doc, parts["cue"], parts["scope"], parts["event"],
                                      id=len(negations)))
        offset += len(sent.words)
    set_negations(doc, negations)
    doc.user_data[META_KEY] = {
        "doc_ids": [s.doc_id for s in sentences],
        "sent_nos": [s.sent_id for s in sentences],
        "parse": ["_"] * len(words),
    }
    return doc


def group_records(sentences: Iterable[SentenceRecord], n_sents: int) -> Iterator[List[SentenceRecord]]:
    """Group consecutive sentences of one document id into chunks of at most n_sents
    (the *SEM reader's grouping, :func:`spacy_negation.corpus.group_sentences`).

    sentences (Iterable[SentenceRecord]): the sentences.
    n_sents (int): the maximum number of sentences per group (0: one group per document).
    YIELDS (List[SentenceRecord]): the groups.
    """
    return group_sentences(sentences, n_sents)  # type: ignore[arg-type,return-value]


def records_to_docs(vocab: Vocab, sentences: Iterable[SentenceRecord], n_sents: int) -> Iterator[Doc]:
    """Turn sentence records into docs of at most n_sents sentences of one document.

    vocab (Vocab): the vocab.
    sentences (Iterable[SentenceRecord]): the sentences.
    n_sents (int): sentences per doc (0: whole documents).
    YIELDS (Doc): the docs.
    """
    for group in group_records(sentences, n_sents):
        yield build_doc(vocab, group)


def input_files(path: Union[str, Path], suffix: str) -> List[Path]:
    """The files to read: the path itself if it is a file, else every file ending in
    ``suffix`` below the directory, recursively, in natural path order.

    path (Union[str, Path]): a file or a directory.
    suffix (str): the file ending for directories, e.g. ".xml".
    RETURNS (List[Path]): the files.
    RAISES (NegationFormatError): the path does not exist or the directory holds no file.
    """
    path = Path(path)
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise NegationFormatError(Errors.E401.format(path=path, reason="no such file or directory"), path)
    files = sorted((p for p in path.rglob(f"*{suffix}") if p.is_file()), key=natural_key)
    if not files:
        raise NegationFormatError(Errors.E402.format(path=path, suffix=suffix), path)
    return files


def natural_key(path: Path) -> Tuple[Any, ...]:
    """Sort key with digit runs compared as numbers (``2.xml`` before ``10.xml``).

    path (Path): the path.
    RETURNS (Tuple): the key.
    """
    import re

    return tuple(int(x) if x.isdigit() else x for x in re.split(r"(\d+)", str(path)))


def read_bytes(path: Path) -> bytes:
    """The bytes of a file, with a coded error if it cannot be read.

    path (Path): the file.
    RETURNS (bytes): its content.
    """
    try:
        return Path(path).read_bytes()
    except OSError as err:
        raise NegationFormatError(Errors.E401.format(path=path, reason=err), path) from err


def decode_utf8(path: Path, raw: bytes) -> str:
    """UTF-8 text of a file's bytes without a leading byte order mark, with a coded error
    naming the line of a bad byte (E403).

    path (Path): the file, for the message.
    raw (bytes): its content.
    RETURNS (str): the text.
    """
    return util.decode_utf8(path, raw, Errors.E403)


@dataclass
class XMLTree:
    """A parsed XML file: the root element and the line each element starts on.

    root (Element): the root element.
    lines (Dict[int, int]): ``id(element)`` -> 1-based line of its start tag.
    path (Path): the file.
    """

    root: Element
    lines: Dict[int, int]
    path: Path

    def line(self, el: Element) -> int:
        """The line of an element's start tag (0 if unknown).

        el (Element): the element.
        RETURNS (int): the line.
        """
        return self.lines.get(id(el), 0)

    def error(self, template: str, el: Optional[Element] = None, line: Optional[int] = None,
              **kwargs: Any) -> NegationFormatError:
        """An error for this file, at an element's line.

        template (str): the message template (an ``Errors`` entry with ``{path}``, ``{line}``).
        el (Optional[Element]): the element the error is about.
        line (Optional[int]): the line, if no element is given.
        kwargs (Any): the template's other fields.
        RETURNS (NegationFormatError): the error, to raise.
        """
        line = self.line(el) if el is not None else (line or 0)
        return NegationFormatError(template.format(path=self.path, line=line, **kwargs), self.path,
                                   line or None)


def parse_xml(path: Union[str, Path], root_tag: Optional[str] = None) -> XMLTree:
    """Parse an XML file into an ElementTree element tree and remember each element's line.

    Uses expat directly (the standard library's ElementTree does not keep line numbers).
    External DTDs are not loaded; character references and the predefined entities are
    resolved.

    path (Union[str, Path]): the file.
    root_tag (Optional[str]): the required name of the root element.
    RETURNS (XMLTree): the tree.
    RAISES (NegationFormatError): unreadable or not well-formed (line from the parser), or a
        different root element.
    """
    path = Path(path)
    raw = read_bytes(path)
    lines: Dict[int, int] = {}
    stack: List[Element] = []
    roots: List[Element] = []
    last: List[Optional[Element]] = [None]  # the element whose text or tail gets character data
    in_tail = [False]
    parser = expat.ParserCreate()
    parser.buffer_text = True

    def start(tag: str, attrs: Dict[str, str]) -> None:
        el = Element(tag, attrs)
        lines[id(el)] = parser.CurrentLineNumber
        if stack:
            stack[-1].append(el)
        else:
            roots.append(el)
        stack.append(el)
        last[0], in_tail[0] = el, False

    def end(tag: str) -> None:
        el = stack.pop()
        last[0], in_tail[0] = el, True

    def data(text: str) -> None:
        el = last[0]
        if el is None:
            return
        if in_tail[0]:
            el.tail = (el.tail or "") + text
        else:
            el.text = (el.text or "") + text

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = data
    try:
        parser.Parse(raw, True)
    except expat.ExpatError as err:
        line = err.lineno or parser.ErrorLineNumber
        raise NegationFormatError(
            Errors.E400.format(path=path, line=line, reason=expat.ErrorString(err.code)), path, line
        ) from err
    if not roots:
        raise NegationFormatError(Errors.E400.format(path=path, line=1, reason="no element found"), path, 1)
    root = roots[0]
    tree = XMLTree(root=root, lines=lines, path=path)
    if root_tag is not None and root.tag != root_tag:
        raise tree.error(Errors.E404, root, tag=root.tag, expected=root_tag)
    return tree


def check_token(path: Path, line: int, form: str) -> str:
    """A token form, stripped of surrounding whitespace; empty forms and forms with inner
    whitespace or a control character are errors (the *SEM format has one token per line).

    path (Path): the file, for messages.
    line (int): the line, for messages.
    form (str): the form.
    RETURNS (str): the stripped form.
    """
    stripped = form.strip()
    if not util.is_writable_form(stripped):
        raise NegationFormatError(Errors.E405.format(path=path, line=line, form=form), path, line)
    return stripped


# --- document ids, splits ------------------------------------------------------------------
def doc_ids(doc: Doc) -> List[str]:
    """The document ids of a doc's sentences (from the reader metadata).

    doc (Doc): a doc made by one of the readers (or the *SEM reader).
    RETURNS (List[str]): one id per sentence; empty without metadata.
    """
    meta = doc.user_data.get(META_KEY)
    return list(meta.get("doc_ids", [])) if isinstance(meta, dict) else []


def document_ids(docs: Iterable[Doc]) -> List[str]:
    """The distinct document ids of docs, in order of first appearance.

    docs (Iterable[Doc]): the docs.
    RETURNS (List[str]): the ids.
    """
    seen: Dict[str, None] = {}
    for doc in docs:
        for d in doc_ids(doc):
            seen.setdefault(d, None)
    return list(seen)


def select_documents(docs: Iterable[Doc], ids: Iterable[str]) -> List[Doc]:
    """The docs belonging to the given document ids (readers never put two documents in
    one doc), in corpus order.

    docs (Iterable[Doc]): the docs.
    ids (Iterable[str]): the document ids to keep.
    RETURNS (List[Doc]): the docs.
    """
    wanted: Set[str] = set(ids)
    return [doc for doc in docs if doc_ids(doc) and doc_ids(doc)[0] in wanted]


def split_file(name: str, splits_dir: Optional[Union[str, Path]] = None) -> Path:
    """The JSON file holding the document ids of a corpus's splits.

    name (str): 'bioscope_abstracts' or 'sfu'.
    splits_dir (Optional[Union[str, Path]]): the folder; default: data/splits of the repo.
    RETURNS (Path): the file.
    """
    if name not in SPLIT_CORPORA:
        raise ValueError(Errors.E430.format(name=name, available=", ".join(sorted(SPLIT_CORPORA))))
    folder = Path(splits_dir) if splits_dir is not None else SPLITS_DIR
    return folder / f"{SPLIT_CORPORA[name][0]}.json"


def read_split_ids(name: str, split: str, splits_dir: Optional[Union[str, Path]] = None) -> List[str]:
    """The document ids of one split.

    name (str): 'bioscope_abstracts' or 'sfu'.
    split (str): 'train', 'dev' or 'test'.
    splits_dir (Optional[Union[str, Path]]): the folder of the split files.
    RETURNS (List[str]): the ids, in corpus order.
    """
    if split not in SPLIT_NAMES:
        raise ValueError(Errors.E431.format(split=split, available=", ".join(SPLIT_NAMES)))
    path = split_file(name, splits_dir)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise NegationFormatError(Errors.E432.format(path=path, reason=err), path) from err
    ids = data.get("splits", {}).get(split) if isinstance(data, dict) else None
    if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
        raise NegationFormatError(Errors.E432.format(path=path, reason=f"no id list for split {split!r}"), path)
    return ids


def load_split(name: str, split: str, corpus_path: Union[str, Path], vocab: Optional[Vocab] = None,
               n_sents: int = 10, splits_dir: Optional[Union[str, Path]] = None) -> List[Doc]:
    """Read the docs of one split of a corpus with a committed document-level split.

    name (str): 'bioscope_abstracts' (ids refer to abstracts.xml) or 'sfu'.
    split (str): 'train', 'dev' or 'test'.
    corpus_path (Union[str, Path]): the corpus file or folder (e.g. bioscope/abstracts.xml,
        sfu-review-en/SFU_Review_Corpus_Negation_Speculation).
    vocab (Optional[Vocab]): the vocab; a new English one if None.
    n_sents (int): sentences per doc (0: whole documents).
    splits_dir (Optional[Union[str, Path]]): the folder of the split files.
    RETURNS (List[Doc]): the docs of the split's documents, in corpus order.
    RAISES (NegationFormatError): a split id is not in the corpus.
    """
    from ..formats import get_reader

    read_split_ids(name, split, splits_dir)  # fail early on a bad name, split or file
    if vocab is None:
        import spacy

        vocab = spacy.blank("en").vocab
    reader = get_reader(SPLIT_CORPORA[name][1])
    return select_split(reader(Path(corpus_path), vocab, n_sents), name, split, corpus_path, splits_dir)


def select_split(docs: Iterable[Doc], name: str, split: str, corpus_path: Union[str, Path],
                 splits_dir: Optional[Union[str, Path]] = None) -> List[Doc]:
    """The docs of one committed split, checking that every split document is there.

    docs (Iterable[Doc]): the docs of the whole corpus.
    name (str): 'bioscope_abstracts' or 'sfu'.
    split (str): 'train', 'dev' or 'test'.
    corpus_path (Union[str, Path]): the corpus the docs were read from (for the error).
    splits_dir (Optional[Union[str, Path]]): the folder of the split files.
    RETURNS (List[Doc]): the docs of the split's documents, in corpus order.
    RAISES (NegationFormatError): a split id is not in the corpus.
    """
    ids = read_split_ids(name, split, splits_dir)
    docs = list(docs)
    found = set(document_ids(docs))
    missing = [d for d in ids if d not in found]
    if missing:
        raise NegationFormatError(
            Errors.E433.format(path=corpus_path, n=len(missing), name=name, split=split,
                               examples=", ".join(missing[:5])), corpus_path)
    return select_documents(docs, ids)


def make_document_split(ids: Sequence[str], seed: int, fractions: Tuple[float, float, float] = (0.8, 0.1, 0.1),
                        strata: Optional[Dict[str, str]] = None) -> Dict[str, List[str]]:
    """A seeded document-level train/dev/test split.

    Per stratum (in sorted order; one stratum without ``strata``) the ids are shuffled with
    one ``random.Random(seed)`` generator; the first ``round(n * fractions[0])`` go to
    train, the next ``round(n * fractions[1])`` to dev, the rest to test. Each split lists
    its ids in the given (corpus) order.

    ids (Sequence[str]): the document ids in corpus order (distinct).
    seed (int): the random seed.
    fractions (Tuple[float, float, float]): train, dev, test fractions.
    strata (Optional[Dict[str, str]]): id -> stratum (e.g. the review domain).
    RETURNS (Dict[str, List[str]]): 'train', 'dev', 'test' -> ids.
    """
    import random

    if len(set(ids)) != len(ids):
        raise ValueError(Errors.E434.format(n=len(ids) - len(set(ids))))
    rng = random.Random(seed)
    groups: Dict[str, List[str]] = {}
    for doc_id in ids:
        groups.setdefault(strata[doc_id] if strata else "", []).append(doc_id)
    chosen: Dict[str, str] = {}
    for key in sorted(groups):
        members = list(groups[key])
        rng.shuffle(members)
        n_train = round(len(members) * fractions[0])
        n_dev = round(len(members) * fractions[1])
        for k, doc_id in enumerate(members):
            chosen[doc_id] = "train" if k < n_train else "dev" if k < n_train + n_dev else "test"
    return {name: [d for d in ids if chosen[d] == name] for name in SPLIT_NAMES}


# --- statistics ----------------------------------------------------------------------------
STAT_KEYS = ("documents", "sentences", "tokens", "negation_sentences", "negations", "multiword",
             "discontinuous", "affixal", "without_scope", "with_event")


def negation_statistics(docs: Iterable[Doc]) -> Dict[str, int]:
    """Counts over docs: documents (distinct ids), sentences, tokens, sentences with at
    least one negation, negation instances, multiword cues (>1 token), discontinuous cues
    (non-adjacent cue tokens), affixal cues (partial-token cue), instances without scope,
    instances with an event.

    docs (Iterable[Doc]): the docs (from a reader).
    RETURNS (Dict[str, int]): the counts, keys as in STAT_KEYS.
    """
    counts = {key: 0 for key in STAT_KEYS}
    ids: Dict[str, None] = {}
    for doc in docs:
        for d in doc_ids(doc):
            ids.setdefault(d, None)
        sents = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
        counts["sentences"] += len(sents)
        counts["tokens"] += len(doc)
        negs = get_negations(doc)
        neg_sents = {doc[n.cue[0].i].sent.start if doc.has_annotation("SENT_START") else 0 for n in negs}
        counts["negation_sentences"] += len(neg_sents)
        counts["negations"] += len(negs)
        for n in negs:
            counts["multiword"] += n.is_multiword
            counts["discontinuous"] += n.is_discontinuous
            counts["affixal"] += n.is_affixal
            counts["without_scope"] += not n.scope
            counts["with_event"] += bool(n.event)
    counts["documents"] = len(ids)
    return counts


def chars_to_parts(token_spans: Sequence[Tuple[int, int]], chars: Set[int]) -> List[PartTuple]:
    """Project a set of character offsets onto tokens: a token whose characters are all in
    the set is a whole part; a token with some characters in it gets a partial part with
    the longest run of covered characters (parts hold one range per token).

    token_spans (Sequence[Tuple[int, int]]): per token, its start and end offset.
    chars (Set[int]): the character offsets.
    RETURNS (List[PartTuple]): ``(token position, start, end)`` with offsets inside the token.
    """
    parts: List[PartTuple] = []
    if not chars:
        return parts
    for pos, (start, end) in enumerate(token_spans):
        covered = [c - start for c in range(start, end) if c in chars]
        if not covered:
            continue
        runs: List[Tuple[int, int]] = []
        for c in covered:
            if runs and runs[-1][1] == c:
                runs[-1] = (runs[-1][0], c + 1)
            else:
                runs.append((c, c + 1))
        best = max(runs, key=lambda r: (r[1] - r[0], -r[0]))
        parts.append((pos, best[0], best[1]))
    return parts
