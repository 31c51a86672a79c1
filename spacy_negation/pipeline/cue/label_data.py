"""What ``negation_cue`` learns from its training examples when it is initialized: its
labels and its three lexicons (:mod:`.lexicons`), the affix lexicon (the affix strings of
the affixal cues, by kind), the multiword lexicon (the multiword cues of whole tokens and
how often their words occur together) and the word lexicon (how often each word is a cue).
What ``spacy init labels`` stored for them (the component's ``label_data``) is taken as it
is; the rest is learned from the examples, the word lexicon optionally from a whole corpus
(the training reader may sample its sentences).

The lexicons are of the negation cues. A component that learns speculation cues too also
learns a speculation lexicon (``"speculation"``: the word and multiword lexicons of the
speculation cues), which its prefilter reads (:mod:`.prefilter`); the decoder joins no
speculation pattern and drops no speculation word: a speculation cue is what the
tagger's labels say."""
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from spacy.tokens import Doc
from spacy.training import Example
from spacy.vocab import Vocab

from ...corpora.docbin import read_docbin
from ...ml.training_corpus import count_cue_words
from ...sentences import sentence_ranges
from .labels import NEGATION, OUTSIDE, SPECULATION, gold_cue_labels, gold_cue_parts, parse_label
from .lexicons import AffixLexicon, MultiwordLexicon, Pattern, WordLexicon, multiword_pattern


def initial_label_data(get_examples: Callable[[], Iterable[Example]],
                       given: Optional[Union[Iterable[str], Dict[str, Any]]] = None,
                       words_corpus: Optional[Union[str, Path]] = None,
                       vocab: Optional[Vocab] = None,
                       kinds: Sequence[str] = (NEGATION,)) -> Dict[str, Any]:
    """The labels and lexicons of a cue component about to be trained: those given, the
    others learned from the examples.

    get_examples (Callable[[], Iterable[Example]]): returns the examples.
    given (Optional[Union[Iterable[str], Dict[str, Any]]]): the cue labels, or a
        component's ``label_data`` ({"labels": [...], "affixes": {...}, "multiword":
        [...], "words": {...}}, any of them left out); None: nothing given.
    words_corpus (Optional[Union[str, Path]]): a .spacy file to count the word lexicon on
        instead of the examples.
    vocab (Optional[Vocab]): the vocab to read ``words_corpus`` with.
    kinds (Sequence[str]): the kinds of cue the component learns ('negation', and
        'speculation': its labels and its lexicon too).
    RETURNS (Dict[str, Any]): "labels" (the labels other than 'O' to add, in order),
        "affixes", "multiword" and "words" (each lexicon's ``to_dict``), and with
        speculation "speculation" ({"words": ..., "multiword": ...}).
    """
    labels: Optional[Iterable[str]] = given if not isinstance(given, dict) else given.get("labels")
    stored: Dict[str, Any] = given if isinstance(given, dict) else {}
    affixes, multiword, words = stored.get("affixes"), stored.get("multiword"), stored.get("words")
    if affixes is None:
        affix_lexicon, found = learn_affixes(get_examples, kinds)
        if labels is None:
            labels = found
    else:
        affix_lexicon = AffixLexicon.from_dict(affixes)
    if words is None and words_corpus is not None:
        words = count_cue_words(read_docbin(words_corpus, vocab=vocab))
    if multiword is None or words is None:
        learned_multiword, learned_words = learn_lexicons(get_examples)
        multiword = learned_multiword.to_dict() if multiword is None else multiword
        words = learned_words.to_dict() if words is None else words
    data = {"labels": list(labels or []), "affixes": affix_lexicon.to_dict(),
            "multiword": MultiwordLexicon.from_dict(multiword).to_dict(), "words": WordLexicon.from_dict(words).to_dict()}
    if SPECULATION in kinds:
        speculation = stored.get("speculation")
        data["speculation"] = (speculation_lexicon_of(speculation) if speculation is not None
                               else learn_speculation_lexicons(get_examples))
    return data


def speculation_lexicon_of(data: Dict[str, Any]) -> Dict[str, Any]:
    """A stored speculation lexicon, checked and normalized.

    data (Dict[str, Any]): {"words": {word: [cues, occurrences]}, "multiword": [...]}.
    RETURNS (Dict[str, Any]): the same, as the lexicons' ``to_dict`` give them.
    """
    return {"words": WordLexicon.from_dict(data.get("words") or {}).to_dict(),
            "multiword": MultiwordLexicon.from_dict(data.get("multiword") or []).to_dict()}


def learn_speculation_lexicons(get_examples: Callable[[], Iterable[Example]]) -> Dict[str, Any]:
    """The word and multiword lexicons of the examples' speculation cues, in one pass:
    each single-token cue's word (lower case; a part inside a token counts as its whole
    token) with how often it is a cue and how often it occurs in the predicted docs, and
    each multiword cue of whole tokens with its matches in the predicted sentences.

    get_examples (Callable[[], Iterable[Example]]): returns the examples.
    RETURNS (Dict[str, Any]): {"words": WordLexicon dict, "multiword": MultiwordLexicon dict}.
    """
    cues: List[Pattern] = []
    as_cue: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    sentences: List[List[str]] = []
    for eg in get_examples():
        pred = eg.predicted
        for parts in gold_cue_parts(eg, SPECULATION):
            if len(parts) == 1:
                as_cue[pred[parts[0].i].lower_] += 1
                continue
            pattern = multiword_pattern(pred, parts)
            if pattern is not None:
                cues.append(pattern)
        words = [token.lower_ for token in pred]
        seen.update(words)
        sentences.extend(words[start:end] for start, end in sentence_ranges(pred)[0])
    counts = {word: [n, max(n, seen[word])] for word, n in sorted(as_cue.items())}
    return {"words": WordLexicon(counts).to_dict(), "multiword": MultiwordLexicon.learn(cues, sentences).to_dict()}


def learn_affixes(get_examples: Callable[[], Iterable[Example]],
                  kinds: Sequence[str] = (NEGATION,)) -> Tuple[AffixLexicon, List[str]]:
    """The affix lexicon of the examples' affixal cues and the cue labels they hold.

    get_examples (Callable[[], Iterable[Example]]): returns the examples.
    kinds (Sequence[str]): the kinds of cue labelled (:func:`.labels.gold_cue_labels`).
    RETURNS (Tuple[AffixLexicon, List[str]]): the lexicon and the labels other than 'O',
        sorted.
    """
    found = set()
    learned: List[Tuple[str, str]] = []
    for eg in get_examples():
        for label, affix in gold_cue_labels(eg, kinds):
            found.add(label)
            kind = parse_label(label)[1] if affix and label is not None else None
            if kind is not None:
                learned.append((kind, affix))
    return AffixLexicon.learn(learned), sorted(label for label in found if label is not None and label != OUTSIDE)


def learn_lexicons(get_examples: Callable[[], Iterable[Example]]) -> Tuple[MultiwordLexicon, WordLexicon]:
    """The multiword and word lexicons of the examples, in one pass (a sampling reader
    draws anew on each pass): the multiword cues of whole predicted tokens with their
    matches in the predicted sentences, and the cue words of the references.

    get_examples (Callable[[], Iterable[Example]]): returns the examples.
    RETURNS (Tuple[MultiwordLexicon, WordLexicon]): the two lexicons.
    """
    cues: List[Pattern] = []
    references: List[Doc] = []
    sentences: List[List[str]] = []
    for eg in get_examples():
        references.append(eg.reference)
        for parts in gold_cue_parts(eg):
            pattern = multiword_pattern(eg.predicted, parts)
            if pattern is not None:
                cues.append(pattern)
        words = [token.lower_ for token in eg.predicted]
        sentences.extend(words[start:end] for start, end in sentence_ranges(eg.predicted)[0])
    return MultiwordLexicon.learn(cues, sentences), WordLexicon.learn(references)
