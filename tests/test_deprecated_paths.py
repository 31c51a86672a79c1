"""The old import paths of moved modules keep working for one release: importing one
warns (DeprecationWarning) and gives the module at its new place, the very same objects."""
import importlib
import sys

import pytest

#: Old path -> new path.
MOVED = {
    "spacy_negation.pipeline.cue_decoding": "spacy_negation.pipeline.cue.decoding",
    "spacy_negation.pipeline.cue_labels": "spacy_negation.pipeline.cue.labels",
    "spacy_negation.pipeline.cue_patterns": "spacy_negation.pipeline.cue.patterns",
    "spacy_negation.pipeline.lexicons": "spacy_negation.pipeline.cue.lexicons",
    "spacy_negation.pipeline.prefilter": "spacy_negation.pipeline.cue.prefilter",
    "spacy_negation.pipeline.scope_decoding": "spacy_negation.pipeline.scope.decoding",
    "spacy_negation.pipeline.negbert": "spacy_negation.pipeline.scope.negbert",
    "spacy_negation.pipeline.graph_encoding": "spacy_negation.pipeline.graph.encoding",
    "spacy_negation.pipeline.graph_labels": "spacy_negation.pipeline.graph.labels",
    "spacy_negation.metrics.starsem_counts": "spacy_negation.metrics.starsem.counts",
    "spacy_negation.metrics.starsem_eval": "spacy_negation.metrics.starsem.evaluation",
    "spacy_negation.metrics.starsem_io": "spacy_negation.metrics.starsem.io",
    "spacy_negation.metrics.starsem_print": "spacy_negation.metrics.starsem.table",
    "spacy_negation.metrics.faireval_count": "spacy_negation.metrics.faireval.count",
    "spacy_negation.metrics.faireval_files": "spacy_negation.metrics.faireval.files",
    "spacy_negation.metrics.faireval_io": "spacy_negation.metrics.faireval.io",
    "spacy_negation.metrics.faireval_score": "spacy_negation.metrics.faireval.score",
    "spacy_negation.metrics.faireval_spans": "spacy_negation.metrics.faireval.spans",
    "spacy_negation.scorers": "spacy_negation.scoring.scorers",
    "spacy_negation.doc_records": "spacy_negation.scoring.doc_records",
    "spacy_negation.negation_counts": "spacy_negation.scoring.counts",
}


@pytest.mark.parametrize("old,new", sorted(MOVED.items()))
def test_old_path_imports_with_a_deprecation_warning(old: str, new: str) -> None:
    saved = sys.modules.pop(old, None)
    try:
        with pytest.warns(DeprecationWarning, match=new.replace(".", r"\.")):
            module = importlib.import_module(old)
        assert module is importlib.import_module(new)
    finally:
        if saved is not None:
            sys.modules[old] = saved


def test_from_import_of_an_old_path_gives_the_same_objects() -> None:
    with pytest.warns(DeprecationWarning):
        sys.modules.pop("spacy_negation.pipeline.cue_decoding", None)
        from spacy_negation.pipeline.cue_decoding import make_cue_decoder
    from spacy_negation.pipeline.cue.decoding import make_cue_decoder as current
    assert make_cue_decoder is current


def test_the_old_component_modules_are_the_feature_packages() -> None:
    """``spacy_negation.pipeline.cue`` (and scope, graph) was a module and is now the
    feature's package: its public names import from the same path, without a warning."""
    from spacy_negation.pipeline.cue import NegationCue, make_negation_cue
    from spacy_negation.pipeline.graph import NegationGraph, make_negation_graph
    from spacy_negation.pipeline.scope import SCOPE_LABELS, NegationScope, cue_windows, make_negation_scope
    assert NegationCue.__module__ == "spacy_negation.pipeline.cue.component"
    assert NegationScope.__module__ == "spacy_negation.pipeline.scope.component"
    assert NegationGraph.__module__ == "spacy_negation.pipeline.graph.component"
    assert all(callable(f) for f in (make_negation_cue, make_negation_scope, make_negation_graph, cue_windows))
    assert SCOPE_LABELS


def test_entry_points_in_setup_cfg_name_the_new_modules() -> None:
    """setup.cfg's entry points load without a deprecation warning: they name the modules
    at their new places (the installed metadata may be older, until the next install)."""
    import configparser
    import warnings
    from pathlib import Path

    config = configparser.ConfigParser()
    config.read(Path(__file__).resolve().parents[1] / "setup.cfg", encoding="utf-8")
    values = [line.split("=", 1)[1].strip() for group, text in config["options.entry_points"].items()
              if group != "console_scripts" for line in text.strip().splitlines()
              if "=" in line and not line.strip().startswith("#")]
    assert len(values) > 20
    for value in values:
        module, _, attr = value.partition(":")
        assert module not in MOVED, value
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            assert callable(getattr(importlib.import_module(module), attr)), value
