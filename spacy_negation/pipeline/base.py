"""What the two trainable negation components share: a training step that runs the
model once over a batch and takes a per-token categorical cross-entropy against gold
labels, a per-component learning-rate factor, and the load-time migration of the decoder
settings that pipelines trained before the registered decoders existed keep on the
component."""
import json
import warnings
from importlib.metadata import entry_points
from dataclasses import fields, is_dataclass, replace
from itertools import islice
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, TypeVar, cast

from thinc.api import Model, Optimizer, SequenceCategoricalCrossentropy, set_dropout_rate
from thinc.types import Floats2d

from spacy.errors import Errors as SpacyErrors
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples

from ..distill.loss import distilled_loss
from ..distill.targets import teacher_targets
from ..errors import Errors, Warnings
from ..negation import get_convention
from ..ml.lr_scale import layer_lr_scales
from ._util import ScaledOptimizer, one_hot

D = TypeVar("D")


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


#: Per factory whose config keeps flat copies of its decoder's settings: their former
#: defaults (the built-in decoder's) and those for which None is a value in a config written
#: by the former code (see ``with_flat_settings``); filled by the component modules.
FLAT_DECODER_SETTINGS: Dict[str, Tuple[Dict[str, Any], Tuple[str, ...]]] = {}

#: Per factory: the earlier versions of its default decoder, whose config blocks take the
#: same settings (a block of one of them leaving a setting out gets its former default).
EARLIER_DECODERS: Dict[str, Tuple[str, ...]] = {}


def with_flat_settings(name: str, decoder: D, flat: Dict[str, Optional[Any]], defaults: Dict[str, Any],
                       nullable: Sequence[str] = ()) -> D:
    """The decoder with the flat decoder settings of a component config folded in: the
    load-time migration of configs written before the decoder block was the one way to
    set them (pipelines trained then keep them on the component). A flat setting of None
    is unset (the factories' default); one other than its former default replaces the
    decoder's setting of that name, with a deprecation warning (W304); one at its former
    default changes nothing, as before.

    In a config written by the former code every flat setting is present (spaCy wrote the
    defaults): there, and only there, a None of a ``nullable`` setting (whose former
    default is not None) is a value, as it was then (``affix_threshold = null``: never).

    name (str): the component's name, for messages.
    decoder (D): the decoder of the config (a dataclass with those settings).
    flat (Dict[str, Optional[Any]]): the flat settings (None: unset).
    defaults (Dict[str, Any]): their former defaults (those of the built-in decoder).
    nullable (Sequence[str]): the settings for which None is a value in a config written
        by the former code.
    RETURNS (D): the decoder to use.
    RAISES (ValueError): the decoder has no such setting (E361), or sets another value
        than its default and the flat setting's (E360).
    """
    current = {field.name: getattr(decoder, field.name) for field in fields(decoder)} if is_dataclass(decoder) else {}
    changed = _flat_changes(name, current, flat, defaults, nullable)
    if not changed:
        return decoder
    settings = ", ".join(f"{key} = {json.dumps(value)}" for key, value in changed.items())
    warnings.warn(Warnings.W304.format(name=name, settings=settings), DeprecationWarning, stacklevel=2)
    return replace(decoder, **changed)  # type: ignore[type-var]


def _flat_changes(name: str, current: Dict[str, Any], flat: Dict[str, Optional[Any]], defaults: Dict[str, Any],
                  nullable: Sequence[str]) -> Dict[str, Any]:
    """The decoder settings that the flat settings replace (see ``with_flat_settings``).

    name (str): the component's name, for error messages.
    current (Dict[str, Any]): the decoder's settings.
    flat (Dict[str, Optional[Any]]): the flat settings.
    defaults (Dict[str, Any]): their former defaults.
    nullable (Sequence[str]): the settings for which None is a value in a full config.
    RETURNS (Dict[str, Any]): setting -> the value that replaces the decoder's.
    """
    written = all(value is not None for key, value in flat.items() if key not in nullable and defaults[key] is not None)
    given = {key: value for key, value in flat.items() if value is not None or (written and key in nullable)}
    changed = {key: value for key, value in given.items() if value != defaults[key]}
    if not set(changed) <= set(current):
        raise ValueError(Errors.E361.format(name=name, settings=", ".join(sorted(set(changed) - set(current)))))
    for key, value in changed.items():
        if current[key] != defaults[key] and current[key] != value:
            raise ValueError(Errors.E360.format(name=name, key=key, flat=value, decoder=current[key]))
    return changed


def decoder_settings(name: str, section: Dict[str, Any]) -> Dict[str, Any]:
    """The settings of a component's decoder as a section of a pipeline's config gives
    them: those of its decoder block (the factory's default decoder where there is none;
    its defaults where the block leaves a setting out), with the flat settings of a
    config written before the block existed folded in, as loading does (without its
    warning).

    name (str): the component's name, for error messages.
    section (Dict[str, Any]): the component's config section (``[components.NAME]``).
    RETURNS (Dict[str, Any]): the decoder block's settings, "@misc" included.
    """
    factory = section["factory"]
    if not Language.has_factory(factory):
        # a factory of an installed package is registered, with its meta, when its module
        # is imported: what a Language instance does for every spacy_factories entry point
        for entry_point in entry_points(group="spacy_factories", name=factory):
            entry_point.load()
    default_block = dict((Language.get_factory_meta(factory).default_config or {}).get("decoder") or {})
    block = dict(section.get("decoder") or default_block)
    defaults, nullable = FLAT_DECODER_SETTINGS.get(factory, ({}, ()))
    if block.get("@misc") == default_block.get("@misc") or block.get("@misc") in EARLIER_DECODERS.get(factory, ()):
        block = {**defaults, **block}
    flat = {key: section.get(key) for key in defaults}
    current = {key: value for key, value in block.items() if not key.startswith("@")}
    return {**block, **_flat_changes(name, current, flat, defaults, nullable)}


def decoder_overrides(components: Dict[str, Any], settings: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    """Overrides of a saved pipeline's config (``spacy.load(path, config=...)``) that set
    decoder settings of its components, whichever way its config holds them: a dotted
    ``components.NAME.decoder.KEY`` override needs a decoder block and is undone by a flat
    setting of a config written before the block existed. Each component gets its whole
    decoder block (``decoder_settings`` with the new settings) and its flat settings unset.

    components (Dict[str, Any]): the "components" section of the pipeline's config.
    settings (Dict[str, Dict[str, Any]]): component name -> decoder setting -> value.
    RETURNS (Dict[str, Any]): the overrides, in dot notation.
    """
    overrides: Dict[str, Any] = {}
    for name, values in settings.items():
        section = components[name]
        overrides[f"components.{name}.decoder"] = {**decoder_settings(name, section), **values}
        defaults = FLAT_DECODER_SETTINGS.get(section["factory"], ({}, ()))[0]
        overrides.update({f"components.{name}.{key}": None for key in defaults if key in section})
    return overrides


def with_decoder_overrides(components: Dict[str, Any], overrides: Dict[str, Any]) -> Dict[str, Any]:
    """Config overrides in dot notation with those of decoder settings
    (``components.NAME.decoder.KEY``) made to hold for a saved pipeline's config, whichever
    way it holds them (``decoder_overrides``); the others as given, after them.

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
