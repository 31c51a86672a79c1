"""The test suite itself: a test function defined twice in one file replaces the first
silently (pytest collects only the last), so every test name is unique per file; the test
folders mirror the package, and no file or test is named after a round of work."""
import ast
import re
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PACKAGE = TESTS.parent / "spacy_negation"
#: The test folders of the project's scripts, configs and README, and of its benchmarks.
PROJECT_FOLDERS = ("project", "bench")
#: A name after a round of work ("test_reliability2_eval", "round3"), not after what it
#: tests.
ROUND_NAME = re.compile(r"reliability|round_?\d", re.IGNORECASE)


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


def test_test_folders_mirror_the_package():
    """``tests/NAME/`` tests ``spacy_negation/NAME/`` (``tests/metrics/faireval/`` the
    FairEval package, ...)."""
    folders = [path.relative_to(TESTS) for path in TESTS.rglob("*")
               if path.is_dir() and path.name != "__pycache__" and path.parts[len(TESTS.parts)] not in PROJECT_FOLDERS]
    assert folders and [str(f) for f in folders if not (PACKAGE / f / "__init__.py").is_file()] == []


def test_no_file_or_test_is_named_after_a_round_of_work():
    named = [str(path.relative_to(TESTS)) for path in TESTS.rglob("*.py") if ROUND_NAME.search(path.stem)]
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        named += [f"{path.relative_to(TESTS)}::{node.name}" for node in ast.walk(tree)
                  if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and ROUND_NAME.search(node.name)]
    assert named == []
