"""The work folder of an ``annotate`` run: the manifest of the run's settings, and per
finished shard its output file and a small ``.done.json`` record.

A shard file is written atomically, then its done record (also atomically), so a run
killed at any point leaves only finished shards marked done; a shard file without its
done record is annotated again. Finishing a shard costs the same however many shards
there are. The manifest holds the run's settings (input SHA-256, formats, fields, shard
size, the model's identity: see :func:`model_identity`): a re-run with other settings
stops with a coded error. Each done record holds what made its shard (the settings'
digest, the shard's record range and byte offset) and the SHA-256 and size of the shard
file: a re-run checks them and annotates again, with a warning, a shard whose record does
not match (a truncated or edited shard file, a record of another range), so the output
never holds a shard it cannot vouch for.
"""
import hashlib
import json
import os
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence

from ..errors import Errors, NegationFormatError, Warnings
from ..util import atomic_write_bytes, atomic_write_text, file_kind, file_sha256
from .sources import Shard

MANIFEST = "manifest.json"
VERSION = 2


def model_identity(model: str) -> str:
    """What identifies a model for resuming: its meta name and version, the SHA-256 of
    its config.cfg and meta.json, and the path, size and modification time of every other
    file (the weights) of its folder, so another model saved at the same path, or the same
    model retrained in place, is told apart without hashing the weights.

    model (str): a path or an installed package name (a name that is neither is its own
        identity).
    RETURNS (str): e.g. ``"en_negation_cdsco 0.1.0 config=1a2b3c4d5e6f files=7a8b9c0d1e2f"``.
    """
    import spacy

    path = Path(model)
    if not path.exists() and spacy.util.is_package(model):
        package = spacy.util.get_package_path(model)
        metas = sorted(package.glob("*/meta.json"))
        path = metas[-1].parent if metas else package
    if not path.is_dir():
        return model
    name = version = "?"
    meta = path / "meta.json"
    if meta.is_file():
        try:
            data = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            data = {}
        if isinstance(data, dict):
            name = f"{data.get('lang', '?')}_{data.get('name', '?')}"
            version = str(data.get("version", "?"))
    config = hashlib.sha256()
    files = hashlib.sha256()
    for file in sorted(p for p in path.rglob("*") if p.is_file()):
        rel = file.relative_to(path).as_posix()
        if rel in ("config.cfg", "meta.json"):
            config.update(rel.encode("utf-8") + b"\0" + file.read_bytes() + b"\0")
        else:
            stat = file.stat()
            files.update(f"{rel}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode("utf-8"))
    return f"{name} {version} config={config.hexdigest()[:12]} files={files.hexdigest()[:12]}"


def check_work_dir(path: Path) -> Path:
    """Check that a work folder can be used: a folder, or a path where one can be made.

    path (Path): the work folder.
    RETURNS (Path): the path.
    RAISES (NegationFormatError): a file, FIFO or device at the path, a dangling symlink, or
        a parent that is not a folder (E520).
    """
    path = Path(path)
    what = None
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        if os.path.islink(path):
            what = f"is a dangling symbolic link (to {os.readlink(path)})"
        else:
            for parent in path.parents:
                if parent.exists():
                    if not parent.is_dir():
                        what = f"cannot be made: {parent} is {file_kind(parent.stat().st_mode)}"
                    break
    except OSError as err:
        what = f"cannot be looked up ({err.strerror or err})"
    else:
        if not os.path.isdir(path):
            what = f"is {file_kind(mode)}, not a folder"
    if what is not None:
        raise NegationFormatError(Errors.E520.format(path=path, what=what), path)
    return path


def settings_digest(settings: Dict[str, Any]) -> str:
    """The SHA-256 of a run's settings (as sorted JSON)."""
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode("utf-8")).hexdigest()


class WorkDir:
    """The settings manifest, shard files and done records of one run.

    path (Path): the folder.
    settings (Dict[str, Any]): what the finished shards depend on.
    ext (str): the shard files' suffix (the output format).
    shards (Optional[Sequence[Shard]]): the input's shards: a done record is kept only if
        it matches its shard (range, settings, file checksum); None: every done record
        whose shard file exists is kept unchecked.
    """

    def __init__(self, path: Path, settings: Dict[str, Any], ext: str,
                 shards: Optional[Sequence[Shard]] = None) -> None:
        self.path = Path(path)
        self.settings = settings
        self.digest = settings_digest(settings)
        self.ext = ext
        self.done: Dict[int, Dict[str, Any]] = {}
        self.redone: Dict[int, str] = {}
        manifest = self.path / MANIFEST
        check_work_dir(self.path)
        if manifest.exists():
            self._load(manifest, shards)
        else:
            try:
                self.path.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise NegationFormatError(Errors.E520.format(
                    path=self.path, what=f"cannot be made ({err.strerror or err})"), self.path) from err
            data = {"version": VERSION, "settings": self.settings}
            atomic_write_text(manifest, json.dumps(data, indent=1) + "\n")

    def _load(self, manifest: Path, shards: Optional[Sequence[Shard]]) -> None:
        data = _read_json(manifest)
        old = data.get("settings")
        if data.get("version") != VERSION or not isinstance(old, dict):
            raise NegationFormatError(Errors.E505.format(path=manifest, reason="no version "
                                                         f"{VERSION} settings"), manifest)
        for key in sorted(set(old) | set(self.settings)):
            if old.get(key) != self.settings.get(key):
                raise ValueError(Errors.E504.format(work_dir=self.path, key=key,
                                                    old=old.get(key), new=self.settings.get(key)))
        by_index = {shard.index: shard for shard in shards} if shards is not None else None
        for path in sorted(self.path.glob("shard-*.done.json")):
            index = int(path.name[len("shard-"):].split(".", 1)[0])
            if not self.shard_path(index).is_file():
                continue
            info = _read_json(path)
            if by_index is not None:
                reason = self._mismatch(index, info, by_index.get(index))
                if reason is not None:
                    warnings.warn(Warnings.W950.format(path=self.shard_path(index), reason=reason))
                    self.redone[index] = reason
                    continue
            self.done[index] = info

    def _mismatch(self, index: int, info: Dict[str, Any], shard: Optional[Shard]) -> Optional[str]:
        """Why a done record cannot vouch for its shard file, or None if it can."""
        if shard is None:
            return "the input has no such shard"
        if info.get("settings_sha256") != self.digest:
            return "its record was made with other settings or model"
        if info.get("records") != [shard.start, shard.end, shard.offset]:
            return (f"its record covers records {info.get('records')!r}, the shard is "
                    f"{[shard.start, shard.end, shard.offset]!r} (start, end, byte offset)")
        path = self.shard_path(index)
        size = path.stat().st_size
        if info.get("bytes") != size:
            return f"the file has {size} bytes, its record says {info.get('bytes')!r}"
        if info.get("sha256") != file_sha256(path):
            return "the file's SHA-256 differs from its record's"
        return None

    def shard_path(self, index: int) -> Path:
        return self.path / f"shard-{index:05d}.{self.ext}"

    def done_path(self, index: int) -> Path:
        return self.path / f"shard-{index:05d}.done.json"

    def finish(self, shard: Shard, data: bytes, info: Dict[str, Any]) -> None:
        """Record a finished shard: its file, then its done record (the given info, the
        settings' digest, the shard's range and the file's size and SHA-256).

        shard (Shard): the shard.
        data (bytes): the shard's output content.
        info (Dict[str, Any]): what to keep about it (counts, skipped records).
        """
        index = shard.index
        info = dict(info, settings_sha256=self.digest,
                    records=[shard.start, shard.end, shard.offset], bytes=len(data),
                    sha256=hashlib.sha256(data).hexdigest())
        atomic_write_bytes(self.shard_path(index), data)
        atomic_write_text(self.done_path(index), json.dumps(info) + "\n")
        self.done[index] = info

    def shard_paths(self, n_shards: int) -> List[Path]:
        return [self.shard_path(k) for k in range(n_shards)]

    def remove(self) -> None:
        """Delete the shard files, the manifest and the temporary files of writes that a
        killed run left behind, then the folder if it is empty."""
        for pattern in (f"shard-*.{self.ext}", "shard-*.done.json", ".shard-*.tmp",
                        f".{MANIFEST}.*.tmp"):
            for path in self.path.glob(pattern):
                path.unlink()
        (self.path / MANIFEST).unlink()
        if not any(self.path.iterdir()):
            self.path.rmdir()


def _read_json(path: Path) -> Dict[str, Any]:
    """A JSON object written by :class:`WorkDir`, with a coded error if it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise NegationFormatError(Errors.E505.format(path=path, reason=err), path) from err
    if not isinstance(data, dict):
        raise NegationFormatError(Errors.E505.format(path=path, reason="not a JSON object"), path)
    return data
