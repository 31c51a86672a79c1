"""spacy-negation.DistilledCorpus.v1 with a teacher that cannot be loaded: a coded error
naming the teacher and, for a damaged file of it (a corrupt ``transformer/model``), the
file, not the parser's message alone."""
import shutil
from pathlib import Path

import pytest
import spacy

from spacy_negation.distill import DistilledCorpus

from util import CNN_TINY, load_test_nlp, make_examples


def _read(teacher: Path) -> None:
    """Read a corpus through the distilling reader with the teacher (it loads on the first read)."""
    student = load_test_nlp(CNN_TINY)
    reader = DistilledCorpus(lambda nlp: iter(make_examples(nlp)), str(teacher))
    list(reader(student))


@pytest.mark.parametrize("damage", ["extra bytes", "truncated"])
def test_a_teacher_with_a_corrupt_transformer_is_named(tiny_trf_dir: Path, tmp_path: Path, damage: str) -> None:
    teacher = tmp_path / "teacher"
    shutil.copytree(tiny_trf_dir, teacher)
    weights = teacher / "transformer" / "model"
    data = weights.read_bytes()
    weights.write_bytes(data + b"\x00\x01" if damage == "extra bytes" else data[: len(data) // 3])
    with pytest.raises(ValueError, match=rf"\[NEG-E376\] Cannot load the teacher '{teacher}' .*"
                                         rf"\[NEG-E374\] .*its file transformer/model "):
        _read(teacher)


def test_a_missing_teacher_is_named(tmp_path: Path) -> None:
    with pytest.raises(OSError, match=r"\[NEG-E376\] Cannot load the teacher .*nowhere.*\[NEG-E320\]"):
        _read(tmp_path / "nowhere")


def test_a_sound_teacher_loads(tiny_trf_dir: Path) -> None:
    _read(tiny_trf_dir)
    assert spacy.load(tiny_trf_dir).pipe_names[0] == "transformer"
