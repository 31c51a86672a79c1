"""Finding the input files of a corpus."""
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, List, Tuple, TypeVar, Union

from ..errors import Errors, NegationFormatError
from ..util import check_input_file

R = TypeVar("R")


def input_files(path: Union[str, Path], suffix: str) -> List[Path]:
    """The files to read: the path itself if it is a file, else every file ending in
    ``suffix`` below the directory, recursively, in natural path order.

    path (Union[str, Path]): a file or a directory.
    suffix (str): the file ending for directories, e.g. ".xml".
    RETURNS (List[Path]): the files.
    RAISES (FileNotFoundError): the path does not exist (E130).
    RAISES (NegationFormatError): a FIFO or device (E970; never opened), or the directory
        holds no such file (E402).
    """
    path = check_input_file(path, folder_ok=True)
    if path.is_file():
        return [path]
    files = sorted((p for p in path.rglob(f"*{suffix}") if p.is_file()), key=natural_key)
    if not files:
        raise NegationFormatError(Errors.E402.format(path=path, suffix=suffix), path)
    return files


def natural_key(path: Path) -> Tuple[Any, ...]:
    """Sort key with digit runs compared as numbers (``2.xml`` before ``10.xml``).

    path (Path): the path.
    RETURNS (Tuple): the key.
    """
    return tuple(int(x) if x.isdigit() else x for x in re.split(r"(\d+)", str(path)))


def records_from_files(path: Union[str, Path], suffix: str, read_file: Callable[[Path], Iterable[R]]) -> Iterator[R]:
    """The records of a file, or of every file ending in ``suffix`` below a folder (see
    :func:`input_files`), read one file after the other.

    path (Union[str, Path]): a file or a folder.
    suffix (str): the file ending for folders.
    read_file (Callable[[Path], Iterable[R]]): reads one file.
    YIELDS (R): the records in file order.
    """
    for file in input_files(path, suffix):
        yield from read_file(file)
