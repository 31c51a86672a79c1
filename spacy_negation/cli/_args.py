"""The argument types the commands share, checked when the command line is parsed, before
any work is done: a count in its range (:func:`bounded_int`), an input that is an existing
regular file (:func:`input_file`) or folder (:func:`input_path`), an output path that can
be written (:func:`output_file`) and a work folder (:func:`work_dir`). A bad value is a
usage error (exit code 2) whose message names the option and carries the coded message of
the check (the checks are those of :mod:`spacy_negation.util` and
:mod:`spacy_negation.limits`, which the functions behind the commands apply again for
callers from Python).

Inputs: a FIFO, a socket or a device (``/dev/zero``) is refused before it is opened
(E970), a directory where a file is read (E210), a missing path (E130). Outputs: a
directory, FIFO, socket or device at the path (``/dev/full``, and ``/dev/null`` too: files
are written atomically, by renaming a temporary file over the path, which would replace
the device) is refused (E123, E124), and so is a path below a file (E123).
"""
import argparse
from pathlib import Path
from typing import Callable, Iterable, Union

from ..errors import Errors, NegationFormatError
from ..limits import MAX_SEED, check_count


def bounded_int(option: str, low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``.

    option (str): the option's name, for the message (e.g. '--threads').
    low (int): the least value allowed.
    high (int): the greatest value allowed.
    RETURNS (Callable[[str], int]): the type; a value outside the range or not a whole
        number is a usage error naming the option and the range (E971).
    """
    def parse(value: str) -> int:
        try:
            number = int(value.strip(), 10)  # (a number of more than 4300 digits: ValueError)
        except ValueError:
            shown = value if len(value) < 40 else f"{value[:20]}...{value[-5:]}"
            raise argparse.ArgumentTypeError(
                Errors.E971.format(option=option, low=low, high=high, value=shown)) from None
        try:
            return check_count(option, number, low, high)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    parse.__name__ = f"whole number from {low} to {high}"
    return parse


#: The type of ``--seed``: 0 to 2**32 - 1.
seed_arg = bounded_int("--seed", 0, MAX_SEED)


def input_file(value: str) -> Path:
    """An argparse type: an existing regular file (see the module docstring)."""
    return _checked(lambda path: _input(path, folder_ok=False), value)


def input_path(value: str) -> Path:
    """An argparse type: an existing regular file or folder (the readers that read every
    file below a folder)."""
    return _checked(lambda path: _input(path, folder_ok=True), value)


def output_file(value: str) -> Path:
    """An argparse type: a path a file can be written to (see the module docstring)."""
    from ..util import check_output

    return _checked(lambda path: (check_output(path), path)[1], value)


def work_dir(value: str) -> Path:
    """An argparse type: a folder, or a path where one can be made (E520: a regular file,
    a dangling symlink, a FIFO or a device at the path)."""
    from ..annotate.workdir import check_work_dir

    return _checked(lambda path: (check_work_dir(path), path)[1], value)


def _input(path: Path, folder_ok: bool) -> Path:
    from ..util import check_input_file

    return check_input_file(path, folder_ok=folder_ok)


def _checked(check: Callable[[Path], Path], value: str) -> Path:
    """The path, after the check; its coded error as a usage error."""
    try:
        return check(Path(value))
    except (NegationFormatError, OSError) as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def check_outputs(paths: Iterable[Union[str, Path]]) -> None:
    """Check output paths a command writes beside its output (the ``.md`` and ``.png`` of
    ``probe`` and ``challenge``) before the run, as :func:`output_file` checks the output.

    paths (Iterable[Union[str, Path]]): the paths.
    RAISES (NegationFormatError): a path that cannot be written (E123, E124).
    """
    from ..util import check_output

    for path in paths:
        check_output(path)
