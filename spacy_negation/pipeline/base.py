"""What the trainable negation components share: a training step that runs the model
once over a batch and takes a per-token categorical cross-entropy against gold labels, a
per-component learning-rate factor, the kinds of instance a component resolves
(``kinds``: negations, and speculations beside them) and the settings of a component's
decoder as a pipeline's config gives them (for config overrides at load time)."""
import inspect
from importlib.metadata import entry_points
from itertools import islice
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, cast

from thinc.api import Model, Optimizer, SequenceCategoricalCrossentropy, set_dropout_rate
from thinc.types import Floats2d

from spacy.errors import Errors as SpacyErrors
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples
from spacy.util import registry

from ..distill.loss import distilled_loss
from ..distill.targets import teacher_targets
from ..errors import Errors
from ..negation import KINDS, get_convention
from ..ml.lr_scale import layer_lr_scales
from ._util import ScaledOptimizer, one_hot

#: The kinds of instance a trainable component can resolve, in their canonical order.
KIND_ORDER: Tuple[str, ...] = ("negation", "speculation")
#: The default of the components' ``kinds`` setting: negations only.
NEGATION_ONLY: Tuple[str, ...] = ("negation",)


def check_kinds(kinds: Any) -> Tuple[str, ...]:
    """A component's ``kinds`` setting, checked (E306 unless a list of distinct kinds of
    instance, with 'negation') and in the canonical order.

    kinds (Any): the setting, e.g. ["negation", "speculation"].
    RETURNS (Tuple[str, ...]): the kinds, negation first.
    """
    values = list(kinds) if isinstance(kinds, (list, tuple)) else None
    if (values is None or not all(isinstance(k, str) and k in KINDS for k in values)
            or len(set(values)) != len(values) or "negation" not in values):
        raise ValueError(Errors.E306.format(value=repr(kinds), known=", ".join(KIND_ORDER)))
    return tuple(k for k in KIND_ORDER if k in values)


class NegationPipe(TrainablePipe):
    """A trainable negation component: the model maps an input built from a batch of
    examples to one score array per gold label sequence (``_inputs_and_truths``).
    Subclasses set ``model``, ``name``, ``cfg["labels"]`` and ``lr_scale``."""

    model: Model
    lr_scale: float
    #: The annotation convention of the examples the component learns from and of the
    #: docs it annotates (see ``spacy_negation.negation.convention``); None: all.
    convention: Optional[str] = None
    #: Whether the component annotates docs without a convention mark.
    annotate_unmarked: bool = True
    #: The kinds of instance the component learns and resolves (its ``kinds`` setting).
    kinds: Tuple[str, ...] = NEGATION_ONLY
    #: The kinds it resolves at run time, if fewer (``active_kinds``).
    _active_kinds: Optional[Tuple[str, ...]] = None

    @property
    def active_kinds(self) -> Tuple[str, ...]:
        """The kinds of instance the component resolves when it annotates docs: its
        ``kinds``, or fewer of them where an application switched some off (the
        ``negation`` host component's ``speculation = false``: the speculation cues are
        then neither decoded nor resolved). Settable to a subset of ``kinds`` with
        'negation' (E306 otherwise, E308 for a kind the component was not trained for);
        not saved with the component.
        """
        return self.kinds if self._active_kinds is None else self._active_kinds

    @active_kinds.setter
    def active_kinds(self, kinds: Any) -> None:
        checked = check_kinds(kinds)
        missing = [kind for kind in checked if kind not in self.kinds]
        if missing:
            raise ValueError(Errors.E308.format(name=self.name, kinds=list(self.kinds), asked=missing))
        self._active_kinds = None if checked == self.kinds else checked
        self._kinds_changed()

    @property
    def resolves_speculation(self) -> bool:
        """Whether the component finds or resolves speculation cues when it annotates docs."""
        return "speculation" in self.active_kinds

    def _kinds_changed(self) -> None:
        """Called when ``active_kinds`` changes (a cue component's prefilter reads them)."""

    def learns_from(self, example: Example) -> bool:
        """Whether the component learns from an example: its reference carries the
        component's convention (any example when the component has none).

        example (Example): the example.
        RETURNS (bool): whether it learns from it.
        """
        return self.convention is None or get_convention(example.reference) == self.convention

    def annotates(self, doc: Doc) -> bool:
        """Whether the component annotates a doc: a doc marked with a convention is
        annotated by the components of that convention (or of none), an unmarked doc by
        the components with ``annotate_unmarked``.

        doc (Doc): the doc.
        RETURNS (bool): whether it annotates it.
        """
        mark = get_convention(doc)
        if mark is None:
            return self.annotate_unmarked
        return self.convention is None or mark == self.convention

    def _own_examples(self, get_examples: Callable[[], Iterable[Example]]) -> Callable[[], Iterator[Example]]:
        """``get_examples`` restricted to the examples the component learns from."""

        def own() -> Iterator[Example]:
            return (eg for eg in get_examples() if self.learns_from(eg))

        return own

    @property
    def labels(self) -> Tuple[str, ...]:
        """The labels, in the order of the model's score columns.

        RETURNS (Tuple[str]): The labels.
        """
        return tuple(self.cfg["labels"])

    def _inputs_and_truths(self, examples: List[Example]) -> Tuple[Any, Sequence[Sequence[Optional[str]]]]:
        """The model input of a batch and the gold label sequences (None: unknown)."""
        raise NotImplementedError

    def _initialize_model(self, get_examples: Callable[[], Iterable[Example]], *, set_width: bool = True) -> None:
        """Initialize the model on a sample (the first 10) of the examples, with their gold
        labels one-hot; E923 if there is none.

        get_examples (Callable[[], Iterable[Example]]): returns the examples.
        set_width (bool): set the model's output width ``nO`` to the number of labels first.
        """
        sample = list(islice(get_examples(), 10))
        if not sample:
            raise ValueError(SpacyErrors.E923.format(name=self.name))
        inputs, truths = self._inputs_and_truths(sample)
        if set_width:
            self.model.set_dim("nO", len(self.labels))
        self.model.initialize(X=inputs, Y=self._label_sample(truths))

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
        validate_examples(examples, f"{type(self).__name__}.update")
        examples = list(examples)
        if not any(len(eg.predicted) for eg in examples):
            return losses
        set_dropout_rate(self.model, drop)
        inputs, truths = self._inputs_and_truths(examples)
        # Always run the model: a listener must pass its (possibly zero) gradient on.
        scores, bp_scores = self.model.begin_update(inputs)
        for s in scores:
            if self.model.ops.xp.isnan(s.sum()):
                raise ValueError(SpacyErrors.E940)
        taught = teacher_targets(examples, self)
        if taught is None:
            loss, d_scores = self._loss(truths, scores)
        else:
            loss, d_scores = self._distilled_loss(truths, scores, *taught)
        bp_scores(d_scores)
        if sgd not in (None, False):  # type: ignore[comparison-overlap]  # spaCy passes sgd=False to skip the update
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
        validate_examples(examples, f"{type(self).__name__}.get_loss")
        _, truths = self._inputs_and_truths(list(examples))
        return self._loss(truths, scores)

    def _loss(self, truths: Sequence[Sequence[Optional[str]]], scores: List[Floats2d]) -> Tuple[float, List[Floats2d]]:
        """The summed cross-entropy of the scores against the gold labels (a label the
        component does not have counts as unknown) and its gradient."""
        if not truths:
            return 0.0, []
        labels = self.labels
        truths = [[t if t in labels else None for t in seq] for seq in truths]
        loss_func = SequenceCategoricalCrossentropy(names=labels, normalize=False)
        d_scores, loss = loss_func(scores, cast(Any, truths))  # None: a missing label
        if self.model.ops.xp.isnan(loss):
            raise ValueError(SpacyErrors.E910.format(name=self.name))
        return float(loss), d_scores

    def _distilled_loss(self, truths: Sequence[Sequence[Optional[str]]], scores: List[Floats2d], weight: float,
                        unlabelled: bool, soft: List[Floats2d]) -> Tuple[float, List[Floats2d]]:
        """The loss against the gold labels and a teacher's distributions
        (:func:`spacy_negation.distill.loss.distilled_loss`) and its gradient."""
        if len(truths) != len(scores):
            raise ValueError(Errors.E310.format(n_scores=len(scores), n_truths=len(truths)))
        if len(soft) != len(scores) or any(q.shape != s.shape for q, s in zip(soft, scores)):
            raise ValueError(Errors.E368.format(name=self.name, n_soft=len(soft), n_scores=len(scores)))
        index = {label: i for i, label in enumerate(self.labels)}
        gold = [[None if t is None else index.get(t) for t in seq] for seq in truths]  # None: unknown
        loss, grads = distilled_loss([self.model.ops.to_numpy(s) for s in scores], gold, soft, weight, unlabelled)
        if self.model.ops.xp.isnan(loss):
            raise ValueError(SpacyErrors.E910.format(name=self.name))
        return loss, [self.model.ops.asarray2f(g) for g in grads]

    def _label_sample(self, truths: Sequence[Sequence[Optional[str]]]) -> List[Floats2d]:
        """One-hot rows of gold label sequences, for ``model.initialize``."""
        labels = self.labels
        return [
            self.model.ops.asarray2f(
                cast(Floats2d, one_hot([labels.index(t) if t in labels else None for t in seq], len(labels)))
            )
            for seq in truths
        ]

    def finish_update(self, sgd: Optimizer) -> None:
        """Update parameters using the current parameter gradients, with the
        component's learning-rate factor.

        sgd (thinc.api.Optimizer): The optimizer.
        """
        layers = layer_lr_scales(self.model)
        if self.lr_scale == 1.0 and not layers:
            self.model.finish_update(sgd)
        else:
            self.model.finish_update(cast(Optimizer, ScaledOptimizer(sgd, self.lr_scale, layers)))


def decoder_settings(section: Dict[str, Any]) -> Dict[str, Any]:
    """The settings of a component's decoder as a section of a pipeline's config gives
    them: those of its decoder block (the factory's default decoder where there is none),
    with the registered decoder's defaults where the block leaves a setting out.

    section (Dict[str, Any]): the component's config section (``[components.NAME]``).
    RETURNS (Dict[str, Any]): the decoder block's settings, "@misc" included.
    """
    factory = section["factory"]
    if not Language.has_factory(factory):
        # a factory of an installed package is registered, with its meta, when its module
        # is imported: what a Language instance does for every spacy_factories entry point
        for entry_point in entry_points(group="spacy_factories", name=factory):
            entry_point.load()
    block = dict(section.get("decoder") or (Language.get_factory_meta(factory).default_config or {}).get("decoder") or {})
    make = registry.misc.get(block["@misc"])
    defaults = {name: param.default for name, param in inspect.signature(make).parameters.items()
                if param.default is not inspect.Parameter.empty}
    return {"@misc": block["@misc"], **defaults, **block}


def decoder_overrides(components: Dict[str, Any], settings: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    """Overrides of a pipeline's config (``spacy.load(path, config=...)``) that set
    decoder settings of its components: each component gets its whole decoder block
    (``decoder_settings`` with the new settings), so that the overrides hold whether or
    not the config spells the block out.

    components (Dict[str, Any]): the "components" section of the pipeline's config.
    settings (Dict[str, Dict[str, Any]]): component name -> decoder setting -> value.
    RETURNS (Dict[str, Any]): the overrides, in dot notation.
    """
    return {f"components.{name}.decoder": {**decoder_settings(components[name]), **values}
            for name, values in settings.items()}


def with_decoder_overrides(components: Dict[str, Any], overrides: Dict[str, Any]) -> Dict[str, Any]:
    """Config overrides in dot notation with those of decoder settings
    (``components.NAME.decoder.KEY``) as whole decoder blocks (``decoder_overrides``); the
    others as given, after them.

    components (Dict[str, Any]): the "components" section of the pipeline's config.
    overrides (Dict[str, Any]): the overrides, e.g. {"components.negation_cue.decoder.
        min_word_precision": 0.2}.
    RETURNS (Dict[str, Any]): overrides for ``spacy.load(path, config=...)``.
    """
    settings: Dict[str, Dict[str, Any]] = {}
    others: Dict[str, Any] = {}
    for key, value in overrides.items():
        parts = key.split(".")
        if len(parts) == 4 and parts[0] == "components" and parts[2] == "decoder" and parts[1] in components:
            settings.setdefault(parts[1], {})[parts[3]] = value
        else:
            others[key] = value
    return {**decoder_overrides(components, settings), **others}
