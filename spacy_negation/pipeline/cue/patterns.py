"""User cue lists: negation triggers, pseudo-negations and terminations given as word
and phrase patterns, in the style of the rule-based clinical negation tools NegEx
(Chapman et al. 2001) and ConText (Harkema et al. 2009).

A pattern entry is a JSON object: ``{"pattern": "denies", "kind": "preceding"}``. The
``pattern`` is a phrase (tokenized with the pipeline's tokenizer and matched on lower
case words, or on exact words with ``"attr": "ORTH"``) or a list of spaCy ``Matcher``
token patterns (``[{"LOWER": "ruled"}, {"LOWER": "out"}]``) on the attributes a doc
has without any other component (text, lower case, norm, shape, affixes, length, the
lexical flags). A phrase matches its words literally: one that looks like a regular
expression (``deni(es|ed)``, ``no.*``, ``not?``) is refused, since it would never match;
write a token pattern with ``REGEX`` instead (``[{"LOWER": {"REGEX": "^deni(es|ed)$"}}]``).
A token pattern must constrain what it matches: at least one of its tokens must be
required (no ``OP``, or ``+``, ``1``, ``{n}`` with n >= 1) and given by an attribute that
can fail (``{}`` matches any token, so ``[{}]`` would make every token a cue; ``[{"OP":
"*"}]`` matches no token at all; ``{"REGEX": ".*"}`` matches every token). Optional keys: ``id`` (a name of the entry) and ``source`` (where it
comes from). The kinds:

- ``preceding``: a trigger that negates what follows it (*denies* chest pain),
- ``following``: a trigger that negates what precedes it (pneumonia *was ruled out*),
- ``bidirectional``: a trigger that may negate either side (*absent*),
- ``pseudo``: a phrase that contains a trigger but does not negate (*no increase*,
  *not only*, *gram negative*): it is not a cue, and no model cue or trigger inside it
  is one,
- ``termination``: a word or phrase where a scope stops (*but*, *however*).

How they act: ``negation_cue`` finds the pattern matches of each sentence (the longest
match wins where matches overlap; on equal spans the earlier entry), drops the model's
cues that have a part on a token of a trigger or pseudo match, and adds each trigger
match as a cue. ``negation_scope`` then resolves the scopes of all cues alike: a trigger
cue goes to the scope model exactly like a predicted cue. Afterwards the scope (and
event) of a trigger cue is kept on its side only (after a ``preceding`` trigger, before
a ``following`` one), and the scope of every cue, predicted or given, stops at the
nearest termination on either side of the cue, as in ConText. The matches are stored in
``doc.spans["negation_patterns"]`` (one span per match, labelled with its kind in upper
case), which is how ``negation_scope`` knows them.

A setting (``cue_patterns`` of ``negation_cue`` and of ``negation``) is None, the name
of a list shipped with the package (``"en_clinical"``), the path of a JSONL file (one
entry per line), or a list whose items are entries, names or paths. An entry of a later
item replaces an earlier entry with the same pattern (to change one entry of a shipped
list); within one item a pattern may appear only once with one kind.
"""
import re
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

import srsly
from spacy.matcher import Matcher
from spacy.tokens import Doc, Span, SpanGroup
from spacy.vocab import Vocab

from ...errors import Errors, NegationFormatError, Warnings
from ...negation import Negation, Part
from ...util import read_utf8
from .._util import sentence_ranges

#: The span group that holds the pattern matches of a doc.
PATTERNS_KEY = "negation_patterns"
#: The kinds of cue pattern entries.
TRIGGER_KINDS = ("preceding", "following", "bidirectional")
KINDS = TRIGGER_KINDS + ("pseudo", "termination")
#: The token attributes a pattern may use: those of a doc without other components.
TOKEN_ATTRS = (
    "ORTH", "TEXT", "LOWER", "NORM", "SHAPE", "PREFIX", "SUFFIX", "LENGTH", "OP",
    "IS_ALPHA", "IS_ASCII", "IS_DIGIT", "IS_LOWER", "IS_UPPER", "IS_TITLE", "IS_PUNCT",
    "IS_SPACE", "IS_STOP", "IS_BRACKET", "IS_QUOTE", "IS_LEFT_PUNCT", "IS_RIGHT_PUNCT",
    "IS_CURRENCY", "LIKE_NUM", "LIKE_URL", "LIKE_EMAIL", "SPACY",
)
PHRASE_ATTRS = ("LOWER", "ORTH")
ENTRY_KEYS = ("pattern", "kind", "attr", "id", "source")
#: The folder of the shipped lists (``NAME.jsonl``).
LISTS_DIR = Path(__file__).resolve().parents[2] / "patterns"

Setting = Union[None, str, Sequence[Union[str, Dict[str, Any]]]]
MakeDoc = Callable[[str], Doc]


def shipped_lists() -> List[str]:
    """The names of the cue lists shipped with the package.

    RETURNS (List[str]): the names (``en_clinical``, ...).
    """
    return sorted(path.stem for path in LISTS_DIR.glob("*.jsonl"))


def load_cue_patterns(setting: Setting, make_doc: MakeDoc) -> List[Dict[str, Any]]:
    """Read and validate a ``cue_patterns`` setting into normalized entries.

    setting (Setting): None, a shipped list's name, a JSONL file path, or a list of
        entries, names and paths.
    make_doc (Callable[[str], Doc]): the tokenizer that splits phrase patterns into
        words (the pipeline's ``make_doc``).
    RETURNS (List[Dict[str, Any]]): the entries, each with its ``kind``, the
        ``tokens`` the Matcher uses and the given ``pattern`` (plus ``attr``, ``id``,
        ``source`` where given), in setting order.
    RAISES (ValueError): a coded error naming the file and line (or list item).
    """
    if setting is None:
        return []
    items: Sequence[Union[str, Dict[str, Any]]] = [setting] if isinstance(setting, str) else setting
    if not isinstance(items, (list, tuple)):
        raise ValueError(Errors.E350.format(type=type(setting).__name__))
    merged: Dict[str, Dict[str, Any]] = {}
    for n, item in enumerate(items):
        if isinstance(item, str):
            entries = read_cue_patterns(resolve_list(item), make_doc)
        elif isinstance(item, dict):
            entries = [normalize_entry(item, f"cue_patterns[{n}]", make_doc)]
        else:
            raise ValueError(Errors.E350.format(type=type(item).__name__))
        for entry in entries:
            key = _entry_key(entry)
            merged.pop(key, None)  # a later item's entry replaces an earlier one
            merged[key] = entry
    return list(merged.values())


def resolve_list(name_or_path: str) -> Path:
    """The file of a shipped list's name or of a path.

    name_or_path (str): ``en_clinical`` or a path to a JSONL file.
    RETURNS (Path): the file.
    RAISES (ValueError): E351 if it is neither.
    """
    if name_or_path in shipped_lists():
        return LISTS_DIR / f"{name_or_path}.jsonl"
    path = Path(name_or_path)
    if path.is_file():
        if not path.is_absolute():
            warnings.warn(Warnings.W302.format(path=name_or_path))
        return path
    raise ValueError(Errors.E351.format(value=name_or_path, names=", ".join(shipped_lists())))


def read_cue_patterns(path: Union[str, Path], make_doc: MakeDoc) -> List[Dict[str, Any]]:
    """Read and validate a JSONL file of cue pattern entries (one JSON object per
    line; blank lines are skipped).

    path (Union[str, Path]): the file.
    make_doc (Callable[[str], Doc]): the tokenizer of phrase patterns.
    RETURNS (List[Dict[str, Any]]): the normalized entries, in file order.
    RAISES (NegationFormatError): a coded error naming the file and line.
    """
    text = read_utf8(path)
    entries: List[Dict[str, Any]] = []
    seen: Dict[str, Tuple[int, str]] = {}
    for line_no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{line_no}"
        try:
            obj = srsly.json_loads(line)
        except ValueError as err:
            raise NegationFormatError(Errors.E352.format(where=where, reason=err), path, line_no) from err
        try:
            entry = normalize_entry(obj, where, make_doc)
        except ValueError as err:
            raise NegationFormatError(str(err), path, line_no) from err
        key = _entry_key(entry)
        if key in seen:
            first_line, first_kind = seen[key]
            if first_kind != entry["kind"]:
                raise NegationFormatError(Errors.E357.format(
                    where=where, first=first_line, kind=entry["kind"], first_kind=first_kind), path, line_no)
            warnings.warn(Warnings.W303.format(where=where, first=first_line))
            continue
        seen[key] = (line_no, entry["kind"])
        entries.append(entry)
    if not entries:
        raise NegationFormatError(Errors.E358.format(path=path), path)
    return entries


def normalize_entry(obj: Any, where: str, make_doc: MakeDoc) -> Dict[str, Any]:
    """Validate one entry and add the Matcher's token patterns.

    obj (Any): the entry as read.
    where (str): where it comes from (``file:line`` or ``cue_patterns[n]``).
    make_doc (Callable[[str], Doc]): the tokenizer of phrase patterns.
    RETURNS (Dict[str, Any]): the entry with ``tokens``.
    RAISES (ValueError): E353-E356 with ``where``.
    """
    if not isinstance(obj, dict):
        raise ValueError(Errors.E353.format(where=where, reason=f"expected a JSON object, got {obj!r}"))
    unknown = sorted(set(obj) - set(ENTRY_KEYS))
    if unknown:
        raise ValueError(Errors.E353.format(where=where, reason=f"unknown key(s) {unknown}; "
                                            f"allowed: {', '.join(ENTRY_KEYS)}"))
    for key in ("pattern", "kind"):
        if key not in obj:
            raise ValueError(Errors.E353.format(where=where, reason=f"the key {key!r} is missing"))
    kind = obj["kind"]
    if kind not in KINDS:
        raise ValueError(Errors.E354.format(where=where, kind=kind, kinds=", ".join(KINDS)))
    for key in ("id", "source"):
        if key in obj and not isinstance(obj[key], str):
            raise ValueError(Errors.E353.format(where=where, reason=f"{key!r} must be a string"))
    pattern = obj["pattern"]
    if isinstance(pattern, str):
        attr = obj.get("attr", "LOWER")
        if attr not in PHRASE_ATTRS:
            raise ValueError(Errors.E353.format(where=where, reason=f"'attr' must be one of "
                                                f"{', '.join(PHRASE_ATTRS)}, got {attr!r}"))
        looks = _regex_looking(pattern)
        if looks is not None:
            raise ValueError(Errors.E962.format(where=where, pattern=pattern, what=looks))
        words = [t.text for t in make_doc(pattern) if not t.is_space]
        if not words:
            raise ValueError(Errors.E355.format(where=where, pattern=pattern, reason="it has no words"))
        tokens = [{attr: word.lower() if attr == "LOWER" else word} for word in words]
    elif isinstance(pattern, list) and pattern and all(isinstance(t, dict) for t in pattern):
        if "attr" in obj:
            raise ValueError(Errors.E353.format(where=where, reason="'attr' applies to phrase "
                                                "patterns only; a token pattern names its attributes"))
        for token in pattern:
            bad = sorted(str(a) for a in token if str(a).upper() not in TOKEN_ATTRS)
            if bad:
                raise ValueError(Errors.E356.format(where=where, attrs=bad, allowed=", ".join(TOKEN_ATTRS)))
        tokens = [dict(token) for token in pattern]
    else:
        raise ValueError(Errors.E355.format(where=where, pattern=pattern,
                                            reason="expected a phrase or a non-empty list of token patterns"))
    try:
        Matcher(make_doc("").vocab, validate=True).add("negation_cue_pattern_check", [tokens])
    except ValueError as err:
        raise ValueError(Errors.E355.format(where=where, pattern=pattern, reason=err)) from err
    if not isinstance(pattern, str):  # checked after the Matcher's own validation
        for token in tokens:
            regex = _empty_matching_regex(token)
            if regex is not None:
                raise ValueError(Errors.E963.format(where=where, pattern=pattern, regex=regex))
        if not any(_required(token) and _constrains(token) for token in tokens):
            raise ValueError(Errors.E964.format(where=where, pattern=pattern))
    entry: Dict[str, Any] = {key: obj[key] for key in ENTRY_KEYS if key in obj}
    entry["tokens"] = tokens
    return entry


#: What makes a phrase look like a regular expression: a backslash escape, alternation,
#: a group or character class, a quantifier after a character, or an anchor.
_REGEX_SIGNS = (
    (re.compile(r"\\[A-Za-z.()\[\]{}|?*+^$\\]"), "a backslash escape"),
    (re.compile(r"\|"), "an alternation '|'"),
    (re.compile(r"\(.*\)|\[.*\]"), "a group '(...)' or character class '[...]'"),
    (re.compile(r"[A-Za-z.)\]][*+?]|\{\d+(,\d*)?\}"), "a quantifier ('*', '+', '?' or '{n}' "
                                                        "after a letter, '.' or a group)"),
    (re.compile(r"^\^|\$$"), "an anchor '^' or '$'"),
)
#: Operators that require at least one token.
_REQUIRED_OPS = ("1", "+")


def _regex_looking(phrase: str) -> Optional[str]:
    """What makes a phrase look like a regular expression, or None."""
    for sign, what in _REGEX_SIGNS:
        if sign.search(phrase):
            return what
    return None


def _required(token: Dict[str, Any]) -> bool:
    """Whether a token pattern must match at least one token (by its operator)."""
    op = token.get("OP")
    if op is None or op in _REQUIRED_OPS:
        return True
    match = re.fullmatch(r"\{(\d+)(,\d*)?\}", str(op))
    return match is not None and int(match.group(1)) >= 1


def _constrains(token: Dict[str, Any]) -> bool:
    """Whether a token pattern says something about the token (an attribute besides
    ``OP``)."""
    return any(str(key).upper() != "OP" for key in token)


def _empty_matching_regex(token: Dict[str, Any]) -> Optional[str]:
    """A ``REGEX`` of the token pattern that matches every token (it matches the empty
    string, and spaCy searches it in the attribute), or None."""
    for value in token.values():
        if isinstance(value, dict):
            for key, regex in value.items():
                if str(key).upper() == "REGEX" and isinstance(regex, str):
                    try:
                        if re.search(regex, "") is not None:
                            return regex
                    except re.error:
                        return None  # the Matcher's validation names it
    return None


def _entry_key(entry: Dict[str, Any]) -> str:
    return srsly.json_dumps(entry["tokens"], sort_keys=True)


@dataclass(frozen=True)
class PatternMatch:
    """A match of a cue pattern entry: tokens ``start`` to ``end`` (exclusive)."""

    start: int
    end: int
    kind: str
    entry: int


class CuePatterns:
    """Matches a list of cue pattern entries on docs and applies them to cues.

    vocab (Vocab): the pipeline's vocab.
    entries (List[Dict[str, Any]]): normalized entries (``load_cue_patterns``).
    """

    def __init__(self, vocab: Vocab, entries: List[Dict[str, Any]]) -> None:
        self.entries = entries
        self.matcher = Matcher(vocab)
        for k, entry in enumerate(entries):
            self.matcher.add(f"negation_cue_pattern_{k}", [entry["tokens"]], greedy="LONGEST")

    def __len__(self) -> int:
        return len(self.entries)

    def find(self, doc: Doc) -> List[PatternMatch]:
        """The matches of a doc that lie within one sentence and share no token with a
        longer match (on equal length, the one that starts first; on equal spans, the
        earlier entry), in token order.

        doc (Doc): the doc.
        RETURNS (List[PatternMatch]): the matches.
        """
        if not len(doc) or not self.entries:
            return []
        _, of_token = sentence_ranges(doc)
        found: List[PatternMatch] = []
        for match_id, start, end in self.matcher(doc):
            if end <= start or of_token[start] != of_token[end - 1]:
                continue
            k = int(doc.vocab.strings[match_id].rsplit("_", 1)[1])
            found.append(PatternMatch(start, end, self.entries[k]["kind"], k))
        found.sort(key=lambda m: (-(m.end - m.start), m.start, m.entry))
        taken = [False] * len(doc)
        kept: List[PatternMatch] = []
        for match in found:
            if not any(taken[match.start : match.end]):
                kept.append(match)
                taken[match.start : match.end] = [True] * (match.end - match.start)
        return sorted(kept, key=lambda m: m.start)

    def apply(self, doc: Doc, cues: List[List[Part]]) -> List[List[Part]]:
        """The doc's cues with the patterns applied: the cues with a part on a token of
        a trigger or pseudo match dropped, each trigger match added as a cue; the
        matches are written to ``doc.spans["negation_patterns"]``.

        doc (Doc): the doc.
        cues (List[List[Part]]): the model's cues (parts per cue).
        RETURNS (List[List[Part]]): the cues, by first token.
        """
        matches = self.find(doc)
        doc.spans[PATTERNS_KEY] = SpanGroup(doc, name=PATTERNS_KEY, spans=[
            Span(doc, m.start, m.end, label=m.kind.upper(), span_id=self.entries[m.entry].get("id", ""))
            for m in matches
        ])
        covered: Set[int] = set()
        added: List[List[Part]] = []
        for m in matches:
            if m.kind == "termination":
                continue
            covered.update(range(m.start, m.end))
            if m.kind in TRIGGER_KINDS:
                added.append([Part.whole(doc[i]) for i in range(m.start, m.end)])
        kept = [cue for cue in cues if not any(part.i in covered for part in cue)]
        return sorted(kept + added, key=lambda cue: min(part.i for part in cue))

    def to_list(self) -> List[Dict[str, Any]]:
        """The entries, for serialization."""
        return [dict(entry) for entry in self.entries]


def constrain_scopes(doc: Doc, negations: List[Negation]) -> List[Negation]:
    """The negations with their scopes (and events) kept on the side of their trigger
    cue (after a ``preceding``, before a ``following`` one) and cut at the nearest
    termination on either side of every cue, after the pattern matches in
    ``doc.spans["negation_patterns"]`` (unchanged without them).

    doc (Doc): the doc.
    negations (List[Negation]): the negations with their decoded scopes.
    RETURNS (List[Negation]): the negations, same order.
    """
    group = doc.spans.get(PATTERNS_KEY)
    if group is None or not len(group):
        return negations
    kinds = {(span.start, span.end): span.label_.lower() for span in group}
    terminations = [(span.start, span.end) for span in group if span.label_ == "TERMINATION"]
    ranges, of_token = sentence_ranges(doc)
    out: List[Negation] = []
    for neg in negations:
        ids = sorted({part.i for part in neg.cue})
        first, last = ids[0], ids[-1]
        lo, hi = ranges[int(of_token[first])]
        kind = kinds.get((first, last + 1)) if ids == list(range(first, last + 1)) else None
        if kind == "preceding":
            lo = last + 1
        elif kind == "following":
            hi = first
        for start, end in terminations:
            if end <= first:
                lo = max(lo, end)
            elif start > last:
                hi = min(hi, start)

        def keep(part: Part) -> bool:
            return lo <= part.i < hi or first <= part.i <= last

        scope = [part for part in neg.scope if keep(part)]
        event = [part for part in neg.event if keep(part)]
        if len(scope) != len(neg.scope) or len(event) != len(neg.event):
            neg = Negation(doc, neg.cue, scope, event, id=neg.id)
        out.append(neg)
    return out


def copy_pattern_matches(source: Doc, target: Doc) -> None:
    """Copy the pattern matches of a doc onto a doc with the same tokens (none on the
    source: none on the target).

    source (Doc): the doc with matches in ``doc.spans["negation_patterns"]``.
    target (Doc): the doc to write them to.
    """
    merge_pattern_matches([(source, 0)], target)


def merge_pattern_matches(pieces: Sequence[Tuple[Doc, int]], target: Doc) -> None:
    """Write the pattern matches of docs that are pieces of a doc onto it (none on any
    piece: none on the target).

    pieces (Sequence[Tuple[Doc, int]]): each doc, and the index of its first token in
        the target.
    target (Doc): the doc to write them to.
    """
    groups = [(source.spans[PATTERNS_KEY], offset) for source, offset in pieces if PATTERNS_KEY in source.spans]
    if not groups:
        if PATTERNS_KEY in target.spans:
            del target.spans[PATTERNS_KEY]
        return
    target.spans[PATTERNS_KEY] = SpanGroup(target, name=PATTERNS_KEY, spans=[
        Span(target, span.start + offset, span.end + offset, label=span.label_, span_id=span.id_)
        for group, offset in groups for span in group
    ])


def cue_patterns_from_entries(vocab: Vocab, entries: Optional[Iterable[Dict[str, Any]]]) -> Optional[CuePatterns]:
    """A matcher of entries (None without entries).

    vocab (Vocab): the pipeline's vocab.
    entries (Optional[Iterable[Dict[str, Any]]]): normalized entries.
    RETURNS (Optional[CuePatterns]): the matcher.
    """
    entries = list(entries or [])
    return CuePatterns(vocab, entries) if entries else None
