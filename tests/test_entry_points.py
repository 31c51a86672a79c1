"""Packaging: every declared entry point loads, and importing the entry-point modules
does not pull in spacy_transformers or transformers (spaCy itself imports torch through
thinc when torch is installed, so torch is checked against a plain ``import spacy``)."""
import json
import re
import subprocess
import sys
from collections import Counter
from importlib.metadata import entry_points
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GROUPS = ("spacy_factories", "spacy_architectures", "spacy_scorers", "spacy_readers", "spacy_misc")


def _ours():
    return [ep for group in GROUPS for ep in entry_points(group=group)
            if ep.value.startswith("spacy_negation.")]


def test_expected_entry_points_declared():
    names = {ep.name for ep in _ours()}
    assert {"negation_cue", "negation_scope", "negation", "spacy-negation.CueTagger.v1",
            "spacy-negation.ScopeTagger.v1", "spacy-negation.negation_scorer.v1",
            "spacy-negation.faireval_spans_scorer.v1", "spacy-negation.negation_cue_scorer.v1",
            "spacy-negation.negation_scope_scorer.v1"} <= names


def test_entry_point_modules_import_lightly():
    modules = sorted({ep.value.split(":")[0] for ep in _ours()})
    code = (
        "import sys, json, importlib\n"
        "import spacy\n"
        "base = {m for m in ('torch', 'transformers', 'spacy_transformers') if m in sys.modules}\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "after = {m for m in ('torch', 'transformers', 'spacy_transformers') if m in sys.modules}\n"
        "print(json.dumps(sorted(after - base)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


@pytest.mark.parametrize("ep", _ours(), ids=lambda ep: ep.name)
def test_entry_point_loads(ep):
    assert callable(ep.load())


def test_registry_resolves_without_code():
    import spacy
    from spacy.util import registry

    assert spacy.blank("en").has_factory("negation_scope")
    assert registry.scorers.get("spacy-negation.negation_scorer.v1")
    assert registry.architectures.get("spacy-negation.ScopeTagger.v1")


def test_one_prefix_for_registered_names():
    names = [ep.name for ep in _ours() if ep.group != "spacy_factories"]
    assert names and [n for n in names if not n.startswith("spacy-negation.")] == []


def test_one_name_per_function():
    """No alias: each declared function has one name (a versioned name, ``.v1`` and
    ``.v2``, is another function)."""
    values = Counter((ep.group, ep.value) for ep in _ours())
    assert [value for value, n in values.items() if n > 1] == []


def test_every_registered_name_is_declared():
    """Every ``@registry.GROUP("NAME")`` and ``@Language.factory("NAME")`` of the package has
    an entry point: spaCy finds it in a config without importing the module first."""
    declared = {ep.name for ep in _ours()}
    registered = set()
    for path in (REPO / "spacy_negation").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        registered.update(re.findall(r'@(?:registry\.\w+|Language\.factory)\(\s*"([^"]+)"', text))
    assert registered and sorted(registered - declared) == []
