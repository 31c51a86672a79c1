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
