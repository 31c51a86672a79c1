"""Packaging: every declared entry point loads, and importing the entry-point modules
does not pull in spacy_transformers or transformers (spaCy itself imports torch through
thinc when torch is installed, so torch is checked against a plain ``import spacy``)."""
import json
import re
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

CNN_TINY = Path(__file__).resolve().parents[1] / "configs" / "test" / "negation_cnn_tiny.cfg"
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


#: Deprecated entry-point names, the old ``spacy_negation.`` scorer prefix: pipelines
#: trained before the rename name them in their config.cfg. Old name -> current name.
DEPRECATED = {f"spacy_negation.{name}.v1": f"spacy-negation.{name}.v1" for name in (
    "negation_scorer", "negation_cue_scorer", "negation_scope_scorer", "faireval_spans_scorer")}


def test_one_prefix_for_registered_names():
    names = [ep.name for ep in _ours() if ep.group != "spacy_factories"]
    assert names and [n for n in names if not n.startswith("spacy-negation.") and n not in DEPRECATED] == []


def test_deprecated_scorer_names_are_aliases_of_the_current_ones():
    declared = {ep.name: ep.value for ep in entry_points(group="spacy_scorers")}
    for old, new in DEPRECATED.items():
        assert declared[old] == declared[new]


def test_config_with_the_old_scorer_names_loads():
    """A config.cfg written before the rename (as in a trained pipeline's folder; there,
    both components may name the combined scorer) still builds the pipeline through the
    entry points alone, with the functions the current names give."""
    current = CNN_TINY.read_text(encoding="utf-8")
    assert '"spacy-negation.negation_cue_scorer.v1"' in current
    old = {
        "renamed": re.sub(r'"spacy-negation\.(\w+_scorer\.v1)"', r'"spacy_negation.\1"', current),
        "combined": re.sub(r'"spacy-negation\.negation_(cue|scope)_scorer\.v1"',
                           '"spacy_negation.negation_scorer.v1"', current),
    }
    code = (
        "import json, sys\n"
        "import spacy\n"
        "from thinc.api import Config\n"
        "out = {}\n"
        "for key, text in json.loads(sys.stdin.read()).items():\n"
        "    nlp = spacy.util.load_model_from_config(Config().from_str(text), auto_fill=True)\n"
        "    out[key] = [nlp.get_pipe(n).scorer.__name__ for n in ('negation_cue', 'negation_scope')]\n"
        "print(json.dumps(out))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], input=json.dumps(old), capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 0, res.stderr[-2000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["renamed"] == ["score_negation_cues", "score_negation_scopes"]
    assert out["combined"] == ["score_negations", "score_negations"]
