"""The files of a trained negation pipeline's folder: which one failed to load, and their
recorded sha256.

A pipeline that does not load because one of its files is damaged (a truncated
``negation_cue/model``, a ``config.cfg`` that is not text, a ``meta.json`` that is not
JSON) fails in spaCy's or a library's parser, whose message names no file. spaCy reads a
folder through a few functions of ``spacy.util`` (``load_config`` and ``load_meta`` a
file, ``from_disk`` each entry of a folder): :func:`failed_file` finds, in the
traceback of the failure, the innermost of their calls and so the file (or the folder,
then the first of its files that does not parse) that was being read.

A file damaged in a way that still parses (a flipped byte of a weight) loads silently.
The project's ``scripts/model_card.py`` therefore records the sha256 of every file of the
folder it packages (:func:`file_checksums`; ``meta.json`` aside, which ``spacy package``
rewrites) in the package's meta, ``meta["spacy_negation"]["checksums"]``, and
:func:`verify_checksums` compares them before the pipeline loads, when the meta has
them (hashing runs at about 1 GB/s: a few tenths of a second for a transformer model).
"""
import hashlib
from pathlib import Path
from typing import Any, Dict, Iterator, Optional

import srsly

from ..errors import Errors

#: The key of the package's own section in a pipeline's meta.json.
META_KEY = "spacy_negation"
#: The key of the files' sha256 in that section.
CHECKSUMS_KEY = "checksums"
#: The files of a pipeline folder that are not recorded: ``spacy package`` writes the
#: package's meta.json (with the checksums) over the pipeline's own.
UNRECORDED = frozenset({"meta.json"})
#: The functions of ``spacy.util`` that read a pipeline folder, and the local variables
#: that name what they read (``from_disk`` reads ``path / key``).
_READERS = {"load_config": ("path",), "load_meta": ("path",), "from_disk": ("path", "key")}


def model_folder(model: str) -> Optional[Path]:
    """The folder ``spacy.load(model)`` reads: the path, or an installed model package's
    data folder (None if it is neither).

    model (str): a path or an installed package's name.
    RETURNS (Optional[Path]): the folder.
    """
    path = Path(model)
    if path.is_dir():
        return path
    import spacy.util

    if path.exists() or not spacy.util.is_package(model):
        return None
    try:
        package = spacy.util.get_package_path(model)
        meta = srsly.read_json(package / "meta.json")
        folder = package / f"{meta['lang']}_{meta['name']}-{meta['version']}"
    except Exception:  # noqa: BLE001 - spacy.load reports a package it cannot read
        return None
    return folder if folder.is_dir() else None


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _files(folder: Path) -> Iterator[Path]:
    """The recorded files of a folder, in a fixed order."""
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.relative_to(folder).as_posix() not in UNRECORDED:
            yield path


def file_checksums(folder: Path) -> Dict[str, str]:
    """The sha256 of every file of a pipeline folder but its meta.json.

    folder (Path): the pipeline's folder.
    RETURNS (Dict[str, str]): relative path (with '/') -> hex digest, sorted.
    """
    return {path.relative_to(folder).as_posix(): _sha256(path) for path in _files(folder)}


def recorded_checksums(meta: Any) -> Optional[Dict[str, str]]:
    """The checksums a pipeline's meta records (None without them).

    meta (Any): the meta as read from meta.json.
    RETURNS (Optional[Dict[str, str]]): relative path -> sha256.
    """
    section = meta.get(META_KEY) if isinstance(meta, dict) else None
    checksums = section.get(CHECKSUMS_KEY) if isinstance(section, dict) else None
    return checksums if isinstance(checksums, dict) and checksums else None


def verify_checksums(model: str, folder: Path) -> int:
    """Compare the files of a pipeline folder with the sha256 its meta.json records
    (E375 for a file that differs or is missing); nothing to do without them (or with a
    meta.json that does not parse, which the loading then reports).

    model (str): the model as given (named in the error).
    folder (Path): its folder.
    RETURNS (int): the number of files checked.
    """
    try:
        checksums = recorded_checksums(srsly.read_json(folder / "meta.json"))
    except (OSError, ValueError):
        return 0
    if checksums is None:
        return 0
    for name, want in sorted(checksums.items()):
        path = folder / name
        got = _sha256(path) if path.is_file() else "(missing)"
        if got != want:
            raise ValueError(Errors.E375.format(model=model, file=path, got=got, want=want))
    return len(checksums)


def failed_file(err: BaseException, folder: Path) -> Optional[Path]:
    """The file (or folder) of a pipeline that was being read when loading it failed:
    the innermost call in the traceback of a reader of ``spacy.util`` (``load_config``,
    ``load_meta``, ``from_disk``) inside the folder; for a folder, the first of its files
    that does not parse where one does not (:func:`unparsable_file`).

    err (BaseException): the exception of ``spacy.load``.
    folder (Path): the pipeline's folder.
    RETURNS (Optional[Path]): the file or folder, or None if the failure is not reading one.
    """
    import spacy.util

    util_file = str(Path(spacy.util.__file__).resolve())
    found: Optional[Path] = None
    tb = err.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        names = _READERS.get(code.co_name)
        if names is not None and str(Path(code.co_filename).resolve()) == util_file:
            values = [tb.tb_frame.f_locals.get(name) for name in names]
            if all(isinstance(v, (str, Path)) for v in values):
                found = Path(*[str(v) for v in values])
        tb = tb.tb_next
    if found is None or not _inside(found, folder):
        return None
    if found.is_dir():
        return unparsable_file(found) or found
    return found


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def unparsable_file(folder: Path) -> Optional[Path]:
    """The first file of a folder (sorted) that its format's parser rejects: JSON for
    ``*.json`` and ``cfg``, the config format for ``*.cfg``, NumPy for ``vectors``,
    msgpack for the other files spaCy writes (``model``, ``tokenizer``, ``key2row``,
    ``lookups.bin``); None if every file parses.

    folder (Path): a folder of a pipeline.
    RETURNS (Optional[Path]): the file.
    """
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if _parse_error(path) is not None:
            return path
    return None


def _parse_error(path: Path) -> Optional[str]:
    """Why a file of a pipeline does not parse, or None (also for a format it does not know)."""
    import numpy
    from thinc.api import Config

    try:
        if path.suffix == ".json" or path.name == "cfg":
            srsly.read_json(path)
        elif path.suffix == ".cfg":
            Config().from_disk(path, interpolate=False)
        elif path.name == "vectors":
            numpy.load(path, allow_pickle=False)
        elif path.suffix in ("", ".bin"):
            srsly.msgpack_loads(path.read_bytes())
    except Exception as err:  # noqa: BLE001 - any parser error says the file is damaged
        return f"{type(err).__name__}: {err}"
    return None


def relative_name(path: Path, folder: Path) -> str:
    """A file of a pipeline folder by its path in it (``negation_cue/model``)."""
    try:
        return path.resolve().relative_to(folder.resolve()).as_posix() or "."
    except ValueError:
        return str(path)


def describe_failure(model: str, folder: Path, err: BaseException) -> Optional[str]:
    """The coded message (E374) of a pipeline that failed to load while reading one of
    its files, naming the file; None if the failure was not reading a file.

    model (str): the model as given.
    folder (Path): its folder.
    err (BaseException): the exception of ``spacy.load``.
    RETURNS (Optional[str]): the message.
    """
    path = failed_file(err, folder)
    if path is None:
        return None
    reason = f"{type(err).__name__}: {err}".strip()
    return Errors.E374.format(model=model, file=relative_name(path, folder), folder=folder,
                              reason=_shortened(reason))


def _shortened(text: str, limit: int = 300) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + " ..."
