"""Knowledge distillation of components that resolve speculation beside negation (``kinds =
["negation", "speculation"]``): the student learns the teacher's distributions over the
speculation cue labels and on the speculation cue windows as over the negation ones, a
student learns speculation from the teacher alone, the reader keeps the targets of
examples that differ only in their speculations apart, and teacher and student components
of other kinds are a coded error (E377).

The tiny pipeline of both kinds and its synthetic hedge sentences are those of the pipeline
tests (``tests/pipeline/conftest.py``, loaded by its path)."""
import random
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy
import pytest
import spacy
from spacy.language import Language
from spacy.training import Example

from spacy_negation import get_negations, get_speculations, set_speculations
from spacy_negation.distill import DistilledCorpus, attach_teacher_targets
from spacy_negation.distill import corpus as corpus_module
from spacy_negation.distill.targets import _key, shared_components, teacher_targets
from spacy_negation.ml.windows import KIND_IDS, CueWindow

import hedge as HEDGE
from util import CNN_TINY, load_test_nlp, make_examples, overfit

BOTH = ["negation", "speculation"]



def _student() -> Tuple[Language, List[Example]]:
    """The tiny CNN pipeline of both kinds initialized on the hedge sentences, with their
    examples."""
    nlp = HEDGE.both_kinds_nlp()
    examples = HEDGE.hedge_examples(nlp)
    nlp.initialize(lambda: examples)
    return nlp, examples


def _softmax(scores: Any) -> Any:
    e = numpy.exp(scores - scores.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_targets_cover_the_speculation_labels_and_windows(hedge_cnn_dir: Path) -> None:
    teacher = spacy.load(hedge_cnn_dir)
    student, examples = _student()
    assert shared_components(teacher, student, None) == ["negation_cue", "negation_scope"]
    attach_teacher_targets(teacher, "hedge", examples, ["negation_cue", "negation_scope"], 0.5)
    # the cue component: distributions over every label, the speculation labels among them
    cue = student.get_pipe("negation_cue")
    assert {"S|speculation", "B|speculation", "I|speculation"} <= set(cue.labels)
    _, _, soft = teacher_targets(examples, cue)
    assert [a.shape for a in soft] == [(len(eg.predicted), len(cue.labels)) for eg in examples]
    spec = cue.labels.index("S|speculation")
    might = [(k, t.i) for k, eg in enumerate(examples) for t in eg.predicted if t.text == "might"]
    assert might and all(soft[k][i, spec] > 0.5 for k, i in might)  # the teacher learned them
    # the scope component: one window per gold negation, then per gold speculation
    scope = student.get_pipe("negation_scope")
    (docs, windows), truths = scope._inputs_and_truths(examples)
    n_neg = sum(len(get_negations(eg.reference)) for eg in examples)
    n_spec = sum(len(get_speculations(eg.reference)) for eg in examples)
    assert n_spec > 0 and len(windows) == n_neg + n_spec
    assert sum(w.kind == KIND_IDS["speculation"] for w in windows) == n_spec
    _, _, soft = teacher_targets(examples, scope)
    assert [len(a) for a in soft] == [len(t) for t in truths]
    # they are the teacher's scope model on the same windows, each with its kind: on the
    # speculation windows read as negation windows the distributions differ
    t_scope = teacher.get_pipe("negation_scope")
    t_examples = [Example(teacher.get_pipe("tok2vec")(teacher.make_doc(eg.predicted.text)), eg.reference)
                  for eg in examples]
    (t_docs, t_windows), _ = t_scope._inputs_and_truths(t_examples)
    expected = [_softmax(s) for s in t_scope.model.predict((t_docs, t_windows))]
    for a, b in zip(soft, expected):
        numpy.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    as_negations = [CueWindow(w.doc, w.start, w.end, w.cues, KIND_IDS["negation"]) for w in t_windows]
    other = [_softmax(s) for s in t_scope.model.predict((t_docs, as_negations))]
    speculation_rows = [k for k, w in enumerate(t_windows) if w.kind == KIND_IDS["speculation"]]
    assert max(float(numpy.abs(soft[k] - other[k]).max()) for k in speculation_rows) > 1e-3


def test_a_student_equal_to_its_teacher_learns_nothing_from_it(hedge_cnn_dir: Path) -> None:
    """Weight 1: the gradient is p - q, zero for a student with the teacher's weights, the
    speculation labels and windows included."""
    teacher = spacy.load(hedge_cnn_dir)
    student = spacy.load(hedge_cnn_dir)
    examples = HEDGE.hedge_examples(student)
    attach_teacher_targets(teacher, "hedge", examples, ["negation_cue", "negation_scope"], 1.0)
    losses: Dict[str, float] = {}
    student.update(examples, drop=0.0, losses=losses)
    assert losses["negation_cue"] == pytest.approx(0.0, abs=1e-8)
    assert losses["negation_scope"] == pytest.approx(0.0, abs=1e-8)


def test_a_student_learns_speculation_from_the_teacher_alone(hedge_cnn_dir: Path) -> None:
    """Weight 1: the gold labels take no part in the gradient; the student comes to find
    the teacher's speculation cues and their scopes."""
    teacher = spacy.load(hedge_cnn_dir)
    student, examples = _student()
    attach_teacher_targets(teacher, "hedge", examples, ["negation_cue", "negation_scope"], 1.0)
    texts = [eg.reference.text for eg in examples]
    wanted = [HEDGE.kind_key(doc) for doc in teacher.pipe(texts)]
    assert sum(len(spec) for _, spec in wanted) > 10
    spacy.util.fix_random_seed(0)
    optimizer = student.resume_training()
    optimizer.learn_rate = 0.01
    rng = random.Random(0)
    order = list(examples)
    learned = False
    for it in range(1, 101):
        rng.shuffle(order)
        for batch in spacy.util.minibatch(order, 4):
            student.update(batch, sgd=optimizer)
        if it % 5 == 0 and [HEDGE.kind_key(doc) for doc in student.pipe(texts)] == wanted:
            learned = True
            break
    assert learned, "the student did not learn the teacher's negations and speculations"


def test_teacher_and_student_of_other_kinds_are_refused(hedge_cnn_dir: Path, tmp_path: Path) -> None:
    teacher = spacy.load(hedge_cnn_dir)
    negation_only = load_test_nlp(CNN_TINY)
    negation_only.initialize(lambda: make_examples(negation_only))
    with pytest.raises(ValueError, match=r"\[NEG-E377\] Cannot distil the component 'negation_cue': it learns "
                                         r"the kinds \['negation'\], its teacher's the kinds "
                                         r"\['negation', 'speculation'\]"):
        shared_components(teacher, negation_only, None)
    with pytest.raises(ValueError, match=r"\[NEG-E377\] .*'negation_scope'"):
        shared_components(teacher, negation_only, ["negation_scope"])
    # a negation-only teacher of a student of both kinds, through the reader
    negation_only.to_disk(tmp_path / "negation_only")
    student, examples = _student()
    reader = DistilledCorpus(lambda nlp: iter(examples), str(tmp_path / "negation_only"))
    with pytest.raises(ValueError, match=r"\[NEG-E377\] .*its teacher's the kinds \['negation'\]"):
        list(reader(student))
    # only the cue component with speculation: the scope components may still be distilled
    cue_only = load_test_nlp(CNN_TINY, {"components.negation_cue.kinds": BOTH})
    assert shared_components(teacher, cue_only, ["negation_cue"]) == ["negation_cue"]
    with pytest.raises(ValueError, match=r"\[NEG-E377\] .*'negation_scope'"):
        shared_components(teacher, cue_only, None)


def test_examples_that_differ_only_in_speculations_have_targets_of_their_own(
        hedge_cnn_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The reader keeps targets per example (words, convention, gold negations and
    speculations): a sentence read with and without its speculation gets the windows of
    its own gold cues."""
    calls: List[int] = []
    real = corpus_module.attach_teacher_targets

    def counting(*args: Any, **kwargs: Any) -> None:
        calls.append(len(args[2]))
        real(*args, **kwargs)

    monkeypatch.setattr(corpus_module, "attach_teacher_targets", counting)
    student, examples = _student()
    hedged = next(eg for eg in examples if get_speculations(eg.reference) and get_negations(eg.reference))
    plain_ref = hedged.reference.copy()
    set_speculations(plain_ref, [])
    plain = Example(student.make_doc(plain_ref.text), plain_ref)
    reader = DistilledCorpus(lambda nlp: iter([hedged, plain]), str(hedge_cnn_dir))
    batch = list(reader(student))
    losses: Dict[str, float] = {}
    student.update(batch, losses=losses)
    assert calls == [2]
    windows = [len(eg.reference.user_data[_key("negation_scope")]["arrays"]) for eg in batch]
    assert windows == [len(get_negations(hedged.reference)) + len(get_speculations(hedged.reference)),
                       len(get_negations(plain_ref))]
    again = list(reader(student))  # a second read reuses each one's targets
    student.update(again, losses=losses)
    assert calls == [2]
    assert [len(eg.reference.user_data[_key("negation_scope")]["arrays"]) for eg in again] == windows


def test_a_negation_only_teacher_and_student_are_distilled_as_before(tmp_path: Path) -> None:
    """Negation-only components (every model before the setting) share their kinds."""
    teacher = load_test_nlp(CNN_TINY)
    overfit(teacher, make_examples(teacher), max_iter=5, check_every=100)
    student = load_test_nlp(CNN_TINY)
    student.initialize(lambda: make_examples(student))
    assert shared_components(teacher, student, None) == ["negation_cue", "negation_scope"]
