"""The test suite itself: a test function defined twice in one file replaces the first
silently (pytest collects only the last), so every test name is unique per file."""
import ast
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_no_test_function_is_defined_twice_in_a_file():
    twice = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        names = Counter(node.name for node in tree.body
                        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                        and node.name.startswith(("test", "Test")))
        duplicated = sorted(name for name, n in names.items() if n > 1)
        if duplicated:
            twice[str(path.relative_to(TESTS))] = duplicated
    assert not twice, twice
