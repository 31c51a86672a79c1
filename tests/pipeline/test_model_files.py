"""A damaged file of a negation model's folder: the coded error names it (E374), and a
packaged model's recorded sha256 (written by scripts/model_card.py) catch a changed byte
that still loads (E375), by path and by installed package name."""
import json
import shutil
from pathlib import Path
from typing import Callable

import pytest
import spacy

from spacy_negation.pipeline.model_files import CHECKSUMS_KEY, META_KEY, file_checksums, verify_checksums
from spacy_negation.pipeline.model_loading import load_negation_model

from util import TEXTS, negation_key


def _copy(source: Path, to: Path) -> Path:
    shutil.copytree(source, to)
    return to


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _flip(path: Path, at: int = -100) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))


DAMAGES = {
    "truncated": _truncate,
    "not text": lambda path: path.write_bytes(b"\xff\xfe" + path.read_bytes()),
    "extra bytes": lambda path: path.write_bytes(path.read_bytes() + b"\x00\x01"),
}


@pytest.mark.parametrize("name,damage", [
    ("config.cfg", "not text"),
    ("meta.json", "truncated"),
    ("negation_cue/model", "truncated"),
    ("negation_cue/cfg", "truncated"),
    ("negation_scope/model", "extra bytes"),
    ("tok2vec/model", "extra bytes"),
    ("tokenizer", "truncated"),
    ("vocab/strings.json", "truncated"),
])
def test_a_damaged_file_is_named(trained_cnn_dir: Path, tmp_path: Path, name: str, damage: str) -> None:
    """The parser's message alone names no file: E374 names the file in the folder."""
    model = _copy(trained_cnn_dir, tmp_path / "model")
    DAMAGES[damage](model / name)
    with pytest.raises(ValueError, match=rf"\[NEG-E374\] Cannot load the negation model '{model}': its file {name} "):
        spacy.blank("en").add_pipe("negation", config={"model": str(model)})


def test_a_missing_file_is_named(trained_cnn_dir: Path, tmp_path: Path) -> None:
    model = _copy(trained_cnn_dir, tmp_path / "model")
    (model / "negation_scope" / "model").unlink()
    with pytest.raises(ValueError, match=r"\[NEG-E374\] .*its file negation_scope/model .*FileNotFoundError"):
        load_negation_model(str(model))


def test_a_model_that_is_not_there_is_still_e320(tmp_path: Path) -> None:
    with pytest.raises(OSError, match=r"\[NEG-E320\]"):
        load_negation_model(str(tmp_path / "nowhere"))


def _packaged(trained_cnn_dir: Path, tmp_path: Path, run_script: Callable) -> Path:
    """The tiny model's folder as `spacy package` installs it: the files of the model and
    the meta.json that scripts/model_card.py wrote (with the checksums)."""
    meta = tmp_path / "meta.json"
    proc = run_script("model_card.py", str(trained_cnn_dir), "--domain", "cdsco", "--name", "negation_tiny",
                      "--version", "0.0.1", "--out", str(meta))
    assert proc.returncode == 0, proc.stderr
    folder = _copy(trained_cnn_dir, tmp_path / "en_negation_tiny-0.0.1")
    shutil.copy(meta, folder / "meta.json")
    return folder


def test_model_card_records_the_checksums_the_host_verifies(trained_cnn_dir: Path, tmp_path: Path,
                                                            run_script: Callable) -> None:
    folder = _packaged(trained_cnn_dir, tmp_path, run_script)
    recorded = json.loads((folder / "meta.json").read_text(encoding="utf-8"))[META_KEY][CHECKSUMS_KEY]
    assert recorded == file_checksums(trained_cnn_dir) and "meta.json" not in recorded
    assert {"config.cfg", "negation_cue/model", "negation_scope/model", "tokenizer"} <= set(recorded)
    assert verify_checksums(str(folder), folder) == len(recorded)
    host = spacy.blank("en")
    host.add_pipe("negation", config={"model": str(folder)})
    plain = spacy.blank("en")
    plain.add_pipe("negation", config={"model": str(trained_cnn_dir)})
    assert [negation_key(d) for d in host.pipe(TEXTS)] == [negation_key(d) for d in plain.pipe(TEXTS)]
    # a byte of a weight changed: the model would load and predict otherwise, silently
    _flip(folder / "negation_scope" / "model")
    spacy.load(folder)
    with pytest.raises(ValueError, match=r"\[NEG-E375\] .*negation_scope/model has the sha256 [0-9a-f]{64}, but"):
        spacy.blank("en").add_pipe("negation", config={"model": str(folder)})
    shutil.copy(trained_cnn_dir / "negation_scope" / "model", folder / "negation_scope" / "model")
    (folder / "tokenizer").unlink()
    with pytest.raises(ValueError, match=r"\[NEG-E375\] .*tokenizer has the sha256 \(missing\)"):
        load_negation_model(str(folder))


def test_an_installed_package_is_verified_by_name(trained_cnn_dir: Path, tmp_path: Path, run_script: Callable,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A model package found by its name (as `pip install` of `spacy package`'s sdist lays
    it out: the package folder with meta.json and the data folder) is verified too."""
    site = tmp_path / "site"
    package = site / "en_negation_tiny"
    package.mkdir(parents=True)
    data = _packaged(trained_cnn_dir, tmp_path, run_script)
    shutil.move(str(data), str(package / data.name))
    shutil.copy(package / data.name / "meta.json", package / "meta.json")
    (package / "__init__.py").write_text(
        "from spacy.util import load_model_from_init_py\n\n\n"
        "def load(**overrides):\n    return load_model_from_init_py(__file__, **overrides)\n", encoding="utf-8")
    info = site / "en_negation_tiny-0.0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: en_negation_tiny\nVersion: 0.0.1\n",
                                   encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    assert load_negation_model("en_negation_tiny").pipe_names == ["tok2vec", "negation_cue", "negation_scope"]
    _flip(package / data.name / "negation_cue" / "model")
    with pytest.raises(ValueError, match=r"\[NEG-E375\] The negation model 'en_negation_tiny': the file .*"
                                         r"negation_cue/model has the sha256"):
        spacy.blank("en").add_pipe("negation", config={"model": "en_negation_tiny"})
