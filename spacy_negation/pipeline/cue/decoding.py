"""The decoder of ``negation_cue`` (``spacy-negation.cue_decoder.v1``; ``.v2`` looks
contractions up as their full forms; ``.v3`` also trims punctuation tokens off the ends of
a cue): from the tagger's scores to
label ids (``label_ids``) and from label ids to cues (``cues``), with the learned
lexicons (see :mod:`.lexicons`). The decoder is a registered function of the component's
config (``[components.negation_cue.decoder]``), as spaCy's span categorizer takes its
``suggester``; another registered function that returns an object with the same two
methods replaces it. The word look-ups (multiword patterns, the word lexicon) read a
token's text without its format characters and ANSI escapes (:mod:`..visible`).

A component with speculation labels (``kinds = ["negation", "speculation"]``) decodes its
negation labels with this decoder and its speculation labels by
:mod:`.speculation_decoding`; both join a cue's tokens by :func:`join_positions`."""
import unicodedata
from dataclasses import dataclass, field, fields, replace
from typing import (AbstractSet, Any, Dict, FrozenSet, Iterable, Iterator, List, Mapping, NamedTuple, Optional,
                    Set, Tuple)

import numpy
from spacy.tokens import Doc
from spacy.util import registry

from ...errors import Errors
from ...negation import Part
from ...sentences import sentence_ranges
from .labels import OUTSIDE, parse_label
from .lexicons import AffixLexicon, MultiwordLexicon, Pattern, WordLexicon, find_all
from ...visible import visible

class CueLexicons(NamedTuple):
    """The learned lexicons a cue decoder uses (``words`` is None for a model trained
    before the word lexicon existed), and the cue words the model's lexicon feature flags
    (``spacy-negation.CueTagger.v2``; empty for other models)."""

    affixes: AffixLexicon
    multiword: MultiwordLexicon
    words: Optional[WordLexicon]
    flagged: FrozenSet[str] = frozenset()


@registry.misc("spacy-negation.cue_decoder.v1")
def make_cue_decoder(
    affix_over_whole: bool = True,
    affix_threshold: Optional[float] = 0.1,
    multiword_cues: bool = True,
    multiword_min_precision: float = 0.5,
    min_word_precision: Optional[float] = None,
) -> "CueDecoder":
    """The decoder of ``negation_cue``.

    affix_over_whole (bool): a token tagged as a whole-token single cue ('S') that
        carries a learned affix gets its best-scoring fitting affix label instead.
    affix_threshold (Optional[float]): a token tagged 'O' that carries a learned affix
        gets its best fitting affix label when the fitting affix labels have at least
        this probability together (None: never).
    multiword_cues (bool): the words of a learned multiword pattern become one cue
        wherever the tagger tags at least one of them (only the first match of each
        later segment; whole-token cues inside the match only).
    multiword_min_precision (float): a multiword pattern applies only if its words were
        a cue in at least this share of their training occurrences (0 to 1).
    min_word_precision (Optional[float]): a predicted single-token cue of a whole word is
        kept only if the word was a cue in at least this share of its training
        occurrences; a word never seen as a cue goes at any setting (0 to 1; None: keep
        all).
    RETURNS (CueDecoder): the decoder.
    """
    return CueDecoder(
        affix_over_whole=affix_over_whole, affix_threshold=affix_threshold, multiword_cues=multiword_cues,
        multiword_min_precision=multiword_min_precision, min_word_precision=min_word_precision,
    )


#: The word forms of ``cue_decoder.v2`` that take another form's training evidence when
#: they have none of their own: the contracted negation (*doesn't* is tokenized *does*
#: *n't*) counts as *not*. BioScope, for one, has no contraction, so a model trained on
#: it tags *n't* as a cue but has never seen it as one.
CONTRACTION_ALIASES: Dict[str, str] = {"n't": "not", "n\u2019t": "not"}


@registry.misc("spacy-negation.cue_decoder.v2")
def make_cue_decoder_v2(
    affix_over_whole: bool = True,
    affix_threshold: Optional[float] = 0.1,
    multiword_cues: bool = True,
    multiword_min_precision: float = 0.5,
    min_word_precision: Optional[float] = None,
    word_aliases: Optional[Dict[str, str]] = None,
) -> "CueDecoder":
    """The decoder of ``negation_cue``: ``cue_decoder.v1`` whose ``min_word_precision``
    looks a word that was never a cue in training up under its alias.

    word_aliases (Optional[Dict[str, str]]): word (lower case) -> the word whose training
        evidence it takes when it has none of its own (None: ``CONTRACTION_ALIASES``,
        *n't* as *not*; {}: none, as v1).
    The other settings: ``make_cue_decoder``.
    RETURNS (CueDecoder): the decoder.
    """
    return CueDecoder(
        affix_over_whole=affix_over_whole, affix_threshold=affix_threshold, multiword_cues=multiword_cues,
        multiword_min_precision=multiword_min_precision, min_word_precision=min_word_precision,
        word_aliases=dict(CONTRACTION_ALIASES if word_aliases is None else word_aliases),
    )


@registry.misc("spacy-negation.cue_decoder.v3")
def make_cue_decoder_v3(
    affix_over_whole: bool = True,
    affix_threshold: Optional[float] = 0.1,
    multiword_cues: bool = True,
    multiword_min_precision: float = 0.5,
    min_word_precision: Optional[float] = None,
    word_aliases: Optional[Dict[str, str]] = None,
) -> "CueDecoder":
    """The decoder of ``negation_cue``: ``cue_decoder.v2`` that trims the tokens of
    punctuation only off the ends of every cue and drops a cue of punctuation only. A
    tagger that saw "Allergies: None." once tags the colon of "Allergies: none." too;
    the corpora's cues of whole tokens never start or end with a punctuation token but
    as annotation noise (three in the English training splits), while "and / or" or
    "rule - out" keep the punctuation inside them.

    The settings: ``make_cue_decoder_v2``.
    RETURNS (CueDecoder): the decoder.
    """
    v2 = make_cue_decoder_v2(affix_over_whole, affix_threshold, multiword_cues, multiword_min_precision,
                             min_word_precision, word_aliases)
    return replace(v2, trim_punctuation=True)


@dataclass
class CueDecoder:
    """Decodes the cue tagger's scores; the settings are those of ``make_cue_decoder``.
    The affix characters of an affixal label are the best fitting learned affix of its
    kind; a label whose kind has no fitting affix, or an 'I' without an open 'B' cue in
    the sentence, is not possible."""

    affix_over_whole: bool = True
    affix_threshold: Optional[float] = 0.1
    multiword_cues: bool = True
    multiword_min_precision: float = 0.5
    min_word_precision: Optional[float] = None
    #: v2: word -> the word whose training evidence it takes when it has none (v1: none).
    word_aliases: Mapping[str, str] = field(default_factory=dict)
    #: v3: punctuation tokens trimmed off the ends of a cue (v1, v2: kept).
    trim_punctuation: bool = False

    def __post_init__(self) -> None:
        if not 0.0 <= self.multiword_min_precision <= 1.0:
            raise ValueError(Errors.E303.format(value=self.multiword_min_precision))
        if self.min_word_precision is not None and not 0.0 <= self.min_word_precision <= 1.0:
            raise ValueError(Errors.E304.format(value=self.min_word_precision))

    def label_ids(self, doc: Doc, scores: numpy.ndarray, labels: Tuple[str, ...], lexicons: CueLexicons) -> numpy.ndarray:
        """Per token the best-scoring label that is possible there.

        doc (Doc): the doc.
        scores (numpy.ndarray): the tagger's scores, one row per token.
        labels (Tuple[str, ...]): the component's labels (the score columns).
        lexicons (CueLexicons): the learned lexicons.
        RETURNS (numpy.ndarray): the label id of each token.
        """
        affixes = lexicons.affixes
        parsed = [None if label == OUTSIDE else parse_label(label) for label in labels]
        ids = numpy.zeros(len(doc), dtype="int32")
        top = scores.argmax(axis=1) if len(doc) else numpy.zeros(0, dtype="int64")
        # without learned affixes, a token whose best label is 'O' stays 'O'
        plain_outside = not any(affixes.counts.values())
        for start, end in sentence_ranges(doc)[0]:
            has_open = False
            for i in range(start, end):
                if plain_outside and parsed[top[i]] is None:
                    ids[i] = top[i]
                    continue
                token = doc[i]
                if token.is_space:
                    continue
                for label_id in numpy.argsort(-scores[i], kind="stable"):
                    fields = parsed[label_id]
                    if fields is None:
                        break
                    position, kind = fields
                    if position == "I" and not has_open:
                        continue
                    if kind is not None and affixes.choose(token.text, kind) is None:
                        continue
                    if position == "B":
                        has_open = True
                    break
                if parsed[label_id] == ("S", None) and self.affix_over_whole:
                    fitting = _fitting_affix_ids(affixes, token.text, parsed)
                    if fitting:
                        label_id = max(fitting, key=lambda k: scores[i, k])
                elif parsed[label_id] is None and self.affix_threshold is not None:
                    fitting = _fitting_affix_ids(affixes, token.text, parsed)
                    if fitting:
                        probs = numpy.exp(scores[i] - scores[i].max())
                        if probs[fitting].sum() / probs.sum() >= self.affix_threshold:
                            label_id = max(fitting, key=lambda k: scores[i, k])
                ids[i] = label_id
        return ids

    def cues(
        self, doc: Doc, ids: numpy.ndarray, labels: Tuple[str, ...], lexicons: CueLexicons, *, name: str
    ) -> List[List[Part]]:
        """The cue parts of each cue of the decoded label ids, with the multiword
        patterns joined and the rare cue words dropped as the settings say.

        doc (Doc): the doc.
        ids (numpy.ndarray): the label id of each token (from ``label_ids``).
        labels (Tuple[str, ...]): the component's labels.
        lexicons (CueLexicons): the learned lexicons.
        name (str): the component's name, for error messages.
        RETURNS (List[List[Part]]): the parts of each cue.
        """
        cues = cues_of_labels(doc, ids, labels, lexicons.affixes)
        patterns = lexicons.multiword.patterns(self.multiword_min_precision) if self.multiword_cues and cues else []
        if patterns:
            cues = join_multiword(doc, cues, patterns)
        if self.min_word_precision is not None and cues:
            if lexicons.words is None:
                raise ValueError(Errors.E305.format(name=name, value=self.min_word_precision))
            cues = filter_words(doc, cues, lexicons.words, self.min_word_precision, self.word_aliases,
                                lexicons.flagged)
        if self.trim_punctuation and cues:
            cues = trim_punctuation(doc, cues)
        return cues


#: The settings of ``spacy-negation.cue_decoder.v1`` and their defaults (``.v2`` and
#: ``.v3`` add ``word_aliases``).
CUE_DECODER_DEFAULTS: Dict[str, Any] = {f.name: f.default for f in fields(CueDecoder)
                                        if f.name not in ("word_aliases", "trim_punctuation")}


def _fitting_affix_ids(affixes: AffixLexicon, text: str, parsed: List[Optional[Tuple[str, Optional[str]]]]) -> List[int]:
    """The ids of the single-cue affix labels ('S|kind') whose kind has a learned affix
    that fits the token."""
    kinds = affixes.fitting_kinds(text)
    return [k for k, fields in enumerate(parsed) if fields is not None and fields[0] == "S" and fields[1] in kinds]


def cues_of_labels(doc: Doc, ids: numpy.ndarray, labels: Tuple[str, ...], affixes: AffixLexicon) -> List[List[Part]]:
    """The cue parts of each cue of decoded label ids: an 'I' joins the most recent 'B'
    cue of its sentence.

    doc (Doc): the doc.
    ids (numpy.ndarray): the label id of each token.
    labels (Tuple[str, ...]): the labels.
    affixes (AffixLexicon): the affix lexicon.
    RETURNS (List[List[Part]]): the parts of each cue.
    """
    def tagged() -> Iterator[Tuple[int, str, Part]]:
        for sentence, (start, end) in enumerate(sentence_ranges(doc)[0]):
            for i in range(start, end):
                label = labels[int(ids[i])]
                if label == OUTSIDE:
                    continue
                position, kind = parse_label(label)
                token = doc[i]
                if kind is None:
                    part = Part.whole(token)
                else:
                    rng = affixes.choose(token.text, kind)
                    if rng is None:
                        continue
                    part = Part(i, rng[0], rng[1])
                yield sentence, position, part

    return join_positions(tagged())


def join_positions(tagged: Iterable[Tuple[int, str, Part]]) -> List[List[Part]]:
    """The parts of each cue of tagged cue parts: an 'I' part joins the most recent 'B'
    cue of its sentence; any other part ('S', 'B', or an 'I' without an open 'B' cue in
    its sentence) starts a cue.

    tagged (Iterable[Tuple[int, str, Part]]): per cue part, in token order, the index of
        its sentence, its position ('S', 'B' or 'I') and the part.
    RETURNS (List[List[Part]]): the parts of each cue, in the order of their first part.
    """
    cues: List[List[Part]] = []
    open_cue: Optional[List[Part]] = None
    current: Optional[int] = None
    for sentence, position, part in tagged:
        if sentence != current:
            current, open_cue = sentence, None
        if position == "I" and open_cue is not None:
            open_cue.append(part)
            continue
        cue = [part]
        cues.append(cue)
        if position == "B":
            open_cue = cue
    return cues


def join_multiword(doc: Doc, cues: List[List[Part]], patterns: List[Pattern]) -> List[List[Part]]:
    """The cues with the words of each pattern match that the tagger tagged (at least
    one word, with whole-token cues inside the match only) joined into one cue.

    doc (Doc): the doc.
    cues (List[List[Part]]): the parts of each cue.
    patterns (List[Pattern]): the patterns, the first to match wins.
    RETURNS (List[List[Part]]): the cues, in the order of their first token.
    """
    owner: Dict[int, int] = {}
    for k, cue in enumerate(cues):
        for part in cue:
            owner.setdefault(part.i, k)
    words = [visible(token.lower_) for token in doc]
    replaced: Set[int] = set()
    taken: Set[int] = set()
    joined: List[List[Part]] = []
    for start, end in sentence_ranges(doc)[0]:
        present = set(words[start:end])
        for pattern in patterns:
            if any(word not in present for segment in pattern for word in segment):
                continue  # a word of the pattern is missing: no match (a quick test)
            for match in find_all(words, pattern, start, end):
                tagged = {owner[i] for i in match if i in owner}
                if not tagged or taken.intersection(match):
                    continue
                if any(part.i not in match or part.is_partial(doc) for k in tagged for part in cues[k]):
                    continue
                replaced.update(tagged)
                taken.update(match)
                joined.append([Part.whole(doc[i]) for i in match])
    if not joined:
        return cues
    kept = [cue for k, cue in enumerate(cues) if k not in replaced]
    return sorted(kept + joined, key=lambda cue: min(part.i for part in cue))


def filter_words(doc: Doc, cues: List[List[Part]], words: WordLexicon, min_precision: float,
                 aliases: Optional[Mapping[str, str]] = None,
                 flagged: AbstractSet[str] = frozenset()) -> List[List[Part]]:
    """The cues without the single-token cues of whole words that were a cue in less
    than ``min_precision`` of their training occurrences (or never, unless the model's
    lexicon feature flags the word: a lexicon word the training data never showed as a
    cue is the lexicon feature's point; one it did show is judged by its counts).

    doc (Doc): the doc.
    cues (List[List[Part]]): the parts of each cue.
    words (WordLexicon): the word lexicon.
    min_precision (float): the share, 0 to 1.
    aliases (Optional[Mapping[str, str]]): word -> the word looked up instead when the
        lexicon has no entry for it.
    flagged (AbstractSet[str]): the cue words of the model's lexicon feature.
    RETURNS (List[List[Part]]): the cues kept.
    """
    aliases = aliases or {}

    def keep(cue: List[Part]) -> bool:
        if len(cue) != 1 or cue[0].is_partial(doc):
            return True
        word = words.evidence_word(visible(doc[cue[0].i].lower_), aliases)
        return words.is_cue(word, min_precision) or (word in flagged and word not in words.counts)

    return [cue for cue in cues if keep(cue)]


def is_punctuation(text: str) -> bool:
    """Whether a token's text is punctuation only (every character of a Unicode P
    category; its format characters and ANSI escapes left out)."""
    chars = visible(text)
    return bool(chars) and all(unicodedata.category(c).startswith("P") for c in chars)


def trim_punctuation(doc: Doc, cues: List[List[Part]]) -> List[List[Part]]:
    """The cues without the whole-token parts of punctuation only at their ends; a cue
    of punctuation only is dropped.

    doc (Doc): the doc.
    cues (List[List[Part]]): the parts of each cue.
    RETURNS (List[List[Part]]): the trimmed cues that are left.
    """
    def edge(part: Part) -> bool:
        return not part.is_partial(doc) and is_punctuation(doc[part.i].text)

    trimmed: List[List[Part]] = []
    for cue in cues:
        parts = sorted(cue, key=lambda part: (part.i, part.start))
        while parts and edge(parts[0]):
            parts.pop(0)
        while parts and edge(parts[-1]):
            parts.pop()
        if parts:
            trimmed.append(parts)
    return trimmed
