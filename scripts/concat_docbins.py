"""Concatenate .spacy files (keeping user data): concat_docbins.py A.spacy B.spacy --output C.spacy"""
import argparse
from pathlib import Path

from spacy.tokens import DocBin

from spacy_negation.util import atomic_write_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("inputs", nargs="+", type=Path)
    parser.add_argument("--output", type=Path, required=True)
    args = parser.parse_args()
    merged = DocBin(store_user_data=True)
    for path in args.inputs:
        merged.merge(DocBin(store_user_data=True).from_bytes(path.read_bytes()))
    atomic_write_bytes(args.output, merged.to_bytes())


if __name__ == "__main__":
    main()
