"""``spacy-negation.DistilledCorpus.v1``: a training corpus whose examples carry a
teacher's soft targets (:mod:`spacy_negation.distill.targets`)."""
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from spacy.language import Language
from spacy.training import Example
from spacy.util import registry

from ..errors import Errors
from ..negation import get_convention, get_negations, get_speculations
from .targets import (TeacherTargets, _key, _store, attach_teacher_targets, mark_pending, register_provider,
                      shared_components)

#: What identifies an example's targets: its predicted words and sentence starts, its gold
#: text, convention, negations and speculations.
CacheKey = Tuple[Tuple[str, ...], Tuple[bool, ...], str, Optional[str], str, str]


@registry.readers("spacy-negation.DistilledCorpus.v1")
def create_distilled_corpus(corpus: Callable[[Language], Iterable[Example]], teacher: str, weight: float = 0.5,
                            unlabelled: bool = False, components: Optional[List[str]] = None,
                            batch_size: int = 64) -> Callable[[Language], Iterator[Example]]:
    """Another reader's examples with the soft targets of a teacher pipeline attached: the
    student's negation components then learn from ``(1 - weight) * CE(gold) + weight *
    CE(teacher)`` (Hinton et al. 2015, temperature 1). The teacher is a trained negation
    pipeline whose negation components have the student's names, labels, conventions and
    kinds (a component of both kinds, ``kinds = ["negation", "speculation"]``, learns the
    teacher's speculation distributions as it learns the negation ones), e.g. the same
    config on a larger backbone. It is loaded on the first read and runs
    once on every example that a component learns from, when it first does (batches of
    ``batch_size`` at most): examples only read, as spaCy's ``initialize`` reads the
    corpus many times, cost no teacher call. The targets are kept (per words, convention
    and gold negations and speculations) for later reads.

    corpus (Callable[[Language], Iterable[Example]]): the reader of the examples, e.g.
        ``spacy-negation.SentenceCorpus.v1``.
    teacher (str): the teacher pipeline, a package name or a path.
    weight (float): the teacher's weight, from 0 (gold only) to 1 (teacher only).
    unlabelled (bool): rows without a gold label learn from the teacher alone: in a model
        of several conventions, a cue component's tokens of the sentences of the other
        conventions (each component learns from its own convention's sentences only
        otherwise, as without a teacher).
    components (Optional[List[str]]): the negation components to distil (None: every one
        that the teacher and the student share).
    batch_size (int): the examples per teacher call.
    RETURNS (Callable[[Language], Iterator[Example]]): the reader.
    """
    if not 0.0 <= weight <= 1.0:
        raise ValueError(Errors.E367.format(key="weight", value=weight, bounds="from 0 to 1"))
    if batch_size < 1:
        raise ValueError(Errors.E367.format(key="batch_size", value=batch_size, bounds="at least 1"))
    return DistilledCorpus(corpus, teacher, weight=weight, unlabelled=unlabelled, components=components,
                           batch_size=batch_size)


class DistilledCorpus:
    """Iterate a reader's examples with a teacher's targets attached (see
    :func:`create_distilled_corpus`)."""

    def __init__(self, corpus: Callable[[Language], Iterable[Example]], teacher: str, *, weight: float = 0.5,
                 unlabelled: bool = False, components: Optional[List[str]] = None, batch_size: int = 64) -> None:
        self.corpus = corpus
        self.teacher = teacher
        self.weight = weight
        self.unlabelled = unlabelled
        self.components = components
        self.batch_size = batch_size
        self._teacher_nlp: Optional[Language] = None
        self._names: List[str] = []
        self._cache: Dict[CacheKey, Dict[str, TeacherTargets]] = {}
        self._id = register_provider(self)

    def _load_teacher(self) -> Language:
        """The teacher pipeline, loaded on the first call (E376 naming the teacher and,
        where a file of it is damaged, the file)."""
        if self._teacher_nlp is None:
            from ..pipeline.model_loading import load_negation_model

            try:
                self._teacher_nlp = load_negation_model(self.teacher)
            except (OSError, ValueError) as err:
                message = Errors.E376.format(teacher=self.teacher, reason=err)
                raise (OSError(message) if isinstance(err, OSError) else ValueError(message)) from err
        return self._teacher_nlp

    def __call__(self, nlp: Language) -> Iterator[Example]:
        teacher = self._load_teacher()
        self._names = shared_components(teacher, nlp, self.components)
        for eg in self.corpus(nlp):
            targets = self._cache.get(_cache_key(eg))
            if targets is None:
                for name in self._names:
                    _store(eg.reference).pop(_key(name), None)
                mark_pending(eg, self._id)
            else:
                for name, values in targets.items():
                    _store(eg.reference)[_key(name)] = values
            yield eg

    def resolve(self, examples: Sequence[Example]) -> None:
        """Run the teacher on examples this reader yielded and attach its targets (in
        batches of ``batch_size``), keeping them for later reads.

        examples (Sequence[Example]): the examples.
        """
        teacher = self._load_teacher()
        keys = [_cache_key(eg) for eg in examples]
        todo = [(eg, key) for eg, key in zip(examples, keys) if key not in self._cache]
        for start in range(0, len(todo), self.batch_size):
            batch = todo[start:start + self.batch_size]
            attach_teacher_targets(teacher, self.teacher, [eg for eg, _ in batch], self._names, self.weight,
                                   self.unlabelled)
            for eg, key in batch:
                self._cache[key] = {name: _store(eg.reference)[_key(name)] for name in self._names}
        for eg, key in zip(examples, keys):
            for name, values in self._cache[key].items():
                _store(eg.reference)[_key(name)] = values

def _cache_key(eg: Example) -> CacheKey:
    """The words and sentence starts of an example's predicted doc, its gold text,
    convention, negations and speculations (a scope component of both kinds learns on the
    windows of the gold speculation cues: two examples that differ only in their
    speculations have targets of their own)."""
    negations = repr([(n.cue, n.scope, n.event) for n in get_negations(eg.reference)])
    speculations = repr([(s.cue, s.scope) for s in get_speculations(eg.reference)])
    starts = tuple(bool(t.is_sent_start) for t in eg.predicted) if eg.predicted.has_annotation("SENT_START") else ()
    return (tuple(t.text for t in eg.predicted), starts, eg.reference.text, get_convention(eg.reference),
            negations, speculations)
