"""A teacher's soft targets on training examples: each negation component of the teacher
runs its model on the inputs the same component of the student learns from (the gold
cues' windows for a scope component: the teacher is forced onto the gold cues, as the
student is), and the distributions are attached to the example, per component."""
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, cast

import numpy
from spacy.language import Language
from spacy.tokens import Doc
from spacy.training import Example
from thinc.api import Model
from thinc.types import Floats2d

from ..errors import Errors

if TYPE_CHECKING:
    from ..pipeline.base import NegationPipe


@dataclass
class TeacherTargets:
    """A teacher component's distributions over one example's sequences (in the order of
    the component's ``_inputs_and_truths``), with its labels (the columns) and the
    weight of the teacher in the student's loss."""

    teacher: str
    labels: Tuple[str, ...]
    weight: float
    arrays: List[Floats2d]


def _key(name: str) -> Tuple[str, str, str]:
    """The ``user_data`` key of a component's targets on an example's reference doc."""
    return ("spacy-negation", "teacher", name)


def _store(doc: Doc) -> Dict[Any, Any]:
    """A doc's ``user_data`` (tuple keys, as spaCy's own extension values have)."""
    return cast(Dict[Any, Any], doc.user_data)


def teacher_targets(examples: Sequence[Example], pipe: "NegationPipe") -> Optional[Tuple[float, List[Floats2d]]]:
    """The teacher's targets of a batch for a student component, aligned with the
    sequences of its ``_inputs_and_truths``: None when no example carries targets for it.

    examples (Sequence[Example]): the batch.
    pipe (NegationPipe): the student component (its name and labels).
    RETURNS (Optional[Tuple[float, List[Floats2d]]]): (the teacher's weight, one array per
        sequence).
    RAISES (ValueError): only some examples carry targets (E362), or the teacher's labels
        are not the component's (E363).
    """
    found = [_store(eg.reference).get(_key(pipe.name)) for eg in examples]
    have = [t for t in found if t is not None]
    if not have:
        return None
    if len(have) != len(found):
        raise ValueError(Errors.E362.format(name=pipe.name, n=len(found) - len(have), total=len(found)))
    labels = tuple(pipe.labels)
    for t in have:
        if t.labels != labels:
            raise ValueError(Errors.E363.format(name=pipe.name, teacher=t.teacher, theirs=list(t.labels),
                                                ours=list(labels)))
    return have[0].weight, [array for t in have for array in t.arrays]


def attach_teacher_targets(teacher: Language, teacher_name: str, examples: Sequence[Example],
                           names: Sequence[str], weight: float) -> None:
    """Run the teacher on a batch and attach, per component name, its distributions to
    each example (``eg.reference.user_data``; read by :func:`teacher_targets`).

    The teacher sees the words of each predicted doc: its components before the first
    negation component (the transformer) run on a copy of those words, then each named
    negation component's model predicts the inputs that the component builds from the
    examples, as in training.

    teacher (Language): the teacher pipeline.
    teacher_name (str): its name or path, for messages.
    examples (Sequence[Example]): the batch.
    names (Sequence[str]): the teacher's negation components to take targets from.
    weight (float): the teacher's weight in the student's loss.
    RAISES (ValueError): the teacher's outputs do not match its inputs (E364).
    """
    from ..pipeline.base import NegationPipe

    docs = [Doc(teacher.vocab, words=[t.text for t in eg.predicted],
                spaces=[bool(t.whitespace_) for t in eg.predicted]) for eg in examples]
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
        arrays = [numpy.asarray(a, dtype="float32") for a in _predict_distributions(pipe.model, inputs)] \
            if truths else []
        if len(arrays) != sum(counts) or any(len(a) != len(t) for a, t in zip(arrays, truths)):
            raise ValueError(Errors.E364.format(teacher=teacher_name, name=name))
        start = 0
        labels = tuple(pipe.labels)
        for eg, n in zip(examples, counts):
            _store(eg.reference)[_key(name)] = TeacherTargets(teacher_name, labels, weight,
                                                              cast(List[Floats2d], arrays[start:start + n]))
            start += n


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
    component of both, with the same convention.

    teacher (Language): the teacher.
    student (Language): the student.
    names (Optional[Sequence[str]]): the components, or None for all shared.
    RETURNS (List[str]): the names, in the teacher's pipeline order.
    RAISES (ValueError): a named component is missing or not a negation component (E365),
        conventions differ (E366), or none is shared (E365).
    """
    from ..pipeline.base import NegationPipe

    def negation_pipes(nlp: Language) -> Dict[str, NegationPipe]:
        return {name: pipe for name, pipe in nlp.pipeline if isinstance(pipe, NegationPipe)}

    ours, theirs = negation_pipes(student), negation_pipes(teacher)
    wanted = list(names) if names is not None else [name for name in theirs if name in ours]
    bad = [name for name in wanted if name not in ours or name not in theirs]
    if bad or not wanted:
        raise ValueError(Errors.E365.format(names=bad or "none shared", teacher=sorted(theirs),
                                            student=sorted(ours)))
    for name in wanted:
        if ours[name].convention != theirs[name].convention:
            raise ValueError(Errors.E366.format(name=name, theirs=theirs[name].convention,
                                                ours=ours[name].convention))
    return [name for name in theirs if name in wanted]
