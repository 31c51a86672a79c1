"""A teacher's soft targets on training examples: each negation component of the teacher
runs its model on the inputs the same component of the student learns from (the gold
cues' windows for a scope component: the teacher is forced onto the gold cues, as the
student is), and the distributions are attached to the example, per component.

Speculation: a component that learns both kinds (``kinds = ["negation",
"speculation"]``) learns the teacher's distributions over all its cue labels (the
speculation labels among them) and on the windows of the gold speculation cues too (each
window with its kind, after the negation cues' windows of its example), as the
component's ``_inputs_and_truths`` gives them; so teacher and student components must
have the same kinds (:func:`shared_components`, E377)."""
import weakref
from itertools import count
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Protocol, Sequence, Tuple, cast

from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from thinc.api import Model
from thinc.types import Floats2d

from ..errors import Errors

if TYPE_CHECKING:
    from ..pipeline.base import NegationPipe

#: A teacher component's distributions over one example's sequences, as attached to the
#: example (plain values, so that the doc still serializes): "teacher" (its name or path),
#: "labels" (the columns), "weight" (the teacher's weight in the student's loss),
#: "unlabelled" (whether rows without a gold label learn from the teacher) and "arrays"
#: (one array per sequence, in the order of the component's ``_inputs_and_truths``).
TeacherTargets = Dict[str, Any]


def _key(name: str) -> Tuple[str, str, str]:
    """The ``user_data`` key of a component's targets on an example's reference doc."""
    return ("spacy-negation", "teacher", name)


#: The ``user_data`` key of an example whose targets are still to be computed: the id of
#: the provider that computes them (a plain value, so that the doc still serializes).
PENDING_KEY = ("spacy-negation", "teacher", "pending")


class TargetProvider(Protocol):
    """What computes an example's pending targets (a DistilledCorpus)."""

    def resolve(self, examples: Sequence[Example]) -> None:
        """Attach the targets of the examples (then no longer pending)."""


_PROVIDERS: "weakref.WeakValueDictionary[int, TargetProvider]" = weakref.WeakValueDictionary()
_PROVIDER_IDS = count(1)


def register_provider(provider: TargetProvider) -> int:
    """Register a provider of pending targets; RETURNS (int): its id for :func:`mark_pending`."""
    provider_id = next(_PROVIDER_IDS)
    _PROVIDERS[provider_id] = provider
    return provider_id


def mark_pending(eg: Example, provider_id: int) -> None:
    """Mark an example's targets as pending: the provider computes them when a component
    first learns from the example (:func:`teacher_targets`), so that examples read but
    never learned from (e.g. while a pipeline initializes) cost no teacher call."""
    _store(eg.reference)[PENDING_KEY] = provider_id


def resolve_pending(examples: Sequence[Example]) -> None:
    """Compute the pending targets of a batch, per provider.

    RAISES (ValueError): an example's provider no longer exists (E435).
    """
    groups: Dict[int, List[Example]] = {}
    for eg in examples:
        provider_id = _store(eg.reference).get(PENDING_KEY)
        if provider_id is not None:
            groups.setdefault(int(provider_id), []).append(eg)
    for provider_id, group in groups.items():
        provider = _PROVIDERS.get(provider_id)
        if provider is None:
            raise ValueError(Errors.E435)
        provider.resolve(group)
        for eg in group:
            _store(eg.reference).pop(PENDING_KEY, None)


def _store(doc: Doc) -> Dict[Any, Any]:
    """A doc's ``user_data`` (tuple keys, as spaCy's own extension values have)."""
    return cast(Dict[Any, Any], doc.user_data)


def teacher_targets(examples: Sequence[Example], pipe: "NegationPipe") -> Optional[Tuple[float, bool, List[Floats2d]]]:
    """The teacher's targets of a batch for a student component, aligned with the
    sequences of its ``_inputs_and_truths`` (pending ones computed first): None when no
    example carries targets for it.

    examples (Sequence[Example]): the batch.
    pipe (NegationPipe): the student component (its name and labels).
    RETURNS (Optional[Tuple[float, bool, List[Floats2d]]]): (the teacher's weight, whether
        rows without a gold label learn from it, one array per sequence).
    RAISES (ValueError): only some examples carry targets (E362), the teacher's labels
        are not the component's (E363), or a pending example's reader is gone (E435).
    """
    resolve_pending(examples)
    found: List[Optional[TeacherTargets]] = [_store(eg.reference).get(_key(pipe.name)) for eg in examples]
    have = [t for t in found if t is not None]
    if not have:
        return None
    if len(have) != len(found):
        raise ValueError(Errors.E362.format(name=pipe.name, n=len(found) - len(have), total=len(found)))
    labels = list(pipe.labels)
    for t in have:
        if list(t["labels"]) != labels:
            raise ValueError(Errors.E363.format(name=pipe.name, teacher=t["teacher"], theirs=list(t["labels"]),
                                                ours=labels))
    return float(have[0]["weight"]), bool(have[0]["unlabelled"]), [array for t in have for array in t["arrays"]]


def attach_teacher_targets(teacher: Language, teacher_name: str, examples: Sequence[Example],
                           names: Sequence[str], weight: float, unlabelled: bool = False) -> None:
    """Run the teacher on a batch and attach, per component name, its distributions to
    each example (``eg.reference.user_data``; read by :func:`teacher_targets`).

    The teacher sees the words (and sentence starts) of each predicted doc: its components
    before the first negation component (the transformer) run on a copy of them, then
    each named negation component's model predicts the inputs that the component builds
    from the examples, as in training.

    teacher (Language): the teacher pipeline.
    teacher_name (str): its name or path, for messages.
    examples (Sequence[Example]): the batch.
    names (Sequence[str]): the teacher's negation components to take targets from.
    weight (float): the teacher's weight in the student's loss.
    unlabelled (bool): whether rows without a gold label (e.g. the cue component's rows of
        sentences in another convention) learn from the teacher.
    RAISES (ValueError): the teacher's outputs do not match its inputs (E364).
    """
    from ..pipeline.base import NegationPipe

    docs = [_teacher_doc(teacher, eg.predicted) for eg in examples]
    for _, proc in teacher.pipeline:
        if isinstance(proc, NegationPipe):
            break
        docs = list(proc.pipe(docs)) if hasattr(proc, "pipe") else [proc(doc) for doc in docs]
    taught = [Example(doc, eg.reference) for doc, eg in zip(docs, examples)]
    for name in names:
        pipe = teacher.get_pipe(name)
        assert isinstance(pipe, NegationPipe)
        counts = [len(pipe._inputs_and_truths([eg])[1]) for eg in taught]
        inputs, truths = pipe._inputs_and_truths(taught)
        arrays = [pipe.model.ops.to_numpy(a).astype("float32") for a in _predict_distributions(pipe.model, inputs)] \
            if truths else []
        if len(arrays) != sum(counts) or any(len(a) != len(t) for a, t in zip(arrays, truths)):
            raise ValueError(Errors.E364.format(teacher=teacher_name, name=name))
        start = 0
        labels = list(pipe.labels)
        for eg, n in zip(examples, counts):
            _store(eg.reference)[_key(name)] = {"teacher": teacher_name, "labels": labels, "weight": weight,
                                                "unlabelled": unlabelled, "arrays": arrays[start:start + n]}
            start += n


def _teacher_doc(teacher: Language, doc: Doc) -> Doc:
    """A doc in the teacher's vocab with a predicted doc's words, spaces and sentence starts."""
    sent_starts = [bool(t.is_sent_start) for t in doc] if doc.has_annotation("SENT_START") else None
    return Doc(teacher.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc],
               sent_starts=cast(Any, sent_starts))


def _predict_distributions(model: Model, inputs: Any) -> List[Floats2d]:
    """The model's predictions as distributions: its softmax layers normalize their output
    (``Softmax_v2(normalize_outputs=False)`` leaves scores unnormalized at prediction, as
    the components' architectures do) for the call."""
    layers = [node for node in model.walk() if "softmax_normalize" in node.attrs]
    saved = [node.attrs["softmax_normalize"] for node in layers]
    try:
        for node in layers:
            node.attrs["softmax_normalize"] = True
        return list(model.predict(inputs))
    finally:
        for node, value in zip(layers, saved):
            node.attrs["softmax_normalize"] = value


def shared_components(teacher: Language, student: Language, names: Optional[Sequence[str]]) -> List[str]:
    """The negation components to distil: the named ones, or every negation component
    that the teacher and the student both have (by name); each must be a negation
    component of both, with the same convention and the same kinds (``kinds``: a
    component of both kinds learns the teacher's distributions over the speculation cue
    labels and on the speculation cue windows as over the negation ones).

    teacher (Language): the teacher.
    student (Language): the student.
    names (Optional[Sequence[str]]): the components, or None for all shared.
    RETURNS (List[str]): the names, in the teacher's pipeline order.
    RAISES (ValueError): a named component is missing or not a negation component (E365),
        conventions differ (E366), kinds differ (E377), none is shared (E365), or a
        teacher's component gives no distributions (E369: a graph parser scores arcs).
    """
    from ..pipeline.base import NegationPipe

    def negation_pipes(nlp: Language) -> Dict[str, NegationPipe]:
        return {name: pipe for name, pipe in nlp.pipeline if isinstance(pipe, NegationPipe)}

    ours, theirs = negation_pipes(student), negation_pipes(teacher)
    wanted = list(names) if names is not None else [name for name in theirs if name in ours]
    bad = [name for name in wanted if name not in ours or name not in theirs]
    if bad or not wanted:
        raise ValueError(Errors.E365.format(names=bad or "(none)", teacher=sorted(theirs), student=sorted(ours)))
    for name in wanted:
        if ours[name].convention != theirs[name].convention:
            raise ValueError(Errors.E366.format(name=name, theirs=theirs[name].convention,
                                                ours=ours[name].convention))
        if tuple(ours[name].kinds) != tuple(theirs[name].kinds):
            raise ValueError(Errors.E377.format(name=name, theirs=list(theirs[name].kinds),
                                                ours=list(ours[name].kinds)))
        if not any("softmax_normalize" in node.attrs for node in theirs[name].model.walk()):
            raise ValueError(Errors.E369.format(name=name, kind=type(theirs[name]).__name__))
    return [name for name in theirs if name in wanted]
