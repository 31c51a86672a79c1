"""configs/general_spec.cfg and configs/general_l3_distil_spec.cfg: the general English
model's teacher and student that resolve speculation beside negation (issue #62), next to
the configs that `make project` trains (configs/general.cfg, configs/general_l3_distil.cfg,
unchanged and still the only ones of the `all` workflow).

- They differ from the current configs only where intended: the BioScope and SFU Review
  cue and scope components learn both kinds (``kinds``, ``ScopeTagger.v2``), the training
  reader keeps the sentences with a speculation (``keep_speculated``), model selection
  weighs the speculations' NIS_tok F1 beside the negations'; the CD-SCO components stay
  negation-only (CD-SCO does not annotate speculation).
- Both resolve, initialize and train on a tiny synthetic corpus of the three conventions
  (a tiny random BERT in place of MiniLM): the teacher's BioScope and SFU components learn
  the speculation labels, its dev scores have the ``spec_*`` keys the weights name, and the
  student distils every component from it.
- A tiny per-convention pipeline of the same layout (CNN) in the ``negation`` host: the
  SFU convention (the general model's default) writes ``doc._.speculations``, the CD-SCO
  one none.

The synthetic hedge sentences are those of the pipeline tests (``tests/pipeline/conftest.py``,
loaded by its path)."""
import copy
import json
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest
import spacy
import srsly
from spacy.language import Language
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.util import load_config, load_model_from_config

from spacy_negation import set_negations
from spacy_negation.negation import get_convention, set_convention

import hedge as HEDGE
from util import CNN_TINY, REPO, load_module, load_test_nlp

CONFIGS = REPO / "configs"
BOTH = ["negation", "speculation"]
#: (new config, the current config it is a copy of, the path of its training reader's
#: sentence corpus in the config)
PAIRS = [("general_spec.cfg", "general.cfg", ("corpora", "train")),
         ("general_l3_distil_spec.cfg", "general_l3_distil.cfg", ("corpora", "train", "corpus"))]
#: The cue and scope components that learn speculation: BioScope's (the default ones) and SFU Review's.
SPECULATING = {"negation_cue": "negation_scope", "negation_cue_sfu": "negation_scope_sfu"}
NEGATION_ONLY = {"negation_cue_cdsco": "negation_scope_cdsco"}
#: Model selection: NIS_tok F1 of the negations and of the speculations, half each.
WEIGHTS = {"neg_nis_tok_f": 0.5, "neg_nis_tok_p": None, "neg_nis_tok_r": None,
           "neg_cue_f": 0.0, "neg_cue_p": None, "neg_cue_r": None,
           "spec_nis_tok_f": 0.5, "spec_nis_tok_p": None, "spec_nis_tok_r": None,
           "spec_cue_f": 0.0, "spec_cue_p": None, "spec_cue_r": None}


def _plain(config: Any) -> Dict[str, Any]:
    return json.loads(json.dumps(dict(config)))


def _section(config: Dict[str, Any], path: Tuple[str, ...]) -> Dict[str, Any]:
    for key in path:
        config = config[key]
    return config


@pytest.mark.parametrize("new,old,reader", PAIRS)
def test_the_spec_configs_differ_from_the_current_ones_only_where_intended(new: str, old: str,
                                                                           reader: Tuple[str, ...]) -> None:
    spec = _plain(load_config(CONFIGS / new, interpolate=False))
    expected = _plain(load_config(CONFIGS / old, interpolate=False))
    for cue, scope in SPECULATING.items():
        expected["components"][cue]["kinds"] = BOTH
        expected["components"][scope]["kinds"] = BOTH
        expected["components"][scope]["model"].update({"@architectures": "spacy-negation.ScopeTagger.v2",
                                                       "n_kinds": 2})
    _section(expected, reader)["keep_speculated"] = True
    expected["training"]["score_weights"] = WEIGHTS
    if "teacher" in expected["paths"]:
        expected["paths"]["teacher"] = "training/general_spec_teacher/model-best"
    assert spec == expected
    # the CD-SCO components stay negation-only (the factories' default)
    for cue, scope in NEGATION_ONLY.items():
        assert "kinds" not in spec["components"][cue] and "kinds" not in spec["components"][scope]
        assert spec["components"][scope]["model"]["@architectures"] == "spacy-negation.ScopeTagger.v1"
    # a header paragraph and the training command
    text = (CONFIGS / new).read_text(encoding="utf-8")
    header = text.split("\n[", 1)[0]
    assert header.startswith(f"# {new[:-4]}: ") and "speculation" in header and "CD-SCO" in header
    assert f"python -m spacy train configs/{new} --output training/general_spec" in header


def test_make_project_trains_the_current_configs_only() -> None:
    """`make project` (the `all` workflow) builds what it built: none of its commands names
    a spec config."""
    project = srsly.read_yaml(REPO / "project.yml")
    commands = {c["name"]: c for c in project["commands"]}
    scripts = " ".join(line for name in project["workflows"]["all"] for line in commands[name]["script"])
    assert "configs/general.cfg" in scripts and "configs/general_l3_distil.cfg" in scripts
    assert "_spec.cfg" not in scripts


def _hedge_doc(vocab: Any, sentence: Any, convention: str) -> Doc:
    """A reference doc of a hedge sentence marked with a convention: with its speculations
    (BioScope, SFU Review), or without a speculation span group (CD-SCO: not annotated)."""
    words, negations, speculations = sentence
    if convention == "cdsco":
        spaces = [i + 1 < len(words) and words[i + 1] != "." for i in range(len(words))]
        doc = Doc(vocab, words=words, spaces=spaces, sent_starts=[True] + [False] * (len(words) - 1))
        set_negations(doc, [{role: [(i, 0, len(words[i])) for i in idx] for role, idx in neg.items()}
                            for neg in negations])
    else:
        if convention == "sfu":  # a convention of its own: speculation scopes without the subject
            speculations = [{"cue": s["cue"], "scope": [i for i in s["scope"] if i > 1]} for s in speculations]
        doc = HEDGE.hedge_reference(vocab, words, negations, speculations)
    set_convention(doc, convention)
    return doc


def _write_corpus(path: Path, n: int) -> Path:
    """A .spacy file of the first n hedge sentences in each of the three conventions."""
    vocab = spacy.blank("en").vocab
    docs = [_hedge_doc(vocab, sentence, convention) for convention in ("cdsco", "bioscope", "sfu")
            for sentence in HEDGE.hedge_sentences()[:n]]
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


def _tiny_overrides(tiny_bert_dir: Path, corpus: Path) -> Dict[str, Any]:
    """The overrides that train a general config on the tiny corpus with the tiny BERT, a
    few steps."""
    return {
        "paths.train": str(corpus), "paths.dev": str(corpus),
        "components.transformer.model.name": str(tiny_bert_dir),
        "system.gpu_allocator": None,
        "training.max_steps": 4, "training.eval_frequency": 2,
        "training.optimizer.learn_rate.warmup_steps": 1,
        "initialize.components": {name: {"words_corpus": str(corpus)}
                                  for name in ("negation_cue", "negation_cue_cdsco", "negation_cue_sfu")},
    }


def test_the_weights_name_keys_of_the_scorers(tiny_bert_dir: Path) -> None:
    """The filled configs weigh exactly the two NIS_tok F1s, keys that the default
    components' scorers report (the per-convention components have none: scorer null)."""
    for new, _, _ in PAIRS:
        config = load_config(CONFIGS / new, overrides={"components.transformer.model.name": str(tiny_bert_dir),
                                                      "system.gpu_allocator": None})
        nlp = load_model_from_config(config, auto_fill=True, validate=True)
        weights = nlp.config["training"]["score_weights"]
        assert {k: v for k, v in weights.items() if v} == {"neg_nis_tok_f": 0.5, "spec_nis_tok_f": 0.5}
        scorers = {name: nlp.get_pipe_config(name).get("scorer") for name in nlp.pipe_names if name != "transformer"}
        assert {name for name, scorer in scorers.items() if scorer} == {"negation_cue", "negation_scope"}


@pytest.fixture(scope="module")
def trained_spec(tiny_bert_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Dict[str, Any]:
    """The teacher config trained a few steps on the tiny corpus (tiny BERT), and the
    student config distilled from it, with the components that learned from the
    teacher's targets at each update."""
    from spacy.cli.train import train
    from spacy_negation.pipeline import base as base_module

    root = tmp_path_factory.mktemp("general_spec")
    corpus = _write_corpus(root / "corpus.spacy", 21)
    overrides = _tiny_overrides(tiny_bert_dir, corpus)
    train(CONFIGS / "general_spec.cfg", root / "teacher", overrides=overrides)
    taught: List[str] = []
    real = base_module.teacher_targets

    def counting(examples: Any, pipe: Any) -> Any:
        found = real(examples, pipe)
        if found is not None:
            taught.append(pipe.name)
        return found

    base_module.teacher_targets = counting
    try:
        train(CONFIGS / "general_l3_distil_spec.cfg", root / "student", overrides={
            **overrides, "paths.teacher": str(root / "teacher" / "model-best"),
            "components.transformer.model.transformer_config": {"num_hidden_layers": 1}})
    finally:
        base_module.teacher_targets = real
    return {"root": root, "corpus": corpus, "taught": taught}


def test_the_teacher_learns_both_kinds_in_the_bioscope_and_sfu_components(trained_spec: Dict[str, Any]) -> None:
    teacher = spacy.load(trained_spec["root"] / "teacher" / "model-best")
    for cue, scope in SPECULATING.items():
        assert teacher.get_pipe(cue).kinds == teacher.get_pipe(scope).kinds == ("negation", "speculation")
        assert {"S|speculation", "B|speculation", "I|speculation"} <= set(teacher.get_pipe(cue).labels)
    for cue, scope in NEGATION_ONLY.items():
        assert teacher.get_pipe(cue).kinds == teacher.get_pipe(scope).kinds == ("negation",)
        assert not any("speculation" in label for label in teacher.get_pipe(cue).labels)
    # the dev scores have the keys the weights name, for both kinds
    meta = json.loads((trained_spec["root"] / "teacher" / "model-best" / "meta.json").read_text())
    for key in ("neg_nis_tok_f", "spec_nis_tok_f", "spec_cue_f"):
        assert 0.0 <= meta["performance"][key] <= 1.0, key


def test_the_student_distils_every_component_of_both_kinds(trained_spec: Dict[str, Any]) -> None:
    taught = trained_spec["taught"]
    names = list(SPECULATING) + list(SPECULATING.values()) + list(NEGATION_ONLY) + list(NEGATION_ONLY.values())
    assert {name: taught.count(name) >= 4 for name in names} == {name: True for name in names}
    student = spacy.load(trained_spec["root"] / "student" / "model-best")
    teacher = spacy.load(trained_spec["root"] / "teacher" / "model-best")
    for name in names:
        assert student.get_pipe(name).kinds == teacher.get_pipe(name).kinds
        assert student.get_pipe(name).labels == teacher.get_pipe(name).labels
    meta = json.loads((trained_spec["root"] / "student" / "model-best" / "meta.json").read_text())
    assert "spec_nis_tok_f" in meta["performance"]


def test_a_student_whose_cdsco_components_learn_speculation_is_refused(trained_spec: Dict[str, Any],
                                                                       tiny_bert_dir: Path) -> None:
    from spacy_negation.distill.targets import shared_components

    teacher = spacy.load(trained_spec["root"] / "teacher" / "model-best")
    config = load_config(CONFIGS / "general_l3_distil_spec.cfg", overrides={
        "components.transformer.model.name": str(tiny_bert_dir), "system.gpu_allocator": None,
        "components.negation_cue_cdsco.kinds": BOTH})
    student = load_model_from_config(config, auto_fill=True)
    with pytest.raises(ValueError, match=r"\[NEG-E377\] Cannot distil the component 'negation_cue_cdsco'"):
        shared_components(teacher, student, None)


# --- the host with a per-convention model of the spec layout ------------------------------

def _spec_layout_nlp() -> Language:
    """The tiny CNN pipeline with the components of the general spec configs: BioScope's
    (the default ones, annotating unmarked docs) and SFU Review's of both kinds, CD-SCO's
    negation-only."""
    nlp = load_test_nlp(CNN_TINY, {**HEDGE.BOTH_KINDS, "components.negation_cue.convention": "bioscope",
                                   "components.negation_scope.convention": "bioscope"})
    for suffix, kinds in (("cdsco", ["negation"]), ("sfu", BOTH)):
        for name in ("negation_cue", "negation_scope"):
            config = copy.deepcopy(_plain(nlp.config["components"][name]))
            factory = config.pop("factory")
            config.update({"convention": suffix, "annotate_unmarked": False, "scorer": None, "kinds": kinds})
            if factory == "negation_scope" and kinds == ["negation"]:
                config["model"]["@architectures"] = "spacy-negation.ScopeTagger.v1"
                del config["model"]["n_kinds"]
            nlp.add_pipe(factory, name=f"{name}_{suffix}", config=config)
    return nlp


def _marked(nlp: Language, doc: Doc) -> Doc:
    pred = nlp.make_doc(doc.text)
    set_convention(pred, get_convention(doc))
    return pred


@pytest.fixture(scope="module")
def spec_layout_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The spec layout pipeline trained until it predicts the gold of each convention."""
    import random

    nlp = _spec_layout_nlp()
    refs = [_hedge_doc(nlp.vocab, sentence, convention) for convention in ("cdsco", "bioscope", "sfu")
            for sentence in HEDGE.hedge_sentences()]
    examples = [Example(_marked(nlp, ref), ref) for ref in refs]
    gold = [HEDGE.kind_key(ref) for ref in refs]
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: examples)
    optimizer.learn_rate = 0.01
    rng = random.Random(0)
    order = list(examples)
    for it in range(1, 101):
        rng.shuffle(order)
        for batch in spacy.util.minibatch(order, 4):
            nlp.update(batch, sgd=optimizer)
        if it % 5 == 0 and [HEDGE.kind_key(d) for d in nlp.pipe([_marked(nlp, r) for r in refs])] == gold:
            break
    else:
        pytest.fail("the tiny per-convention pipeline did not learn the hedge sentences")
    path = tmp_path_factory.mktemp("spec_layout") / "model"
    nlp.to_disk(path)
    return path


def _gold_and_texts(convention: str) -> Tuple[List[str], List[Any]]:
    vocab = spacy.blank("en").vocab
    refs = [_hedge_doc(vocab, sentence, convention) for sentence in HEDGE.hedge_sentences()[:14]]
    return [ref.text for ref in refs], [HEDGE.kind_key(ref) for ref in refs]


def test_the_host_writes_the_sfu_speculations_of_a_per_convention_model(spec_layout_dir: Path,
                                                                        tmp_path: Path) -> None:
    texts, sfu_gold = _gold_and_texts("sfu")
    _, bioscope_gold = _gold_and_texts("bioscope")
    assert sfu_gold != bioscope_gold and any(spec for _, spec in sfu_gold)
    host = spacy.blank("en")
    host.add_pipe("negation", config={"model": str(spec_layout_dir), "convention": "sfu"})
    assert host.get_pipe("negation").resolves_speculation
    assert [HEDGE.kind_key(doc) for doc in host.pipe(texts)] == sfu_gold
    might = host("The patient might help.")
    assert [s.cue_text for s in might._.speculations] == ["might"]
    # the packaged model's layout: the SFU components annotate unmarked docs (model_card.py)
    card = load_module(REPO / "scripts" / "model_card.py", "model_card_spec")
    card.write_model_copy(spec_layout_dir, tmp_path / "copy", default_convention="sfu")
    default = spacy.blank("en")
    default.add_pipe("negation", config={"model": str(tmp_path / "copy")})
    assert default.get_pipe("negation").convention is None
    assert [HEDGE.kind_key(doc) for doc in default.pipe(texts)] == sfu_gold
    # BioScope's convention: its own speculation scopes; CD-SCO's: negations only
    bioscope = spacy.blank("en")
    bioscope.add_pipe("negation", config={"model": str(spec_layout_dir), "convention": "bioscope"})
    assert [HEDGE.kind_key(doc) for doc in bioscope.pipe(texts)] == bioscope_gold
    cdsco = spacy.blank("en")
    cdsco.add_pipe("negation", config={"model": str(spec_layout_dir), "convention": "cdsco"})
    assert not cdsco.get_pipe("negation").resolves_speculation
    keys = [HEDGE.kind_key(doc) for doc in cdsco.pipe(texts)]
    assert [spec for _, spec in keys] == [[] for _ in texts]
    assert [neg for neg, _ in keys] == [neg for neg, _ in bioscope_gold]
