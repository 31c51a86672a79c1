"""The project's helper scripts: asset fetching with checksums."""
import hashlib
import subprocess
import sys
from pathlib import Path

import srsly

REPO = Path(__file__).resolve().parents[1]


def _project(tmp_path: Path, content: bytes, checksum_of: bytes) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    srsly.write_yaml(root / "project.yml", {"assets": [{
        "dest": "assets/c/file.txt", "url": "http://127.0.0.1:9/unreachable.txt",
        "checksum": hashlib.md5(checksum_of).hexdigest()}]})
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "file.txt").write_bytes(content)
    return root


def _run(root: Path, mirror: Path):
    return subprocess.run([sys.executable, str(REPO / "scripts" / "get_assets.py"), "--root", str(root),
                           "--mirror", str(mirror)], capture_output=True, text=True)


def test_assets_from_mirror(tmp_path):
    root = _project(tmp_path, b"data\n", b"data\n")
    r = _run(root, tmp_path / "mirror")
    assert r.returncode == 0, r.stderr
    assert (root / "assets/c/file.txt").read_bytes() == b"data\n"
    assert "already there" in _run(root, tmp_path / "mirror").stderr


def test_altered_mirror_file_is_an_error_and_leaves_nothing(tmp_path):
    root = _project(tmp_path, b"altered\n", b"data\n")
    r = _run(root, tmp_path / "mirror")
    assert r.returncode != 0 and "checksum mismatch" in r.stderr
    assert list((root / "assets/c").iterdir()) == []


def test_missing_everywhere_is_an_error(tmp_path):
    root = _project(tmp_path, b"data\n", b"data\n")
    (tmp_path / "mirror" / "file.txt").unlink()
    r = _run(root, tmp_path / "mirror")
    assert r.returncode != 0 and "cannot be downloaded" in r.stderr
    assert not (root / "assets/c/file.txt").exists()


def test_concat_docbins_marks_each_input_with_its_convention(run_script, tmp_path):
    import spacy
    from spacy.tokens import DocBin

    from spacy_negation.negation import get_convention

    nlp = spacy.blank("en")
    DocBin(store_user_data=True, docs=[nlp("No fever.")]).to_disk(tmp_path / "a.spacy")
    DocBin(store_user_data=True, docs=[nlp("Not bad."), nlp("Good.")]).to_disk(tmp_path / "b.spacy")
    proc = run_script("concat_docbins.py", f"cdsco={tmp_path / 'a.spacy'}", str(tmp_path / "b.spacy"),
                      "--output", str(tmp_path / "out.spacy"))
    assert proc.returncode == 0, proc.stderr
    docs = list(DocBin().from_disk(tmp_path / "out.spacy").get_docs(nlp.vocab))
    assert [(d.text, get_convention(d)) for d in docs] == [("No fever.", "cdsco"), ("Not bad.", None),
                                                            ("Good.", None)]
