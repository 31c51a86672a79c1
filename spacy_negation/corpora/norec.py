"""NoReC_neg (Mæhlum et al. 2021): Norwegian Bokmål reviews annotated for negation cues and
scopes, guidelines adapted from ConanDoyle-neg (format ``norec_neg``).

Input: one of the release's ``negation_{train,dev,test}.json`` files (the shipped split: convert
each file on its own), or a folder (every ``*.json`` below it). A file is a JSON list of
sentences ``{"sent_id", "text", "negations": [{"Cue": [[texts], ["start:end", ...]], "Scope":
[[texts], [offsets]], "Affixal": bool}]}`` with character offsets into ``text``.

What the reader does:

- **Tokens.** Each ``text`` is tokenized on its own with ``spacy.blank("nb")``'s tokenizer
  (spaCy 3.8; the texts are already tokenized, space-separated, and spaCy splits 107 of the
  11,346 sentences further, e.g. ``50.`` -> ``50`` ``.``), whitespace tokens left out
  (:mod:`.chars`); sentences of a doc are joined by one space.
- **Negations.** One instance per element of ``negations``: the cue is the characters of its
  ``Cue`` ranges (21 cues of two ranges: *verken … eller*, *har … til gode*), the scope those
  of its ``Scope`` ranges (discontinuous scopes are common), minus the cue's characters. A
  range's text must be the record's text at its offsets (E464). A token all of whose
  characters are covered is a whole part; a token covered in part gets the covered range: the
  affixal cues (*u-*, *-løs*; the ``Affixal`` flag is not needed for it) and the rest of their
  token in the scope, as the CD-SCO reader represents them. In the release, 662 affixal cues
  plus one non-affixal cue inside a token the text runs together (*Ikke* of ``skjermIkke``,
  train 202043-05-01, a page's table of contents lost its line breaks): so the statistics count
  663 partial-token cues; and 3 scope ranges end inside a token that holds no cue of the
  instance (``elegantKresent`` in the same sentence, ``50.Kamerasnarvei`` in 201835-23-02, and
  ``o`` of ``ok`` in 111170-03-03): kept as partial parts, as annotated. A role that covers two
  separate ranges of one token cannot be one part (E467; none in the release).
- **Cue inside its scope.** The guidelines say a cue is never part of its scope; 5 negations
  of train have their cue inside their scope range (107326-04-02 *mangler*, 304309-06-03 *u*
  of *uforstyrrelig*, 500043-20-04 and 500043-20-06 *Ingen*, *ingen*): the cue's characters
  are left out of the scope with warning W410.
- **No events.** NoReC_neg annotates none (its guidelines); a negation without scope (37 in
  the release, e.g. *Nei .*) keeps its cue.
- **Convention.** Docs are marked with the CD-SCO convention (``cdsco``,
  :func:`~spacy_negation.negation.set_convention`): the guidelines follow ConanDoyle-neg (the
  subject in the scope of its predicate's negation, affixal cues, the cue never in its scope),
  without events, as the other corpora of that convention may lack them.
- **Ids.** ``doc_ids``: the review id, the first part of ``sent_id`` (``105177`` of
  ``105177-03-06``; docs never cross reviews); ``sent_nos``: the whole ``sent_id``.

Errors name the file and the line of the record (or of its negation): JSON that does not parse
(E460) and a file that is not a list of records (E461) stop reading in either mode; a record
that is not a sentence object or has a bad field (E462), a range outside the text (E463) or
holding other text (E464), a negation without cue (E465), a repeated ``sent_id`` (E466) are
skipped with ``on_error="skip"`` (W402), every other record read.
"""
import json
import re
from bisect import bisect_left
import warnings
from functools import partial
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple, Union

from spacy.tokens import Doc
from spacy.vocab import Vocab

from ..errors import Errors, NegationFormatError, Warnings
from ..negation import set_convention
from ..util import check_on_error, read_utf8, skip_or_raise
from .chars import SplitToken, instance_parts, tokenize
from .docs import read_files
from .records import NegationRecord, SentenceRecord
from .registry import formats

#: The convention mark of the docs (see the module docstring).
CONVENTION = "cdsco"
LANG = "nb"
#: The roles of a negation object: key -> role; "Event" is read if a release adds it.
ROLE_KEYS = {"Cue": "cue", "Scope": "scope", "Event": "event"}
RECORD_KEYS = ("sent_id", "text", "negations")
OFFSET = re.compile(r"(\d+):(\d+)")
_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class _Source:
    """A JSON text with the line of each offset."""

    def __init__(self, path: Path, text: str) -> None:
        self.path = path
        self.text = text
        self._lines = [m.start() for m in re.finditer("\n", text)]
        self.end = 0

    def line(self, pos: int) -> int:
        return bisect_left(self._lines, pos) + 1

    def skip(self, pos: int) -> int:
        match = _SPACE.match(self.text, pos)
        return match.end() if match else pos

    def decode(self, pos: int) -> Tuple[Any, int]:
        try:
            return _DECODER.raw_decode(self.text, pos)
        except json.JSONDecodeError as err:
            raise NegationFormatError(Errors.E460.format(path=self.path, line=err.lineno, reason=err.msg),
                                      self.path, err.lineno) from err

    def error(self, pos: int, reason: str) -> NegationFormatError:
        line = self.line(pos)
        return NegationFormatError(Errors.E460.format(path=self.path, line=line, reason=reason), self.path, line)

    def items(self, pos: int) -> Iterator[Tuple[int, Any]]:
        """The elements of the JSON list at ``pos`` (its ``[``), each with its offset; then
        ``end`` is the offset after the list's ``]``."""
        pos = self.skip(pos + 1)
        while not self.text.startswith("]", pos):
            value, end = self.decode(pos)
            yield pos, value
            pos = self.skip(end)
            if self.text.startswith(",", pos):
                pos = self.skip(pos + 1)
            elif not self.text.startswith("]", pos):
                raise self.error(pos, "expected ',' or ']' after a list element")
        self.end = pos + 1

    def member(self, pos: int, key: str) -> Optional[int]:
        """The offset of the value of ``key`` in the JSON object at ``pos`` (already decoded)."""
        pos = self.skip(pos + 1)
        while self.text.startswith('"', pos):
            name, end = self.decode(pos)
            pos = self.skip(self.skip(end) + 1)  # the ':'
            if name == key:
                return pos
            pos = self.skip(self.decode(pos)[1])
            if self.text.startswith(",", pos):
                pos = self.skip(pos + 1)
        return None


def parse_norec(path: Union[str, Path], on_error: str = "raise") -> Iterator[SentenceRecord]:
    """Parse one NoReC_neg JSON file into sentence records with negations.

    path (Union[str, Path]): the file.
    on_error (str): 'raise' stops at the first bad record; 'skip' skips each bad record with
        warning W402 (JSON that does not parse and a file that is not a list are raised).
    YIELDS (SentenceRecord): the sentences in file order.
    RAISES (NegationFormatError): bad JSON or a bad record, with file and line (E460-E467).
    """
    lenient = check_on_error(on_error)
    path = Path(path)
    src = _Source(path, read_utf8(path))
    start = src.skip(0)
    if not src.text.startswith("[", start):
        value = src.decode(start)[0] if start < len(src.text) else None
        raise NegationFormatError(Errors.E461.format(path=path, line=src.line(start), type=type(value).__name__),
                                  path, src.line(start))
    seen: Dict[str, int] = {}
    n = 0
    for k, (pos, obj) in enumerate(src.items(start)):
        n += 1
        line = src.line(pos)
        try:
            record = _record(src, pos, k, obj)
            if record.sent_id in seen:
                raise NegationFormatError(Errors.E466.format(path=path, line=line, id=record.sent_id,
                                                             first=seen[record.sent_id]), path, line)
        except NegationFormatError as err:
            skip_or_raise(err, lenient, path, line)
            continue
        seen[record.sent_id] = line
        yield record
    end = src.skip(src.end)
    if end < len(src.text):
        raise src.error(end, "extra data after the list")
    if not n:
        raise NegationFormatError(Errors.E108.format(path=path), path)


def _field_error(src: _Source, line: int, k: int, field: str, reason: str) -> NegationFormatError:
    return NegationFormatError(Errors.E462.format(path=src.path, line=line, k=k, field=field, reason=reason),
                               src.path, line)


def _record(src: _Source, pos: int, k: int, obj: Any) -> SentenceRecord:
    """Check one decoded record and turn it into a sentence record."""
    line = src.line(pos)
    if not isinstance(obj, dict):
        raise _field_error(src, line, k, "the record", f"a JSON {type(obj).__name__}, not an object")
    unknown = sorted(set(obj) - set(RECORD_KEYS))
    if unknown:
        raise _field_error(src, line, k, "the record", f"unknown key(s) {unknown}; the keys are {list(RECORD_KEYS)}")
    sent_id, text, negations = obj.get("sent_id"), obj.get("text"), obj.get("negations")
    if not isinstance(sent_id, str) or not sent_id or any(c.isspace() for c in sent_id):
        raise _field_error(src, line, k, "sent_id", f"{sent_id!r} is not a non-empty string without whitespace")
    if not isinstance(text, str) or not text.strip():
        raise _field_error(src, line, k, "text", f"{text!r} is not a string with a word")
    if not isinstance(negations, list):
        raise _field_error(src, line, k, "negations", f"{negations!r} is not a list")
    tokens = tokenize(text, LANG)
    records: List[NegationRecord] = []
    neg_pos = src.member(pos, "negations")
    neg_lines = [src.line(p) for p, _ in src.items(neg_pos)] if neg_pos is not None else []
    for j, neg in enumerate(negations):
        n_line = neg_lines[j] if j < len(neg_lines) else line
        chars = _negation_chars(src, n_line, k, j, sent_id, text, neg)
        if not chars["cue"]:
            raise NegationFormatError(Errors.E465.format(path=src.path, line=n_line, sent=sent_id, k=j),
                                      src.path, n_line)
        for role in ("scope", "event"):
            inside = chars[role] & chars["cue"]
            if inside and role == "scope":
                cue_text = "".join(text[c] for c in sorted(inside))
                warnings.warn(Warnings.W410.format(path=src.path, line=n_line, sent=sent_id, kind="negation", k=j,
                                                   cue=cue_text), stacklevel=2)
            chars[role] -= inside
        try:
            parts = instance_parts(tokens.spans, ((role, chars[role]) for role in ("cue", "scope", "event")))
        except SplitToken as err:
            raise NegationFormatError(Errors.E467.format(path=src.path, line=n_line, sent=sent_id, kind="negation",
                                                         k=j, role=err.role, token=tokens.words[err.token]),
                                      src.path, n_line) from None
        if not parts["cue"]:
            raise NegationFormatError(Errors.E465.format(path=src.path, line=n_line, sent=sent_id, k=j),
                                      src.path, n_line)
        records.append(parts)
    return SentenceRecord(doc_id=sent_id.split("-")[0], sent_id=sent_id, words=tokens.words, spaces=tokens.spaces,
                          negations=records, line=line)


def _negation_chars(src: _Source, line: int, k: int, j: int, sent_id: str, text: str, neg: Any) -> Dict[str, Set[int]]:
    """The characters of each role of one negation object, checked against the text."""
    field = f"negations[{j}]"
    if not isinstance(neg, dict):
        raise _field_error(src, line, k, field, f"a JSON {type(neg).__name__}, not an object")
    unknown = sorted(set(neg) - set(ROLE_KEYS) - {"Affixal"})
    if unknown:
        raise _field_error(src, line, k, field, f"unknown key(s) {unknown}; the keys are Cue, Scope, Affixal "
                                                "(and Event)")
    if "Cue" not in neg or "Scope" not in neg:
        raise _field_error(src, line, k, field, "a negation has a Cue and a Scope")
    if not isinstance(neg.get("Affixal", False), bool):
        raise _field_error(src, line, k, f"{field}.Affixal", f"{neg['Affixal']!r} is not true or false")
    chars: Dict[str, Set[int]] = {role: set() for role in ROLE_KEYS.values()}
    for key, role in ROLE_KEYS.items():
        if key not in neg:
            continue
        value = neg[key]
        ok = (isinstance(value, list) and len(value) == 2 and all(isinstance(v, list) for v in value)
              and len(value[0]) == len(value[1]) and all(isinstance(v, str) for v in value[0] + value[1]))
        if not ok:
            raise _field_error(src, line, k, f"{field}.{key}", f"{value!r} is not [[texts], [\"start:end\", ...]] "
                                                              "with one text per range")
        for given, offsets in zip(value[0], value[1]):
            match = OFFSET.fullmatch(offsets)
            if match is None:
                raise _field_error(src, line, k, f"{field}.{key}", f"the range {offsets!r} is not \"start:end\"")
            start, end = int(match.group(1)), int(match.group(2))
            if not start < end <= len(text):
                raise NegationFormatError(Errors.E463.format(path=src.path, line=line, sent=sent_id, k=j, role=role,
                                                             range=offsets, n=len(text)), src.path, line)
            if text[start:end] != given:
                raise NegationFormatError(Errors.E464.format(path=src.path, line=line, sent=sent_id, k=j, role=role,
                                                             range=offsets, found=text[start:end], given=given),
                                          src.path, line)
            chars[role].update(range(start, end))
    return chars


def _marked(docs: Iterator[Doc], convention: Optional[str]) -> Iterator[Doc]:
    for doc in docs:
        set_convention(doc, convention)
        yield doc


@formats.register("norec_neg")
def read_norec(path: Union[str, Path], vocab: Optional[Vocab] = None, n_sents: int = 10, on_error: str = "raise",
               convention: Optional[str] = CONVENTION) -> Iterator[Doc]:
    """Read NoReC_neg JSON into docs with gold negations (the ``norec_neg`` format of convert).

    path (Union[str, Path]): a ``negation_*.json`` file or a folder (every ``*.json`` below it).
    vocab (Optional[Vocab]): the vocab; a new Norwegian Bokmål one if None.
    n_sents (int): sentences per doc (docs never cross reviews); 0 = whole reviews.
    on_error (str): 'raise' (default) or 'skip': skip each bad record with warning W402.
    convention (Optional[str]): the docs' convention mark (default ``cdsco``; None: unmarked).
    RETURNS (Iterator[Doc]): the docs, read as they are consumed.
    """
    check_on_error(on_error)
    docs = read_files(path, ".json", partial(parse_norec, on_error=on_error), vocab, n_sents, lang=LANG)
    return _marked(docs, convention)
