"""Command-line interface. Each command is a module of this package, listed in
``COMMANDS``, exposing ``add_arguments(parser)`` and ``run(args)`` (returns the exit
code). Its one-line help is the first line of the module's docstring
(:func:`command_summary`), its ``--help`` description the docstring of ``run`` (as a typer
command's is its function's); :func:`add_command` builds the subparser.

Only the module of the command being run is imported: the others are listed in ``--help``
with the first line of their docstring, read without importing them, so a command's
imports (spaCy, torch, ...) cost nothing to the others or to ``--help``.
"""
import argparse
import importlib
import importlib.util
import inspect
import sys
from typing import List, Optional, Sequence

from ..about import __version__
from ..errors import NegationFormatError

COMMANDS = ["convert", "export", "evaluate", "faireval", "compare", "seeds", "vote", "probe", "challenge",
            "annotate"]


def command_summary(name: str) -> str:
    """The one-line help of a command: the first line of its module's docstring without
    the leading ````name````: label, read from the source without importing it.

    name (str): the command (a module of this package).
    RETURNS (str): the summary ("" without a docstring).
    """
    import ast

    spec = importlib.util.find_spec(f"{__name__}.{name}")
    if spec is None or spec.origin is None:
        return ""
    with open(spec.origin, encoding="utf-8") as f:
        return _summary(name, ast.get_docstring(ast.parse(f.read())))


def _summary(name: str, doc: Optional[str]) -> str:
    import re

    first = inspect.cleandoc(doc or "").split("\n\n")[0].replace("\n", " ")
    first = re.sub(rf"^``{re.escape(name)}``:\s*", "", first)
    return first.rstrip(".").replace("``", "")


def add_command(sub: "argparse._SubParsersAction", name: str) -> argparse.ArgumentParser:
    """Import the command's module and add its subparser: the one-line help
    (:func:`command_summary`), the docstring of the module's ``run`` as the description,
    the arguments of its ``add_arguments``, and ``func`` = ``run``.

    sub (argparse._SubParsersAction): the subparsers of the main parser.
    name (str): the command (a module of this package).
    RETURNS (argparse.ArgumentParser): the command's parser.
    """
    module = importlib.import_module(f"{__name__}.{name}")
    parser = sub.add_parser(name, help=_summary(name, module.__doc__),
                            description=inspect.getdoc(module.run))
    module.add_arguments(parser)
    parser.set_defaults(func=module.run)
    return parser


def _chosen(argv: Sequence[str]) -> Optional[str]:
    for arg in argv:
        if arg in COMMANDS:
            return arg
        if not arg.startswith("-"):
            return None
    return None


def build_parser(argv: Optional[Sequence[str]] = None) -> argparse.ArgumentParser:
    """The parser; the full subparser only for the command named in ``argv`` (all of them
    when ``argv`` is None).

    argv (Optional[Sequence[str]]): the arguments to be parsed.
    RETURNS (argparse.ArgumentParser): the parser.
    """
    parser = argparse.ArgumentParser(
        prog="python -m spacy_negation",
        description="spacy-negation: negation resolution for spaCy.",
    )
    parser.add_argument("--version", action="version", version=f"spacy-negation {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = _chosen(argv) if argv is not None else None
    for name in COMMANDS:
        if argv is None or name == chosen:
            add_command(sub, name)
        else:  # listed only; its one-line help matters only when no command runs
            sub.add_parser(name, help=command_summary(name) if chosen is None else None,
                           add_help=False)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 bad input, 2 usage; also for
    ``--help`` and ``--version``, which argparse ends with ``SystemExit``). Usage errors
    (argparse's, with the coded message) also cover what the shared
    argument types of :mod:`._args` check before any work: a count outside its range, an
    input that is missing, a folder, a FIFO or a device, an output path that cannot be
    written."""
    argv = sys.argv[1:] if argv is None else argv
    parser = build_parser(argv)
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help, --version (0), usage errors (2): argparse printed them
        return stop.code if isinstance(stop.code, int) else 2
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except (NegationFormatError, FileNotFoundError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
