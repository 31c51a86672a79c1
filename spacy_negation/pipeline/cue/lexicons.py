"""The three lexicons that ``negation_cue`` learns from its training data and uses when
decoding: affixes (per kind, each affix with its training frequency), multiword cues
(each pattern with how often it was a cue and how often its words occurred in a
training sentence) and cue words (each single-token cue word with how often it was a
cue and how often it occurred). None is written by hand. Each serializes to the plain
JSON value the component keeps in its ``cfg`` (``to_dict``, ``from_dict``)."""
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc

from ...errors import Errors
from ...ml.training_corpus import count_cue_words
from ...negation import Part
from .._util import find_affix

#: The kinds of affixal cue: the cue is the start, the end, or strictly inside a token.
AFFIX_KINDS = ("prefix", "suffix", "infix")

#: The words of a multiword cue: segments of adjacent tokens, lower case.
Pattern = Tuple[Tuple[str, ...], ...]


def choose_affix(text: str, kind: str, lexicon: Dict[str, Dict[str, int]]) -> Optional[Tuple[int, int]]:
    """The character range of the best learned affix of a kind that the token has: the
    most frequent in training, the longer one on a tie; None if none fits.

    text (str): the token text.
    kind (str): 'prefix', 'suffix' or 'infix'.
    lexicon (Dict[str, Dict[str, int]]): per kind, affix -> training frequency.
    RETURNS (Optional[Tuple[int, int]]): the range.
    """
    best: Optional[Tuple[int, int, Tuple[int, int]]] = None
    for affix, count in lexicon.get(kind, {}).items():
        rng = find_affix(text, kind, affix)
        if rng is not None and (best is None or (count, len(affix)) > best[:2]):
            best = (count, len(affix), rng)
    return None if best is None else best[2]


def multiword_pattern(doc: Doc, parts: Sequence[Part]) -> Optional[Pattern]:
    """The words of a cue of two or more whole tokens, lower case, in segments of
    adjacent tokens (*neither … nor*: ``(("neither",), ("nor",))``).

    doc (Doc): the doc.
    parts (Sequence[Part]): the cue parts.
    RETURNS (Optional[Pattern]): the pattern; None for a cue of one token or with a
        partial token.
    """
    if len(parts) < 2 or any(part.is_partial(doc) for part in parts):
        return None
    ids = sorted(part.i for part in parts)
    segments: List[List[str]] = []
    for k, i in enumerate(ids):
        if k == 0 or i != ids[k - 1] + 1:
            segments.append([])
        segments[-1].append(doc[i].lower_)
    return tuple(tuple(segment) for segment in segments)


def find_pattern(words: Sequence[str], pattern: Pattern, start: int, end: int) -> Optional[List[int]]:
    """The first match of a multiword pattern in ``words[start:end]``: the first segment
    at its earliest position, each later segment at its first occurrence after the
    previous one.

    words (Sequence[str]): the lower-case words.
    pattern (Pattern): the pattern.
    start (int): the first position searched.
    end (int): the end of the searched range (exclusive).
    RETURNS (Optional[List[int]]): the positions of the matched words; None if none.
    """

    def at(segment: Tuple[str, ...], i: int) -> bool:
        return i + len(segment) <= end and tuple(words[i : i + len(segment)]) == segment

    first = pattern[0]
    for i in range(start, end):
        if not at(first, i):
            continue
        positions = list(range(i, i + len(first)))
        for segment in pattern[1:]:
            j = next((j for j in range(positions[-1] + 1, end) if at(segment, j)), None)
            if j is None:
                return None  # no later start can match either
            positions.extend(range(j, j + len(segment)))
        return positions
    return None


def find_all(words: Sequence[str], pattern: Pattern, start: int, end: int) -> List[List[int]]:
    """The matches of a pattern in ``words[start:end]`` that share no word, from the left.

    words (Sequence[str]): the lower-case words.
    pattern (Pattern): the pattern.
    start (int): the first position searched.
    end (int): the end of the searched range (exclusive).
    RETURNS (List[List[int]]): the positions of each match's words.
    """
    matches: List[List[int]] = []
    used: Set[int] = set()
    while True:
        match = find_pattern(words, pattern, start, end)
        if match is None:
            return matches
        start = match[0] + 1
        if not used.intersection(match):
            matches.append(match)
            used.update(match)


class AffixLexicon:
    """The affixes of the affixal cues in training, per kind, with their frequencies
    (``{"prefix": {"un": 80, "in": 22}, "suffix": {"less": 23}, "infix": {}}``).

    counts (Dict[str, Dict[str, int]]): per kind, affix (lower case) -> frequency.
    """

    def __init__(self, counts: Dict[str, Dict[str, int]]) -> None:
        self.counts = counts

    @classmethod
    def learn(cls, affixes: Iterable[Tuple[str, str]]) -> "AffixLexicon":
        """Count the affixes of the training cues.

        affixes (Iterable[Tuple[str, str]]): (kind, affix) of each affixal cue part.
        RETURNS (AffixLexicon): the lexicon.
        """
        counts: Dict[str, Dict[str, int]] = {kind: {} for kind in AFFIX_KINDS}
        for kind, affix in affixes:
            counts[kind][affix] = counts[kind].get(affix, 0) + 1
        return cls(counts)

    @classmethod
    def from_dict(cls, data: Dict[str, Dict[str, int]]) -> "AffixLexicon":
        """The lexicon of a ``to_dict`` value (missing kinds are empty).

        data (Dict[str, Dict[str, int]]): per kind, affix -> frequency.
        RETURNS (AffixLexicon): the lexicon.
        """
        for kind in data:
            if kind not in AFFIX_KINDS:
                raise ValueError(Errors.E302.format(kind=kind))
        return cls({kind: dict(data.get(kind, {})) for kind in AFFIX_KINDS})

    def to_dict(self) -> Dict[str, Dict[str, int]]:
        """RETURNS (Dict[str, Dict[str, int]]): per kind, affix -> frequency, sorted."""
        return {kind: dict(sorted(self.counts.get(kind, {}).items())) for kind in AFFIX_KINDS}

    def choose(self, text: str, kind: str) -> Optional[Tuple[int, int]]:
        """The character range of the best fitting affix of a kind (see ``choose_affix``)."""
        return choose_affix(text, kind, self.counts)

    def fitting_kinds(self, text: str) -> Set[str]:
        """The kinds that have a learned affix fitting the token text."""
        return {kind for kind in AFFIX_KINDS if self.choose(text, kind) is not None}


class MultiwordLexicon:
    """The multiword cues of whole tokens in training, as patterns, with how often each
    was a cue and how often its words occurred in that order within a training sentence
    (``[{"words": [["neither"], ["nor"]], "cues": 2, "matches": 2}]``).

    entries (List[Dict[str, Any]]): the entries.
    """

    def __init__(self, entries: List[Dict[str, Any]]) -> None:
        self.entries = entries

    @classmethod
    def learn(cls, cues: Iterable[Pattern], sentences: Sequence[Sequence[str]]) -> "MultiwordLexicon":
        """Count the multiword cues of the training data and their matches.

        cues (Iterable[Pattern]): the pattern of each multiword training cue.
        sentences (Sequence[Sequence[str]]): the lower-case words of each training sentence.
        RETURNS (MultiwordLexicon): the lexicon.
        """
        counts: Dict[Pattern, int] = {}
        for pattern in cues:
            counts[pattern] = counts.get(pattern, 0) + 1
        matches = {
            pattern: sum(len(find_all(words, pattern, 0, len(words))) for words in sentences) for pattern in counts
        }
        return cls([
            {"words": [list(segment) for segment in pattern], "cues": count, "matches": max(matches[pattern], count)}
            for pattern, count in sorted(counts.items())
        ])

    @classmethod
    def from_dict(cls, data: Iterable[Dict[str, Any]]) -> "MultiwordLexicon":
        """The lexicon of a ``to_dict`` value.

        data (Iterable[Dict[str, Any]]): the entries.
        RETURNS (MultiwordLexicon): the lexicon.
        """
        return cls([
            {"words": [list(segment) for segment in entry["words"]], "cues": int(entry["cues"]),
             "matches": int(entry["matches"])}
            for entry in data
        ])

    def to_dict(self) -> List[Dict[str, Any]]:
        """RETURNS (List[Dict[str, Any]]): the entries."""
        return [dict(entry) for entry in self.entries]

    def patterns(self, min_precision: float) -> List[Pattern]:
        """The patterns that were a cue in at least ``min_precision`` of their training
        matches, the longest first.

        min_precision (float): the share, 0 to 1.
        RETURNS (List[Pattern]): the patterns.
        """
        patterns = [
            tuple(tuple(segment) for segment in entry["words"])
            for entry in self.entries
            if entry["cues"] >= min_precision * entry["matches"]
        ]
        return sorted(patterns, key=lambda pattern: (-sum(len(segment) for segment in pattern), pattern))


class WordLexicon:
    """The words (lower case) that are a single-token cue of a whole token in training,
    with how often each is one and how often it occurs (``{"not": [839, 957]}``).

    counts (Dict[str, List[int]]): word -> [cues, occurrences].
    """

    def __init__(self, counts: Dict[str, List[int]]) -> None:
        self.counts = counts

    @classmethod
    def learn(cls, docs: Sequence[Doc]) -> "WordLexicon":
        """Count the cue words of gold docs (see ``count_cue_words``).

        docs (Sequence[Doc]): the docs with their negations.
        RETURNS (WordLexicon): the lexicon.
        """
        return cls(count_cue_words(docs))

    @classmethod
    def from_dict(cls, data: Mapping[str, Sequence[int]]) -> "WordLexicon":
        """The lexicon of a ``to_dict`` value.

        data (Mapping[str, Sequence[int]]): word -> [cues, occurrences].
        RETURNS (WordLexicon): the lexicon.
        """
        return cls({str(word): [int(n) for n in counts] for word, counts in sorted(data.items())})

    def to_dict(self) -> Dict[str, List[int]]:
        """RETURNS (Dict[str, List[int]]): word -> [cues, occurrences]."""
        return {word: list(counts) for word, counts in self.counts.items()}

    def evidence_word(self, word: str, aliases: Mapping[str, str]) -> str:
        """The word whose training counts stand for a word (lower case): its alias
        (``cue_decoder.v2``/``.v3``'s ``word_aliases``, *n't* -> *not*) when it has no entry of its
        own, else itself.

        word (str): the word.
        aliases (Mapping[str, str]): word -> its alias.
        RETURNS (str): the word to look up.
        """
        return aliases[word] if word in aliases and word not in self.counts else word

    def is_cue(self, word: str, min_precision: float) -> bool:
        """Whether a word (lower case) was a cue in at least ``min_precision`` of its
        training occurrences (never for a word not seen as a cue).

        word (str): the word.
        min_precision (float): the share, 0 to 1.
        RETURNS (bool): the answer.
        """
        n_cue, n_seen = self.counts.get(word, (0, 0))
        return n_seen > 0 and n_cue >= min_precision * n_seen
