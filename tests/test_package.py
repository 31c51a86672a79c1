"""The package's modules: each at most MAX_LINES lines (a module that grows past it is split
by role), and none that only imports names from other modules (a package's
``__init__.py`` gives its public names; any other module has code of its own)."""
import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "spacy_negation"
#: The most lines of a module of the package.
MAX_LINES = 400


def test_modules_are_at_most_max_lines():
    long = {str(path.relative_to(PACKAGE)): n for path in sorted(PACKAGE.rglob("*.py"))
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def _only_imports(path: Path) -> bool:
    """Whether a module holds nothing but its docstring, imports and ``__all__``."""
    body = ast.parse(path.read_text(encoding="utf-8")).body
    return all(isinstance(node, (ast.Import, ast.ImportFrom))
               or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
               or (isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"])
               for node in body)


def test_no_module_only_re_exports():
    modules = [path for path in sorted(PACKAGE.rglob("*.py")) if path.name != "__init__.py"]
    assert modules and [str(path.relative_to(PACKAGE)) for path in modules if _only_imports(path)] == []
