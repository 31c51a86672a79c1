"""brat standoff documents (a ``.txt`` file and its ``.ann`` file) with one sentence per line, as
NUBes ships them (:mod:`.nubes` gives the annotation its meaning).

The ``.ann`` lines read are entities (``T1<TAB>Type 10 15<TAB>text``; fragments of a
discontinuous entity separated by ``;``, its text the fragments joined by a space) and relations
(``R1<TAB>Type Arg1:T1 Arg2:T2``); blank lines are skipped. Offsets count the characters of the
``.txt`` as brat reads it (line ends included: a CRLF file's offsets count its CRs; a leading
byte order mark is one character). A sentence is a line of the ``.txt`` holding a non-space
character (its CR left out); its number is the line number.

Errors are collected with the sentence they concern (:class:`BratDocument` ``errors``), so a
reader can raise the first one or skip the sentences concerned: a line that does not parse
(E470; also the annotation kinds other than T and R) and an entity range outside the text
(E471) concern the whole file; an entity whose text differs from the characters at its range
(E472), that spans two lines (E473), a relation that names an undefined entity (E476) or links
two lines (E480) and a repeated id (E478) concern the sentence(s) of the entities involved.
"""
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple, Union

from ..errors import Errors, NegationFormatError
from ..util import decode_utf8, read_bytes, split_lines

ENTITY = re.compile(r"(T\S*)\t(\S+) (\d+ \d+(?:;\d+ \d+)*)\t(.*)")
RELATION = re.compile(r"(R\S*)\t(\S+) Arg1:(\S+) Arg2:(\S+)\t?")  # brat ends relation lines with a tab


@dataclass
class Entity:
    """A brat entity (text-bound annotation).

    id (str): the id, e.g. ``T3``.
    type (str): the type.
    ranges (List[Tuple[int, int]]): the fragments' character ranges in the text.
    text (str): the text the ``.ann`` gives.
    line (int): the ``.ann`` line.
    sentence (int): the ``.txt`` line number of its sentence (0: unknown).
    """

    id: str
    type: str
    ranges: List[Tuple[int, int]]
    text: str
    line: int
    sentence: int = 0

    @property
    def chars(self) -> List[int]:
        """The offsets of its characters."""
        return [c for start, end in self.ranges for c in range(start, end)]

    def within(self, other: "Entity") -> bool:
        """Whether each of its characters is one of ``other``'s."""
        return all(any(a <= s and e <= b for a, b in other.ranges) for s, e in self.ranges)


@dataclass
class Relation:
    """A brat relation.

    id (str): the id, e.g. ``R2``.
    type (str): the type.
    arg1 (str): the id of its first argument.
    arg2 (str): the id of its second argument.
    line (int): the ``.ann`` line.
    """

    id: str
    type: str
    arg1: str
    arg2: str
    line: int


@dataclass
class BratDocument:
    """A ``.txt`` file and its ``.ann`` file.

    txt (Path): the text file.
    ann (Path): the annotation file.
    text (str): the text as brat counts it.
    sentences (Dict[int, Tuple[int, str]]): line number -> (start offset, text) of each
        sentence, in order.
    entities (Dict[str, Entity]): the entities by id.
    relations (List[Relation]): the relations in file order.
    errors (List[Tuple[Optional[List[int]], NegationFormatError]]): the errors in the order
        found, each with the sentences it concerns (None: the whole file).
    """

    txt: Path
    ann: Path
    text: str
    sentences: Dict[int, Tuple[int, str]]
    entities: Dict[str, Entity] = field(default_factory=dict)
    relations: List[Relation] = field(default_factory=list)
    errors: List[Tuple[Optional[List[int]], NegationFormatError]] = field(default_factory=list)

    def error(self, sentences: Optional[List[int]], template: str, line: int, **kwargs: object) -> None:
        """Record an error of the ``.ann`` file at a line."""
        err = NegationFormatError(template.format(path=self.ann, line=line, **kwargs), self.ann, line)
        self.errors.append((sentences, err))


def read_text(path: Path) -> Tuple[str, Dict[int, Tuple[int, str]], List[int]]:
    """The text of a ``.txt`` file as brat counts it, its sentences and its line starts."""
    raw = read_bytes(path)
    text = decode_utf8(path, raw)
    if raw.startswith(b"\xef\xbb\xbf"):
        text = "\ufeff" + text  # brat counts the byte order mark as a character
    starts: List[int] = []
    sentences: Dict[int, Tuple[int, str]] = {}
    pos = 0
    for number, line in enumerate(split_lines(path, text), 1):
        starts.append(pos)
        content = line[:-1] if line.endswith("\r") else line
        lead = 1 if number == 1 and content.startswith("\ufeff") else 0
        if content[lead:].strip():
            sentences[number] = (pos + lead, content[lead:])
        pos += len(line) + 1
    return text, sentences, starts


def parse_brat(ann: Union[str, Path], txt: Optional[Union[str, Path]] = None) -> BratDocument:
    """Parse a brat document; errors are collected (see the module docstring), not raised.

    ann (Union[str, Path]): the ``.ann`` file.
    txt (Optional[Union[str, Path]]): the ``.txt`` file; default: beside ``ann``.
    RETURNS (BratDocument): the document.
    RAISES (NegationFormatError): a file cannot be read (E111, E112, E113).
    """
    ann = Path(ann)
    txt = Path(txt) if txt is not None else ann.with_suffix(".txt")
    text, sentences, starts = read_text(txt)
    doc = BratDocument(txt, ann, text, sentences)
    first: Dict[str, int] = {}
    for number, line in enumerate(split_lines(ann, decode_utf8(ann, read_bytes(ann))), 1):
        line = line.rstrip("\r")
        if not line.strip():
            continue
        entity, relation = ENTITY.fullmatch(line), RELATION.fullmatch(line)
        if entity is None and relation is None:
            reason = ("not an entity (T) or relation (R) line" if line[:1] in "TR"
                      else f"the kind {line[:1]!r}: this reader reads entities (T) and relations (R) only")
            doc.error(None, Errors.E470, number, reason=reason, content=line)
            continue
        ident = (entity or relation).group(1)  # type: ignore[union-attr]
        if ident in first:
            concerned = [doc.entities[ident].sentence] if ident in doc.entities else None
            doc.error(concerned, Errors.E478, number, id=ident, first=first[ident])
            continue
        first[ident] = number
        if entity is not None:
            _add_entity(doc, starts, number, entity)
        elif relation is not None:
            doc.relations.append(Relation(relation.group(1), relation.group(2), relation.group(3),
                                          relation.group(4), number))
    _check_relations(doc)
    return doc


def _add_entity(doc: BratDocument, starts: List[int], number: int, match: "re.Match[str]") -> None:
    ident, etype, offsets, given = match.groups()
    ranges = [(int(a), int(b)) for a, b in (r.split(" ") for r in offsets.split(";"))]
    shown = ";".join(f"{a}-{b}" for a, b in ranges)
    if any(not a < b <= len(doc.text) for a, b in ranges):
        doc.error(None, Errors.E471, number, id=ident, type=etype, range=shown, txt=doc.txt, n=len(doc.text))
        return
    lines = sorted({bisect_right(starts, a) for a, _ in ranges} | {bisect_right(starts, b - 1) for _, b in ranges})
    found = " ".join(doc.text[a:b] for a, b in ranges)
    entity = Entity(ident, etype, ranges, given, number, lines[0])
    if found != given:
        doc.error([lines[0]], Errors.E472, number, id=ident, type=etype, given=given, found=found, range=shown,
                  txt=doc.txt)
    elif len(lines) > 1 or "\n" in found:
        doc.error(lines, Errors.E473, number, id=ident, type=etype, first=lines[0], last=lines[-1], txt=doc.txt)
    doc.entities[ident] = entity


def _check_relations(doc: BratDocument) -> None:
    for rel in doc.relations:
        args = [doc.entities.get(rel.arg1), doc.entities.get(rel.arg2)]
        known = sorted({e.sentence for e in args if e is not None})
        for name, ent in zip((rel.arg1, rel.arg2), args):
            if ent is None:
                doc.error(known or None, Errors.E476, rel.line, id=rel.id, type=rel.type, arg=name)
        if len(known) > 1:
            doc.error(known, Errors.E480, rel.line, id=rel.id, type=rel.type, first=known[0], last=known[-1],
                      txt=doc.txt)
