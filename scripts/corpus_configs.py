"""Write the per-corpus training configs (configs/bioscope.cfg, sfu.cfg, general.cfg): the
transformer config (configs/negation_trf.cfg) with each corpus's paths and settings, so
that the project's training commands pass only the seed; and the same per-corpus
configs of the other systems of Sineva et al. (2021) (configs/{negbert,dp_direct,
dp_nested}_{bioscope,sfu}.cfg, from configs/{negbert,dp_direct,dp_nested}.cfg).

python scripts/corpus_configs.py [--check]

spaCy configs have no include: each file is the base config written out in full with the
settings below applied. Re-run after changing configs/negation_trf.cfg or a setting here;
with --check nothing is written and the exit code is 1 if a committed config differs from
what this script writes.
"""
import argparse
import copy
import json
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

from spacy.util import load_config

from spacy_negation.util import atomic_write_text

REPO = Path(__file__).resolve().parents[1]
BASE = "configs/negation_trf.cfg"

#: The settings that are not the base config's, per corpus: BioScope abstracts and the SFU
#: Review Corpus (the document-level splits of data/splits/) with the sentences without
#: negation sampled once at one per sentence with a negation (``unnegated_ratio``), the
#: step counts and the transformer's learning rate chosen for them (results/README.md);
#: BioScope also with hard negatives and its decoding settings, chosen on its dev split.
SETTINGS: Dict[str, Dict[str, Any]] = {
    "bioscope": {
        "paths.train": "corpus/bioscope/train.spacy",
        "paths.dev": "corpus/bioscope/dev.spacy",
        "training.max_steps": 3200,
        "training.eval_frequency": 400,
        "corpora.train.unnegated_ratio": 1.0,
        "corpora.train.hard_negatives": 0.1,
        "training.optimizer.learn_rate.initial_rate": 0.00005,
        "components.negation_cue.decoder.min_word_precision": 0.1,
        "components.negation_scope.decoder.contiguous": True,
        "components.negation_scope.decoder.scope_bias": 0.5,
        "initialize.components": {"negation_cue": {"words_corpus": "corpus/bioscope/train.spacy"}},
    },
    "sfu": {
        "paths.train": "corpus/sfu/train.spacy",
        "paths.dev": "corpus/sfu/dev.spacy",
        "training.max_steps": 1600,
        "training.eval_frequency": 400,
        "corpora.train.unnegated_ratio": 1.0,
        "training.optimizer.learn_rate.initial_rate": 0.00005,
    },
}


#: The general English model: all three English corpora, BioScope with its clinical part (merged, each doc marked with its
#: convention by scripts/concat_docbins.py) on one transformer, one cue and one scope
#: component per annotation convention, each learning only from its convention's examples
#: (spacy_negation.negation.convention). The BioScope components annotate unmarked docs
#: (the application default: no subjects in scopes, no affixal cues); the others score
#: nothing of their own (the default components' scorers score every doc's negations).
COPIES: Dict[str, Dict[str, str]] = {
    "general": {
        "components.negation_cue_cdsco": "components.negation_cue",
        "components.negation_scope_cdsco": "components.negation_scope",
        "components.negation_cue_sfu": "components.negation_cue",
        "components.negation_scope_sfu": "components.negation_scope",
    },
}
SETTINGS["general"] = {
    "paths.train": "corpus/general/train.spacy",
    "paths.dev": "corpus/general/dev.spacy",
    "nlp.pipeline": ["transformer", "negation_cue", "negation_scope", "negation_cue_cdsco",
                     "negation_scope_cdsco", "negation_cue_sfu", "negation_scope_sfu"],
    # 2,000 steps (was 4,400) so that `spacy project run all` fits 45 minutes on 2 cores;
    # what that costs on dev: results/README.md
    "training.max_steps": 2000,
    "training.eval_frequency": 500,
    "training.optimizer.learn_rate.warmup_steps": 200,
    "corpora.train.unnegated_ratio": 1.0,
    "corpora.train.hard_negatives": 0.1,
    "components.negation_cue.convention": "bioscope",
    "components.negation_cue.decoder.min_word_precision": 0.1,
    "components.negation_scope.convention": "bioscope",
    "components.negation_scope.decoder.contiguous": True,
    "components.negation_scope.decoder.scope_bias": 0.5,
    "components.negation_cue_cdsco.convention": "cdsco",
    "components.negation_cue_cdsco.annotate_unmarked": False,
    "components.negation_cue_cdsco.scorer": None,
    "components.negation_scope_cdsco.convention": "cdsco",
    "components.negation_scope_cdsco.annotate_unmarked": False,
    "components.negation_scope_cdsco.scorer": None,
    "components.negation_cue_sfu.convention": "sfu",
    "components.negation_cue_sfu.annotate_unmarked": False,
    "components.negation_cue_sfu.scorer": None,
    "components.negation_scope_sfu.convention": "sfu",
    "components.negation_scope_sfu.annotate_unmarked": False,
    "components.negation_scope_sfu.scorer": None,
    "initialize.components": {
        "negation_cue": {"words_corpus": "corpus/general/bioscope_train.spacy"},
        "negation_cue_cdsco": {"words_corpus": "corpus/train.spacy"},
        "negation_cue_sfu": {"words_corpus": "corpus/sfu/train.spacy"},
    },
}


#: The general model on the first 3 of MiniLM's 6 transformer layers (a speed lever:
#: results/speed.md), otherwise as "general"; the upper layers are not loaded.
COPIES["general_l3"] = COPIES["general"]
SETTINGS["general_l3"] = {
    **SETTINGS["general"],
    "components.transformer.model.transformer_config": {"num_hidden_layers": 3},
}


#: The general English model en_negation_general: 3 transformer layers distilled from the
#: 6-layer "general" model (Hinton et al. 2015): the training sentences read as for
#: "general", with the teacher's distributions attached (spacy-negation.DistilledCorpus.v1);
#: the teacher is what train-general-teacher writes unless --paths.teacher names another.
COPIES["general_l3_distil"] = COPIES["general"]
SETTINGS["general_l3_distil"] = {
    **{key: value for key, value in SETTINGS["general_l3"].items() if not key.startswith("corpora.train.")},
    "paths.teacher": "training/general_teacher/model-best",
    "corpora.train": {
        "@readers": "spacy-negation.DistilledCorpus.v1", "teacher": "${paths.teacher}", "weight": 0.5,
        "unlabelled": False, "components": None, "batch_size": 64,
        "corpus": {"@readers": "spacy-negation.SentenceCorpus.v1", "path": "${paths.train}", "limit": 0,
                   "gold_tokens": False, "shuffle": False,
                   **{key.rpartition(".")[2]: value for key, value in SETTINGS["general_l3"].items()
                      if key.startswith("corpora.train.")}},
    },
}


#: The general model's teacher on MPNet-base (all-mpnet-base-v2, 110M parameters;
#: ``spacy project run install-mpnet`` first), otherwise as "general" but for the warm-up:
#: 460 steps, as the MPNet systems (with 120 the cue tagger on a shared MPNet learned in
#: one seed of two: results/README.md). A teacher for "general_l3_distil_mpnet".
COPIES["general_mpnet"] = COPIES["general"]
SETTINGS["general_mpnet"] = {
    **SETTINGS["general"],
    "training.optimizer.learn_rate.warmup_steps": 460,
    "components.transformer.model.name": "all-mpnet-base-v2",
}


#: The default model's student (3 MiniLM layers, as "general_l3_distil") distilled from the
#: MPNet teacher "general_mpnet" (train-general-teacher-mpnet) in place of the 6-layer MiniLM one.
COPIES["general_l3_distil_mpnet"] = COPIES["general"]
SETTINGS["general_l3_distil_mpnet"] = {
    **SETTINGS["general_l3_distil"],
    "paths.teacher": "training/general_teacher_mpnet/model-best",
}


#: The default model's student with narrower scope BiLSTMs (a speed lever: the BiLSTMs
#: take about a quarter of the component's time on SFU Review): LSTM width 128 per
#: direction and cue embeddings of 64 (the default: 200 and 128) in each convention's
#: scope component, otherwise as "general_l3_distil". Measured and not adopted
#: (results/speed_narrow.md, results/README.md).
COPIES["general_l3_distil_narrow"] = COPIES["general"]
SETTINGS["general_l3_distil_narrow"] = {
    **SETTINGS["general_l3_distil"],
    **{f"components.{name}.model.{key}": value
       for name in ("negation_scope", "negation_scope_cdsco", "negation_scope_sfu")
       for key, value in (("hidden_width", 128), ("cue_width", 64))},
}


#: The other systems' CD-SCO configs, from which their BioScope and SFU configs are derived.
SYSTEM_BASES: Dict[str, str] = {
    "negbert": "configs/negbert.cfg",
    "dp_direct": "configs/dp_direct.cfg",
    "dp_nested": "configs/dp_nested.cfg",
}


#: The clinical model: the BioScope settings on BioScope train (abstracts and clinical
#: reports) plus the synthetic clinical sentences (corpus/clinical/train.spacy, written by
#: convert-clinical), chosen on BioScope clinical dev, with the general model's schedule.
SETTINGS["clinical"] = {
    **SETTINGS["bioscope"],
    "paths.train": "corpus/clinical/train.spacy",
    "paths.dev": "corpus/bioscope_clinical/dev.spacy",
    "training.max_steps": 2000,
    "training.eval_frequency": 500,
    "training.optimizer.learn_rate.warmup_steps": 200,
    "initialize.components": {"negation_cue": {"words_corpus": "corpus/clinical/train.spacy"}},
}


#: The graph parsers' training length where a quarter of the tagger's steps is too short,
#: chosen on dev (results/README.md): on SFU, 400 steps of 32 sentences (about 2.4 epochs,
#: against 10 on CD-SCO) left the dev score still rising.
GRAPH_STEPS: Dict[str, Dict[str, int]] = {
    "sfu": {"training.max_steps": 1200, "training.eval_frequency": 200},
}

#: The graph parsers' scope decoding per corpus, chosen on dev (results/README.md): on
#: BioScope, scopes decoded as one gap-free span around the cue, as the taggers decode them
#: there (the tagger's ``scope_bias`` lowered dev NIS_tok for the graph parser).
GRAPH_DECODING: Dict[str, Dict[str, Any]] = {
    "bioscope": {"components.negation_graph.decoder.contiguous": True},
}


def _system_settings(system: str, corpus: str) -> Dict[str, Any]:
    """The settings of a corpus (SETTINGS) carried over to another system's config.

    NegBERT shares the cue tagger, the batch size and the learning rate of the transformer
    config: it takes every setting, its scope decoding ones applied to its own scope
    component (``negation_scope_negbert.decoder``). The graph parsers (one component, no
    cue tagger, batches of 32 sentences and the learning rate of Sineva et al. 2021,
    Appendix B) take the paths and the corpus reader's settings, the training length in
    sentences (a quarter of the steps, unless GRAPH_STEPS sets it) and GRAPH_DECODING.
    """
    out: Dict[str, Any] = {}
    for key, value in SETTINGS[corpus].items():
        if system == "negbert":
            if key.startswith("components.negation_scope."):
                key = key.replace("components.negation_scope.", "components.negation_scope_negbert.")
            out[key] = value
        elif key in ("training.max_steps", "training.eval_frequency"):
            out[key] = GRAPH_STEPS.get(corpus, {}).get(key, value // 4)
        elif key.startswith(("paths.", "corpora.")):
            out[key] = value
    if system != "negbert":
        out.update(GRAPH_DECODING.get(corpus, {}))
    return out


for _system in SYSTEM_BASES:
    for _corpus in ("bioscope", "sfu"):
        SETTINGS[f"{_system}_{_corpus}"] = _system_settings(_system, _corpus)


def base_config(name: str) -> str:
    """The config a generated config is derived from.

    name (str): a key of SETTINGS.
    RETURNS (str): its path relative to the project folder.
    """
    system = name.rpartition("_")[0]
    return SYSTEM_BASES[system] if system in SYSTEM_BASES else BASE


def _apply(config: Any, copies: Dict[str, str], settings: Dict[str, Any]) -> Any:
    """The config with sections copied (new name: existing name), then settings applied."""
    def section(dotted: str) -> Any:
        node = config
        for key in dotted.split("."):
            node = node[key]
        return node

    for new, old in copies.items():
        parent, _, name = new.rpartition(".")
        section(parent)[name] = copy.deepcopy(section(old))
    for dotted, value in settings.items():
        parent, _, name = dotted.rpartition(".")
        section(parent)[name] = value
    return config


def render(corpus: str, root: Path = REPO) -> str:
    """The config file of a corpus: a header naming the settings, then the base config
    with them applied.

    corpus (str): a key of SETTINGS.
    root (Path): the project folder.
    RETURNS (str): the file's text.
    """
    settings = SETTINGS[corpus]
    base = base_config(corpus)
    if corpus in COPIES:
        config = _apply(load_config(root / base, interpolate=False), COPIES[corpus], settings)
    else:
        config = load_config(root / base, overrides=settings, interpolate=False)
    header = [f"# {corpus}: {base} with these settings (written by scripts/corpus_configs.py; edit",
              "# the base config or the script's SETTINGS and re-run it):"]
    header += [f"#   {new} = copy of {old}" for new, old in COPIES.get(corpus, {}).items()]
    header += [f"#   {key} = {json.dumps(value)}" for key, value in settings.items()]
    output = f"training/{corpus}"
    if base != BASE:
        system, _, domain = corpus.rpartition("_")
        output = f"training/systems/{domain}/{system}/seed0"
    header += ["#", f"#   python -m spacy train configs/{corpus}.cfg --output {output} "
               "--system.seed 0", ""]
    return "\n".join(header) + "\n" + config.to_str()


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a committed config is not current")
    parser.add_argument("--root", type=Path, default=REPO, help="the project folder")
    args = parser.parse_args(argv)
    stale = []
    for corpus in SETTINGS:
        path = args.root / "configs" / f"{corpus}.cfg"
        text = render(corpus, args.root)
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
        else:
            atomic_write_text(path, text)
            print(f"wrote {path}", file=sys.stderr)
    for path in stale:
        print(f"not current (run scripts/corpus_configs.py): {path}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
