"""The grid of the systems of Sineva et al. (2021) side by side (``scripts/systems_run.py``,
``scripts/systems_report.py``): the corpora, the systems and their variants on other
backbones or training data, the report's measures, each system's training config and the
layout of the run folders.

A run folder is ``ROOT/{corpus}/{system}/seed{N}`` with ``model-best``, ``train.log``,
``train_seconds`` (wall seconds of ``spacy train``) and the outputs of
``scripts/evaluate_model.py``: ``{dev,test}.{txt,json}`` in domain, ``cross_{corpus}.*``
on the other corpora's test splits (Sineva et al. 2021, Table 3) and
``gold_cues_test.*`` (scope resolution on gold cues) for the systems with a separate
scope component. The punctuation baseline (gold cues, no training) has one folder,
``seed0``, per corpus. A run counts as finished when its ``test.json`` exists. A trained
system on another backbone (``systems_run.py --backbone``) or on other training data
(``systems_run.py --data``) is the system ``{system}@{label}`` (BACKBONE_LABELS,
DATA_VARIANTS), with folders and summaries of its own. No spaCy import.
"""
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

#: A training run failed (project code: a plain message, not a code of the package's catalogue).
RUN_FAILED = ("{command!r} failed with exit code {code}; see {log}. The run folder {run} is "
              "unfinished and is redone by the next run.")

CORPORA: Tuple[str, ...] = ("cdsco", "bioscope", "sfu")
#: The cross-domain pairs "TRAIN->TEST" of Sineva et al. (2021), Table 3, in report order.
CROSS_PAIRS: Tuple[str, ...] = tuple(f"{a}->{b}" for a in CORPORA for b in CORPORA if a != b)
#: The trained systems, in the order of the tables.
TRAINED: Tuple[str, ...] = ("bilstm_tagger", "negbert", "dp_direct", "dp_nested")
PUNCT = "punct_baseline"
SYSTEMS: Tuple[str, ...] = (PUNCT,) + TRAINED
#: The systems whose scope component runs alone on gold cues (``--gold-cues``).
SCOPE_COMPONENT: Tuple[str, ...] = ("bilstm_tagger", "negbert")
#: Corpora without POS tags: their tokens are tagged for the *SEM punctuation rule
#: (``evaluate_model.py --tag-punct``) wherever they are scored.
UNTAGGED: Tuple[str, ...] = ("bioscope", "sfu")
#: Report key -> (key of the flat ``neg_*`` scores, metric name of ``compare``).
MEASURES: Dict[str, Tuple[str, str]] = {
    "cues_b_f": ("neg_cue_b_f", "starsem.cues_b.f"),
    "scm_b_f": ("neg_scm_b_f", "starsem.scopes_cue_match_b.f"),
    "st_f": ("neg_st_f", "starsem.scope_tokens.f"),
    "nis_tok_f": ("neg_nis_tok_f", "nis.nis_tok.f"),
    "nis_ex_f": ("neg_nis_ex_f", "nis.nis_ex.f"),
}
#: The file of a run folder with the config and overrides of its ``spacy train`` command.
TRAIN_CONFIG = "train_config"
#: The project folder (the configs' paths are relative to it).
PROJECT = Path(__file__).resolve().parent.parent
#: The optional backbones (``scripts/systems_run.py --backbone NAME``) -> their label in
#: system names: a trained system on another backbone is ``SYSTEM@LABEL``
#: (``negbert@mpnet``), its own row beside the system on the default backbone.
BACKBONE_LABELS: Dict[str, str] = {"all-mpnet-base-v2": "mpnet"}
#: Training-data variants (``scripts/systems_run.py --data LABEL``): label -> per training
#: corpus, the train split that replaces the corpus's own (built by the project command
#: ``augment-cdsco``); a run is ``SYSTEM@LABEL`` (``negbert@affixal``), compared with SYSTEM.
DATA_VARIANTS: Dict[str, Dict[str, str]] = {"affixal": {"cdsco": "corpus/cdsco_affixal/train.spacy"}}
#: Each label of a system variant, as the reports describe it.
VARIANT_DESCRIPTIONS: Dict[str, str] = {
    "mpnet": "on the all-mpnet-base-v2 backbone (MPNet-base, 110M)",
    "affixal": ("trained on CD-SCO train with two copies of each sentence with an affixal cue, the cue word "
                "replaced by another word with a negative affix (spacy_negation.corpora.cue_augment; never "
                "a word that is an affixal cue of dev or test)"),
}
#: Every system name of the grid, in the order of the tables: the systems on the default
#: backbone, then each trained system on each other backbone, then on each data variant.
ALL_SYSTEMS: Tuple[str, ...] = SYSTEMS + tuple(
    f"{system}@{label}" for label in (*BACKBONE_LABELS.values(), *DATA_VARIANTS) for system in TRAINED)



def split_system(name: str) -> Tuple[str, Optional[str]]:
    """The system and backbone label of a system name of ALL_SYSTEMS (``negbert@mpnet`` ->
    ``("negbert", "mpnet")``, ``negbert`` -> ``("negbert", None)``)."""
    system, _, label = name.partition("@")
    return system, label or None


def backbone_name(label: str) -> str:
    """The backbone of a label of BACKBONE_LABELS (``mpnet`` -> ``all-mpnet-base-v2``)."""
    return next(name for name, known in BACKBONE_LABELS.items() if known == label)


def backbone_overrides(config: str, backbone: str, project: Path) -> List[str]:
    """``spacy train`` overrides that put every transformer of a config on a backbone:
    ``--PATH.name NAME`` for each block of ``spacy-negation.TransformerModel.v1``.

    config (str): the config's path, relative to the project folder or the working folder.
    backbone (str): the backbone's name (as ``resolve_backbone`` takes it).
    project (Path): the project folder.
    RETURNS (List[str]): the overrides, in the config's order.
    """
    from thinc.api import Config

    found: List[str] = []

    def walk(node: Dict[str, Any], path: List[str]) -> None:
        if node.get("@architectures") == "spacy-negation.TransformerModel.v1":
            found.extend([f"--{'.'.join(path + ['name'])}", backbone])
        for key, value in node.items():
            if isinstance(value, dict):
                walk(value, path + [key])

    path = Path(config) if Path(config).exists() else project / config
    walk(Config().from_disk(path, interpolate=False), [])
    return found


def train_config(corpus: str, system: str) -> Tuple[str, List[str]]:
    """The training config of a trained system on a corpus and the overrides its
    ``spacy train`` command adds (besides ``--output`` and ``--system.seed``): on CD-SCO
    the system's config with the corpus paths (and the step counts of the project's
    CD-SCO runs), elsewhere the per-corpus config of ``scripts/corpus_configs.py``.

    corpus (str): one of CORPORA.
    system (str): one of TRAINED.
    RETURNS (Tuple[str, List[str]]): the config path (relative to the project folder) and
        the overrides.
    """
    if corpus != "cdsco":
        name = corpus if system == "bilstm_tagger" else f"{system}_{corpus}"
        return f"configs/{name}.cfg", []
    paths = ["--paths.train", "corpus/train.spacy", "--paths.dev", "corpus/dev.spacy"]
    if system == "bilstm_tagger":
        return "configs/negation_trf.cfg", paths + ["--training.max_steps", "2400",
                                                    "--training.eval_frequency", "200"]
    if system == "negbert":
        return "configs/negbert.cfg", paths + ["--training.max_steps", "2400"]
    return f"configs/{system}.cfg", paths


def split_file(corpus: str, split: str) -> str:
    """The converted split of a corpus (``spacy project run convert`` / ``convert-cross``).

    corpus (str): one of CORPORA.
    split (str): "train", "dev" or "test".
    RETURNS (str): its path relative to the project folder.
    """
    return f"corpus/{split}.spacy" if corpus == "cdsco" else f"corpus/{corpus}/{split}.spacy"


def run_dir(root: Path, corpus: str, system: str, seed: int) -> Path:
    """The folder of one run: ``ROOT/{corpus}/{system}/seed{N}``."""
    return root / corpus / system / f"seed{seed}"


def gold_file(gold_dir: Path, corpus: str) -> Path:
    """The gold *SEM file of a corpus's test split that the runs' system files align to."""
    return gold_dir / f"{corpus}_test.txt"


def evaluations(corpus: str, system: str) -> List[Tuple[str, str, bool]]:
    """The evaluations of a run, in order: (output name, test corpus, gold cues); the
    output files are ``NAME.txt`` and ``NAME.json`` in the run folder, ``test`` last of
    the in-domain ones (it marks the run finished).

    corpus (str): the training corpus.
    system (str): the system (of ALL_SYSTEMS: a backbone does not change the evaluations).
    RETURNS (List[Tuple[str, str, bool]]): the evaluations.
    """
    system = split_system(system)[0]
    out = [("dev", corpus, False), ("test", corpus, False)]
    if system == PUNCT:
        return out
    out += [(f"cross_{other}", other, False) for other in CORPORA if other != corpus]
    if system in SCOPE_COMPONENT:
        out.append(("gold_cues_test", corpus, True))
    return out
