"""Ensembles of trained negation pipelines (e.g. the same config trained with different
seeds): label probabilities averaged over the pipelines, decoded by the first one.

Cues: the cue tagger's label probabilities (softmax of its scores) are averaged over the
pipelines, and the first pipeline's ``negation_cue`` decodes them (its affix and
multiword lexicons and settings). Scopes: for the ensemble's cues, the scope tagger's
label probabilities per cue window are averaged, and the first pipeline's
``negation_scope`` writes the argmax labels. Each pipeline runs its own transformer once
per batch.

Speculation: pipelines whose components resolve speculation beside negation (``kinds =
["negation", "speculation"]``) are averaged over the speculation cue labels too (the
first pipeline's ``negation_cue`` writes the speculation cues as well), and the scopes of
the speculation cues are resolved as the negation ones (each window with its kind, after
the negation windows of its doc). The pipelines must have the same kinds per component
(E378); an ensemble of negation-only pipelines works as before.
"""
from typing import List, Sequence, Tuple, cast

import numpy
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc

from ..errors import Errors
from ..ml.windows import KIND_IDS, CueWindow
from ..pipeline.base import NegationPipe
from ..pipeline.cue.component import NegationCue
from ..pipeline.scope.component import NegationScope
from ..pipeline.scope.windows import cue_windows

TRANSFORMER = "transformer"
CUE_COMPONENT = "negation_cue"
SCOPE_COMPONENT = "negation_scope"


def softmax(scores: numpy.ndarray) -> numpy.ndarray:
    """Row-wise softmax of a 2d array of scores.

    scores (numpy.ndarray): the scores (rows x labels).
    RETURNS (numpy.ndarray): the probabilities.
    """
    e = numpy.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _components(nlp: Language) -> Tuple[TrainablePipe, NegationCue, NegationScope]:
    return (cast(TrainablePipe, nlp.get_pipe(TRANSFORMER)), cast(NegationCue, nlp.get_pipe(CUE_COMPONENT)),
            cast(NegationScope, nlp.get_pipe(SCOPE_COMPONENT)))


def check_compatible(nlps: Sequence[Language]) -> None:
    """Check that pipelines can be averaged: at least two, each with the transformer, cue
    and scope components, all with the labels and kinds of the first.

    nlps (Sequence[Language]): the pipelines.
    RAISES (ValueError): too few pipelines (E746), a component is missing (E744), the
        labels differ (E745), the kinds differ (E378: a negation-only pipeline with one
        that resolves speculation).
    """
    if len(nlps) < 2:
        raise ValueError(Errors.E746.format(n=len(nlps)))
    needed = (TRANSFORMER, CUE_COMPONENT, SCOPE_COMPONENT)
    for nlp in nlps:
        for name in needed:
            if name not in nlp.pipe_names:
                raise ValueError(Errors.E744.format(name=nlp.meta.get("name"), component=name,
                                                    components=", ".join(needed)))
    _, first_cue, first_scope = _components(nlps[0])
    for nlp in nlps[1:]:
        _, cue, scope = _components(nlp)
        if cue.labels != first_cue.labels:
            raise ValueError(Errors.E745.format(component=CUE_COMPONENT))
        if scope.labels != first_scope.labels:
            raise ValueError(Errors.E745.format(component=SCOPE_COMPONENT))
    for name in (CUE_COMPONENT, SCOPE_COMPONENT):
        kinds = [tuple(cast(NegationPipe, nlp.get_pipe(name)).kinds) for nlp in nlps]
        if len(set(kinds)) > 1:
            raise ValueError(Errors.E378.format(component=name, kinds=", ".join(
                f"{nlp.meta.get('name')}: {list(k)}" for nlp, k in zip(nlps, kinds))))


def annotate(nlps: Sequence[Language], docs: List[Doc], gold_cues: bool) -> None:
    """Annotate a batch of docs (in the first pipeline's vocab) with the ensemble's cues
    (unless gold_cues: the docs carry them) and scopes: those of the negation cues and,
    while the first pipeline's components resolve speculation, of the speculation cues.

    nlps (Sequence[Language]): the pipelines (see :func:`check_compatible`).
    docs (List[Doc]): the batch, changed in place.
    gold_cues (bool): keep the docs' cues and resolve only their scopes.
    """
    pipes = [_components(nlp) for nlp in nlps]
    trf_outputs = [trf.predict(docs) for trf, _, _ in pipes]
    _, first_cue, first_scope = pipes[0]
    if not gold_cues:
        probs: List[List[numpy.ndarray]] = []
        for (trf, cue, _), outputs in zip(pipes, trf_outputs):
            trf.set_annotations(docs, outputs)
            probs.append([softmax(cue.model.ops.to_numpy(s)) for s in cue.model.predict(docs)])
        label_ids = []
        for d, doc in enumerate(docs):
            mean = numpy.mean([p[d] for p in probs], axis=0)
            label_ids.append(first_cue._decode(doc, numpy.log(mean + 1e-12)))
        first_cue.set_annotations(docs, label_ids)
    windows = scope_windows(first_scope, docs)
    if not windows:
        return
    window_probs: List[List[numpy.ndarray]] = []
    for (trf, _, scope), outputs in zip(pipes, trf_outputs):
        trf.set_annotations(docs, outputs)
        window_probs.append([softmax(scope.model.ops.to_numpy(s))
                             for s in scope.model.predict((docs, windows))])
    scope_ids: List[List[numpy.ndarray]] = [[] for _ in docs]
    for w, window in enumerate(windows):
        mean = numpy.mean([p[w] for p in window_probs], axis=0)
        scope_ids[window.doc].append(mean.argmax(axis=1).astype("int32"))
    first_scope.set_annotations(docs, scope_ids)


def scope_windows(scope: NegationScope, docs: Sequence[Doc]) -> List[CueWindow]:
    """The scope-model windows of a batch as the scope component builds them: per doc,
    one per negation, then one per speculation while the component resolves speculation
    (each with its kind), in the order its ``set_annotations`` reads their labels.

    scope (NegationScope): the scope component (of the first pipeline).
    docs (Sequence[Doc]): the batch, with their cues.
    RETURNS (List[CueWindow]): the windows.
    """
    return [w for d, doc in enumerate(docs) for kind, instances in scope._instances(doc)
            for w in cue_windows(doc, d, instances, kind=KIND_IDS[kind])]
