"""The work folder of an ``annotate`` run: the manifest of the run's settings, and per
finished shard its output file and a small ``.done.json`` record.

A shard file is written atomically, then its done record (also atomically), so a run
killed at any point leaves only finished shards marked done; a shard file without its
done record is annotated again. Finishing a shard costs the same however many shards
there are. The manifest holds the run's settings (input SHA-256, formats, fields, shard
size, model): a re-run reuses the finished shards only if they are the same.
"""
import json
from pathlib import Path
from typing import Any, Dict, List

from ..errors import Errors, NegationFormatError
from ..util import atomic_write_bytes, atomic_write_text

MANIFEST = "manifest.json"
VERSION = 1


class WorkDir:
    """The settings manifest, shard files and done records of one run.

    path (Path): the folder.
    settings (Dict[str, Any]): what the finished shards depend on.
    ext (str): the shard files' suffix (the output format).
    """

    def __init__(self, path: Path, settings: Dict[str, Any], ext: str) -> None:
        self.path = Path(path)
        self.settings = settings
        self.ext = ext
        self.done: Dict[int, Dict[str, Any]] = {}
        manifest = self.path / MANIFEST
        if manifest.exists():
            self._load(manifest)
        else:
            self.path.mkdir(parents=True, exist_ok=True)
            data = {"version": VERSION, "settings": self.settings}
            atomic_write_text(manifest, json.dumps(data, indent=1) + "\n")

    def _load(self, manifest: Path) -> None:
        data = _read_json(manifest)
        old = data.get("settings")
        if data.get("version") != VERSION or not isinstance(old, dict):
            raise NegationFormatError(Errors.E505.format(path=manifest, reason="no version "
                                                         f"{VERSION} settings"), manifest)
        for key in sorted(set(old) | set(self.settings)):
            if old.get(key) != self.settings.get(key):
                raise ValueError(Errors.E504.format(work_dir=self.path, key=key,
                                                    old=old.get(key), new=self.settings.get(key)))
        for path in sorted(self.path.glob("shard-*.done.json")):
            index = int(path.name[len("shard-"):].split(".", 1)[0])
            if self.shard_path(index).is_file():
                self.done[index] = _read_json(path)

    def shard_path(self, index: int) -> Path:
        return self.path / f"shard-{index:05d}.{self.ext}"

    def done_path(self, index: int) -> Path:
        return self.path / f"shard-{index:05d}.done.json"

    def finish(self, index: int, data: bytes, info: Dict[str, Any]) -> None:
        """Record a finished shard: its file, then its done record.

        index (int): the shard number.
        data (bytes): the shard's output content.
        info (Dict[str, Any]): what to keep about it (counts, skipped records).
        """
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
