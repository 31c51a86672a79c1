"""The old import paths of moved modules: each is a small module calling
:func:`moved_module`, which warns once and puts the new module in its place (so
``from old.path import name`` and ``import old.path as m`` give the very same objects).
The old paths go in the next release."""
import importlib
import sys
import warnings


def moved_module(old: str, new: str) -> None:
    """Replace the module ``old`` (being imported) with ``new``, with a DeprecationWarning.

    old (str): the dotted name of the old module (its ``__name__``).
    new (str): the dotted name of the module it moved to.
    """
    warnings.warn(f"{old} has moved to {new}; import it from there (the old path goes in "
                  "the next release)", DeprecationWarning, stacklevel=3)
    sys.modules[old] = importlib.import_module(new)
