"""Knowledge distillation: the mixed loss by hand, a teacher's targets aligned with the
student's sequences, the reader that attaches them (once per example), the student's
update from them, a `spacy train` run, and the coded errors."""
import gc
import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

import numpy
import pytest
import spacy
from spacy.cli.train import train
from spacy.language import Language
from spacy.tokens import DocBin
from spacy.training import Example

from spacy_negation.distill import DistilledCorpus, attach_teacher_targets, create_distilled_corpus, distilled_loss
from spacy_negation.distill import corpus as corpus_module
from spacy_negation.distill import targets as targets_module
from spacy_negation.distill.targets import PENDING_KEY, _key, shared_components, teacher_targets
from spacy_negation.negation import set_convention
from spacy_negation.pipeline import base as base_module

from util import CNN_TINY, CONFIGS, REPO, load_module, load_test_nlp, make_examples, overfit

GRAPH_TINY = CONFIGS / "test" / "graph_cnn_tiny.cfg"


def test_loss_by_hand() -> None:
    """Two rows, three labels; the second row has no gold label."""
    p = numpy.array([[0.7, 0.2, 0.1], [0.1, 0.6, 0.3]], dtype="float32")
    q = numpy.array([[0.5, 0.5, 0.0], [0.2, 0.2, 0.6]], dtype="float32")
    gold: List[List[Any]] = [[0, None]]
    loss, (d,) = distilled_loss([p], gold, [q], 0.25)
    # row 0: 0.75 * (p - onehot(0)) + 0.25 * (p - q); row 1 (no gold label): nothing
    expected = numpy.zeros_like(p)
    expected[0] = 0.75 * (p[0] - numpy.array([1.0, 0.0, 0.0])) + 0.25 * (p[0] - q[0])
    numpy.testing.assert_allclose(d, expected, rtol=1e-6, atol=1e-7)
    # the value thinc reports for its cross-entropy: the summed squared gradient
    assert loss == pytest.approx(float((expected ** 2).sum()), rel=1e-5)
    # with unlabelled rows learning from the teacher, row 1 gets 0.25 * (p - q)
    _, (du,) = distilled_loss([p], gold, [q], 0.25, unlabelled=True)
    numpy.testing.assert_allclose(du[1], 0.25 * (p[1] - q[1]), rtol=1e-6)
    numpy.testing.assert_allclose(du[0], expected[0], rtol=1e-6)
    # weight 0: the plain cross-entropy; weight 1: the teacher alone
    _, (d0,) = distilled_loss([p], gold, [q], 0.0)
    numpy.testing.assert_allclose(d0, [[-0.3, 0.2, 0.1], [0.0, 0.0, 0.0]], atol=1e-6)
    _, (d1,) = distilled_loss([p], gold, [q], 1.0, unlabelled=True)
    numpy.testing.assert_allclose(d1, p - q, atol=1e-6)


def test_gradient_is_that_of_the_cross_entropy_in_the_logits() -> None:
    """Finite differences of L(z) = (1 - w) CE(onehot, softmax(z)) + w CE(q, softmax(z)),
    summed over the rows (unknown rows: the teacher term only, with ``unlabelled``)."""
    rng = numpy.random.default_rng(0)
    z = rng.normal(size=(4, 5))
    q = rng.dirichlet(numpy.ones(5), size=4)
    gold: List[Any] = [2, None, 0, 4]
    w = 0.3

    def softmax(x: Any) -> Any:
        e = numpy.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def objective(x: Any) -> float:
        log_p = numpy.log(softmax(x))
        gold_term = -sum(log_p[r, g] for r, g in enumerate(gold) if g is not None)
        return float((1 - w) * gold_term - w * (q * log_p).sum())

    _, (d,) = distilled_loss([softmax(z).astype("float32")], [gold], [q.astype("float32")], w, unlabelled=True)
    numeric = numpy.zeros_like(z)
    eps = 1e-5
    for i in range(z.shape[0]):
        for j in range(z.shape[1]):
            up, down = z.copy(), z.copy()
            up[i, j] += eps
            down[i, j] -= eps
            numeric[i, j] = (objective(up) - objective(down)) / (2 * eps)
    numpy.testing.assert_allclose(d, numeric, atol=1e-4)


@pytest.fixture(scope="module")
def teacher_dir(tmp_path_factory: Any) -> Path:
    """A tiny CNN pipeline trained a little on the synthetic sentences, saved."""
    nlp = load_test_nlp(CNN_TINY)
    overfit(nlp, make_examples(nlp), max_iter=10, check_every=100)
    path = tmp_path_factory.mktemp("teacher") / "model"
    nlp.to_disk(path)
    return path


@pytest.fixture()
def teacher_calls(monkeypatch: pytest.MonkeyPatch) -> List[int]:
    """The batch size of every teacher call the DistilledCorpus reader makes."""
    calls: List[int] = []
    real = corpus_module.attach_teacher_targets

    def counting(*args: Any, **kwargs: Any) -> None:
        calls.append(len(args[2]))
        real(*args, **kwargs)

    monkeypatch.setattr(corpus_module, "attach_teacher_targets", counting)
    return calls


def _student() -> Tuple[Language, List[Example]]:
    """A tiny CNN pipeline initialized on the synthetic sentences, with their examples."""
    nlp = load_test_nlp(CNN_TINY)
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    return nlp, examples


def test_targets_follow_the_students_sequences(teacher_dir: Path) -> None:
    teacher = spacy.load(teacher_dir)
    student, examples = _student()
    names = shared_components(teacher, student, None)
    assert names == ["negation_cue", "negation_scope"]
    attach_teacher_targets(teacher, "tiny", examples, names, 0.3)
    for name in names:
        pipe = student.get_pipe(name)
        inputs, truths = pipe._inputs_and_truths(examples)
        weight, unlabelled, soft = teacher_targets(examples, pipe)
        assert weight == 0.3 and not unlabelled and len(soft) == len(truths) > 0
        assert [len(a) for a in soft] == [len(t) for t in truths]
        assert all(a.shape[1] == len(pipe.labels) for a in soft)
        # they are the teacher model's scores on the same inputs, normalized
        expected = teacher.get_pipe(name).model.predict(
            teacher.get_pipe(name)._inputs_and_truths(
                [Example(teacher.get_pipe("tok2vec")(teacher.make_doc(eg.predicted.text)), eg.reference)
                 for eg in examples])[0])
        for a, b in zip(soft, expected):
            e = numpy.exp(b - b.max(axis=1, keepdims=True))
            numpy.testing.assert_allclose(a, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-6)
        assert all(numpy.allclose(a.sum(axis=1), 1.0, atol=1e-5) for a in soft)
    # the teacher's output layers are left unnormalized, as they were
    assert all(not node.attrs["softmax_normalize"] for name in names
               for node in teacher.get_pipe(name).model.walk() if "softmax_normalize" in node.attrs)


def _update_losses(nlp: Language, examples: List[Example]) -> Dict[str, float]:
    losses: Dict[str, float] = {}
    nlp.update(examples, drop=0.0, losses=losses)
    return losses


def test_a_student_equal_to_its_teacher_learns_nothing_from_it(teacher_dir: Path) -> None:
    """Weight 1: the gradient is p - q, zero for a student with the teacher's weights;
    weight 0: the loss of training without a teacher."""
    teacher = spacy.load(teacher_dir)
    student = spacy.load(teacher_dir)
    examples = make_examples(student)
    attach_teacher_targets(teacher, "tiny", examples, ["negation_cue", "negation_scope"], 1.0)
    losses = _update_losses(student, examples)
    assert losses["negation_cue"] == pytest.approx(0.0, abs=1e-8)
    assert losses["negation_scope"] == pytest.approx(0.0, abs=1e-8)
    plain = _update_losses(spacy.load(teacher_dir), make_examples(teacher))
    assert plain["negation_cue"] > 1e-3 and plain["negation_scope"] > 1e-3
    student = spacy.load(teacher_dir)
    examples = make_examples(student)
    attach_teacher_targets(teacher, "tiny", examples, ["negation_cue", "negation_scope"], 0.0)
    taught = _update_losses(student, examples)
    for name in ("negation_cue", "negation_scope"):
        assert taught[name] == pytest.approx(plain[name], rel=1e-5)


def _docbin(nlp: Language, path: Path) -> Path:
    DocBin(docs=[eg.reference for eg in make_examples(nlp)], store_user_data=True).to_disk(path)
    return path


def test_the_reader_attaches_targets_once_per_example_when_learned_from(teacher_dir: Path, tmp_path: Path,
                                                                         teacher_calls: List[int]) -> None:
    calls = teacher_calls
    student, _ = _student()
    path = _docbin(student, tmp_path / "train.spacy")
    inner = spacy.registry.readers.get("spacy-negation.SentenceCorpus.v1")(path)
    reader = create_distilled_corpus(inner, str(teacher_dir), weight=0.4, batch_size=3)
    assert isinstance(reader, DistilledCorpus)
    first = list(reader(student))
    assert len(first) > 3 and not calls  # reading alone (as initialize does) runs no teacher
    assert all(eg.reference.user_data[PENDING_KEY] for eg in first)
    losses: Dict[str, float] = {}
    student.update(first[:2], losses=losses)
    assert calls == [2]  # the batch learned from, once for both components
    student.update(first, losses=losses)
    assert sum(calls) == len(first) and max(calls) <= 3
    assert not any(PENDING_KEY in eg.reference.user_data for eg in first)
    second = list(reader(student))
    assert sum(calls) == len(first)  # the second read reuses the targets
    for eg in second:
        assert PENDING_KEY not in eg.reference.user_data
        for name in ("negation_cue", "negation_scope"):
            targets = eg.reference.user_data[_key(name)]
            assert targets["weight"] == 0.4 and targets["teacher"] == str(teacher_dir)
    # the targets are plain values: the reference docs still serialize
    docs = list(DocBin(docs=[eg.reference for eg in second], store_user_data=True).get_docs(student.vocab))
    assert len(docs) == len(second)
    student.update(second, losses=losses)
    assert sum(calls) == len(first)
    assert losses["negation_cue"] > 0


def test_pending_targets_of_a_reader_that_is_gone(teacher_dir: Path, tmp_path: Path) -> None:
    student, _ = _student()
    path = _docbin(student, tmp_path / "train.spacy")
    inner = spacy.registry.readers.get("spacy-negation.SentenceCorpus.v1")(path)
    reader = create_distilled_corpus(inner, str(teacher_dir))
    examples = list(reader(student))
    del reader
    gc.collect()
    with pytest.raises(ValueError, match="E435"):
        student.update(examples)


def test_spacy_train_with_a_teacher(teacher_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _docbin(load_test_nlp(CNN_TINY), tmp_path / "train.spacy")
    overrides = {"paths.train": str(path), "paths.dev": str(path), "training.max_steps": 6,
                 "training.eval_frequency": 3,
                 "corpora.train": {"@readers": "spacy-negation.DistilledCorpus.v1", "teacher": str(teacher_dir),
                                   "weight": 0.5, "components": None, "batch_size": 8,
                                   "corpus": {"@readers": "spacy-negation.SentenceCorpus.v1", "path": str(path)}}}
    used: List[str] = []
    real = base_module.teacher_targets

    def counting(examples: Any, pipe: Any) -> Any:
        found = real(examples, pipe)
        if found is not None:
            used.append(pipe.name)
        return found

    monkeypatch.setattr(base_module, "teacher_targets", counting)
    train(CNN_TINY, tmp_path / "out", overrides=overrides)
    # every update of both components learned from the teacher's targets
    assert used.count("negation_cue") == used.count("negation_scope") >= 6  # max_steps
    meta = json.loads((tmp_path / "out" / "model-best" / "meta.json").read_text())
    assert 0.0 <= meta["performance"]["neg_cue_f"] <= 1.0
    config = spacy.util.load_config(tmp_path / "out" / "model-best" / "config.cfg")
    assert config["corpora"]["train"]["@readers"] == "spacy-negation.DistilledCorpus.v1"


def test_initialize_runs_no_teacher(teacher_dir: Path, tmp_path: Path, teacher_calls: List[int],
                                    capsys: pytest.CaptureFixture) -> None:
    """spaCy's initialize reads the corpus many times; the teacher runs only once a
    component learns (bench/bench_init.py times it)."""
    path = _docbin(load_test_nlp(CNN_TINY), tmp_path / "train.spacy")
    config = spacy.util.load_config(CNN_TINY, overrides={
        "paths.train": str(path), "paths.dev": str(path),
        "corpora.train": {"@readers": "spacy-negation.DistilledCorpus.v1", "teacher": str(teacher_dir),
                          "weight": 0.5, "components": None, "batch_size": 8,
                          "corpus": {"@readers": "spacy-negation.SentenceCorpus.v1", "path": str(path)}}},
        interpolate=False)
    config_path = tmp_path / "student.cfg"
    config.to_disk(config_path)
    bench = load_module(REPO / "bench" / "bench_init.py", "bench_init")
    assert bench.main([str(config_path)]) == 0
    assert "initialized in" in capsys.readouterr().out
    assert teacher_calls == []


def test_errors(teacher_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    teacher = spacy.load(teacher_dir)
    student, examples = _student()
    with monkeypatch.context() as patch:  # a teacher whose model gives one array too few
        real = targets_module._predict_distributions
        patch.setattr(targets_module, "_predict_distributions", lambda model, inputs: real(model, inputs)[:-1])
        with pytest.raises(ValueError, match=r"\[NEG-E364\]"):
            attach_teacher_targets(teacher, "tiny", examples, ["negation_cue"], 0.5)
    with pytest.raises(ValueError, match=r"\[NEG-E367\]"):
        create_distilled_corpus(lambda nlp: iter(()), str(teacher_dir), weight=1.5)
    with pytest.raises(ValueError, match=r"\[NEG-E367\]"):
        create_distilled_corpus(lambda nlp: iter(()), str(teacher_dir), batch_size=0)
    with pytest.raises(ValueError, match=r"\[NEG-E365\]"):
        shared_components(teacher, student, ["negation_cue_sfu"])
    other = spacy.load(teacher_dir)
    other.get_pipe("negation_scope").convention = "sfu"
    with pytest.raises(ValueError, match=r"\[NEG-E366\]"):
        shared_components(other, student, None)
    # only some examples of a batch carry targets
    attach_teacher_targets(teacher, "tiny", examples[:2], ["negation_cue"], 0.5)
    with pytest.raises(ValueError, match=r"\[NEG-E362\]"):
        student.update(examples[:3])
    # the teacher's labels are not the student's
    for eg in examples[:2]:
        eg.reference.user_data[_key("negation_cue")]["labels"] = ["O", "X"]
    with pytest.raises(ValueError, match=r"\[NEG-E363\]"):
        student.update(examples[:2])
    # targets of other shapes than the scores
    for eg in examples[:2]:
        targets = eg.reference.user_data[_key("negation_cue")]
        targets["labels"] = list(student.get_pipe("negation_cue").labels)
        targets["arrays"] = [a[:-1] for a in targets["arrays"]]
    with pytest.raises(ValueError, match=r"\[NEG-E368\]"):
        student.update(examples[:2])


def test_convention_marks_are_kept(teacher_dir: Path) -> None:
    """A component learns only from its convention's examples: the teacher's targets of
    the other examples are empty for the scope component, as the student's sequences are."""
    teacher = spacy.load(teacher_dir)
    teacher.get_pipe("negation_scope").convention = "cdsco"
    student, examples = _student()
    student.get_pipe("negation_scope").convention = "cdsco"
    set_convention(examples[0].reference, "cdsco")
    set_convention(examples[1].reference, "sfu")
    attach_teacher_targets(teacher, "tiny", examples[:2], ["negation_scope"], 0.5)
    pipe = student.get_pipe("negation_scope")
    _, truths = pipe._inputs_and_truths(examples[:2])
    assert examples[1].reference.user_data[_key("negation_scope")]["arrays"] == []
    assert len(teacher_targets(examples[:2], pipe)[2]) == len(truths)


def test_other_conventions_rows_learn_from_the_teacher_only_when_asked(teacher_dir: Path) -> None:
    """The cue component scores every sentence; those of another convention have no gold
    label: no gradient from them by default, the teacher's with ``unlabelled``."""
    teacher = spacy.load(teacher_dir)
    teacher.get_pipe("negation_cue").convention = "cdsco"
    student, examples = _student()
    pipe = student.get_pipe("negation_cue")
    pipe.convention = "cdsco"
    set_convention(examples[0].reference, "cdsco")
    set_convention(examples[1].reference, "sfu")
    batch = examples[:2]
    inputs, truths = pipe._inputs_and_truths(batch)
    assert all(t is None for t in truths[1]) and any(t is not None for t in truths[0])
    scores = pipe.model.predict(inputs)
    scores = [numpy.exp(s) / numpy.exp(s).sum(axis=1, keepdims=True) for s in scores]
    for unlabelled in (False, True):
        attach_teacher_targets(teacher, "tiny", batch, ["negation_cue"], 0.5, unlabelled)
        weight, flag, soft = teacher_targets(batch, pipe)
        assert flag is unlabelled
        _, grads = pipe._distilled_loss(truths, scores, weight, flag, soft)
        if unlabelled:
            numpy.testing.assert_allclose(grads[1], 0.5 * (scores[1] - soft[1]), rtol=1e-5, atol=1e-7)
            assert numpy.abs(grads[1]).sum() > 0
        else:
            assert not grads[1].any()


def test_a_graph_teacher_is_refused(tmp_path: Path) -> None:
    """A graph parser scores arcs, not labels per token: no distributions to learn from."""
    nlp = load_test_nlp(GRAPH_TINY)
    examples = make_examples(nlp)
    nlp.initialize(lambda: examples)
    with pytest.raises(ValueError, match=r"\[NEG-E369\]"):
        shared_components(nlp, nlp, None)
