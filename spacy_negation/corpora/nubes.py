"""NUBes and IULA+ (Lima Lopez et al. 2020): Spanish clinical sentences annotated for negation and
uncertainty in brat standoff (format ``nubes``).

Input: a folder (every ``*.ann`` below it with its ``.txt``: ``NUBes/`` with its ten
``SAMPLE-NNN`` folders, or ``IULA+/``), or one ``.ann`` or ``.txt`` file of a pair. A file name
``sample-NNN.<specialty>.<section>`` says the sample, the medical specialty and the report section
its sentences come from (the sentences are shuffled: neighbours are unrelated).

What the reader does (:mod:`.brat` parses the files):

- **Sentences and tokens.** One sentence per non-blank line of the ``.txt`` (NUBes: 29,682 in
  608 files; IULA+: 3,363 in 7 CRLF files with 14 blank lines), tokenized on its own with
  ``spacy.blank("es")``'s tokenizer (spaCy 3.8), whitespace tokens left out (:mod:`.chars`).
  ``doc_ids`` is the file name without ``.ann`` (``sample-001.anaes.chico``; docs never cross
  files), ``sent_nos`` the line number.
- **Cues.** ``NegSynMarker``, ``NegLexMarker`` and ``NegMorMarker`` entities are negation cues,
  ``UncertLexMarker`` and ``UncertSynMarker`` uncertainty cues, read as speculation instances
  (:class:`~spacy_negation.negation.Speculation`, ``doc._.speculations``). Cue entities joined
  by ``DiscMarker`` relations form one discontinuous cue (all 95 in NUBes join two uncertainty
  entities, e.g. *no … claro*): NUBes's 9,431 negation cue entities are 9,431 negation
  instances, its 2,575 uncertainty cue entities 2,480 speculation instances. A morphological
  cue (``NegMorMarker``, *afebril*) is the whole word, as annotated, and has no scope (the
  guidelines: its scope is the word itself); the cue kind itself is not kept in the doc.
- **Scopes.** The scope of an instance is the characters of the entities its cue entities link
  to by ``Scope`` or ``DiscScope`` (a discontinuous scope: several ``DiscScope`` relations;
  targets ``Phrase`` or a concept type), minus the cue's characters (one uncertainty scope of
  NUBes holds its own cue, *posible*: W410). Coordination and polarity particles
  (``CoordItem``, ``PolItem``) lie inside scopes and are not read on their own.
- **Events.** NUBes marks the event of a scope as a concept entity (``DISO``, ``PROC``,
  ``SUBS``, ``BODY``, ``OTHER``): the scope itself when the two are equal, else inside the
  ``Phrase`` scope. The event of a negation is the characters of the concept entities that are
  its scope or lie inside it, minus the cue's. A speculation has no event in the data model, so
  the concept entities of uncertainty scopes are read as scope only.
- **Entities linked to nothing.** An entity that is no relation's target and lies in no
  target is not read, with warning W411 (NUBes: none; IULA+: 8 concept entities, 3
  ``Phrase``, 2 ``CoordItem``).
- **Parts** as in :mod:`.chars`: spaCy's tokens are not brat's (space-separated) tokens, so an
  entity can end inside a token where the text lacks a space (``abdomianl.no``, ``.No``): the
  part holds the covered characters (NUBes: 27 cue entities, 25 of them negation cues that the
  statistics count as affixal, and 30 other entities; IULA+: 2 cue entities, 1 a negation cue,
  and 4 others).
- **Convention.** Docs are marked ``nubes`` (:func:`~spacy_negation.negation.set_convention`):
  none of the English conventions (the scope is the syntactic unit after the cue, not the
  subject; morphological cues are whole words; events are medical concepts).

Errors name the ``.ann`` file and line (:mod:`.brat`; here also E474 for an unknown entity type,
E475 for an unknown relation type, E477 for a relation between the wrong types, E467 for a role
that covers two ranges of one token, and E479 for a file without its pair). With
``on_error="skip"`` each sentence an error concerns is skipped with W402 naming the ``.txt``
line; an error of no sentence (a line that does not parse, a range outside the text) skips every
sentence of the file.
"""
import warnings
from functools import partial
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..errors import Errors, NegationFormatError, Warnings
from ..negation import set_convention
from ..util import check_on_error
from .brat import BratDocument, Entity, parse_brat
from .chars import SplitToken, Tokens, instance_parts, tokenize
from .docs import records_to_docs
from .files import input_files
from .records import NegationRecord, SentenceRecord
from .splits import make_document_split
from .registry import formats

LANG = "es"
CONVENTION = "nubes"
NEGATION_CUES = ("NegSynMarker", "NegLexMarker", "NegMorMarker")
UNCERTAINTY_CUES = ("UncertLexMarker", "UncertSynMarker")
#: The concept types: a scope, or the event inside one.
CONCEPTS = ("DISO", "PROC", "SUBS", "BODY", "OTHER")
SCOPES = ("Phrase",) + CONCEPTS
ENTITY_TYPES = NEGATION_CUES + UNCERTAINTY_CUES + SCOPES + ("CoordItem", "PolItem")
#: Relation type -> (the types of Arg1, the types of Arg2).
RELATIONS: Dict[str, Tuple[Tuple[str, ...], Tuple[str, ...]]] = {
    "Scope": (NEGATION_CUES + UNCERTAINTY_CUES, SCOPES),
    "DiscScope": (NEGATION_CUES + UNCERTAINTY_CUES, SCOPES),
    "DiscMarker": (NEGATION_CUES + UNCERTAINTY_CUES, NEGATION_CUES + UNCERTAINTY_CUES),
}
#: The split: the sample of the test part (double-annotated with a referee), the fractions of
#: the files of the other samples for train and dev, stratified by report section.
TEST_SAMPLE = "sample-001"
TRAIN_DEV_FRACTIONS = (8 / 9, 1 / 9, 0.0)


def _kind(etype: str) -> str:
    return "negation" if etype in NEGATION_CUES else "speculation"


class NubesInstance:
    """The cue entities of one instance and the scope entities they link to."""

    def __init__(self, cues: List[Entity]) -> None:
        self.cues = sorted(cues, key=lambda e: e.ranges[0])
        self.kind = _kind(self.cues[0].type)
        self.targets: List[Entity] = []


def parse_nubes(ann: Union[str, Path]) -> Tuple[BratDocument, Dict[int, List[NubesInstance]]]:
    """Parse a NUBes brat document into instances per sentence; errors are collected in the
    document (:class:`~spacy_negation.corpora.brat.BratDocument` ``errors``).

    ann (Union[str, Path]): the ``.ann`` file (its ``.txt`` beside it).
    RETURNS (Tuple[BratDocument, Dict[int, List[NubesInstance]]]): the document and, per sentence
        (line number), its instances ordered by their first cue entity.
    """
    doc = parse_brat(ann)
    for ent in doc.entities.values():
        if ent.type not in ENTITY_TYPES:
            doc.error([ent.sentence], Errors.E474, ent.line, id=ent.id, type=ent.type, types=", ".join(ENTITY_TYPES))
    parent = {e.id: e.id for e in doc.entities.values() if e.type in NEGATION_CUES + UNCERTAINTY_CUES}

    def root(x: str) -> str:
        while parent[x] != x:
            x = parent[x]
        return x

    links: List[Tuple[str, Entity]] = []
    for rel in doc.relations:
        a, b = doc.entities.get(rel.arg1), doc.entities.get(rel.arg2)
        if rel.type not in RELATIONS:
            concerned = sorted({e.sentence for e in (a, b) if e is not None})
            doc.error(concerned or None, Errors.E475, rel.line, id=rel.id, type=rel.type, types=", ".join(RELATIONS))
            continue
        if a is None or b is None:
            continue  # E476 (brat.py)
        kinds1, kinds2 = RELATIONS[rel.type]
        same_kind = rel.type != "DiscMarker" or _kind(a.type) == _kind(b.type)
        if a.type not in kinds1 or b.type not in kinds2 or not same_kind:
            expected = ("two cues of one kind (negation or uncertainty)" if rel.type == "DiscMarker"
                        else "a cue to a scope (" + ", ".join(SCOPES) + ")")
            doc.error([a.sentence], Errors.E477, rel.line, id=rel.id, type=rel.type, a=a.type, b=b.type,
                      expected=expected)
            continue
        if rel.type == "DiscMarker":
            parent[root(a.id)] = root(b.id)
        else:
            links.append((a.id, b))
    groups: Dict[str, List[Entity]] = {}
    for ident in parent:
        groups.setdefault(root(ident), []).append(doc.entities[ident])
    instances = {key: NubesInstance(cues) for key, cues in groups.items()}
    for cue_id, target in links:
        instances[root(cue_id)].targets.append(target)
    by_sentence: Dict[int, List[NubesInstance]] = {}
    for inst in sorted(instances.values(), key=lambda i: i.cues[0].ranges[0]):
        by_sentence.setdefault(inst.cues[0].sentence, []).append(inst)
    _warn_unlinked(doc, instances.values())
    return doc, by_sentence


def _warn_unlinked(doc: BratDocument, instances: Iterable[NubesInstance]) -> None:
    """W411 for each non-cue entity that is no target and lies in no target."""
    targets = [t for inst in instances for t in inst.targets]
    target_ids = {t.id for t in targets}
    for ent in doc.entities.values():
        if ent.type in NEGATION_CUES + UNCERTAINTY_CUES or ent.id in target_ids or ent.type not in ENTITY_TYPES:
            continue
        if not any(t.sentence == ent.sentence and ent.within(t) for t in targets):
            warnings.warn(Warnings.W411.format(path=doc.ann, line=ent.line, id=ent.id, type=ent.type, text=ent.text),
                          stacklevel=3)


def _instance_record(doc: BratDocument, start: int, tokens: Tokens, k: int, inst: NubesInstance,
                     sent_no: int) -> NegationRecord:
    """The parts of one instance, offsets made sentence-relative."""
    cue: Set[int] = {c - start for e in inst.cues for c in e.chars}
    scope: Set[int] = {c - start for e in inst.targets for c in e.chars}
    event: Set[int] = set()
    if inst.kind == "negation":
        concepts = [e for e in doc.entities.values() if e.type in CONCEPTS and e.sentence == sent_no
                    and any(e.within(t) for t in inst.targets)]
        event = {c - start for e in concepts for c in e.chars} - cue
    line = inst.cues[0].line
    if scope & cue:
        text = doc.sentences[sent_no][1]
        warnings.warn(Warnings.W410.format(path=doc.ann, line=line, sent=sent_no, kind=inst.kind, k=k,
                                           cue="".join(text[c] for c in sorted(scope & cue))), stacklevel=3)
        scope -= cue
    roles = [("cue", cue), ("scope", scope)] + ([("event", event)] if inst.kind == "negation" else [])
    try:
        return instance_parts(tokens.spans, roles)
    except SplitToken as err:
        raise NegationFormatError(Errors.E467.format(path=doc.ann, line=line, sent=sent_no, kind=inst.kind, k=k,
                                                     role=err.role, token=tokens.words[err.token]),
                                  doc.ann, line) from None


def nubes_file_records(path: Path, on_error: str = "raise") -> Iterator[SentenceRecord]:
    """The sentence records of one NUBes brat document.

    path (Path): its ``.ann`` or ``.txt`` file.
    on_error (str): 'raise' stops at the first error; 'skip' skips the sentences an error
        concerns with warning W402 (every sentence of the file for an error of no sentence).
    YIELDS (SentenceRecord): the sentences in line order.
    RAISES (NegationFormatError): a bad file or annotation, with file and line.
    """
    lenient = check_on_error(on_error)
    ann, txt = _pair(Path(path))
    doc, instances = parse_nubes(ann)
    if doc.errors and not lenient:
        raise doc.errors[0][1]
    bad: Dict[int, NegationFormatError] = {}
    for concerned, err in doc.errors:
        for number in concerned if concerned is not None else doc.sentences:
            bad.setdefault(number, err)
    doc_id = ann.name[: -len(".ann")]
    if not doc.sentences and not lenient:
        raise NegationFormatError(Errors.E108.format(path=txt), txt)
    for number, (start, text) in doc.sentences.items():
        if number not in bad:
            try:
                yield _sentence_record(doc, doc_id, number, start, text, instances.get(number, []))
                continue
            except NegationFormatError as err:
                if not lenient:
                    raise
                bad[number] = err
        warnings.warn(Warnings.W402.format(path=txt, line=number, reason=bad[number]), stacklevel=2)


def _sentence_record(doc: BratDocument, doc_id: str, number: int, start: int, text: str,
                     instances: List[NubesInstance]) -> SentenceRecord:
    tokens = tokenize(text, LANG)
    negations: List[NegationRecord] = []
    speculations: List[NegationRecord] = []
    for inst in instances:
        out = negations if inst.kind == "negation" else speculations
        out.append(_instance_record(doc, start, tokens, len(out), inst, number))
    return SentenceRecord(doc_id=doc_id, sent_id=str(number), words=tokens.words, spaces=tokens.spaces,
                          negations=negations, speculations=speculations, line=number)


def _pair(path: Path) -> Tuple[Path, Path]:
    """The ``.ann`` and ``.txt`` files of a document given by either (E479 if one is missing)."""
    ann, txt = path.with_suffix(".ann"), path.with_suffix(".txt")
    for have, other in ((ann, txt), (txt, ann)):
        if have.is_file() and not other.is_file():
            raise NegationFormatError(Errors.E479.format(path=have, other=other.name), have)
    return ann, txt


def nubes_files(path: Union[str, Path]) -> List[Path]:
    """The ``.ann`` files of a folder (or the one document given), each with its ``.txt``.

    path (Union[str, Path]): a folder, or an ``.ann`` or ``.txt`` file.
    RETURNS (List[Path]): the ``.ann`` files in natural path order.
    RAISES (NegationFormatError): a ``.txt`` or ``.ann`` file without its pair (E479).
    """
    if Path(path).is_dir():
        for txt in Path(path).rglob("*.txt"):
            _pair(txt)
    return [_pair(f)[0] for f in input_files(path, ".ann")]


def _read(path: Union[str, Path], on_error: str) -> Iterator[SentenceRecord]:
    for ann in nubes_files(path):
        yield from nubes_file_records(ann, on_error)


@formats.register("nubes")
def read_nubes(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10, on_error: str = "raise",
               convention: Optional[str] = CONVENTION) -> Iterator[Doc]:
    """Read NUBes or IULA+ (brat standoff) into docs with gold negations and speculations (the
    ``nubes`` format of convert).

    path (Union[str, Path]): a folder (every ``*.ann`` below it) or one ``.ann``/``.txt`` file.
    vocab (Optional[Vocab]): the vocab; a new Spanish one if None.
    n_sents (int): sentences per doc (docs never cross files); 0 = whole files.
    on_error (str): 'raise' (default) or 'skip': skip each bad sentence with warning W402.
    convention (Optional[str]): the docs' convention mark (default ``nubes``; None: unmarked).
    RETURNS (Iterator[Doc]): the docs, read as they are consumed.
    """
    check_on_error(on_error)
    return _marked(records_to_docs(_read(path, on_error), vocab, n_sents, LANG), convention)


def _marked(docs: Iterator[Doc], convention: Optional[str]) -> Iterator[Doc]:
    for doc in docs:
        set_convention(doc, convention)
        yield doc


def make_nubes_split(ids: List[str], seed: int) -> Dict[str, List[str]]:
    """The committed NUBes split by file: every file of SAMPLE-001 (double-annotated with a
    referee) is test; the files of the other nine samples are split into train and dev (8/9,
    1/9), stratified by report section (the last part of the name), with
    :func:`~spacy_negation.corpora.splits.make_document_split`.

    ids (List[str]): the document ids (file names without ``.ann``), in corpus order.
    seed (int): the random seed.
    RETURNS (Dict[str, List[str]]): 'train', 'dev', 'test' -> ids in corpus order.
    """
    rest = [d for d in ids if not d.startswith(TEST_SAMPLE + ".")]
    split = make_document_split(rest, seed, TRAIN_DEV_FRACTIONS, {d: d.split(".")[-1] for d in rest})
    split["test"] = [d for d in ids if d.startswith(TEST_SAMPLE + ".")]
    return split
