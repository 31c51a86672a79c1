"""The sentence prefilter of ``negation_cue`` (its ``prefilter`` setting): the cue
component finds cues only in sentences that contain a *candidate*, and the ``negation``
component sends only those sentences to the negation pipeline, so that text without any
negation costs a lexicon look-up per token instead of a network pass.

A token is a candidate when its lower-case text is

- a word the component saw as a single-token cue in at least ``MIN_SHARE`` of its
  training occurrences (its word lexicon: *not*, *no*, *without*, *absence* …);
- a content word of a learned multiword cue that the decoder joins (*neither*, *nor*,
  *means* of *by no means*);
- a word with a learned negation affix, when the component learned affixal cues
  (ConanDoyle-neg: *un*happy, care*less*; BioScope and SFU Review annotate none);
- a word the decoder looks up as one of those when it never was a cue itself
  (``cue_decoder.v2``/``.v3``'s ``word_aliases``: *n't* as *not*);
- for a component that finds speculation cues too (and while it does:
  ``active_kinds``), a word that was a single-token speculation cue in at least
  ``MIN_SHARE`` of its training occurrences (*may*, *suggest*), or a word covering a
  learned multiword speculation cue (*either* of *either … or*);

or when it lies in a match of the component's user cue list (``cue_patterns``). A token's
text is read without the characters a reader does not see (format characters such as the
zero-width space, ANSI escapes: :mod:`..visible`), so ``not\u200b`` is a candidate.

With a ``prefilter_window`` of ``[before, after]``, a sentence that passes is cut to the
tokens from ``before`` tokens before its first candidate to ``after`` tokens after its
last one, so that the network reads less of a long sentence; a negation's scope then
cannot reach beyond the window.

Cue words that never occurred in training are then never found, which is the price of
the speed: the fast English model documents it among its failure modes.
"""
from typing import TYPE_CHECKING, AbstractSet, Any, Dict, FrozenSet, Iterable, List, Optional, Sequence, Set, Tuple

import numpy
from spacy.attrs import LOWER
from spacy.tokens import Doc
from spacy.util import get_lang_class
from spacy.vocab import Vocab

from ...errors import Errors
from ...ml.lexicon_features import lexicon_cues
from ...sentences import sentence_ranges
from .patterns import CuePatterns
from .lexicons import AffixLexicon, MultiwordLexicon
from ...visible import visible

if TYPE_CHECKING:
    from .component import NegationCue

__all__ = ["MIN_SHARE", "CuePrefilter", "check_window", "covering_words", "only_in", "speculation_candidates",
           "stop_words"]

#: The share of its training occurrences in which a word must have been a cue to be a
#: candidate: it keeps *not*, *no*, *without*, and leaves out *can*, *or*, *would*, which
#: were cues only as pieces of contractions and multiword cues.
MIN_SHARE = 0.05

Range = Tuple[int, int]


def check_window(window: Optional[Sequence[int]]) -> Optional[Tuple[int, int]]:
    """A ``prefilter_window`` setting as a pair, checked (E367 unless None or two whole
    numbers of at least 0).

    window (Optional[Sequence[int]]): None, or the tokens to keep before the first and
        after the last candidate of a sentence.
    RETURNS (Optional[Tuple[int, int]]): the pair, or None.
    """
    if window is None:
        return None
    values = list(window) if isinstance(window, (list, tuple)) else []
    if len(values) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in values):
        raise ValueError(Errors.E367.format(key="prefilter_window", value=repr(window),
                                            bounds="None or [before, after], two whole numbers of at least 0"))
    return values[0], values[1]


class CuePrefilter:
    """Which sentences of a doc contain a candidate cue (see the module docstring).

    words (Iterable[str]): the candidate words, lower case.
    affixes (Optional[AffixLexicon]): the learned affixes (None: no affixal candidates).
    patterns (Optional[CuePatterns]): the user cue list (None: none).
    window (Optional[Sequence[int]]): [before, after]: cut each sentence to the tokens
        from ``before`` tokens before its first candidate to ``after`` after its last
        (None: whole sentences).
    """

    def __init__(self, words: Iterable[str], affixes: Optional[AffixLexicon] = None,
                 patterns: Optional[CuePatterns] = None, window: Optional[Sequence[int]] = None) -> None:
        self.words: FrozenSet[str] = frozenset(words)
        self.window = check_window(window)
        self.affixes = affixes if affixes is not None and any(affixes.counts.values()) else None
        self.patterns = patterns if patterns is not None and len(patterns) else None
        #: lower-case text hash -> whether a candidate (a hash is the same in every vocab)
        self._by_hash: Dict[int, bool] = {}

    @classmethod
    def of_component(cls, cue: "NegationCue", stop_words: Iterable[str]) -> "CuePrefilter":
        """The prefilter of a trained cue component.

        cue (NegationCue): the component (its lexicons, decoder settings and cue list).
        stop_words (Iterable[str]): the language's stop words (not candidates as words
            of a multiword cue).
        RETURNS (CuePrefilter): the prefilter.
        """
        words = {w for w, (n_cue, n_seen) in (cue.words or {}).items() if n_cue > 0 and n_cue >= MIN_SHARE * n_seen}
        decoder = cue.decoder
        # a word the decoder looks up as another (cue_decoder.v2/v3: n't as not) is a candidate as that one is
        lexicon = cue.lexicons.words
        aliases = getattr(decoder, "word_aliases", {})
        if lexicon is not None:
            words |= {alias for alias in aliases if lexicon.evidence_word(alias, aliases) in words}
        if decoder.multiword_cues:
            patterns = cue.lexicons.multiword.patterns(decoder.multiword_min_precision)
            words |= covering_words([[w for segment in pattern for w in segment] for pattern in patterns],
                                    words, set(stop_words))
        # the cues of the model's lexicon feature (CueTagger.v2) are found without training evidence:
        # its one-word cues, and a word of each of its cues of several words
        words |= cue.lexicons.flagged
        words |= covering_words([c for c in lexicon_cues(cue.model) if len(c) > 1], words, set(stop_words))
        speculation = cue.speculation_lexicon
        if speculation is not None and cue.resolves_speculation:
            words |= speculation_candidates(speculation, words, stop_words)
        return cls(words, cue.lexicons.affixes, cue._cue_patterns, cue.prefilter_window)

    def is_candidate(self, lower: str) -> bool:
        """Whether a token text (lower case) is a candidate word or has a learned affix.

        lower (str): the token text, lower case (read without its format characters
            and ANSI escapes, :func:`..visible.visible`: ``not\u200b`` is *not*).
        RETURNS (bool): the answer.
        """
        if lower in self.words:
            return True
        lower = visible(lower)
        if lower in self.words:
            return True
        return self.affixes is not None and bool(self.affixes.fitting_kinds(lower))

    def sentences(self, doc: Doc) -> List[Range]:
        """The token ranges of the doc's sentences that contain a candidate (the whole
        doc is one sentence without sentence boundaries), each cut to the window around
        its candidates when the prefilter has one.

        doc (Doc): a doc in the vocab of the cue component.
        RETURNS (List[Tuple[int, int]]): the ranges, in order.
        """
        ranges, of_token = sentence_ranges(doc)
        marked = numpy.asarray(self._candidates(doc), dtype=bool)
        if self.patterns is not None:
            # a match counts in the sentence it starts in
            for match in self.patterns.find(doc):
                end = ranges[int(of_token[match.start])][1]
                marked[match.start:min(match.end, end)] = True
        if self.window is None:
            return [(start, end) for start, end in ranges if marked[start:end].any()]
        before, after = self.window
        kept: List[Range] = []
        for start, end in ranges:
            found = numpy.flatnonzero(marked[start:end])
            if len(found):
                kept.append((max(start, start + int(found[0]) - before), min(end, start + int(found[-1]) + 1 + after)))
        return kept

    def _candidates(self, doc: Doc) -> List[bool]:
        """Per token of the doc, whether it is a candidate (:meth:`is_candidate`), read
        from the doc's lower-case hashes without making Token objects."""
        cache = self._by_hash
        strings = doc.vocab.strings
        flags: List[bool] = []
        for key in doc.to_array(LOWER).tolist():
            found = cache.get(key)
            if found is None:
                found = self.is_candidate(strings[key])
                if len(cache) > 100_000:
                    cache.clear()
                cache[key] = found
            flags.append(found)
        return flags


def speculation_candidates(lexicon: Dict[str, Any], candidates: AbstractSet[str],
                           stop_words: Iterable[str]) -> Set[str]:
    """The candidate words of a speculation lexicon: the words that were a single-token
    speculation cue in at least :data:`MIN_SHARE` of their training occurrences, and
    words covering every learned multiword speculation cue (the tagger joins them; the
    decoder applies no precision to them).

    lexicon (Dict[str, Any]): {"words": {word: [cues, occurrences]}, "multiword": [...]}.
    candidates (AbstractSet[str]): the candidate words so far.
    stop_words (Iterable[str]): the language's stop words.
    RETURNS (Set[str]): the words to add.
    """
    words = {w for w, (n_cue, n_seen) in (lexicon.get("words") or {}).items()
             if n_cue > 0 and n_cue >= MIN_SHARE * n_seen}
    patterns = MultiwordLexicon.from_dict(lexicon.get("multiword") or []).patterns(0.0)
    words |= covering_words([[w for segment in pattern for w in segment] for pattern in patterns],
                            candidates | words, set(stop_words))
    return words


def covering_words(patterns: Sequence[Sequence[str]], candidates: AbstractSet[str],
                   stop: AbstractSet[str]) -> Set[str]:
    """Words that make every multiword cue pattern's sentences candidates: a sentence that
    holds a pattern holds each of its words, so one word per pattern is enough. Chosen
    greedily: a pattern with a word that is a candidate already needs none; otherwise the
    word covering the most patterns is taken, preferring content words (alphabetic, not
    stop words) to other words that are not stop words (a garbled contraction such as
    *n?t*), those to stop words and stop words to punctuation, so that *do n't*, *is n't*
    and *was n't* add *n't*, not *do*, *is* and *was*, and *does n?t* adds *n?t*, not the
    frequent *does* (ties: the longer word, then the alphabetically first).

    patterns (Sequence[Sequence[str]]): each pattern's words, lower case.
    candidates (AbstractSet[str]): the candidate words so far.
    stop (AbstractSet[str]): the language's stop words.
    RETURNS (Set[str]): the words to add.
    """
    def tier(word: str) -> int:
        if not any(c.isalnum() for c in word):
            return 3
        if word in stop:
            return 2
        return 0 if word.isalpha() else 1

    todo = [set(p) for p in patterns if p and not any(w in candidates for w in p)]
    uncovered = list(todo)
    added: Set[str] = set()
    while uncovered:
        pool = {w for p in uncovered for w in p}
        best = min(pool, key=lambda w: (tier(w), -sum(w in p for p in uncovered), -len(w), w))
        added.add(best)
        uncovered = [p for p in uncovered if best not in p]
    # a word taken early may have become redundant (*meet* of *do n't meet* once *n't* is in)
    for word in sorted(added, key=lambda w: (-tier(w), sum(w in p for p in todo), w)):
        rest = added - {word}
        if all(rest & p for p in todo if word in p):
            added = rest
    return added


def only_in(ids: numpy.ndarray, ranges: Sequence[Range], outside: int) -> numpy.ndarray:
    """Label ids with every token outside the ranges set to the label id ``outside``.

    ids (numpy.ndarray): the label id of each token.
    ranges (Sequence[Tuple[int, int]]): the token ranges to keep.
    outside (int): the id of the label 'O'.
    RETURNS (numpy.ndarray): the new ids.
    """
    keep = numpy.zeros(len(ids), dtype=bool)
    for start, end in ranges:
        keep[start:end] = True
    return numpy.where(keep, ids, outside).astype(ids.dtype)


def stop_words(vocab: Vocab) -> FrozenSet[str]:
    """The stop words of the vocab's language (none for a vocab without a language)."""
    return frozenset(get_lang_class(vocab.lang).Defaults.stop_words) if vocab.lang else frozenset()
