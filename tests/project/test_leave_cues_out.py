"""scripts/leave_cues_out.py (issue #60): cue keys, folds of the cue-word inventory, the
filtered training, dev and test files of a fold, recall of held-out cue words and the report,
on tiny hand-made corpora."""
import json
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

import pytest
import spacy
from spacy.tokens import Doc, DocBin

from util import CNN_TINY, REPO, load_module, load_test_nlp, make_examples

from spacy_negation.negation import get_convention, get_negations, set_negations

loco = load_module(REPO / "scripts" / "leave_cues_out.py", "leave_cues_out")

Parts = List[Tuple[int, int, int]]
Sentence = Tuple[List[str], List[Dict[str, Parts]]]


def W(words: Sequence[str], *idx: int) -> Parts:
    return [(i, 0, len(words[i])) for i in idx]


def s(text: str, *negs: Tuple[Sequence[int], Sequence[int]], affix: Optional[Tuple[int, int, int]] = None) -> Sentence:
    """A sentence: its words and negations given as (cue token indices, scope token indices);
    ``affix`` an affixal cue part (its scope the rest of the word)."""
    words = text.split()
    out = [{"cue": W(words, *cue), "scope": W(words, *scope)} for cue, scope in negs]
    if affix is not None:
        i, start, end = affix
        out.append({"cue": [affix], "scope": [(i, end, len(words[i])) if start == 0 else (i, 0, start)]})
    return words, out


def doc_of(vocab, sentences: Sequence[Sentence]) -> Doc:
    """One doc of the sentences, their negations shifted to doc positions."""
    words: List[str] = []
    starts: List[bool] = []
    negs: List[Dict[str, Parts]] = []
    for sent_words, sent_negs in sentences:
        off = len(words)
        words += sent_words
        starts += [True] + [False] * (len(sent_words) - 1)
        negs += [{role: [(i + off, a, b) for i, a, b in parts] for role, parts in n.items()} for n in sent_negs]
    doc = Doc(vocab, words=words, sent_starts=starts)
    set_negations(doc, negs)
    return doc


#: corpus -> split -> sentences (one doc per split of a corpus)
CORPUS: Dict[str, Dict[str, List[Sentence]]] = {
    "cdsco": {
        "train": [s("He was not there .", ([2], [0, 1, 3])), s("She was unhappy .", affix=(2, 0, 2)),
                  s("Neither he nor she came .", ([0, 2], [1, 3, 4])), s("Nothing happened .", ([0], [1])),
                  s("It was by no means certain .", ([2, 3, 4], [0, 1, 5])), s("The dog barked .")],
        "dev": [s("He did not come .", ([2], [0, 1, 3])), s("Nothing moved .", ([0], [1]))],
        "test": [s("Nothing was said .", ([0], [1, 2])), s("He was unkind .", affix=(2, 0, 2)),
                 s("Not now .", ([0], [1]))],
    },
    "bioscope": {
        "train": [s("No mutation was found .", ([0], [1, 2, 3])), s("Cells without the gene died .", ([1], [2, 3])),
                  s("The gene was not expressed .", ([3], [0, 1, 2, 4])), s("It was expressed or lost .", ([3], [4])),
                  s("Mutations were detected or absent ."), s("A or B ."), s("C or D ."),
                  s("Not only A but B .")],
        "dev": [s("Not only C .")],
        "test": [s("No effect was seen .", ([0], [1, 2, 3])), s("It is not known .", ([2], [0, 1, 3]))],
    },
    "bioscope_clinical": {
        "train": [s("No fever .", ([0], [1])), s("Lungs clear .")],
        "dev": [s("No cough .", ([0], [1]))],
        "test": [s("No rash .", ([0], [1]))],
    },
    "sfu": {
        "train": [s("I do n't like it .", ([1, 2], [3, 4])), s("Never again .", ([0], [1])),
                  s("It was not bad , never mind .", ([2], [3]), ([5], [6])), s("So unhappy .")],
        "dev": [s("Never .", ([0], []))],
        "test": [s("I do n't know .", ([1, 2], [3])), s("Never , ever .", ([0], [2]))],
    },
}


@pytest.fixture
def corpus_dir(tmp_path) -> Path:
    vocab = spacy.blank("en").vocab
    root = tmp_path / "corpus"
    for name, splits in CORPUS.items():
        for split, sentences in splits.items():
            path = root / loco.CORPORA[name][1][split]
            path.parent.mkdir(parents=True, exist_ok=True)
            DocBin(store_user_data=True, docs=[doc_of(vocab, sentences)]).to_disk(path)
    return root


@pytest.fixture
def sentences(corpus_dir):
    return tuple(loco.read_sentences(corpus_dir, split, list(loco.CORPORA)) for split in ("train", "dev", "test"))


def folds_file(path: Path, inventory, folds: List[List[str]]) -> Path:
    path.write_text(json.dumps({"k": len(folds), "seed": 0, "folds": folds, "inventory": inventory}))
    return path


# --- keys and the inventory -------------------------------------------------------------------------

def test_cue_keys_of_each_cue_type(sentences):
    train = sentences[0]
    keys = {corpus: [[loco.cue_key(n) for n in get_negations(d)] for d in docs] for corpus, docs in train.items()}
    assert keys["cdsco"] == [["not"], ["un-"], ["neither nor"], ["nothing"], ["by no means"], []]
    assert keys["sfu"] == [["do n't"], ["never"], ["not", "never"], []]
    vocab = spacy.blank("en").vocab
    doc = doc_of(vocab, [s("Careless , wo n’t ) No, .", ([1, 2, 3, 4], []), ([5], [6]), affix=(0, 4, 8))])
    assert sorted(loco.cue_key(n) for n in get_negations(doc)) == ["-less", "no", "wo n't"]


def test_inventory_counts_and_the_rare_cue_words_kept_in_other_sentences(sentences):
    inv = loco.build_inventory(sentences[0])
    assert list(inv)[:3] == ["not", "never", "no"]  # most frequent first, then alphabetical
    assert inv["not"]["count"] == 3 and inv["not"]["corpora"] == {"cdsco": 1, "bioscope": 1, "sfu": 1}
    assert inv["un-"]["affixal"] and inv["un-"]["words"] == ["unhappy"]
    assert inv["neither nor"]["discontinuous"] and not inv["by no means"]["discontinuous"]
    # "not": 3 of the 4 sentences with the word hold it as a cue; "or": 1 of 4 (SFU-style noise)
    assert (inv["not"]["cue_sentences"], inv["not"]["word_sentences"], inv["not"]["text_match"]) == (3, 4, True)
    assert (inv["or"]["cue_sentences"], inv["or"]["word_sentences"], inv["or"]["text_match"]) == (1, 4, False)
    assert inv["un-"]["text_match"]


def test_folds_are_deterministic_disjoint_and_cover_the_inventory(corpus_dir, tmp_path, run_script):
    outs = []
    for name, seed in (("a", 0), ("b", 0), ("c", 7)):
        out = tmp_path / f"{name}.json"
        args = ["folds", "--corpus-dir", corpus_dir, "--k", "3", "--seed", seed, "--output", out]
        if name == "a":  # the command line once, the others in this process
            proc = run_script("leave_cues_out.py", *args)
            assert proc.returncode == 0, proc.stderr
        else:
            assert loco.main([str(a) for a in args]) == 0
        outs.append(json.loads(out.read_text()))
    a, b, c = outs
    assert a == b
    keys = [key for fold in a["folds"] for key in fold]
    assert sorted(keys) == sorted(a["inventory"]) and len(keys) == len(set(keys)) == 10
    assert sorted(len(f) for f in a["folds"]) == [3, 3, 4]
    assert {f[0] for f in a["folds"]} == set(list(a["inventory"])[:3])  # one of the 3 most frequent in each
    assert a["fold_cues"] == [sum(a["inventory"][k]["count"] for k in f) for f in a["folds"]]
    assert c["seed"] == 7 and sorted(k for f in c["folds"] for k in f) == sorted(keys)
    keys_by_count = list(a["inventory"])
    assert len({json.dumps(loco.deal_folds(keys_by_count, 3, seed)) for seed in range(6)}) > 1  # the seed deals
    loco.load_folds(tmp_path / "a.json")  # a valid folds file


@pytest.mark.parametrize("k", [1, 11, True])
def test_impossible_numbers_of_folds_are_coded_errors(k):
    with pytest.raises(ValueError, match=r"\[NEG-E983\]"):
        loco.deal_folds([f"w{i}" for i in range(10)], k, 0)


def test_bad_folds_files_and_folds_are_coded_errors(tmp_path, sentences):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ValueError, match=r"\[NEG-E984\]"):
        loco.load_folds(bad)
    inv = loco.build_inventory(sentences[0])
    keys = list(inv)
    with pytest.raises(ValueError, match=r"\[NEG-E984\].*disjoint"):
        loco.load_folds(folds_file(tmp_path / "f.json", inv, [keys[:6], keys[5:]]))
    path = folds_file(tmp_path / "g.json", inv, [keys[:5], keys[5:]])
    with pytest.raises(ValueError, match=r"\[NEG-E985\]"):
        loco.fold_keys(loco.load_folds(path), 2, path)


# --- filter -------------------------------------------------------------------------------------------

def _texts(path: Path) -> List[str]:
    return [d.text.strip() for d in DocBin().from_disk(path).get_docs(spacy.blank("en").vocab)]


def test_filter_drops_exactly_the_sentences_with_held_out_words_and_keeps_conventions(tmp_path, sentences, corpus_dir,
                                                                                        run_script):
    inv = loco.build_inventory(sentences[0])
    held = ["not", "or", "un-", "neither nor"]
    path = folds_file(tmp_path / "folds.json", inv, [held, [k for k in inv if k not in held]])
    out = tmp_path / "fold0"
    proc = run_script("leave_cues_out.py", "filter", "--folds", path, "--fold", "0", "--corpus-dir", corpus_dir,
                      "--out", out)
    assert proc.returncode == 0, proc.stderr
    vocab = spacy.blank("en").vocab
    train = list(DocBin().from_disk(out / "train.spacy").get_docs(vocab))
    assert [d.text.strip() for d in train] == [
        "Nothing happened .", "It was by no means certain .", "The dog barked .",  # cdsco
        "No mutation was found .", "Cells without the gene died .", "Mutations were detected or absent .",
        "A or B .", "C or D .",  # bioscope: "or" outside a cue kept (a seldom cue), "Not only" dropped
        "No fever .", "Lungs clear .",  # clinical
        "I do n't like it .", "Never again ."]  # sfu: "So unhappy ." (a word of un-) dropped
    assert [get_convention(d) for d in train] == ["cdsco"] * 3 + ["bioscope"] * 7 + ["sfu"] * 2
    assert [len(get_negations(d)) for d in train] == [1, 1, 0, 1, 1, 0, 0, 0, 1, 0, 1, 1]
    assert _texts(out / "dev.spacy") == ["Nothing moved .", "No cough .", "Never ."]
    test = list(DocBin().from_disk(out / "test.spacy").get_docs(vocab))
    assert [(d.text.strip(), get_convention(d), d.user_data[loco.CORPUS_KEY]) for d in test] == [
        ("He was unkind .", "cdsco", "cdsco"), ("Not now .", "cdsco", "cdsco"),
        ("It is not known .", "bioscope", "bioscope")]
    texts = _texts(out / "train.spacy")
    assert _texts(out / "words_cdsco.spacy") == texts[:3]
    assert _texts(out / "words_bioscope.spacy") == texts[3:10]
    assert _texts(out / "words_sfu.spacy") == texts[10:]
    assert _texts(out / "words_all.spacy") == texts
    summary = json.loads((out / "filter.json").read_text())
    assert summary["held_out"] == sorted(held)
    assert summary["corpora"]["cdsco"] == {"train": 6, "train_kept": 3, "dev": 2, "dev_kept": 1, "test_sentences": 2,
                                           "test_cues": {"not": 1, "un-": 1}}
    assert "cdsco: train 3/6 sentences kept, dev 1/2, test 2 sentences with 2 held-out cues" in proc.stdout


def test_filter_annotated_only_keeps_the_words_outside_cues(tmp_path, sentences):
    inv = loco.build_inventory(sentences[0])
    held = {k: inv[k] for k in ("not", "un-")}
    loco.filter_fold(*sentences, held, tmp_path / "f", annotated_only=True)
    kept = _texts(tmp_path / "f" / "train.spacy")
    assert "Not only A but B ." in kept and "So unhappy ." in kept and "He was not there ." not in kept


def test_filter_with_substitution_never_writes_a_held_out_word(tmp_path, sentences):
    inv = loco.build_inventory(sentences[0])
    held = {k: inv[k] for k in ("never", "nothing")}
    summary = loco.filter_fold(*sentences, held, tmp_path / "f", substitute=3, sub_seed=1)
    train = _texts(tmp_path / "f" / "train.spacy")
    copies = train[len(train) - summary["substitution"]["copies"]:]
    assert copies and summary["substitution"]["copies"] == len(copies)
    for text in copies:
        assert not {"never", "nothing"} & set(text.lower().split())
    # "not" (adv) was replaced by a train adverb other than the held-out "never"
    assert any("no longer" in t or "by no means" in t for t in copies)
    bioscope = _texts(tmp_path / "f" / "words_bioscope.spacy")
    assert "Cells lacking the gene died ." in copies and "Cells lacking the gene died ." in bioscope
    assert not set(copies) & set(_texts(tmp_path / "f" / "words_cdsco.spacy")[:3])


# --- score --------------------------------------------------------------------------------------------

def _system(gold: Sequence[Doc], cues: Sequence[List[Parts]]) -> List[Doc]:
    out = []
    for g, doc_cues in zip(gold, cues):
        doc = Doc(g.vocab, words=[t.text for t in g], spaces=[bool(t.whitespace_) for t in g])
        set_negations(doc, [{"cue": c} for c in doc_cues])
        out.append(doc)
    return out


@pytest.fixture
def fold0(tmp_path, sentences):
    inv = loco.build_inventory(sentences[0])
    held = ["not", "or", "un-", "neither nor"]
    path = folds_file(tmp_path / "folds.json", inv, [held, [k for k in inv if k not in held]])
    loco.filter_fold(*sentences, {k: inv[k] for k in held}, tmp_path / "fold0")
    return path, tmp_path / "fold0" / "test.spacy"


def test_score_counts_exact_matches_of_held_out_cues_on_hand_made_predictions(tmp_path, fold0, run_script):
    folds, test = fold0
    vocab = spacy.blank("en").vocab
    gold = list(DocBin().from_disk(test).get_docs(vocab))
    # "un" of unkind found; "Not" found; "not known" is not the gold "not"; a cue "now" is no gold cue
    system = _system(gold, [[[(2, 0, 2)]], [[(0, 0, 3)], [(1, 0, 3)]], [[(2, 0, 3), (3, 0, 5)]]])
    result = loco.score_docs(gold, system, ["not", "un-"])
    assert (result["found"], result["total"], result["recall"]) == (2, 3, 2 / 3)
    assert result["per_key"] == {"not": {"found": 1, "total": 2, "recall": 0.5},
                                 "un-": {"found": 1, "total": 1, "recall": 1.0}}
    assert result["macro_recall"] == 0.75
    assert result["per_corpus"] == {"bioscope": {"found": 0, "total": 1, "recall": 0.0},
                                    "cdsco": {"found": 2, "total": 2, "recall": 1.0}}
    # the command, from a file of predictions; only the fold's keys count
    predicted = tmp_path / "pred.spacy"
    DocBin(store_user_data=True, docs=system).to_disk(predicted)
    out = tmp_path / "scores" / "seed0" / "fold0.json"
    proc = run_script("leave_cues_out.py", "score", "--folds", folds, "--fold", "0", "--test", test,
                      "--predicted", predicted, "--output", out)
    assert proc.returncode == 0, proc.stderr
    scores = json.loads(out.read_text())
    assert (scores["found"], scores["total"], scores["fold"], scores["k"]) == (2, 3, 0, 2)
    # predictions on other docs
    DocBin(store_user_data=True, docs=system[:2]).to_disk(predicted)
    with pytest.raises(ValueError, match=r"\[NEG-E986\].*2 docs for 3 test docs"):
        loco.score_fold(folds, 0, test, out, predicted=predicted)
    other = _system(gold, [[], [], []])
    other[1] = Doc(vocab, words=["Not", "then", "."])
    DocBin(store_user_data=True, docs=other).to_disk(predicted)
    with pytest.raises(ValueError, match=r"\[NEG-E986\].*doc 1 reads"):
        loco.score_fold(folds, 0, test, out, predicted=predicted)


def test_score_runs_a_trained_pipeline_on_the_test_file(tmp_path, fold0):
    folds, test = fold0
    nlp = load_test_nlp(CNN_TINY)
    examples = make_examples(nlp)
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: examples)
    nlp.update(examples, sgd=optimizer)
    nlp.to_disk(tmp_path / "model")
    result = loco.score_fold(folds, 0, test, tmp_path / "s.json", model=tmp_path / "model")
    assert result["total"] == 3 and 0 <= result["found"] <= 3 and result["model"] == str(tmp_path / "model")


# --- report and run -----------------------------------------------------------------------------------

def _scores(root: Path, table: Dict[Tuple[int, int], Tuple[int, int]]) -> Path:
    """Score files: (seed, fold) -> (found, total), all of the key "w{fold}" and corpus sfu."""
    for (seed, fold), (found, total) in table.items():
        path = root / f"seed{seed}" / f"fold{fold}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        cell = {"found": found, "total": total, "recall": found / total}
        path.write_text(json.dumps({"fold": fold, "k": 2, **cell, "macro_recall": found / total,
                                    "per_key": {f"w{fold}": cell}, "per_corpus": {"sfu": cell},
                                    "train_seconds": 100.0 + seed}))
    return root


def test_report_mean_and_sd_over_folds_and_seeds_and_the_lever(tmp_path, run_script):
    base = _scores(tmp_path / "base", {(0, 0): (1, 2), (0, 1): (3, 4), (1, 0): (2, 2), (1, 1): (1, 4)})
    lever = _scores(tmp_path / "lexsub", {(0, 0): (2, 2), (0, 1): (4, 4), (1, 0): (2, 2), (1, 1): (2, 4)})
    out = tmp_path / "results" / "vocabulary.json"
    out.parent.mkdir()
    out.write_text(json.dumps({"other": 1}))
    proc = run_script("leave_cues_out.py", "report", "--lever", f"base={base}", "--lever", f"lexsub={lever}",
                      "--output", out)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(out.read_text())
    assert data["other"] == 1  # other keys of the file are kept
    r = data["leave_cues_out_recall"]
    assert r["seeds"] == [0, 1] and r["k"] == 2 and r["complete"] and r["lever"] == "base"
    assert r["mean"] == pytest.approx((0.5 + 0.75 + 1.0 + 0.25) / 4)
    assert r["sd"] == pytest.approx(0.3227486, abs=1e-6)  # sample sd of the 4 fold x seed recalls
    assert r["pooled"]["per_seed"] == {"0": 4 / 6, "1": 3 / 6}
    assert r["macro_words"]["per_seed"] == {"0": 0.625, "1": 0.625}
    assert r["per_fold"]["0"]["mean"] == 0.75 and r["per_key"]["w1"]["test_cues"] == 4
    assert r["per_corpus"]["sfu"]["mean"] == pytest.approx(7 / 12)
    assert r["train_seconds"]["mean"] == 100.5
    diff = data["levers"]["lexsub"]["difference"]
    assert diff["pooled"]["per_seed"] == {"0": pytest.approx(2 / 6), "1": pytest.approx(1 / 6)}
    assert diff["mean"] == pytest.approx(data["levers"]["lexsub"]["mean"] - r["mean"])
    assert "| lexsub |" in out.with_suffix(".md").read_text()
    with pytest.raises(ValueError, match=r"\[NEG-E987\]"):
        loco.read_scores(tmp_path / "empty")


def test_run_trains_each_fold_and_seed_with_the_folds_files_as_words_corpora(tmp_path, run_script, sentences):
    inv = loco.build_inventory(sentences[0])
    keys = list(inv)
    folds = folds_file(tmp_path / "folds.json", inv, [keys[:5], keys[5:]])
    proc = run_script("leave_cues_out.py", "run", "--name", "proxy", "--folds", folds, "--config",
                      REPO / "configs" / "general_fast.cfg", "--seeds", "0", "1", "--steps", "3000",
                      "--eval-frequency", "500", "--data-dir", tmp_path / "data", "--training-dir", tmp_path / "t",
                      "--metrics-dir", tmp_path / "m", "--set", "training.patience=1000", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    commands = [line for line in proc.stderr.splitlines() if " spacy train " in line]
    assert len(commands) == 4  # 2 folds x 2 seeds
    first = commands[0]
    data = tmp_path / "data" / "fold0"
    for part in (f"--output {tmp_path / 't' / 'seed0' / 'fold0'}", "--system.seed 0",
                 f"--paths.train {data / 'train.spacy'}", f"--paths.dev {data / 'dev.spacy'}",
                 f"--initialize.components.negation_cue.words_corpus {data / 'words_bioscope.spacy'}",
                 f"--initialize.components.negation_cue_cdsco.words_corpus {data / 'words_cdsco.spacy'}",
                 f"--initialize.components.negation_cue_sfu.words_corpus {data / 'words_sfu.spacy'}",
                 "--training.max_steps 3000", "--training.eval_frequency 500", "--training.patience 1000"):
        assert part in first
    assert not (tmp_path / "data").exists()  # a dry run writes nothing


def test_the_lexicon_feature_lever_sets_every_cue_component():
    train, score = loco.lexicon_feature_sets(REPO / "configs" / "general_fast.cfg", ["train"])
    names = ["negation_cue", "negation_cue_cdsco", "negation_cue_sfu"]
    assert train == [item for name in names for item in (
        f"components.{name}.model.@architectures=spacy-negation.CueTagger.v2",
        f'components.{name}.model.lexicon_splits=["train"]')]
    assert score == [f"components.{name}.decoder.min_word_precision=null" for name in names]
    more, _ = loco.lexicon_feature_sets(REPO / "configs" / "general_fast.cfg", ["train"], 0.5, 1)
    assert more[2:4] == ["components.negation_cue.model.flagged_dropout=0.5",
                         "components.negation_cue.model.flagged_min_seen=1"]
    config = spacy.util.load_config(REPO / "configs" / "general_fast.cfg", interpolate=False,
                                    overrides=dict(loco.parse_sets(train)))
    nlp = spacy.util.load_model_from_config(config, auto_fill=True, validate=True)
    assert all("lexicon_flags" in nlp.get_pipe(name).model.name for name in names)


@pytest.mark.slow
def test_run_end_to_end_on_a_tiny_config(tmp_path, corpus_dir, sentences, run_script):
    """Filter, a 4-step training of the tiny CNN config and the score of every fold of a seed;
    a second run keeps what is done."""
    inv = loco.build_inventory(sentences[0])
    keys = list(inv)
    folds = folds_file(tmp_path / "folds.json", inv, [keys[:5], keys[5:]])
    args = ["run", "--name", "tiny", "--folds", folds, "--corpus-dir", corpus_dir, "--config", CNN_TINY,
            "--seeds", "0", "--steps", "4", "--eval-frequency", "2", "--data-dir", tmp_path / "data",
            "--training-dir", tmp_path / "t", "--metrics-dir", tmp_path / "m"]
    proc = run_script("leave_cues_out.py", *args)
    assert proc.returncode == 0, proc.stderr
    for fold in (0, 1):
        scores = json.loads((tmp_path / "m" / "seed0" / f"fold{fold}.json").read_text())
        assert scores["fold"] == fold and scores["seed"] == 0 and scores["train_seconds"] > 0
        summary = json.loads((tmp_path / "data" / f"fold{fold}" / "filter.json").read_text())
        assert scores["total"] == sum(sum(c["test_cues"].values()) for c in summary["corpora"].values())
        assert (tmp_path / "t" / "seed0" / f"fold{fold}" / "training-finished.json").is_file()
    again = run_script("leave_cues_out.py", *args)
    assert again.returncode == 0 and " spacy train " not in again.stderr
    # a training that did not finish (model-last from an evaluation, no training-finished.json) runs again
    (tmp_path / "t" / "seed0" / "fold1" / "training-finished.json").unlink()
    (tmp_path / "m" / "seed0" / "fold1.json").unlink()
    third = run_script("leave_cues_out.py", *args)
    assert third.returncode == 0 and third.stderr.count(" spacy train ") == 1
