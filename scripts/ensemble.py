"""Evaluate an ensemble of trained negation pipelines on a gold .spacy file.

python scripts/ensemble.py GOLD.spacy SYSTEM_OUT.txt SCORES_OUT.json MODEL MODEL [MODEL ...]
    [--gold-cues] [--tag-punct]

The pipelines must have the same cue and scope labels (trained on the same data, e.g.
with different seeds). Each pipeline runs its own transformer once per batch. Cues: the
cue tagger's label probabilities (softmax of its scores) are averaged over the
pipelines, and the first pipeline's ``negation_cue`` decodes them (its affix and
multiword lexicons and settings). Scopes: for the ensemble's cues, the scope tagger's
label probabilities per cue window are averaged, and the first pipeline's
``negation_scope`` writes the argmax labels. Output as in ``evaluate_model.py``.
"""
import argparse
import time
from pathlib import Path
from typing import List, Sequence

import numpy
import spacy
from spacy.language import Language
from spacy.tokens import Doc

from evaluate_model import CUE_COMPONENT, blank_copy, tag_punct, write_results
from spacy_negation import register_extensions
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.negation import get_negations
from spacy_negation.pipeline.scope import cue_windows

TRANSFORMER = "transformer"
SCOPE_COMPONENT = "negation_scope"


def softmax(scores: numpy.ndarray) -> numpy.ndarray:
    """Row-wise softmax of a 2d array of scores."""
    e = numpy.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def check_compatible(nlps: Sequence[Language]) -> None:
    """Raise ValueError unless all pipelines have the components and labels of the first."""
    for nlp in nlps:
        for name in (TRANSFORMER, CUE_COMPONENT, SCOPE_COMPONENT):
            if name not in nlp.pipe_names:
                raise ValueError(f"pipeline {nlp.meta.get('name')} has no component '{name}'")
    first = nlps[0]
    for nlp in nlps[1:]:
        for name in (CUE_COMPONENT, SCOPE_COMPONENT):
            if nlp.get_pipe(name).labels != first.get_pipe(name).labels:
                raise ValueError(f"the pipelines' '{name}' labels differ: cannot average them")


def annotate(nlps: Sequence[Language], docs: List[Doc], gold_cues: bool) -> None:
    """Annotate a batch of docs (in the first pipeline's vocab) with the ensemble's cues
    (unless gold_cues: the docs carry them) and scopes."""
    trf_outputs = [nlp.get_pipe(TRANSFORMER).predict(docs) for nlp in nlps]
    first_cue = nlps[0].get_pipe(CUE_COMPONENT)
    first_scope = nlps[0].get_pipe(SCOPE_COMPONENT)
    if not gold_cues:
        probs: List[List[numpy.ndarray]] = []
        for nlp, outputs in zip(nlps, trf_outputs):
            nlp.get_pipe(TRANSFORMER).set_annotations(docs, outputs)
            cue = nlp.get_pipe(CUE_COMPONENT)
            probs.append([softmax(cue.model.ops.to_numpy(s)) for s in cue.model.predict(docs)])
        label_ids = []
        for d, doc in enumerate(docs):
            mean = numpy.mean([p[d] for p in probs], axis=0)
            label_ids.append(first_cue._decode(doc, numpy.log(mean + 1e-12)))
        first_cue.set_annotations(docs, label_ids)
    windows = [w for d, doc in enumerate(docs) for w in cue_windows(doc, d, get_negations(doc))]
    if not windows:
        return
    window_probs: List[List[numpy.ndarray]] = []
    for nlp, outputs in zip(nlps, trf_outputs):
        nlp.get_pipe(TRANSFORMER).set_annotations(docs, outputs)
        scope = nlp.get_pipe(SCOPE_COMPONENT)
        window_probs.append([softmax(scope.model.ops.to_numpy(s)) for s in scope.model.predict((docs, windows))])
    scope_ids: List[List[numpy.ndarray]] = [[] for _ in docs]
    for w, window in enumerate(windows):
        mean = numpy.mean([p[w] for p in window_probs], axis=0)
        scope_ids[window.doc].append(mean.argmax(axis=1).astype("int32"))
    first_scope.set_annotations(docs, scope_ids)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gold", type=Path)
    parser.add_argument("system_out", type=Path)
    parser.add_argument("scores_out", type=Path)
    parser.add_argument("models", type=Path, nargs="+")
    parser.add_argument("--gold-cues", action="store_true", help="scope resolution on gold cues")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--tag-punct", action="store_true", help="as in evaluate_model.py")
    args = parser.parse_args()
    if len(args.models) < 2:
        parser.error("an ensemble needs at least two models")
    register_extensions()
    nlps = [spacy.load(m) for m in args.models]
    check_compatible(nlps)
    gold = read_docbin(args.gold, vocab=nlps[0].vocab)
    if args.tag_punct:
        for doc in gold:
            tag_punct(doc)
    system = [blank_copy(nlps[0], g, args.gold_cues) for g in gold]
    start = time.perf_counter()
    for b in range(0, len(system), args.batch_size):
        annotate(nlps, system[b:b + args.batch_size], args.gold_cues)
    seconds = time.perf_counter() - start
    mode = "gold cues" if args.gold_cues else "end to end"
    models = " + ".join(str(m) for m in args.models)
    write_results(system, gold, args.system_out, args.scores_out, seconds, args.gold_cues,
                  f"ensemble {models} on {args.gold} ({mode})")


if __name__ == "__main__":
    main()
