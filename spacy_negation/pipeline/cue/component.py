"""``negation_cue``: a trainable component that finds negation cues (its factory, settings
and default model: :mod:`.factory`).

Each token gets one label. ``O`` is outside any cue. A cue token is labelled with its
position in the cue — ``S`` a single-token cue, ``B`` the first token of a multiword cue
(``by`` of *by no means*, ``neither`` of *neither … nor*), ``I`` a further token, which
joins the most recent ``B`` cue of its sentence — and, for an affixal cue part inside a
token, with the affix kind: ``S|prefix`` (*un*happy), ``S|suffix`` (care*less*),
``S|infix`` (rest*less*ly). One label per kind rather than per affix string: the affix
characters come from an affix lexicon learned with the labels (:mod:`.lexicons`), as do a
multiword lexicon and a cue-word lexicon. The decoder (:mod:`.decoding`) turns the
scores into cues with them. The cue annotation follows ConanDoyle-neg (Morante and
Daelemans 2012); the tagger over shared token vectors follows Sineva et al. (2021).

With ``cue_patterns`` (default None), a user cue list applies to the predicted cues:
trigger words and phrases become cues, pseudo-negations suppress the cues they cover,
terminations and trigger directions bound the scopes that ``negation_scope`` resolves
(see :mod:`.patterns`; the shipped clinical list: ``"en_clinical"``).

The predicted cues replace the doc's negations (``doc.spans["negations"]``), with empty
scopes and events; ``negation_scope`` fills those in.

Speculation (``kinds = ["negation", "speculation"]``; default ``["negation"]``, what every
model trained before the setting has): the component also learns the speculation cues of
the reference docs (``doc.spans["speculations"]``) with labels of their own
(``S|speculation``, ``B|speculation``, ``I|speculation``: :mod:`.labels`) and writes the
predicted ones as the docs' speculations (``set_speculations``, replacing any; empty
scopes, no event). A reference doc without a speculation span group counts as having
none, so train it on corpora that annotate speculation (BioScope, SFU Review, NUBes). A
user cue list applies to the negation cues only.
"""
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy
from thinc.api import Model
from thinc.types import Floats2d

from spacy.errors import Errors as SpacyErrors
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example, validate_get_examples
from spacy.vocab import Vocab

from ...errors import Errors
from ...ml.lexicon_features import lexicon_cue_words
from ...negation import register_extensions, set_negations, set_speculations
from ..base import NEGATION_ONLY, NegationPipe, check_kinds
from .decoding import CueDecoder, CueLexicons, make_cue_decoder_v3
from .label_data import initial_label_data, speculation_lexicon_of
from .labels import OUTSIDE, SPECULATION, gold_cue_labels, label_kind
from .patterns import PATTERNS_KEY, CuePatterns, cue_patterns_from_entries
from .lexicons import AFFIX_KINDS, AffixLexicon, MultiwordLexicon, WordLexicon
from .prefilter import CuePrefilter, check_window, only_in, stop_words
from .speculation_decoding import decode_kinds, negation_ids, speculation_cues
from ...sentences import sentence_ranges

class NegationCue(NegationPipe):
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
        decoder: Optional[CueDecoder] = None,
        cue_patterns: Optional[List[Dict[str, Any]]] = None,
        convention: Optional[str] = None,
        annotate_unmarked: bool = True,
        prefilter: bool = False,
        prefilter_window: Optional[Sequence[int]] = None,
        kinds: Sequence[str] = NEGATION_ONLY,
        scorer: Optional[Callable] = None,
    ) -> None:
        """Initialize a negation cue tagger.

        vocab (Vocab): The shared vocabulary.
        model (thinc.api.Model): The Thinc Model powering the pipeline component.
        name (str): The component instance name, used to add entries to the
            losses during training.
        lr_scale (float): Learning-rate factor for this component's weights.
        decoder (Optional[CueDecoder]): Turns the scores into cues (None: the built-in
            decoder with its default settings).
        cue_patterns (Optional[List[Dict[str, Any]]]): The entries of a user cue list,
            as ``load_cue_patterns`` returns them. Given (even empty), they win over a
            list loaded with the component (``from_disk``, ``from_bytes``); None: no
            list, or the loaded one.
        convention (Optional[str]): The annotation convention of the docs the component
            learns from and annotates (None: all).
        annotate_unmarked (bool): Whether it annotates docs without a convention mark.
        prefilter (bool): Find cues only in sentences with a candidate (:mod:`.prefilter`).
        prefilter_window (Optional[Sequence[int]]): With ``prefilter``, [before, after]:
            cut each such sentence to the tokens from ``before`` before its first
            candidate to ``after`` after its last (None: whole sentences).
        kinds (Sequence[str]): The kinds of cue it learns and finds (["negation"], or
            ["negation", "speculation"]).
        scorer (Optional[Callable]): The scoring method.
        """
        register_extensions()
        self.kinds = check_kinds(kinds)
        self.vocab = vocab
        self.model = model
        self.name = name
        self.lr_scale = lr_scale
        self.convention, self.annotate_unmarked = convention, annotate_unmarked
        self.prefilter = prefilter
        self._prefilter: Optional[CuePrefilter] = None
        self._prefilter_window = check_window(prefilter_window)
        self.decoder = make_cue_decoder_v3() if decoder is None else decoder
        self.scorer = scorer
        self.cfg: Dict[str, Any] = {
            "labels": [OUTSIDE],
            "affixes": {kind: {} for kind in AFFIX_KINDS},
            "multiword": [],
            "words": {},
            "cue_patterns": list(cue_patterns or []),
        }
        if SPECULATION in self.kinds:
            self.cfg["speculation"] = {"words": {}, "multiword": []}
        self._cue_patterns: Optional[CuePatterns] = cue_patterns_from_entries(vocab, cue_patterns)
        self._cue_patterns_given = cue_patterns is not None

    @property
    def prefilter_window(self) -> Optional[Tuple[int, int]]:
        """With ``prefilter``: the tokens kept before a sentence's first and after its
        last candidate (None: whole sentences). Settable (E367 unless None or two whole
        numbers of at least 0)."""
        return self._prefilter_window

    @prefilter_window.setter
    def prefilter_window(self, window: Optional[Sequence[int]]) -> None:
        self._prefilter_window = check_window(window)
        self._prefilter = None

    @property
    def affixes(self) -> Dict[str, Dict[str, int]]:
        """The learned affix lexicon (see ``AffixLexicon``)."""
        return self.cfg["affixes"]

    @property
    def multiword(self) -> List[Dict[str, Any]]:
        """The learned multiword lexicon (``MultiwordLexicon``); empty in older models."""
        return self.cfg.get("multiword", [])

    @property
    def words(self) -> Optional[Dict[str, List[int]]]:
        """The learned word lexicon (``WordLexicon``); None in older models."""
        return self.cfg.get("words")

    @property
    def speculation_lexicon(self) -> Optional[Dict[str, Any]]:
        """The learned lexicon of the speculation cues ({"words": ..., "multiword": ...},
        :func:`.label_data.learn_speculation_lexicons`; the prefilter's speculation
        candidates); None for a component without speculation."""
        return self.cfg.get("speculation") if SPECULATION in self.kinds else None

    def _kinds_changed(self) -> None:
        self._prefilter = None

    @property
    def cue_patterns(self) -> List[Dict[str, Any]]:
        """The entries of the user cue list (see :mod:`.patterns`); empty without one."""
        return self.cfg.get("cue_patterns") or []

    def set_cue_patterns(self, entries: List[Dict[str, Any]]) -> None:
        """Replace the user cue list (saved with the component).

        entries (List[Dict[str, Any]]): entries as ``load_cue_patterns`` returns them.
        """
        self._prefilter = None
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
        if self.speculation_lexicon is not None:
            data["speculation"] = speculation_lexicon_of(self.speculation_lexicon)
        return data

    @property
    def lexicons(self) -> CueLexicons:
        """The learned lexicons, as the decoder takes them."""
        words = self.words
        return CueLexicons(
            AffixLexicon(self.affixes), MultiwordLexicon(self.multiword),
            None if words is None else WordLexicon(words), lexicon_cue_words(self.model),
        )

    def predict(self, docs: Iterable[Doc]) -> List[Optional[numpy.ndarray]]:
        """Apply the pipeline's model to a batch of docs, without modifying them.

        docs (Iterable[Doc]): The documents to predict.
        RETURNS (List[Optional[numpy.ndarray]]): Per doc, the label id of each token,
            decoded so that every affix label fits its token and 'I' continues a 'B'
            cue; None for a doc the component does not annotate (``annotates``).
        """
        docs = list(docs)
        mine = [self.annotates(doc) for doc in docs]
        kept = [self.candidate_sentences(doc) if m and self.prefilter else None for doc, m in zip(docs, mine)]
        if not any(len(doc) and k != [] for doc, m, k in zip(docs, mine, kept) if m):
            return [numpy.zeros(len(doc), dtype="int32") if m else None for doc, m in zip(docs, mine)]
        scores = self.model.predict(docs)
        ids = [self._decode(doc, self.model.ops.to_numpy(s)) if m else None for doc, s, m in zip(docs, scores, mine)]
        return [i if i is None or k is None else only_in(i, k, self.labels.index(OUTSIDE)) for i, k in zip(ids, kept)]

    def candidate_sentences(self, doc: Doc) -> List[Tuple[int, int]]:
        """The token ranges (in order) of the sentences in which the component looks for
        cues: with ``prefilter``, those with a candidate cue, cut to the
        ``prefilter_window`` around the candidates where one is set (:mod:`.prefilter`);
        else all."""
        if not self.prefilter:
            return sentence_ranges(doc)[0]
        if self._prefilter is None:
            self._prefilter = CuePrefilter.of_component(self, stop_words(self.vocab))
        return self._prefilter.sentences(doc)

    def _decode(self, doc: Doc, scores: numpy.ndarray) -> numpy.ndarray:
        """The decoded label ids of one doc's scores (as ``predict`` gives them): with
        speculation labels, :func:`.speculation_decoding.decode_kinds` (the speculation cue
        tokens only while ``resolves_speculation``)."""
        labels = self.labels
        if not self._has_speculation_labels():
            return self.decoder.label_ids(doc, scores, labels, self.lexicons)
        return decode_kinds(self.decoder, doc, scores, labels, self.lexicons, speculation=self.resolves_speculation)

    def _has_speculation_labels(self) -> bool:
        return SPECULATION in self.kinds and any(label_kind(label) == SPECULATION for label in self.labels)

    def set_annotations(self, docs: Iterable[Doc], label_ids: Sequence[Optional[numpy.ndarray]]) -> None:
        """Write the predicted cues, with the user cue list applied, as the docs'
        negations (replacing any others), with empty scopes and events.

        docs (Iterable[Doc]): The documents to modify.
        label_ids (List[numpy.ndarray]): The label ids, produced by predict.
        """
        labels = self.labels
        lexicons = self.lexicons
        kinds = self._has_speculation_labels()
        speculation = kinds and self.resolves_speculation
        for doc, ids in zip(docs, label_ids):
            if ids is None:
                continue
            if kinds:
                local, negation_labels = negation_ids(ids, labels)
                cues = self.decoder.cues(doc, local, negation_labels, lexicons, name=self.name)
            else:
                cues = self.decoder.cues(doc, ids, labels, lexicons, name=self.name)
            if self._cue_patterns is not None:
                cues = self._cue_patterns.apply(doc, cues)
            elif PATTERNS_KEY in doc.spans:
                del doc.spans[PATTERNS_KEY]
            set_negations(doc, [{"cue": parts} for parts in cues])
            if speculation:
                set_speculations(doc, [{"cue": parts} for parts in speculation_cues(doc, ids, labels)])

    def _inputs_and_truths(self, examples: List[Example]) -> Tuple[List[Doc], List[List[Optional[str]]]]:
        """The predicted docs and the gold cue label of each of their tokens (unknown in
        the examples the component does not learn from)."""
        unknown: List[Optional[str]] = [None]
        truths = [self._gold_labels(eg) if self.learns_from(eg) else unknown * len(eg.predicted) for eg in examples]
        return [eg.predicted for eg in examples], truths

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
        self._prefilter = None
        validate_get_examples(get_examples, "NegationCue.initialize")
        get_examples = self._own_examples(get_examples)
        data = initial_label_data(get_examples, labels, words_corpus, self.vocab, kinds=self.kinds)
        for key in ("affixes", "multiword", "words"):
            self.cfg[key] = data[key]
        if SPECULATION in self.kinds:
            self.cfg["speculation"] = data["speculation"]
        for label in data["labels"]:
            self.add_label(label)
        if len(self.labels) < 2:
            raise ValueError(Errors.E301.format(name=self.name))
        self._initialize_model(get_examples, set_width=False)

    def add_label(self, label: str) -> int:
        """Add a cue label ('S', 'B', 'I', with an affix kind: 'S|prefix', or with the
        speculation kind: 'S|speculation').

        label (str): The label to add.
        RETURNS (int): 0 if label is already present, otherwise 1.
        """
        if not isinstance(label, str):
            raise ValueError(SpacyErrors.E187)
        if label in self.labels:
            return 0
        if label != OUTSIDE and label_kind(label) == SPECULATION and SPECULATION not in self.kinds:
            raise ValueError(Errors.E308.format(name=self.name, kinds=list(self.kinds), asked=[SPECULATION]))
        self._allow_extra_label()
        self.cfg["labels"].append(label)
        self.vocab.strings.add(label)
        return 1

    def _gold_labels(self, example: Example) -> List[Optional[str]]:
        """The gold cue label of each predicted token (None: unknown), of the kinds the
        component learns."""
        return [label for label, _ in gold_cue_labels(example, self.kinds)]

