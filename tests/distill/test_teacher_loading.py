"""spacy-negation.DistilledCorpus.v1 with a teacher that cannot be loaded: a coded error
naming the teacher and, for a damaged file of it (a corrupt ``transformer/model``), the
file, not the parser's message alone."""
import shutil
from pathlib import Path

import pytest
import spacy

from spacy_negation.distill import DistilledCorpus

from util import CNN_TINY, TRF_TINY, load_test_nlp, make_examples


@pytest.fixture(scope="module")
def trf_teacher_dir(tiny_bert_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny random transformer negation pipeline, initialized on the gold sentences."""
    nlp = load_test_nlp(TRF_TINY, {"components.transformer.model.name": str(tiny_bert_dir)})
    nlp.initialize(lambda: make_examples(nlp))
    out = tmp_path_factory.mktemp("trf_teacher") / "model"
    nlp.to_disk(out)
    return out


def _read(teacher: Path) -> None:
    """Read a corpus through the distilling reader with the teacher (it loads on the first read)."""
    student = load_test_nlp(CNN_TINY)
    reader = DistilledCorpus(lambda nlp: iter(make_examples(nlp)), str(teacher))
    list(reader(student))


@pytest.mark.parametrize("damage", ["extra bytes", "truncated"])
def test_a_teacher_with_a_corrupt_transformer_is_named(trf_teacher_dir: Path, tmp_path: Path, damage: str) -> None:
    teacher = tmp_path / "teacher"
    shutil.copytree(trf_teacher_dir, teacher)
    weights = teacher / "transformer" / "model"
    data = weights.read_bytes()
    weights.write_bytes(data + b"\x00\x01" if damage == "extra bytes" else data[: len(data) // 3])
    with pytest.raises(ValueError, match=rf"\[NEG-E376\] Cannot load the teacher '{teacher}' .*"
                                         rf"\[NEG-E374\] .*its file transformer/model "):
        _read(teacher)


def test_a_missing_teacher_is_named(tmp_path: Path) -> None:
    with pytest.raises(OSError, match=r"\[NEG-E376\] Cannot load the teacher .*nowhere.*\[NEG-E320\]"):
        _read(tmp_path / "nowhere")


def test_a_sound_teacher_loads(trf_teacher_dir: Path) -> None:
    _read(trf_teacher_dir)
    assert spacy.load(trf_teacher_dir).pipe_names[0] == "transformer"
