"""User cue lists applied: the matches of the cue pattern entries on docs
(:class:`CuePatterns`), and what they do to the cues and scopes. The entries, the
shipped lists and their reading are :mod:`.pattern_lists` (NegEx, Chapman et al.
2001; ConText, Harkema et al. 2009).

How they act: ``negation_cue`` finds the pattern matches of each sentence (the longest
match wins where matches overlap; on equal spans the earlier entry), drops the model's
cues that have a part on a token of a trigger or pseudo match, and adds each trigger
match as a cue. ``negation_scope`` then resolves the scopes of all cues alike: a trigger
cue goes to the scope model exactly like a predicted cue. Afterwards the scope (and
event) of a trigger cue is kept on its side only (after a ``preceding`` trigger, before
a ``following`` one), and the scope of every cue, predicted or given, stops at the
nearest termination on either side of the cue, as in ConText. A ``following`` or
``bidirectional`` trigger that the scope model gave no scope (its convention has no
subjects in scopes) takes ConText's: its clause before it, and for a bidirectional one
also after it (:func:`context_scope`). The matches are stored in
``doc.spans["negation_patterns"]`` (one span per match, labelled with its kind in upper
case), which is how ``negation_scope`` knows them.
"""
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from spacy.matcher import Matcher
from spacy.tokens import Doc, Span, SpanGroup
from spacy.vocab import Vocab

from ...negation import Negation, Part
from ...sentences import sentence_ranges
from ..host_docs import Placement, placed_span
from .pattern_lists import TRIGGER_KINDS

#: The span group that holds the pattern matches of a doc.
PATTERNS_KEY = "negation_patterns"


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
        if kind in ("following", "bidirectional") and not any(part.i not in ids for part in scope):
            scope = context_scope(doc, first, last, lo, hi, backward_only=kind == "following")
        if scope != list(neg.scope) or len(event) != len(neg.event):
            neg = Negation(doc, neg.cue, scope, event, id=neg.id)
        out.append(neg)
    return out


#: Tokens that end a clause for the scope ConText gives a trigger (``context_scope``); the
#: sentence ends count for text given without sentence boundaries.
CLAUSE_PUNCT = frozenset({",", ";", ".", "!", "?"})


def context_scope(doc: Doc, first: int, last: int, lo: int, hi: int, backward_only: bool) -> List[Part]:
    """ConText's scope of a trigger cue (tokens ``first`` to ``last``), for a trigger the
    scope model gave no scope on its side: the words from the trigger back to the nearest
    clause boundary (the sentence start, a termination, a comma, a semicolon or a
    sentence-final mark), and for a bidirectional trigger also forward to the next one
    (Harkema et al. 2009). Models of conventions that leave subjects out of scopes
    (BioScope, SFU Review) give none before *was ruled out* or *negative*, yet clinical
    use reads "Blood cultures were negative" as the cultures negated.

    doc (Doc): the doc.
    first (int): the trigger's first token.
    last (int): the trigger's last token.
    lo (int): the first token the scope may take (sentence start or after a termination).
    hi (int): the token after the last one the scope may take.
    backward_only (bool): only the words before the trigger (a ``following`` trigger).
    RETURNS (List[Part]): the scope, whole tokens without punctuation, in order.
    """
    start = lo
    for i in range(first - 1, lo - 1, -1):
        if doc[i].text in CLAUSE_PUNCT:
            start = i + 1
            break
    indices = list(range(start, first))
    if not backward_only:
        end = next((i for i in range(last + 1, hi) if doc[i].text in CLAUSE_PUNCT), hi)
        indices += list(range(last + 1, end))
    return [Part.whole(doc[i]) for i in indices if not doc[i].is_punct]


def copy_pattern_matches(source: Doc, target: Doc) -> None:
    """Copy the pattern matches of a doc onto a doc with the same tokens (none on the
    source: none on the target).

    source (Doc): the doc with matches in ``doc.spans["negation_patterns"]``.
    target (Doc): the doc to write them to.
    """
    merge_pattern_matches([(source, 0)], target)


def merge_pattern_matches(pieces: Sequence[Tuple[Doc, Placement]], target: Doc) -> None:
    """Write the pattern matches of docs that are pieces of a doc onto it (none on any
    piece: none on the target).

    pieces (Sequence[Tuple[Doc, Placement]]): each doc, and where its tokens lie in the
        target (the index of its first token, or a token map: ``host_docs.TokenMap``).
    target (Doc): the doc to write them to.
    """
    groups = [(source.spans[PATTERNS_KEY], where) for source, where in pieces if PATTERNS_KEY in source.spans]
    if not groups:
        if PATTERNS_KEY in target.spans:
            del target.spans[PATTERNS_KEY]
        return
    target.spans[PATTERNS_KEY] = SpanGroup(target, name=PATTERNS_KEY, spans=[
        Span(target, *placed_span(where, span.start, span.end), label=span.label_, span_id=span.id_)
        for group, where in groups for span in group
    ])


def cue_patterns_from_entries(vocab: Vocab, entries: Optional[Iterable[Dict[str, Any]]]) -> Optional[CuePatterns]:
    """A matcher of entries (None without entries).

    vocab (Vocab): the pipeline's vocab.
    entries (Optional[Iterable[Dict[str, Any]]]): normalized entries.
    RETURNS (Optional[CuePatterns]): the matcher.
    """
    entries = list(entries or [])
    return CuePatterns(vocab, entries) if entries else None
