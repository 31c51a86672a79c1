"""The work folder of an ``annotate`` run: one file per finished shard and a manifest.

A shard file is written atomically, then the manifest (also atomically) records it as
finished, so a run killed at any point leaves only finished shards in the manifest; a
shard file without its manifest entry is annotated again. The manifest also holds the
run's settings (input SHA-256, formats, fields, shard size, model): a re-run reuses the
finished shards only if they are the same.
"""
import json
from pathlib import Path
from typing import Any, Dict, List

from ..errors import Errors, NegationFormatError
from ..util import atomic_write_bytes, atomic_write_text

MANIFEST = "manifest.json"
VERSION = 1


class WorkDir:
    """The shard files and the manifest of finished shards of one run.

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
            self._save()

    def _load(self, manifest: Path) -> None:
        try:
            data = json.loads(manifest.read_text(encoding="utf-8"))
            old = data["settings"]
            done = {int(k): v for k, v in data["done"].items()}
            if data.get("version") != VERSION or not isinstance(old, dict):
                raise ValueError(f"version {data.get('version')!r}")
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise NegationFormatError(Errors.E505.format(path=manifest, reason=err),
                                      manifest) from err
        for key in sorted(set(old) | set(self.settings)):
            if old.get(key) != self.settings.get(key):
                raise ValueError(Errors.E504.format(work_dir=self.path, key=key,
                                                    old=old.get(key),
                                                    new=self.settings.get(key)))
        self.done = {k: v for k, v in done.items() if self.shard_path(k).is_file()}

    def _save(self) -> None:
        data = {"version": VERSION, "settings": self.settings,
                "done": {str(k): v for k, v in sorted(self.done.items())}}
        atomic_write_text(self.path / MANIFEST, json.dumps(data, indent=1) + "\n")

    def shard_path(self, index: int) -> Path:
        return self.path / f"shard-{index:05d}.{self.ext}"

    def finish(self, index: int, data: bytes, info: Dict[str, Any]) -> None:
        """Record a finished shard: its file, then its manifest entry.

        index (int): the shard number.
        data (bytes): the shard's output content.
        info (Dict[str, Any]): what to keep about it (counts, skipped records).
        """
        atomic_write_bytes(self.shard_path(index), data)
        self.done[index] = info
        self._save()

    def shard_paths(self, n_shards: int) -> List[Path]:
        return [self.shard_path(k) for k in range(n_shards)]

    def remove(self) -> None:
        """Delete the shard files, the manifest and the temporary files of writes that a
        killed run left behind, then the folder if it is empty."""
        for pattern in (f"shard-*.{self.ext}", f".shard-*.{self.ext}.*.tmp", f".{MANIFEST}.*.tmp"):
            for path in self.path.glob(pattern):
                path.unlink()
        (self.path / MANIFEST).unlink()
        if not any(self.path.iterdir()):
            self.path.rmdir()
