"""Command-line interface. Each command is a module of this package exposing
``add_parser(subparsers)`` (which sets ``func``) and is listed in ``COMMANDS``."""
import argparse
import importlib
import sys
from typing import List, Optional

from ..about import __version__
from ..errors import NegationFormatError

COMMANDS = ["convert", "export", "evaluate", "faireval", "annotate"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m spacy_negation",
        description="spacy-negation: negation resolution for spaCy.",
    )
    parser.add_argument("--version", action="version", version=f"spacy-negation {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").add_parser(sub)
    return parser


def main(argv: Optional[List[str]] = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 bad input, 2 usage)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except (NegationFormatError, FileNotFoundError, ValueError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
