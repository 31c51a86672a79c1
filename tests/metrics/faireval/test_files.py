"""FairEval on files and folders: span files written and read back, target and system
files paired and counted."""
import pytest

from spacy_negation.metrics.faireval.files import count_files, format_span_sentences, pair_files, write_span_file
from spacy_negation.metrics.faireval.io import read_faireval_file

from util import fspan


def test_span_file_round_trip(tmp_path):
    sentences = [[fspan("CUE", 3, 3), fspan("SCOPE", 1, 8, 1, 2, 4, 8)], [], [fspan("A", 2, 2)]]
    path = tmp_path / "out" / "spans.tsv"
    write_span_file(sentences, path)
    assert path.read_text(encoding="utf-8") == format_span_sentences(sentences)
    assert "EMPTY\t999\t999\t999" in path.read_text(encoding="utf-8")
    assert [s.spans for s in read_faireval_file(path)] == sentences


def test_count_files_checks_alignment(tmp_path):
    (tmp_path / "t").mkdir()
    (tmp_path / "s").mkdir()
    (tmp_path / "t" / "a.tsv").write_text("A\t1\t1\t1\n\nA\t2\t2\t2\n", encoding="utf-8")
    (tmp_path / "s" / "a.tsv").write_text("A\t1\t1\t1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[NEG-E255\]"):
        count_files(tmp_path / "t", tmp_path / "s")
    (tmp_path / "s" / "a.tsv").write_text("A\t1\t1\t1\n\nB\t2\t2\t2\n", encoding="utf-8")
    c = count_files(tmp_path / "t", tmp_path / "s")
    assert (c.fair.TP, c.fair.LE, c.n_sentences) == (1, 1, 2)
    # two files are paired whatever their names (Q-F7 fixed)
    assert count_files(tmp_path / "t" / "a.tsv", tmp_path / "s" / "a.tsv").fair.TP == 1
    (tmp_path / "s" / "b.tsv").write_text("A\t1\t1\t1\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[NEG-E265\]"):
        pair_files(tmp_path / "t", tmp_path / "s")
    with pytest.raises(ValueError, match=r"\[NEG-E266\]"):
        pair_files(tmp_path / "t" / "a.tsv", tmp_path / "s")
    with pytest.raises(FileNotFoundError):
        pair_files(tmp_path / "nothing", tmp_path / "s")
    (tmp_path / "t0").mkdir()
    (tmp_path / "s0").mkdir()
    (tmp_path / "s0" / ".hidden").write_text("A\t1\t1\t1\n", encoding="utf-8")  # not a file to evaluate
    with pytest.raises(ValueError, match=r"\[NEG-E267\] .*t0: the folder holds no files to evaluate"):
        pair_files(tmp_path / "t0", tmp_path / "s0")
    (tmp_path / "t1.conll").write_text("a x B-X\nb x I-X\n", encoding="utf-8")
    (tmp_path / "s1.conll").write_text("a x B-X\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"\[NEG-E264\]"):
        count_files(tmp_path / "t1.conll", tmp_path / "s1.conll")
