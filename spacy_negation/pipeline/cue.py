"""``negation_cue``: a trainable component that finds negation cues.

Each token gets one label. ``O`` is outside any cue. A cue token is labelled with its
position in the cue — ``S`` a single-token cue, ``B`` the first token of a multiword cue
(``by`` of *by no means*, ``neither`` of *neither … nor*), ``I`` a further token, which
joins the most recent ``B`` cue of its sentence — and, for an affixal cue part inside a
token, with the affix kind: ``S|prefix`` (*un*happy), ``S|suffix`` (care*less*),
``S|infix`` (rest*less*ly). The affix characters come from an affix lexicon learned
from the training data with the labels (per kind, each affix with its frequency, e.g.
``{"prefix": {"un": 80, "in": 22, ...}}``); no affix list is written by hand. At
prediction time an affix label is only chosen for a token that carries a learned affix
of that kind (as prefix, as suffix, or strictly inside), and the cue is that affix's
exact characters (the most frequent fitting affix; the longer one on a tie). With
``affix_over_whole`` (the default), a token tagged as a whole-token single cue (``S``)
that carries a learned affix gets the best-scoring fitting affix label instead: in the
CD-SCO training data no whole-token cue carries one of the learned affixes, while the
model tends to tag unseen affixal words (*im*possible) as whole cues. A model that
learned no affixes (BioScope, SFU Review) is unaffected. One label
per kind rather than per affix string pools the rare affixes: per-string labels
(``S|prefix|ir``, 6 training examples in CD-SCO) were not learned by the transformer
model in three epochs.

Multiword cues are rare in CD-SCO training (11 of 984 cues), too rare for the ``B`` and
``I`` labels to be learned: the model tags the words of *neither … nor* as two single
cues. A multiword lexicon, learned from the training data like the affixes, holds each
multiword cue of whole tokens as its word sequence (lower case; discontinuous cues as
segments, *neither* | *nor*), with how often it is a cue there and how often its words
occur in that order within a training sentence at all. With ``multiword_cues`` (the
default), wherever the words of a pattern that was a cue in at least
``multiword_min_precision`` of its training occurrences (default 0.5, chosen on the
CD-SCO and BioScope dev sets) appear in a sentence (the first match of each later
segment) and the model tags at least one of them as a cue, they become one cue,
replacing the single-token cues predicted on them.

A word lexicon, learned likewise, holds each word (lower case) that is a single-token cue
of a whole token in training, with how often it is one and how often it occurs. With
``min_word_precision`` (default None: off), a predicted single-token cue of a whole word
is kept only if that word was a cue in at least this share of its training occurrences;
a word never seen as a cue goes at any setting (at 0, only such words go). The
transformer tags words it never saw as cues (BioScope: *devoid*) and words that rarely
are (*instead*: 1 of 12 in BioScope training). Multiword cues have their own lexicon,
affixal cues their affix lexicon; neither is filtered here. The shares are counted on
the training examples or, with the ``words_corpus`` initialize setting, on a corpus
file: a reader that samples sentences (``unnegated_ratio``) would otherwise inflate the
shares of rare cue words.

With ``cue_patterns`` (default None), a user cue list applies to the predicted cues:
trigger words and phrases become cues, pseudo-negations suppress the cues they cover,
terminations and trigger directions bound the scopes that ``negation_scope`` resolves
(see ``cue_patterns.py``; the shipped clinical list: ``"en_clinical"``).

The predicted cues replace the doc's negations (``doc.spans["negations"]``), with empty
scopes and events; ``negation_scope`` fills those in.
"""
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set, Tuple, Union

import numpy
from thinc.api import Config, Model, Optimizer, SequenceCategoricalCrossentropy, set_dropout_rate
from thinc.types import Floats2d

from spacy.errors import Errors as SpacyErrors
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.vocab import Vocab

from ..alignment import CharIndex, project_parts
from ..errors import Errors
from ..io import read_docbin
from ..ml.readers import count_cue_words
from ..negation import SPANS_KEY, Part, get_negations, register_extensions, set_negations
from .cue_patterns import PATTERNS_KEY, CuePatterns, Setting, cue_patterns_from_entries, load_cue_patterns
from ._util import ScaledOptimizer, affix_kind, find_affix, one_hot, sentence_ranges

OUTSIDE = "O"
POSITIONS = ("S", "B", "I")
AFFIX_KINDS = ("prefix", "suffix", "infix")
LABEL_SEP = "|"

# The words of a multiword cue: segments of adjacent tokens, lower case.
Pattern = Tuple[Tuple[str, ...], ...]

default_model_config = """
[model]
@architectures = "spacy-negation.CueTagger.v1"
nO = null

[model.tok2vec]
@architectures = "spacy.HashEmbedCNN.v2"
pretrained_vectors = null
width = 96
depth = 4
embed_size = 2000
window_size = 1
maxout_pieces = 3
subword_features = true
"""
DEFAULT_CUE_MODEL = Config().from_str(default_model_config)["model"]


@Language.factory(
    "negation_cue",
    assigns=["doc.spans", "doc._.negations"],
    default_config={
        "model": DEFAULT_CUE_MODEL,
        "lr_scale": 1.0,
        "affix_over_whole": True,
        "affix_threshold": 0.1,
        "cue_patterns": None,
        "multiword_cues": True,
        "multiword_min_precision": 0.5,
        "min_word_precision": None,
        "scorer": {"@scorers": "spacy_negation.negation_cue_scorer.v1"},
    },
    default_score_weights={"neg_cue_f": 1.0, "neg_cue_p": None, "neg_cue_r": None},
)
def make_negation_cue(
    nlp: Language,
    name: str,
    model: Model[List[Doc], List[Floats2d]],
    lr_scale: float,
    affix_over_whole: bool,
    affix_threshold: Optional[float],
    multiword_cues: bool,
    multiword_min_precision: float,
    min_word_precision: Optional[float],
    cue_patterns: Setting,
    scorer: Optional[Callable],
) -> "NegationCue":
    """Create a negation cue tagger.

    model (Model[List[Doc], List[Floats2d]]): per doc, scores over the cue labels.
    lr_scale (float): the component's learning rate relative to the optimizer's (e.g.
        10 for 2e-4 on a 2e-5 transformer; it applies to this component's own weights).
    affix_over_whole (bool): tag a token that carries a learned affix with its best
        fitting affix label rather than as a whole-token single cue.
    affix_threshold (Optional[float]): tag a token that carries a learned affix, and
        whose best label is 'O', with its best fitting affix label when the fitting
        affix labels have at least this probability together (None: never).
    multiword_cues (bool): join the words of a learned multiword cue into one cue where
        the model tags at least one of them as a cue.
    multiword_min_precision (float): apply a learned multiword pattern only if its words
        were a cue in at least this share of their occurrences in the training sentences
        (0 to 1).
    min_word_precision (Optional[float]): keep a predicted single-token cue of a whole word
        only if the word was a cue in at least this share of its training occurrences
        (0 to 1; None: keep all).
    cue_patterns (Setting): a user cue list applied to the predicted cues: None, a
        shipped list's name ("en_clinical"), a JSONL file path, or a list of entries
        ({"pattern": "denies", "kind": "preceding"}), names and paths.
    scorer (Optional[Callable]): the scoring method.
    """
    return NegationCue(
        nlp.vocab, model, name, lr_scale=lr_scale, affix_over_whole=affix_over_whole,
        affix_threshold=affix_threshold, multiword_cues=multiword_cues,
        multiword_min_precision=multiword_min_precision, min_word_precision=min_word_precision,
        cue_patterns=None if cue_patterns is None else load_cue_patterns(cue_patterns, nlp.make_doc),
        scorer=scorer,
    )


def make_label(position: str, kind: Optional[str] = None) -> str:
    """A cue label: position ('S', 'B' or 'I'), plus the affix kind for a partial token."""
    return position if kind is None else f"{position}{LABEL_SEP}{kind}"


def parse_label(label: str) -> Tuple[str, Optional[str]]:
    """(position, affix kind or None) of a cue label other than 'O'.

    label (str): the label.
    RETURNS (Tuple[str, Optional[str]]): its fields.
    """
    fields = label.split(LABEL_SEP)
    if len(fields) == 1 and fields[0] in POSITIONS:
        return fields[0], None
    if len(fields) == 2 and fields[0] in POSITIONS and fields[1] in AFFIX_KINDS:
        return fields[0], fields[1]
    raise ValueError(Errors.E300.format(label=label))


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


class NegationCue(TrainablePipe):
    """Pipeline component that finds negation cues: single-token, multiword,
    discontinuous and affixal.
    """

    def __init__(
        self,
        vocab: Vocab,
        model: Model[List[Doc], List[Floats2d]],
        name: str = "negation_cue",
        *,
        lr_scale: float = 1.0,
        affix_over_whole: bool = True,
        affix_threshold: Optional[float] = 0.1,
        multiword_cues: bool = True,
        multiword_min_precision: float = 0.5,
        min_word_precision: Optional[float] = None,
        cue_patterns: Optional[List[Dict[str, Any]]] = None,
        scorer: Optional[Callable] = None,
    ) -> None:
        """Initialize a negation cue tagger.

        vocab (Vocab): The shared vocabulary.
        model (thinc.api.Model): The Thinc Model powering the pipeline component.
        name (str): The component instance name, used to add entries to the
            losses during training.
        lr_scale (float): Learning-rate factor for this component's weights.
        affix_over_whole (bool): Prefer a fitting learned affix label to a whole-token
            single cue ('S').
        affix_threshold (Optional[float]): Probability of the fitting affix labels
            together above which a token tagged 'O' gets its best affix label (None: never).
        multiword_cues (bool): Join the words of a learned multiword cue into one cue
            where the model tags at least one of them.
        multiword_min_precision (float): Share of its training occurrences in which a
            multiword pattern's words were a cue, from which on it is applied (0 to 1).
        min_word_precision (Optional[float]): Share of its training occurrences in which
            a word was a single-token cue, from which on a predicted single-token cue of
            the whole word is kept (0 to 1; None: keep all).
        cue_patterns (Optional[List[Dict[str, Any]]]): The entries of a user cue list,
            as ``load_cue_patterns`` returns them. Given (even empty), they win over a
            list loaded with the component (``from_disk``, ``from_bytes``); None: no
            list, or the loaded one.
        scorer (Optional[Callable]): The scoring method.
        """
        if not 0.0 <= multiword_min_precision <= 1.0:
            raise ValueError(Errors.E303.format(value=multiword_min_precision))
        if min_word_precision is not None and not 0.0 <= min_word_precision <= 1.0:
            raise ValueError(Errors.E304.format(value=min_word_precision))
        register_extensions()
        self.vocab = vocab
        self.model = model
        self.name = name
        self.lr_scale = lr_scale
        self.affix_over_whole = affix_over_whole
        self.affix_threshold = affix_threshold
        self.multiword_cues = multiword_cues
        self.multiword_min_precision = multiword_min_precision
        self.min_word_precision = min_word_precision
        self.scorer = scorer
        self.cfg: Dict[str, Any] = {
            "labels": [OUTSIDE],
            "affixes": {kind: {} for kind in AFFIX_KINDS},
            "multiword": [],
            "words": {},
            "cue_patterns": list(cue_patterns or []),
        }
        self._cue_patterns: Optional[CuePatterns] = cue_patterns_from_entries(vocab, cue_patterns)
        self._cue_patterns_given = cue_patterns is not None

    @property
    def labels(self) -> Tuple[str, ...]:
        """The cue labels, 'O' first.

        RETURNS (Tuple[str]): The labels.
        """
        return tuple(self.cfg["labels"])

    @property
    def affixes(self) -> Dict[str, Dict[str, int]]:
        """The learned affix lexicon: per kind, affix -> training frequency.

        RETURNS (Dict[str, Dict[str, int]]): The lexicon.
        """
        return self.cfg["affixes"]

    @property
    def multiword(self) -> List[Dict[str, Any]]:
        """The learned multiword lexicon: per pattern, its words (segments of adjacent
        words, lower case), how often it was a cue in training and how often its words
        occurred in a training sentence (``{"words": [["neither"], ["nor"]], "cues": 2,
        "matches": 2}``). Models trained before the lexicon existed have none.

        RETURNS (List[Dict[str, Any]]): The lexicon.
        """
        return self.cfg.get("multiword", [])

    @property
    def words(self) -> Optional[Dict[str, List[int]]]:
        """The learned word lexicon: each word (lower case) that was a single-token cue
        of a whole token in training, with how often it was one and how often it
        occurred (``{"not": [839, 957]}``). None for models trained before it existed.

        RETURNS (Optional[Dict[str, List[int]]]): The lexicon.
        """
        return self.cfg.get("words")

    @property
    def cue_patterns(self) -> List[Dict[str, Any]]:
        """The entries of the user cue list (see ``cue_patterns.py``); empty without one.

        RETURNS (List[Dict[str, Any]]): The entries.
        """
        return self.cfg.get("cue_patterns") or []

    def set_cue_patterns(self, entries: List[Dict[str, Any]]) -> None:
        """Replace the user cue list (saved with the component).

        entries (List[Dict[str, Any]]): entries as ``load_cue_patterns`` returns them.
        """
        self.cfg["cue_patterns"] = list(entries)
        self._cue_patterns = cue_patterns_from_entries(self.vocab, entries)

    def from_bytes(self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()) -> "NegationCue":
        """Load the component from bytes, with its saved cue list unless the component
        was created with a ``cue_patterns`` setting (which then wins).

        bytes_data (bytes): The data.
        exclude (Iterable[str]): Serialization fields to exclude.
        RETURNS (NegationCue): The component.
        """
        return self._load_keeping_setting(lambda: super(NegationCue, self).from_bytes(bytes_data, exclude=exclude))

    def from_disk(self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()) -> "NegationCue":
        """Load the component from a directory, with its saved cue list unless the
        component was created with a ``cue_patterns`` setting (which then wins).

        path (Union[str, Path]): The directory.
        exclude (Iterable[str]): Serialization fields to exclude.
        RETURNS (NegationCue): The component.
        """
        return self._load_keeping_setting(lambda: super(NegationCue, self).from_disk(path, exclude=exclude))

    def _load_keeping_setting(self, load: Callable[[], Any]) -> "NegationCue":
        """Run a loader; then keep the cue list of the ``cue_patterns`` setting if one
        was given, else take the loaded one."""
        given = self.cue_patterns
        load()
        self.set_cue_patterns(given if self._cue_patterns_given else self.cue_patterns)
        return self

    @property
    def label_data(self) -> Dict[str, Any]:
        """The labels and the affix, multiword and word lexicons, for ``spacy init labels``."""
        data: Dict[str, Any] = {
            "labels": list(self.labels),
            "affixes": {k: dict(v) for k, v in self.affixes.items()},
            "multiword": [dict(entry) for entry in self.multiword],
        }
        if self.words is not None:
            data["words"] = {word: list(counts) for word, counts in self.words.items()}
        return data

    def predict(self, docs: Iterable[Doc]) -> List[numpy.ndarray]:
        """Apply the pipeline's model to a batch of docs, without modifying them.

        docs (Iterable[Doc]): The documents to predict.
        RETURNS (List[numpy.ndarray]): Per doc, the label id of each token, decoded so
            that every affix label fits its token and 'I' continues a 'B' cue.
        """
        docs = list(docs)
        if not any(len(doc) for doc in docs):
            return [numpy.zeros(len(doc), dtype="int32") for doc in docs]
        scores = self.model.predict(docs)
        return [self._decode(doc, self.model.ops.to_numpy(s)) for doc, s in zip(docs, scores)]

    def set_annotations(self, docs: Iterable[Doc], label_ids: List[numpy.ndarray]) -> None:
        """Write the predicted cues, with the user cue list applied, as the docs'
        negations (replacing any others), with empty scopes and events.

        docs (Iterable[Doc]): The documents to modify.
        label_ids (List[numpy.ndarray]): The label ids, produced by predict.
        """
        labels = self.labels
        patterns = self._multiword_patterns() if self.multiword_cues else []
        for doc, ids in zip(docs, label_ids):
            cues = self._cues(doc, ids, labels)
            if patterns and cues:
                cues = self._join_multiword(doc, cues, patterns)
            if self.min_word_precision is not None and cues:
                cues = self._filter_words(doc, cues)
            if self._cue_patterns is not None:
                cues = self._cue_patterns.apply(doc, cues)
            elif PATTERNS_KEY in doc.spans:
                del doc.spans[PATTERNS_KEY]
            set_negations(doc, [{"cue": parts} for parts in cues])

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Optional[Optimizer] = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """Learn from a batch of documents and gold-standard information,
        updating the pipe's model. Delegates to predict and get_loss.

        examples (Iterable[Example]): A batch of Example objects.
        drop (float): The dropout rate.
        sgd (thinc.api.Optimizer): The optimizer.
        losses (Dict[str, float]): Optional record of the loss during training.
            Updated using the component name as the key.
        RETURNS (Dict[str, float]): The updated losses dictionary.
        """
        if losses is None:
            losses = {}
        losses.setdefault(self.name, 0.0)
        validate_examples(examples, "NegationCue.update")
        examples = list(examples)
        if not any(len(eg.predicted) for eg in examples):
            return losses
        set_dropout_rate(self.model, drop)
        scores, bp_scores = self.model.begin_update([eg.predicted for eg in examples])
        for s in scores:
            if self.model.ops.xp.isnan(s.sum()):
                raise ValueError(SpacyErrors.E940)
        loss, d_scores = self.get_loss(examples, scores)
        bp_scores(d_scores)
        if sgd not in (None, False):
            self.finish_update(sgd)
        losses[self.name] += loss
        return losses

    def get_loss(self, examples: Iterable[Example], scores: List[Floats2d]) -> Tuple[float, List[Floats2d]]:
        """Find the loss and gradient of loss for the batch of documents and
        their predicted scores.

        examples (Iterable[Examples]): The batch of examples.
        scores: Scores representing the model's predictions.
        RETURNS (Tuple[float, List[Floats2d]]): The loss and the gradient.
        """
        validate_examples(examples, "NegationCue.get_loss")
        loss_func = SequenceCategoricalCrossentropy(names=self.labels, normalize=False)
        truths = [self._gold_labels(eg) for eg in examples]
        truths = [[t if t in self.labels else None for t in doc_truths] for doc_truths in truths]
        d_scores, loss = loss_func(scores, truths)
        if self.model.ops.xp.isnan(loss):
            raise ValueError(SpacyErrors.E910.format(name=self.name))
        return float(loss), d_scores

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        labels: Optional[Union[Iterable[str], Dict[str, Any]]] = None,
        words_corpus: Optional[Union[str, Path]] = None,
    ) -> None:
        """Initialize the pipe for training, using a representative set
        of data examples.

        get_examples (Callable[[], Iterable[Example]]): Function that
            returns a representative sample of gold-standard Example objects.
        nlp (Language): The current nlp object the component is part of.
        labels (Optional[Union[Iterable[str], Dict[str, Any]]]): The cue labels, or the
            ``label_data`` of a component ({"labels": [...], "affixes": {...},
            "multiword": [...], "words": {...}}, e.g. from ``spacy init labels``); what
            it does not give (labels, affixes, multiword and word lexicons) is read from
            the examples.
        words_corpus (Optional[Union[str, Path]]): a .spacy file to count the word
            lexicon on instead of the examples (the whole training corpus, where the
            training reader samples its sentences).
        """
        validate_get_examples(get_examples, "NegationCue.initialize")
        affixes = None
        multiword = None
        words = None
        if isinstance(labels, dict):
            affixes = labels.get("affixes")
            multiword = labels.get("multiword")
            words = labels.get("words")
            labels = labels.get("labels")
        if affixes is None:
            affixes = {kind: {} for kind in AFFIX_KINDS}
            found = set()
            for eg in get_examples():
                for label, affix in self._gold_cue_labels(eg):
                    found.add(label)
                    if affix:
                        kind = parse_label(label)[1]
                        affixes[kind][affix] = affixes[kind].get(affix, 0) + 1
            if labels is None:
                labels = sorted(found - {None, OUTSIDE})
        for kind in affixes:
            if kind not in AFFIX_KINDS:
                raise ValueError(Errors.E302.format(kind=kind))
        self.cfg["affixes"] = {kind: dict(sorted(affixes.get(kind, {}).items())) for kind in AFFIX_KINDS}
        if words is None and words_corpus is not None:
            words = count_cue_words(read_docbin(words_corpus, vocab=self.vocab))
        if multiword is None or words is None:
            learned_multiword, learned_words = self._learn_lexicons(get_examples)
            multiword = learned_multiword if multiword is None else multiword
            words = learned_words if words is None else words
        self.cfg["multiword"] = [
            {"words": [list(segment) for segment in entry["words"]], "cues": int(entry["cues"]),
             "matches": int(entry["matches"])}
            for entry in multiword
        ]
        self.cfg["words"] = {str(word): [int(n) for n in counts] for word, counts in sorted(words.items())}
        for label in labels or []:
            self.add_label(label)
        if len(self.labels) < 2:
            raise ValueError(Errors.E301.format(name=self.name))
        doc_sample = []
        label_sample = []
        for eg in islice(get_examples(), 10):
            doc_sample.append(eg.predicted)
            ids = [self.labels.index(t) if t in self.labels else None for t in self._gold_labels(eg)]
            label_sample.append(self.model.ops.asarray2f(one_hot(ids, len(self.labels))))
        if not doc_sample:
            raise ValueError(SpacyErrors.E923.format(name=self.name))
        self.model.initialize(X=doc_sample, Y=label_sample)

    def add_label(self, label: str) -> int:
        """Add a cue label ('S', 'B', 'I', or with an affix kind: 'S|prefix').

        label (str): The label to add.
        RETURNS (int): 0 if label is already present, otherwise 1.
        """
        if not isinstance(label, str):
            raise ValueError(SpacyErrors.E187)
        if label in self.labels:
            return 0
        if label != OUTSIDE:
            parse_label(label)
        self._allow_extra_label()
        self.cfg["labels"].append(label)
        self.vocab.strings.add(label)
        return 1

    def finish_update(self, sgd: Optimizer) -> None:
        """Update parameters using the current parameter gradients, with the
        component's learning-rate factor.

        sgd (thinc.api.Optimizer): The optimizer.
        """
        self.model.finish_update(sgd if self.lr_scale == 1.0 else ScaledOptimizer(sgd, self.lr_scale))

    def _gold_labels(self, example: Example) -> List[Optional[str]]:
        """The gold cue label of each predicted token (None: unknown)."""
        return [label for label, _ in self._gold_cue_labels(example)]

    def _gold_cue_labels(self, example: Example) -> List[Tuple[Optional[str], str]]:
        """The gold cue label of each predicted token, from the reference negations
        projected onto the predicted tokens by character offsets (None: unknown), with
        the affix characters (lower case) of affixal cue parts ('' otherwise)."""
        pred = example.predicted
        if SPANS_KEY not in example.reference.spans:
            return [(None, "")] * len(pred)
        truths: List[Tuple[Optional[str], str]] = [(OUTSIDE, "")] * len(pred)
        taken: Dict[int, int] = {}
        for k, parts in enumerate(self._gold_cue_parts(example)):
            for n, part in enumerate(parts):
                if n == 0:
                    position = "S" if len(parts) == 1 else "B"
                else:
                    position = "I"
                token = pred[part.i]
                if part.i in taken and taken[part.i] != k:
                    truths[part.i] = (None, "")  # two cues on one token: no single label
                    continue
                taken[part.i] = k
                kind = affix_kind(part, token.text)
                affix = token.text[part.start : part.end].lower() if kind else ""
                truths[part.i] = (make_label(position, kind), affix)
        return truths

    def _gold_cue_parts(self, example: Example) -> List[List[Part]]:
        """The parts of each reference cue projected onto the predicted tokens by
        character offsets."""
        ref = example.reference
        negations = get_negations(ref) if SPANS_KEY in ref.spans else []
        if not negations:
            return []
        ref_index, pred_index = CharIndex(ref), CharIndex(example.predicted)
        return [project_parts(neg.cue, ref_index, pred_index) for neg in negations]

    def _learn_lexicons(
        self, get_examples: Callable[[], Iterable[Example]]
    ) -> Tuple[List[Dict[str, Any]], Dict[str, List[int]]]:
        """The multiword and word lexicons of the examples, in one pass (a sampling
        reader draws anew on each pass). Multiword: each gold multiword cue of whole
        (predicted) tokens as a pattern, with its number of gold cues and of matches in
        the examples' sentences. Words: see ``count_cue_words`` (reference tokens)."""
        cues: Dict[Pattern, int] = {}
        references: List[Doc] = []
        sentences: List[List[str]] = []  # the patterns are known only after one pass
        for eg in get_examples():
            references.append(eg.reference)
            for parts in self._gold_cue_parts(eg):
                pattern = multiword_pattern(eg.predicted, parts)
                if pattern is not None:
                    cues[pattern] = cues.get(pattern, 0) + 1
            words = [token.lower_ for token in eg.predicted]
            sentences.extend(words[start:end] for start, end in sentence_ranges(eg.predicted)[0])
        matches = {
            pattern: sum(len(find_all(words, pattern, 0, len(words))) for words in sentences)
            for pattern in cues
        }
        multiword = [
            {"words": [list(segment) for segment in pattern], "cues": count, "matches": max(matches[pattern], count)}
            for pattern, count in sorted(cues.items())
        ]
        return multiword, count_cue_words(references)

    def _filter_words(self, doc: Doc, cues: List[List[Part]]) -> List[List[Part]]:
        """The cues without the single-token cues of whole words whose training share as
        a cue is below ``min_word_precision``."""
        words = self.words
        if words is None:
            raise ValueError(Errors.E305.format(name=self.name, value=self.min_word_precision))
        threshold = self.min_word_precision

        def keep(cue: List[Part]) -> bool:
            if len(cue) != 1 or cue[0].is_partial(doc):
                return True
            n_cue, n_seen = words.get(doc[cue[0].i].lower_, (0, 0))
            return n_seen > 0 and n_cue >= threshold * n_seen

        return [cue for cue in cues if keep(cue)]

    def _multiword_patterns(self) -> List[Pattern]:
        """The learned multiword patterns that are applied, the longest first."""
        patterns = [
            tuple(tuple(segment) for segment in entry["words"])
            for entry in self.multiword
            if entry["cues"] >= self.multiword_min_precision * entry["matches"]
        ]
        return sorted(patterns, key=lambda pattern: (-sum(len(segment) for segment in pattern), pattern))

    def _join_multiword(self, doc: Doc, cues: List[List[Part]], patterns: List[Pattern]) -> List[List[Part]]:
        """The cues with the words of each pattern match that the model tagged (at least
        one word, with whole-token cues inside the match only) joined into one cue."""
        owner: Dict[int, int] = {}
        for k, cue in enumerate(cues):
            for part in cue:
                owner.setdefault(part.i, k)
        words = [token.lower_ for token in doc]
        replaced: Set[int] = set()
        taken: Set[int] = set()
        joined: List[List[Part]] = []
        for start, end in sentence_ranges(doc)[0]:
            for pattern in patterns:
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

    def _decode(self, doc: Doc, scores: numpy.ndarray) -> numpy.ndarray:
        """Per token the best-scoring label that is possible there."""
        labels = self.labels
        parsed = [None if label == OUTSIDE else parse_label(label) for label in labels]
        ids = numpy.zeros(len(doc), dtype="int32")
        ranges, _ = sentence_ranges(doc)
        for start, end in ranges:
            has_open = False
            for i in range(start, end):
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
                    if kind is not None and choose_affix(token.text, kind, self.affixes) is None:
                        continue
                    if position == "B":
                        has_open = True
                    break
                if parsed[label_id] == ("S", None) and self.affix_over_whole:
                    fitting = self._fitting_affix_ids(token.text, parsed)
                    if fitting:
                        label_id = max(fitting, key=lambda k: scores[i, k])
                elif parsed[label_id] is None and self.affix_threshold is not None:
                    fitting = self._fitting_affix_ids(token.text, parsed)
                    if fitting:
                        probs = numpy.exp(scores[i] - scores[i].max())
                        if probs[fitting].sum() / probs.sum() >= self.affix_threshold:
                            label_id = max(fitting, key=lambda k: scores[i, k])
                ids[i] = label_id
        return ids

    def _fitting_affix_ids(self, text: str, parsed: List[Optional[Tuple[str, Optional[str]]]]) -> List[int]:
        """The ids of the single-cue affix labels ('S|kind') whose kind has a learned
        affix that fits the token."""
        kinds = {kind for kind in AFFIX_KINDS if choose_affix(text, kind, self.affixes) is not None}
        return [k for k, fields in enumerate(parsed) if fields is not None and fields[0] == "S" and fields[1] in kinds]

    def _cues(self, doc: Doc, ids: numpy.ndarray, labels: Tuple[str, ...]) -> List[List[Part]]:
        """The cue parts of each predicted cue, from decoded label ids."""
        cues: List[List[Part]] = []
        ranges, _ = sentence_ranges(doc)
        for start, end in ranges:
            open_cue: Optional[List[Part]] = None
            for i in range(start, end):
                label = labels[int(ids[i])]
                if label == OUTSIDE:
                    continue
                position, kind = parse_label(label)
                token = doc[i]
                if kind is None:
                    part = Part.whole(token)
                else:
                    rng = choose_affix(token.text, kind, self.affixes)
                    if rng is None:
                        continue
                    part = Part(i, rng[0], rng[1])
                if position == "I" and open_cue is not None:
                    open_cue.append(part)
                    continue
                cue = [part]
                cues.append(cue)
                if position == "B":
                    open_cue = cue
        return cues
