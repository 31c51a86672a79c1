"""The error and warning catalogue: every code defined once, with its own message, and
raised or warned somewhere in the code (spacy_negation/, scripts/, bench/). The catalogue is
imported from spacy_negation.errors; its messages are written per feature in the modules of
that package (errors/readers.py, errors/metrics.py, ...), whose classes Errors and Warnings
inherit, read here as one."""
import ast
import importlib
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

from spacy.errors import Errors as SpacyErrors

from spacy_negation.errors import CODE_PREFIX, Errors, Warnings, code_tag

REPO = Path(__file__).resolve().parents[1]
ERRORS_DIR = REPO / "spacy_negation" / "errors"
#: The feature modules of the catalogue (every module of the package but __init__.py).
FEATURE_FILES = sorted(path for path in ERRORS_DIR.glob("*.py") if path.name != "__init__.py")
CATALOGUE_FILES = [ERRORS_DIR / "__init__.py", *FEATURE_FILES]
SOURCE_DIRS = ("spacy_negation", "scripts", "bench")
TESTS = REPO / "tests"
#: spaCy's own codes that reach the package's users unchanged: raised by the package as
#: ``SpacyErrors.E923`` (spaCy's catalogue) or by spaCy's ``validate_get_examples`` (E930,
#: E978), where spaCy's components raise them. Their messages carry spaCy's bare tag.
SPACY_VALIDATE_GET_EXAMPLES = ("E930", "E978")


def _spacy_codes_raised() -> List[str]:
    """The codes of spaCy's catalogue that the package raises itself (``SpacyErrors.E923``)."""
    codes = set()
    for path in (REPO / "spacy_negation").rglob("*.py"):
        codes.update(re.findall(r"\bSpacyErrors\.([EW]\d+)\b", path.read_text(encoding="utf-8")))
    return sorted(codes)


def _catalogue_class(name: str) -> str:
    """The class of the catalogue that a class of a catalogue file is part of: Errors for
    ``Errors`` and ``...Errors`` (e.g. ReaderErrors), Warnings for the warnings' classes."""
    return "Warnings" if name.endswith("Warnings") else "Errors"


def _catalogue() -> Dict[str, List[Tuple[str, str, str]]]:
    """Per class (Errors, Warnings): (code, message, file:line) of each assignment in the
    catalogue files, read from the source so that a code assigned twice (the second
    silently wins, also across two feature files: the first base class in the MRO shadows
    the others) shows."""
    out: Dict[str, List[Tuple[str, str, str]]] = {"Errors": [], "Warnings": []}
    for path in CATALOGUE_FILES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef) and node.name.endswith(("Errors", "Warnings")):
                entries = out[_catalogue_class(node.name)]
                for stmt in node.body:
                    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
                        for target in stmt.targets:
                            assert isinstance(target, ast.Name)
                            entries.append((target.id, str(stmt.value.value),
                                            f"errors/{path.name}:{stmt.lineno}"))
    return out


def test_catalogue_read_from_source_matches_the_classes():
    catalogue = _catalogue()
    for cls in (Errors, Warnings):
        names = {name for name in dir(cls) if re.fullmatch(r"[EW]\d{3}", name)}
        assert names == {code for code, _, _ in catalogue[cls.__name__]}


def test_each_code_is_defined_once():
    codes = Counter(code for entries in _catalogue().values() for code, _, _ in entries)
    assert [code for code, n in codes.items() if n > 1] == []


def test_no_two_codes_share_a_message():
    by_message: Dict[str, List[str]] = {}
    for entries in _catalogue().values():
        for code, message, _ in entries:
            by_message.setdefault(" ".join(message.split()), []).append(code)
    repeated = [sorted(codes) for codes in by_message.values() if len(codes) > 1]
    assert repeated == []


def test_every_code_is_used_outside_the_catalogue():
    used = set()
    for folder in SOURCE_DIRS:
        for path in (REPO / folder).rglob("*.py"):
            if path not in CATALOGUE_FILES:
                used.update(re.findall(r"\b(?:Errors|Warnings)\.([EW]\d{3})\b",
                                       path.read_text(encoding="utf-8")))
    unused = [f"{code} ({line})" for entries in _catalogue().values()
              for code, _, line in entries if code not in used]
    assert unused == []


@pytest.mark.parametrize("cls,prefix", [(Errors, "E"), (Warnings, "W")])
def test_codes_carry_their_class_prefix(cls, prefix):
    assert all(code.startswith(prefix) for code, _, _ in _catalogue()[cls.__name__])


def test_the_catalogue_is_composed_of_the_feature_modules():
    """The messages are in the feature modules, one or two classes each (FeatureErrors,
    FeatureWarnings), all of them bases of Errors or Warnings; the package's __init__.py
    defines no code of its own."""
    assert len(FEATURE_FILES) >= 8
    init = {code for entries in _catalogue().values() for code, _, where in entries
            if where.startswith("errors/__init__.py")}
    assert init == set()
    for path in FEATURE_FILES:
        module = importlib.import_module(f"spacy_negation.errors.{path.stem}")
        classes = [node.name for node in ast.parse(path.read_text(encoding="utf-8")).body
                   if isinstance(node, ast.ClassDef)]
        assert classes and all(name.endswith(("Errors", "Warnings")) for name in classes), path.name
        for name in classes:
            catalogue = Warnings if _catalogue_class(name) == "Warnings" else Errors
            assert getattr(module, name) in catalogue.__bases__, (path.name, name)


def test_a_code_in_two_feature_modules_is_found(tmp_path, monkeypatch):
    """The check of ``test_each_code_is_defined_once`` sees a code that two feature modules
    define (the catalogue's classes would silently take one of them)."""
    copy = tmp_path / "errors"
    copy.mkdir()
    for path in CATALOGUE_FILES:
        (copy / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    host = copy / "host.py"
    host.write_text(host.read_text(encoding="utf-8").replace("    E320 = (", "    E001 = (", 1), encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "CATALOGUE_FILES",
                        [copy / path.name for path in CATALOGUE_FILES])
    codes = Counter(code for entries in _catalogue().values() for code, _, _ in entries)
    assert [code for code, n in codes.items() if n > 1] == ["E001"]


def test_codes_of_the_base_classes_carry_their_code():
    assert Errors.E500.startswith("[NEG-E500] ") and Errors.E001.startswith("[NEG-E001] ")
    assert Warnings.W950.startswith("[NEG-W950] ")


@pytest.mark.parametrize("cls", [Errors, Warnings])
def test_every_message_starts_with_its_prefixed_code(cls):
    """``[NEG-E320] ...``: a tag spaCy's messages (``[E320] ...``) never start with."""
    assert CODE_PREFIX == "NEG-" and code_tag("W402") == "[NEG-W402]"
    for code, _, where in _catalogue()[cls.__name__]:
        message = getattr(cls, code)
        assert message.startswith(f"[NEG-{code}] "), where
        assert not re.match(r"\[[EW]\d+\]", message), where


def test_spacy_codes_raised_by_the_package_keep_spacy_tags():
    """Where a component raises one of spaCy's errors, as spaCy's components do (E923: no
    sample to initialize with), the message is spaCy's, with spaCy's bare tag; the package's
    own code of the same number (if any) carries the prefix, so the two cannot be confused."""
    raised = _spacy_codes_raised()
    assert "E923" in raised
    ours = {code for code, _, _ in _catalogue()["Errors"]}
    for code in raised + list(SPACY_VALIDATE_GET_EXAMPLES):
        assert getattr(SpacyErrors, code).startswith(f"[{code}]")
        if code in ours:
            assert getattr(Errors, code).startswith(f"[NEG-{code}]")


def _test_sources() -> Dict[Path, str]:
    return {path: path.read_text(encoding="utf-8") for path in TESTS.rglob("*.py")
            if path.name != Path(__file__).name}


def test_tests_match_the_package_codes_with_their_prefix():
    """A test that matches a bare tag (``[E320]``, ``\\[E320\\]``) matches one of spaCy's
    messages: only spaCy's codes that reach the user unchanged may appear bare."""
    allowed = set(_spacy_codes_raised()) | set(SPACY_VALIDATE_GET_EXAMPLES)
    bare = [f"{path.relative_to(REPO)}: {code}" for path, text in _test_sources().items()
            for code in re.findall(r"(?<!NEG-)\b([EW]\d{3})\\?\]", text) if code not in allowed]
    assert bare == []


def test_every_code_is_exercised_by_a_test():
    """Each code of the catalogue is named by a test outside this file (a test that raises or
    warns it and matches on it; a bare name such as "E405" is a test's parameter)."""
    text = "\n".join(_test_sources().values())
    named = set(re.findall(r"\b([EW]\d{3})\b", text))
    missing = [f"{code} ({line})" for entries in _catalogue().values()
               for code, _, line in entries if code not in named]
    assert missing == []
