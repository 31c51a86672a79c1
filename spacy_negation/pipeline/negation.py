"""``negation``: negation resolution for any pipeline (of the model's language).

``nlp.add_pipe("negation")`` loads a trained negation pipeline (by default the model of the
host pipeline's language, :data:`.model_loading.DEFAULT_MODELS`: for English the general
model ``en_negation_general`` that ``spacy project run all`` trains and installs, for Norwegian
Bokmål ``nb_negation_norec``, for Spanish the clinical ``es_negation_clinical``; another
one with ``config={"model": NAME_OR_PATH}``) and runs it on the host pipeline's own tokens:
for each doc it builds a doc with the same words and spaces in the model's vocab, copies
the host's sentence boundaries (a doc without them is segmented by spaCy's rule-based
``Sentencizer`` — the models work sentence by sentence — without changing the host doc),
runs the model, and copies the negations back to the host doc with the same token
indices, so ``doc._.negations``, ``token._.negated`` and ``ent._.negated`` work. A model
that resolves speculations too (its ``negation_cue`` and ``negation_scope`` with ``kinds =
["negation", "speculation"]``) has them copied the same way (``doc._.speculations``,
``token._.uncertain``, ``ent._.uncertain``), unless ``config={"speculation": False}``: then
the model's components neither decode nor resolve speculation cues, and the host docs
get none (their speculations are left as they were). That saves the speculation scopes
(one pass of the scope model's BiLSTM over each speculation cue's window, as for a
negation cue) and, with the cue component's prefilter, the sentences that only a
speculation cue word would have sent to the network. Without the prefilter the negations
are the same either way (a token whose best label is a speculation label is no negation
cue); with it, a sentence that only a speculation cue word sent to the network can also get
negation cues on words that are no negation candidates, and a ``prefilter_window`` can cut
the sentences around other candidates.

Serialization: the component stores the model *reference* (package name or path) in the
host pipeline's config, not the weights. ``nlp.to_disk`` + ``spacy.load`` load the model
again from that reference; ship the model package with the host pipeline (or use an
absolute path). ``nlp.pipe(..., n_process=2)`` works: each worker process holds its
copy (forked, or re-loaded from the reference when the component is pickled); with a
transformer model, set ``TOKENIZERS_PARALLELISM=false`` to silence the Hugging Face
tokenizers' warning about forking.

``config={"cue_patterns": ...}`` gives the model's ``negation_cue`` a user cue list
(a shipped list's name such as ``"en_clinical"``, a JSONL file path, or inline entries;
see :mod:`.cue.patterns`) in place of the model's own; the host config stores the setting,
so the list is read again when the host pipeline is loaded. The list's matches are
copied to the host doc's ``doc.spans["negation_patterns"]`` with the negations.

Speed: the component runs only the model's components that annotate the chosen
convention (a model with components per convention runs one cue and one scope component,
not all of them), and with ``quantize`` (the default) it runs the model's transformers
with int8 dynamically quantized linear layers (``spacy_negation.ml.quantize``); the
model's cue component's ``prefilter`` (on in the packaged general model) sends only the
sentences with a candidate cue to the network (with its ``prefilter_window``, only the
tokens around the candidates). ``results/speed.md`` measures each.
"""
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from spacy.language import Language
from spacy.pipeline import Pipe, Sentencizer
from spacy.tokens import Doc, SpanGroup
from spacy.util import minibatch

from ..errors import Errors, Warnings
from ..ml.quantize import quantize_transformers
from ..negation import register_extensions, set_convention, set_span_rule
from ..negation.span_rule import DEFAULT_SPAN_RULE, check_span_rule
from .cue.pattern_lists import Setting, load_cue_patterns
from .cue.patterns import PATTERNS_KEY, merge_pattern_matches
from .host_docs import Placement, VisibleTokens, merge_negations, merge_speculations, words_and_spaces
from .model_loading import DEFAULT_MODEL, default_model, load_negation_model

if TYPE_CHECKING:
    from .cue.component import NegationCue


@Language.factory(
    "negation",
    assigns=["doc.spans", "doc._.negations", "doc._.speculations"],
    default_config={"model": None, "batch_size": 1000, "cue_patterns": None, "convention": None,
                    "quantize": True, "span_negated": DEFAULT_SPAN_RULE, "speculation": True,
                    "scorer": {"@scorers": "spacy-negation.negation_scorer.v1"}},
    default_score_weights={"neg_nis_tok_f": 1.0, "neg_nis_tok_p": None, "neg_nis_tok_r": None,
                           "neg_cue_f": 0.0, "neg_cue_p": None, "neg_cue_r": None},
)
def make_negation(nlp: Language, name: str, model: Optional[str], batch_size: int, cue_patterns: Any,
                  convention: Optional[str], quantize: bool, span_negated: str, speculation: bool,
                  scorer: Optional[Callable]) -> "NegationResolver":
    """Create the negation resolver for a host pipeline.

    model (Optional[str]): the trained negation pipeline: an installed package name or a
        path; None (the default): the default model of the host pipeline's language
        (:func:`.model_loading.default_model`: ``en_negation_general``, ``nb_negation_norec``,
        ``es_negation_clinical``; E323 for another language).
    batch_size (int): docs per batch of the negation pipeline.
    cue_patterns (Any): a user cue list for the model's cue component, in place of
        its own (None: keep the model's); a ``Setting``, typed Any so that the package
        checks it (E350 for another type, not spaCy's config validation).
    convention (Optional[str]): for a model with components per annotation convention
        (the general English model: "bioscope", "cdsco", "sfu"), the convention to
        annotate in (None: the model's default).
    quantize (bool): run the model's transformers with int8 dynamically quantized linear
        layers (faster on CPU; see ``spacy_negation.ml.quantize``).
    span_negated (str): when a span (an entity) of the docs counts as negated:
        "outside_all" (a cue outside it whose scope covers all its words), "outside_any"
        or "any" (``spacy_negation.negation.span_rule``).
    speculation (bool): with a model that resolves speculations too, copy them to the host
        docs (True, the default); False: the model's components neither decode nor
        resolve speculation cues, which saves their scope-model passes (and, with a
        prefiltering model, the sentences only a speculation cue word sends to it;
        ``bench/bench_speculation_cost.py`` measures it), and the host docs get none.
    scorer (Optional[Callable]): the scoring method of ``nlp.evaluate`` (default: every
        *SEM 2012, NIS and FairEval key, ``spacy-negation.negation_scorer.v1``; the
        ``spec_*`` keys too when the reference docs have speculations).
    """
    if model is None:
        model = default_model(nlp.lang or "")
    resolver = NegationResolver(name, model=model, batch_size=batch_size, cue_patterns=cue_patterns,
                                convention=convention, quantize=quantize, span_negated=span_negated,
                                speculation=speculation, scorer=scorer)
    if resolver.negation_nlp.lang != nlp.lang:
        warnings.warn(Warnings.W301.format(model=model, model_lang=resolver.negation_nlp.lang,
                                           host_lang=nlp.lang))
    return resolver


class NegationResolver(Pipe):
    """Runs a trained negation pipeline on a host pipeline's docs and copies the
    negations back (see the module docstring)."""

    def __init__(self, name: str = "negation", *, model: str = DEFAULT_MODEL, batch_size: int = 1000,
                 cue_patterns: Setting = None, convention: Optional[str] = None, quantize: bool = True,
                 span_negated: str = DEFAULT_SPAN_RULE, speculation: bool = True,
                 scorer: Optional[Callable] = None) -> None:
        """Initialize the negation resolver.

        name (str): The component instance name.
        model (str): The trained negation pipeline: a package name or a path.
        batch_size (int): Docs per batch of the negation pipeline.
        cue_patterns (Setting): A user cue list for the model's cue component, in place
            of its own (None: keep the model's).
        convention (Optional[str]): The annotation convention to annotate in, for a
            model with components per convention (None: the model's default).
        quantize (bool): Run the model's transformers with int8 dynamically quantized
            linear layers.
        span_negated (str): When a span of the docs counts as negated
            (``spacy_negation.negation.span_rule``).
        speculation (bool): With a model that resolves speculations, copy them to the
            host docs; False: the model's components skip them.
        scorer (Optional[Callable]): The scoring method (None: no scores).
        """
        register_extensions()
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
            raise ValueError(Errors.E330.format(value=batch_size))
        self.name = name
        self.model_ref = model
        self.batch_size = batch_size
        if Path(model).exists() and not Path(model).is_absolute():
            warnings.warn(Warnings.W300.format(model=model))
        self.negation_nlp = load_negation_model(model)
        self.convention = convention
        self.cue = self._run_only_convention(convention)
        self.speculation = bool(speculation)
        #: Whether the model resolves speculations for the host docs (a component of it
        #: with speculation, and ``speculation`` on).
        self.resolves_speculation = self._run_speculation(self.speculation)
        self.cue_patterns = cue_patterns
        if cue_patterns is not None:
            if self.cue is None:
                raise ValueError(Errors.E332.format(model=model, pipes=", ".join(self.negation_nlp.pipe_names)))
            self.cue.set_cue_patterns(load_cue_patterns(cue_patterns, self.negation_nlp.make_doc))
        self.quantize = quantize
        self.span_negated = check_span_rule(span_negated)
        self.scorer = scorer
        if quantize:
            quantize_transformers(self.negation_nlp)
        self.sentencizer = Sentencizer()
        self.cfg: Dict[str, Any] = {"model": model, "batch_size": batch_size, "cue_patterns": cue_patterns,
                                    "convention": convention, "quantize": quantize, "span_negated": span_negated,
                                    "speculation": self.speculation}

    @property
    def conventions(self) -> List[str]:
        """The annotation conventions the model has components for, sorted (empty for a
        model of one convention, which annotates every doc in its own)."""
        from .base import NegationPipe

        return sorted({pipe.convention for _, pipe in self.negation_nlp.components
                       if isinstance(pipe, NegationPipe) and pipe.convention is not None})

    def _run_only_convention(self, convention: Optional[str]) -> Optional["NegationCue"]:
        """Keep enabled only the model's negation components that annotate the docs this
        resolver sends (marked with ``convention``, or unmarked for None; the others'
        output would be discarded), and return their cue component (None for a graph
        pipeline: its one component finds cues and scopes); E901 if none annotates that
        convention."""
        from .base import NegationPipe
        from .cue.component import NegationCue

        pipes = [(name, pipe) for name, pipe in self.negation_nlp.pipeline if isinstance(pipe, NegationPipe)]
        if convention is None:
            mine = [name for name, pipe in pipes if pipe.annotate_unmarked]
        elif all(pipe.convention is None for _, pipe in pipes):
            mine = []  # a single-convention model: no convention to choose
        else:
            mine = [name for name, pipe in pipes if pipe.convention in (convention, None)]
        if not mine:
            available = sorted({pipe.convention for _, pipe in pipes if pipe.convention is not None})
            raise ValueError(Errors.E901.format(model=self.model_ref, convention=convention,
                                                available=", ".join(available) or "none (one convention)"))
        for name, _ in pipes:
            if name not in mine:
                self.negation_nlp.disable_pipe(name)
        cues = [pipe for name, pipe in pipes if name in mine and isinstance(pipe, NegationCue)]
        return cues[0] if cues else None

    def _run_speculation(self, speculation: bool) -> bool:
        """Switch the speculation cues of the model's enabled negation components off
        (``active_kinds``) unless ``speculation``; return whether the model then resolves
        speculations (a cue component of it finds speculation cues)."""
        from .base import NegationPipe
        from .cue.component import NegationCue

        pipes = [pipe for name, pipe in self.negation_nlp.pipeline
                 if isinstance(pipe, NegationPipe) and name not in self.negation_nlp.disabled]
        for pipe in pipes:
            if "speculation" in pipe.kinds:
                pipe.active_kinds = pipe.kinds if speculation else ("negation",)
        return any(isinstance(pipe, NegationCue) and pipe.resolves_speculation for pipe in pipes)

    def __call__(self, doc: Doc) -> Doc:
        """Resolve the negations of one doc.

        doc (Doc): The host doc.
        RETURNS (Doc): The doc, with its negations.
        """
        for out in self.pipe([doc]):
            return out
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: Optional[int] = None) -> Iterator[Doc]:
        """Resolve the negations of a stream of docs.

        stream (Iterable[Doc]): The host docs.
        batch_size (Optional[int]): Docs per batch (default: the component's).
        YIELDS (Doc): The docs, with their negations, in order.
        """
        size = batch_size or self.batch_size
        cue = self.cue
        for batch in minibatch(stream, size):
            pieces = [self.model_pieces(doc, cue) for doc in batch]
            results = iter(self.negation_nlp.pipe([d for ps in pieces for d, _ in ps], batch_size=size))
            for doc, ps in zip(batch, pieces):
                done = [(next(results), where) for _, where in ps]
                merge_negations(done, doc)
                if self.resolves_speculation:
                    merge_speculations(done, doc)
                merge_pattern_matches(done, doc)
                set_span_rule(doc, self.span_negated)
                if not done and cue is not None and cue.cue_patterns:
                    doc.spans[PATTERNS_KEY] = SpanGroup(doc, name=PATTERNS_KEY)
                yield doc

    def model_pieces(self, doc: Doc, cue: Optional["NegationCue"]) -> List[Tuple[Doc, Placement]]:
        """The docs for the negation pipeline of one host doc, with where their tokens
        lie in it (the first one's index): the model doc; with the cue component's
        ``prefilter``, a doc per sentence with a candidate cue (none for a doc without
        one). Of a doc with characters a reader does not see (format characters, ANSI
        escapes), the docs have the visible text of its tokens, placed by a token map
        (:mod:`.host_docs`).

        doc (Doc): The host doc.
        cue (Optional[NegationCue]): The model's cue component that annotates it (None
            for a graph pipeline: no prefilter).
        RETURNS (List[Tuple[Doc, Placement]]): The docs and their placements.
        """
        shown = VisibleTokens.of_doc(doc) if len(doc) else None
        if shown is not None:
            return self._visible_pieces(shown, cue)
        if cue is not None and cue.prefilter and len(doc) and doc.has_annotation("SENT_START") and not cue.cue_patterns:
            # the prefilter reads only the token texts: no model doc for the other sentences
            ranges = cue.candidate_sentences(doc)
            if not ranges:
                return []
            words, spaces = words_and_spaces(doc)
            return [(self._piece(words[start:end], spaces[start:end]), start) for start, end in ranges]
        model_doc = self.model_doc(doc)
        if cue is None or not cue.prefilter or not len(model_doc):
            return [(model_doc, 0)]
        ranges = cue.candidate_sentences(model_doc)
        if ranges == [(0, len(model_doc))]:
            return [(model_doc, 0)]
        words, spaces = words_and_spaces(model_doc)
        return [(self._piece(words[start:end], spaces[start:end]), start) for start, end in ranges]

    def _visible_pieces(self, shown: VisibleTokens, cue: Optional["NegationCue"]) -> List[Tuple[Doc, Placement]]:
        """:meth:`model_pieces` of a host doc with hidden characters: the model doc of
        its visible tokens, or its candidate sentences, each with its token map."""
        if not shown.words:
            return []
        model_doc = self._new_model_doc(shown.words, shown.spaces, shown.sent_starts)
        ranges = [(0, len(model_doc))]
        if cue is not None and cue.prefilter:
            ranges = cue.candidate_sentences(model_doc)
        if ranges == [(0, len(model_doc))]:
            return [(model_doc, shown.placement(0, len(model_doc)))]
        return [(self._piece(shown.words[start:end], shown.spaces[start:end]), shown.placement(start, end))
                for start, end in ranges]

    def _piece(self, words: List[str], spaces: List[bool]) -> Doc:
        """A doc in the negation pipeline's vocab of one sentence (its words and
        spaces), marked with the convention."""
        starts: List[Union[bool, int, None]] = [True, *([False] * (len(words) - 1))]
        piece = Doc(self.negation_nlp.vocab, words=words, spaces=spaces, sent_starts=starts)
        set_convention(piece, self.convention)
        return piece

    def model_doc(self, doc: Doc) -> Doc:
        """A doc in the negation pipeline's vocab with the host doc's words, spaces
        and sentence starts (set by the sentencizer if the host doc has none).

        doc (Doc): The host doc.
        RETURNS (Doc): The doc for the negation pipeline.
        """
        words, spaces = words_and_spaces(doc)
        sent_starts = [bool(t.is_sent_start) for t in doc] if doc.has_annotation("SENT_START") else None
        return self._new_model_doc(words, spaces, sent_starts)

    def _new_model_doc(self, words: List[str], spaces: List[bool], sent_starts: Optional[List[bool]]) -> Doc:
        """A doc in the negation pipeline's vocab with these words, spaces and sentence
        starts (None: set by the sentencizer), marked with the convention."""
        if sent_starts is not None:
            starts: List[Union[bool, int, None]] = list(sent_starts)
            model_doc = Doc(self.negation_nlp.vocab, words=words, spaces=spaces, sent_starts=starts)
        else:
            model_doc = Doc(self.negation_nlp.vocab, words=words, spaces=spaces)
            model_doc = self.sentencizer(model_doc) if len(model_doc) else model_doc
        set_convention(model_doc, self.convention)
        return model_doc

    def __reduce__(self) -> Tuple[Callable, Tuple[Any, ...]]:
        return (_rebuild, (self.name, self.model_ref, self.batch_size, self.cue_patterns, self.convention,
                           self.quantize, self.span_negated, self.scorer, self.speculation))


def _rebuild(name: str, model: str, batch_size: int, cue_patterns: Setting = None,
             convention: Optional[str] = None, quantize: bool = True, span_negated: str = DEFAULT_SPAN_RULE,
             scorer: Optional[Callable] = None, speculation: bool = True) -> NegationResolver:
    """The resolver again from its settings (unpickling; in a worker process of
    ``nlp.pipe(..., n_process=N)`` started by ``spawn`` or ``forkserver``, where the at-fork
    hook of ``spacy_negation.ml.fork`` does not run: there torch gets one thread unless
    ``OMP_NUM_THREADS`` says otherwise, as forked workers do)."""
    import multiprocessing
    import os

    if multiprocessing.parent_process() is not None and "OMP_NUM_THREADS" not in os.environ:
        from thinc.compat import torch

        if torch is not None:
            torch.set_num_threads(1)
    return NegationResolver(name, model=model, batch_size=batch_size, cue_patterns=cue_patterns,
                            convention=convention, quantize=quantize, span_negated=span_negated, scorer=scorer,
                            speculation=speculation)
