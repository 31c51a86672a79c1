"""Packaging: every declared entry point loads, and importing the entry-point modules
does not pull in spacy_transformers or transformers (spaCy itself imports torch through
thinc when torch is installed, so torch is checked against a plain ``import spacy``)."""
import json
import subprocess
import sys
from importlib.metadata import entry_points

import pytest

GROUPS = ("spacy_factories", "spacy_architectures", "spacy_scorers", "spacy_readers", "spacy_misc")


def _ours():
    return [ep for group in GROUPS for ep in entry_points(group=group)
            if ep.value.startswith("spacy_negation.")]


def test_expected_entry_points_declared():
    names = {ep.name for ep in _ours()}
    assert {"negation_cue", "negation_scope", "negation", "spacy-negation.CueTagger.v1",
            "spacy-negation.ScopeTagger.v1", "spacy_negation.negation_scorer.v1",
            "spacy_negation.faireval_spans_scorer.v1", "spacy_negation.negation_cue_scorer.v1",
            "spacy_negation.negation_scope_scorer.v1"} <= names


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
    assert registry.scorers.get("spacy_negation.negation_scorer.v1")
    assert registry.architectures.get("spacy-negation.ScopeTagger.v1")
