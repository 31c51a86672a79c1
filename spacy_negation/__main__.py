"""``python -m spacy_negation COMMAND``: see ``--help``."""
import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
