"""configs/bioscope.cfg and configs/sfu.cfg: the training configs the cross-domain commands
passed as negation_trf.cfg plus ~1,300-character override lists, written out; the
project's commands now pass only the seed."""
import json
import shlex
from pathlib import Path
from typing import Any, Dict

import pytest
import srsly
from spacy.cli._util import parse_config_overrides
from spacy.util import load_config

REPO = Path(__file__).resolve().parents[2]

#: The overrides of the train-bioscope and train-sfu commands before the per-corpus configs,
#: with the project's vars as they were (seed 0, cross_max_steps 1600, cross_eval_frequency
#: 400, cross_unnegated_ratio 1.0, cross_learn_rate 0.00005, bioscope_hard_negatives 0.1,
#: bioscope_max_steps 3200, bioscope_min_word_precision 0.1, bioscope_contiguous true,
#: bioscope_scope_bias 0.5), as spaCy's command line parses them.
OLD_COMMANDS = {
    "bioscope": "--paths.train corpus/bioscope/train.spacy --paths.dev corpus/bioscope/dev.spacy "
                "--system.seed 0 --training.max_steps 3200 --training.eval_frequency 400 "
                "--corpora.train.unnegated_ratio 1.0 --corpora.train.hard_negatives 0.1 "
                "--training.optimizer.learn_rate.initial_rate 0.00005 "
                "--components.negation_cue.min_word_precision 0.1 "
                "--components.negation_scope.contiguous true --components.negation_scope.scope_bias 0.5 "
                "--initialize.components '{\"negation_cue\": {\"words_corpus\": \"corpus/bioscope/train.spacy\"}}'",
    "sfu": "--paths.train corpus/sfu/train.spacy --paths.dev corpus/sfu/dev.spacy --system.seed 0 "
           "--training.max_steps 1600 --training.eval_frequency 400 --corpora.train.unnegated_ratio 1.0 "
           "--training.optimizer.learn_rate.initial_rate 0.00005",
}


def _commands() -> Dict[str, Any]:
    return {c["name"]: c for c in srsly.read_yaml(REPO / "project.yml")["commands"]}


def _as_loaded(config: Any) -> Dict[str, Any]:
    """A config as plain data with each negation component's decoding in its whole decoder
    block (``spacy_negation.pipeline.base.decoder_settings``). The old commands set the
    decoding on the component, as the components then read it: moved into the block."""
    from spacy_negation.pipeline.base import decoder_settings

    data = json.loads(json.dumps(dict(config)))
    for section in data["components"].values():
        if section.get("factory") in ("negation_cue", "negation_scope", "negation_graph"):
            block = decoder_settings(section)
            section["decoder"] = {**block, **{key: section.pop(key) for key in list(section) if key in block}}
    return data


@pytest.mark.parametrize("corpus", sorted(OLD_COMMANDS))
def test_resolved_training_config_is_unchanged(corpus: str) -> None:
    overrides = parse_config_overrides(shlex.split(OLD_COMMANDS[corpus]))
    old = load_config(REPO / "configs" / "negation_trf.cfg", overrides=overrides, interpolate=True)
    new = load_config(REPO / "configs" / f"{corpus}.cfg", overrides={"system.seed": 0}, interpolate=True)
    assert _as_loaded(new) == _as_loaded(old)
    # the settings really differ from the base config (the comparison can fail)
    base = load_config(REPO / "configs" / "negation_trf.cfg", interpolate=True)
    assert new["training"]["max_steps"] != base["training"]["max_steps"]


@pytest.mark.parametrize("corpus", sorted(OLD_COMMANDS))
def test_train_command_uses_the_config_and_the_seed_var(corpus: str) -> None:
    command = _commands()[f"train-{corpus}"]
    (line,) = command["script"]
    assert f"python -m spacy train configs/{corpus}.cfg --output training/{corpus} --system.seed ${{vars.seed}}" in line
    assert f"--config configs/{corpus}.cfg" in line  # the run meta records the config's settings
    assert len(line) < 300
    assert f"configs/{corpus}.cfg" in command["deps"]


def test_configs_are_current(run_script: Any) -> None:
    proc = run_script("corpus_configs.py", "--check")
    assert proc.returncode == 0, proc.stderr


def test_stale_config_is_reported(run_script: Any, tmp_path: Path) -> None:
    (tmp_path / "configs").mkdir()
    text = (REPO / "configs" / "negation_trf.cfg").read_text(encoding="utf-8")
    (tmp_path / "configs" / "negation_trf.cfg").write_text(text.replace("patience = 2000", "patience = 1000"),
                                                          encoding="utf-8")
    for system in ("negbert", "dp_direct", "dp_nested"):  # the other systems' bases
        (tmp_path / "configs" / f"{system}.cfg").write_text(
            (REPO / "configs" / f"{system}.cfg").read_text(encoding="utf-8"), encoding="utf-8")
    for corpus in OLD_COMMANDS:
        (tmp_path / "configs" / f"{corpus}.cfg").write_text(
            (REPO / "configs" / f"{corpus}.cfg").read_text(encoding="utf-8"), encoding="utf-8")
    proc = run_script("corpus_configs.py", "--check", "--root", tmp_path)
    assert proc.returncode == 1 and "sfu.cfg" in proc.stderr and "bioscope.cfg" in proc.stderr
    assert run_script("corpus_configs.py", "--root", tmp_path).returncode == 0
    assert run_script("corpus_configs.py", "--check", "--root", tmp_path).returncode == 0


def test_timed_records_the_config_settings(run_script: Any, tmp_path: Path) -> None:
    meta = tmp_path / "meta.json"
    for corpus, prefix in (("bioscope", "bioscope_"), ("sfu", "")):
        proc = run_script("timed.py", f"train_{corpus}", "--meta", meta, "--config",
                          REPO / "configs" / f"{corpus}.cfg", "--prefix", prefix, "--set", "seed=0", "--",
                          "python", "-c", "pass")
        assert proc.returncode == 0, proc.stderr
    recorded = json.loads(meta.read_text(encoding="utf-8"))
    # the keys and values the cross-domain report reads, as the vars used to record them
    assert {k: recorded[k] for k in ("bioscope_max_steps", "bioscope_hard_negatives", "bioscope_min_word_precision",
                                     "bioscope_contiguous", "bioscope_scope_bias", "max_steps", "learn_rate",
                                     "seed")} == {
        "bioscope_max_steps": "3200", "bioscope_hard_negatives": "0.1", "bioscope_min_word_precision": "0.1",
        "bioscope_contiguous": "true", "bioscope_scope_bias": "0.5", "max_steps": "1600", "learn_rate": "5e-05",
        "seed": "0"}
    assert recorded["config"].endswith("sfu.cfg") and "hard_negatives" not in recorded


#: The per-corpus settings of the other systems (scripts/corpus_configs.py), spelled out:
#: NegBERT takes the transformer config's settings (its scope decoding on its own
#: component); the graph parsers the paths, the reader settings and a quarter of the steps
#: (batches of 32 sentences, not 8), on SFU three quarters (chosen on dev).
SYSTEM_OVERRIDES = {
    "negbert_bioscope": {
        "paths.train": "corpus/bioscope/train.spacy", "paths.dev": "corpus/bioscope/dev.spacy",
        "training.max_steps": 3200, "training.eval_frequency": 400,
        "corpora.train.unnegated_ratio": 1.0, "corpora.train.hard_negatives": 0.1,
        "training.optimizer.learn_rate.initial_rate": 0.00005,
        "components.negation_cue.decoder.min_word_precision": 0.1,
        "components.negation_scope_negbert.decoder.contiguous": True,
        "components.negation_scope_negbert.decoder.scope_bias": 0.5,
        "initialize.components": {"negation_cue": {"words_corpus": "corpus/bioscope/train.spacy"}}},
    "negbert_sfu": {
        "paths.train": "corpus/sfu/train.spacy", "paths.dev": "corpus/sfu/dev.spacy",
        "training.max_steps": 1600, "training.eval_frequency": 400,
        "corpora.train.unnegated_ratio": 1.0, "training.optimizer.learn_rate.initial_rate": 0.00005},
    **{f"dp_{enc}_bioscope": {
        "paths.train": "corpus/bioscope/train.spacy", "paths.dev": "corpus/bioscope/dev.spacy",
        "training.max_steps": 800, "training.eval_frequency": 100,
        "corpora.train.unnegated_ratio": 1.0, "corpora.train.hard_negatives": 0.1,
        "components.negation_graph.decoder.contiguous": True} for enc in ("direct", "nested")},
    **{f"dp_{enc}_sfu": {
        "paths.train": "corpus/sfu/train.spacy", "paths.dev": "corpus/sfu/dev.spacy",
        "training.max_steps": 1200, "training.eval_frequency": 200,
        "corpora.train.unnegated_ratio": 1.0} for enc in ("direct", "nested")},
}


@pytest.mark.parametrize("name", sorted(SYSTEM_OVERRIDES))
def test_system_corpus_config_is_its_base_with_the_corpus_settings(name: str) -> None:
    from spacy.schemas import ConfigSchemaTraining
    from spacy.util import registry

    import spacy_negation  # noqa: F401  (the readers' registry entries)

    system = name.rpartition("_")[0]
    expected = load_config(REPO / "configs" / f"{system}.cfg", overrides=SYSTEM_OVERRIDES[name], interpolate=True)
    new = load_config(REPO / "configs" / f"{name}.cfg", interpolate=True)
    assert json.loads(json.dumps(dict(new))) == json.loads(json.dumps(dict(expected)))
    base = load_config(REPO / "configs" / f"{system}.cfg", interpolate=True)
    assert new["training"]["max_steps"] != base["training"]["max_steps"]
    assert new["nlp"]["pipeline"] == base["nlp"]["pipeline"]
    # the training and corpus sections resolve (readers built, schema validated)
    training = registry.resolve(new["training"], schema=ConfigSchemaTraining)
    assert training["max_steps"] == SYSTEM_OVERRIDES[name]["training.max_steps"]
    corpora = registry.resolve(new["corpora"])
    assert set(corpora) == {"train", "dev"}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SYSTEM_OVERRIDES))
def test_system_corpus_config_builds_its_pipeline(name: str) -> None:
    from spacy.util import load_model_from_config

    import spacy_negation  # noqa: F401  (the factories' registry entries)

    config = load_config(REPO / "configs" / f"{name}.cfg", interpolate=False)
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    assert nlp.pipe_names == config["nlp"]["pipeline"]
