"""Leave-cues-out evaluation: how well a model finds cue words it never saw in
training.

The cue-word inventory is every gold cue of the English training splits (CD-SCO, BioScope
abstracts and clinical reports, SFU Review) by its key: the lower-cased cue text (typographic
apostrophes straight, punctuation at the ends of its words left out), a multiword or
discontinuous cue as its words joined by spaces ("by no means", "neither nor"), an affixal
cue by its affix ("un-", "-less"). The keys are
dealt into k folds; for fold i a model trains without the training sentences that hold a
key of the fold and is tested on the test sentences whose gold cues hold one, and the
score is the recall of those held-out gold cues: one counts as found when a predicted cue
has exactly its character ranges.

A training (or dev) sentence holds a key when one of its gold cues has it or, unless
``--annotated-only``, when its words do: the key's words in a row (in order, anywhere in the
sentence, for a key that was ever discontinuous), or, for an affixal key, one of the words
that carried it as a cue in the training splits. Words that are seldom a cue keep their
other sentences (``folds --min-cue-rate``: a key is matched in the words only if it is a cue
in at least that share of the training sentences with its words; SFU Review annotates *or*
and *would* a few times). A test sentence holds a key when one of its gold cues has it.

    python scripts/leave_cues_out.py folds --corpus-dir corpus --k 5 --seed 0 \\
        [--output metrics/vocabulary/folds.json]
    python scripts/leave_cues_out.py filter --fold 0 --corpus-dir corpus --out corpus/loco/base/fold0 \\
        [--substitute COPIES --max-per-word N]        # a lever: cue substitution of the kept sentences
    python -m spacy train configs/general_fast.cfg --paths.train corpus/loco/base/fold0/train.spacy ...
    python scripts/leave_cues_out.py score --fold 0 --test corpus/loco/base/fold0/test.spacy \\
        --model training/loco/base/seed0/fold0/model-best --output metrics/vocabulary/base/seed0/fold0.json
    python scripts/leave_cues_out.py report --lever base=metrics/vocabulary/base \\
        --lever lexsub=metrics/vocabulary/lexsub [--output results/vocabulary.json]
    python scripts/leave_cues_out.py run --name base --config configs/general_fast.cfg --seeds 0 1 2 \\
        --steps 3000 [--dry-run]                        # filter, train and score every fold and seed

``filter`` writes, per fold, ``train.spacy`` and ``dev.spacy`` (the kept sentences of every
corpus, one doc per sentence, each marked with its corpus's annotation convention as
``convert-general`` marks the general corpus: CD-SCO cdsco, BioScope abstracts and clinical
bioscope, SFU Review sfu), ``test.spacy`` (the held-out test sentences, marked the same way
and with their corpus in ``user_data[CORPUS_KEY]``), ``words_CONVENTION.spacy`` (the kept
training sentences of a convention: the cue components' ``words_corpus``, whose word
lexicon would otherwise hold the held-out words; ``words_all.spacy`` all of them) and ``filter.json`` (what was kept and
dropped). With ``--substitute`` the kept training sentences also get substituted copies
(``spacy_negation.corpora.cue_substitute``; never a held-out word of the lexicon nor one
holding a key of the fold).

``report`` gives, per lever (a folder of ``seedS/foldI.json`` score files), the recall
over the fold and seed pairs (mean ± sd, the issue's measure), the recall pooled over the
folds of each seed, the mean recall of the cue words (each key weighs the same), per fold,
per corpus and per key; the first lever (or ``--baseline``) is ``leave_cues_out_recall`` of
``results/vocabulary.json``, the others ``levers`` with their difference per seed.
"""
import argparse
import json
import random
import statistics
import string
import subprocess
import sys
import time
from contextlib import contextmanager
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc, DocBin

from spacy_negation.corpora.cue_lexicon import LEXICON_PATH, load_negation_lexicon
from spacy_negation.corpora.cue_substitute import normalize, substituted_copies
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.errors import Errors
from spacy_negation.ml.training_corpus import split_sentences
from spacy_negation.negation import Negation, get_convention, get_negations, set_convention
from spacy_negation.util import atomic_write_bytes, atomic_write_text, blank_nlp

#: The corpora: name -> (annotation convention, file of each split under the corpus folder).
CORPORA: Dict[str, Tuple[str, Dict[str, str]]] = {
    "cdsco": ("cdsco", {"train": "train.spacy", "dev": "dev.spacy", "test": "test.spacy"}),
    "bioscope": ("bioscope", {s: f"bioscope/{s}.spacy" for s in ("train", "dev", "test")}),
    "bioscope_clinical": ("bioscope", {s: f"bioscope_clinical/{s}.spacy" for s in ("train", "dev", "test")}),
    "sfu": ("sfu", {s: f"sfu/{s}.spacy" for s in ("train", "dev", "test")}),
}
#: The key in a test sentence's ``user_data`` of the corpus it comes from.
CORPUS_KEY = "leave_cues_out_corpus"
#: The characters a key word loses at its ends.
PUNCT = string.punctuation + "\u201c\u201d\u00ab\u00bb\u2026"
DEFAULT_FOLDS = Path("metrics/vocabulary/folds.json")
DEFAULT_RESULTS = Path("results/vocabulary.json")

Sentences = Dict[str, List[Doc]]  # corpus -> its sentences of one split


# --- keys and the inventory ---------------------------------------------------------------------

def key_word(text: str) -> str:
    """A word as keys spell it: :func:`normalize`, without punctuation at its ends (SFU
    Review has cues such as "no," and "wo n't )"); empty for punctuation."""
    return normalize(text).strip(PUNCT)


def cue_key(neg: Negation) -> str:
    """The key of a negation's cue: its parts' words (:func:`key_word`, punctuation left
    out) joined by spaces, a part inside a token as its affix ("un-" at the start of the
    word, "-less" after it)."""
    doc = neg.doc
    words = []
    for p in neg.cue:
        text = key_word(p.text(doc))
        if text:
            words.append((f"{text}-" if p.start == 0 else f"-{text}") if p.is_partial(doc) else text)
    return " ".join(words)


def read_sentences(corpus_dir: Path, split: str, corpora: Sequence[str]) -> Sentences:
    """The sentences (one doc each, with their negations) of a split of the corpora, each
    marked with its corpus's convention."""
    vocab = blank_nlp("en").vocab
    out: Sentences = {}
    for name in corpora:
        convention, files = CORPORA[name]
        sents = []
        for doc in read_docbin(corpus_dir / files[split], vocab=vocab):
            set_convention(doc, convention)
            sents.extend(split_sentences(doc))
        out[name] = sents
    return out


def build_inventory(train: Sentences, min_cue_rate: float = 0.3) -> Dict[str, Dict[str, Any]]:
    """The cue keys of the training sentences, most frequent first: ``count`` (cues),
    ``corpora`` (cues per corpus), ``affixal``, ``discontinuous`` (ever), ``words`` (an
    affixal key: the words that carried it), ``word_sentences`` (the sentences with it as a
    cue or in their words), ``cue_sentences`` (those of them where its words are in a gold
    cue: "n't" in "does n't" too) and ``text_match``: whether a sentence with its words but
    not as a cue is held out too (affixal keys, and keys whose words are in a cue in at least
    ``min_cue_rate`` of the sentences with them: *not* and *nothing*, but not *or*, *would*
    or *either*, which SFU Review annotates a few times, nor *negative*)."""
    inv: Dict[str, Dict[str, Any]] = {}
    for corpus, sents in train.items():
        for doc in sents:
            for neg in get_negations(doc):
                key = cue_key(neg)
                info = inv.setdefault(key, {"count": 0, "corpora": {}, "affixal": neg.is_affixal,
                                            "discontinuous": False, "words": []})
                info["count"] += 1
                info["corpora"][corpus] = info["corpora"].get(corpus, 0) + 1
                info["discontinuous"] = info["discontinuous"] or neg.is_discontinuous
                if neg.is_affixal:
                    for p in neg.cue:
                        word = key_word(doc[p.i].text)
                        if p.is_partial(doc) and word not in info["words"]:
                            info["words"].append(word)
    for info in inv.values():
        info["words"].sort()
        info["text_match"] = True
    word_sents = {key: 0 for key in inv}
    cue_sents = {key: 0 for key in inv}
    for sents in train.values():
        for doc in sents:
            cues = [cue_key(neg).split() for neg in get_negations(doc)]
            for key in held_keys(doc, inv):
                word_sents[key] += 1
                if any(_in_a_row(cue, key.split()) for cue in cues):
                    cue_sents[key] += 1
    for key, info in inv.items():
        info["cue_sentences"], info["word_sentences"] = cue_sents[key], word_sents[key]
        info["text_match"] = info["affixal"] or cue_sents[key] >= min_cue_rate * word_sents[key]
    return dict(sorted(inv.items(), key=lambda kv: (-kv[1]["count"], kv[0])))


def deal_folds(keys_by_count: Sequence[str], k: int, seed: int) -> List[List[str]]:
    """Deal keys (most frequent first) into k folds: each run of k keys goes one to each
    fold, in a random order per run (seeded), so every fold gets one of the k most
    frequent keys, one of the next k, and so on.

    RAISES ValueError: k below 2 or above the number of keys (E983).
    """
    if isinstance(k, bool) or not isinstance(k, int) or not 2 <= k <= len(keys_by_count):
        raise ValueError(Errors.E983.format(n=len(keys_by_count), k=k))
    rng = random.Random(seed)
    folds: List[List[str]] = [[] for _ in range(k)]
    for start in range(0, len(keys_by_count), k):
        targets = list(range(k))
        rng.shuffle(targets)
        for key, fold in zip(keys_by_count[start:start + k], targets):
            folds[fold].append(key)
    return folds


def load_folds(path: Path) -> Dict[str, Any]:
    """A folds file of ``folds``, checked (E984)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ValueError(Errors.E984.format(path=path, reason=err)) from err
    if not isinstance(data, dict) or not {"k", "folds", "inventory"} <= set(data):
        raise ValueError(Errors.E984.format(path=path, reason="no k, folds and inventory"))
    keys = [key for fold in data["folds"] for key in fold]
    if len(data["folds"]) != data["k"] or len(keys) != len(set(keys)) or set(keys) != set(data["inventory"]):
        raise ValueError(Errors.E984.format(path=path, reason="its folds are not k disjoint parts of the inventory"))
    return data


def fold_keys(folds: Dict[str, Any], fold: int, path: Path) -> Dict[str, Dict[str, Any]]:
    """The held-out keys of a fold with their inventory entries (E985 for no such fold)."""
    if isinstance(fold, bool) or not isinstance(fold, int) or not 0 <= fold < folds["k"]:
        raise ValueError(Errors.E985.format(fold=fold, path=path, last=folds["k"] - 1))
    return {key: folds["inventory"][key] for key in folds["folds"][fold]}


# --- filtering -----------------------------------------------------------------------------------

def _in_order(words: Sequence[str], seq: Sequence[str]) -> bool:
    it = iter(words)
    return all(any(w == s for w in it) for s in seq)


def _in_a_row(words: Sequence[str], seq: Sequence[str]) -> bool:
    n = len(seq)
    return any(list(words[i:i + n]) == list(seq) for i in range(len(words) - n + 1))


def held_keys(doc: Doc, held: Dict[str, Dict[str, Any]], annotated_only: bool = False) -> Set[str]:
    """The held-out keys a sentence holds: as a gold cue's key or, unless ``annotated_only``,
    in its words (see the module docstring)."""
    found = {key for key in (cue_key(neg) for neg in get_negations(doc)) if key in held}
    if annotated_only:
        return found
    words = [key_word(t.text) for t in doc]
    present = set(words)
    for key, info in held.items():
        if key in found or not info.get("text_match", True):
            continue
        if info["affixal"]:
            if present & set(info["words"]):
                found.add(key)
            continue
        seq = key.split()
        if not set(seq) <= present:
            continue
        if (_in_order if info["discontinuous"] else _in_a_row)(words, seq):
            found.add(key)
    return found


def _gold_keys(doc: Doc, held: Dict[str, Any]) -> Set[str]:
    return {key for key in (cue_key(neg) for neg in get_negations(doc)) if key in held}


def filter_fold(train: Sentences, dev: Sentences, test: Sentences, held: Dict[str, Dict[str, Any]], out: Path,
                annotated_only: bool = False, substitute: int = 0, max_per_word: Optional[int] = None,
                sub_seed: int = 0, lexicon_path: Path = LEXICON_PATH) -> Dict[str, Any]:
    """Write a fold's files (see the module docstring) and return its summary."""
    summary: Dict[str, Any] = {"held_out": sorted(held), "annotated_only": annotated_only, "corpora": {}}
    kept_train: List[Doc] = []
    kept_dev: List[Doc] = []
    held_test: List[Doc] = []
    for corpus in train:
        keep = [d for d in train[corpus] if not held_keys(d, held, annotated_only)]
        keep_dev = [d for d in dev.get(corpus, []) if not held_keys(d, held, annotated_only)]
        tests = []
        cues: Dict[str, int] = {}
        for doc in test.get(corpus, []):
            keys = [cue_key(neg) for neg in get_negations(doc) if cue_key(neg) in held]
            if keys:
                doc.user_data[CORPUS_KEY] = corpus
                tests.append(doc)
                for key in keys:
                    cues[key] = cues.get(key, 0) + 1
        summary["corpora"][corpus] = {
            "train": len(train[corpus]), "train_kept": len(keep), "dev": len(dev.get(corpus, [])),
            "dev_kept": len(keep_dev), "test_sentences": len(tests), "test_cues": dict(sorted(cues.items()))}
        kept_train.extend(keep)
        kept_dev.extend(keep_dev)
        held_test.extend(tests)
    copies: List[Doc] = []
    if substitute:
        lexicon = load_negation_lexicon(lexicon_path)
        exclude = [key for key, info in held.items() if not info["affixal"]]
        made = substituted_copies(kept_train, lexicon, copies=substitute, seed=sub_seed, exclude=exclude,
                                  max_per_word=max_per_word)
        copies = [c for c in made if not held_keys(c, held, annotated_only)]
        summary["substitution"] = {"copies": len(copies), "per_sentence": substitute, "max_per_word": max_per_word,
                                   "seed": sub_seed, "lexicon": str(lexicon_path)}
    train_bytes = DocBin(store_user_data=True, docs=kept_train + copies).to_bytes()
    atomic_write_bytes(out / "train.spacy", train_bytes)
    _write(out / "dev.spacy", kept_dev)
    _write(out / "test.spacy", held_test)
    conventions = sorted({CORPORA[c][0] for c in train})
    for convention in conventions:
        _write(out / f"words_{convention}.spacy",
               [d for d in kept_train + copies if get_convention(d) == convention])
    atomic_write_bytes(out / "words_all.spacy", train_bytes)
    summary["conventions"] = conventions
    atomic_write_text(out / "filter.json", json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    return summary


def _write(path: Path, docs: Sequence[Doc]) -> None:
    atomic_write_bytes(path, DocBin(store_user_data=True, docs=docs).to_bytes())


@contextmanager
def quick_msgpack() -> Iterator[None]:
    """srsly looks up the installed packages' entry points for its msgpack encoders and
    decoders on every call (most of the time DocBin takes for many small docs); with no
    package providing one, the look-up is skipped for the duration (the same bytes)."""
    import srsly

    registries = [srsly.msgpack_encoders, srsly.msgpack_decoders]
    saved = [r.entry_points for r in registries]
    if not any(entry_points(group="_".join(r.namespace)) for r in registries):
        for r in registries:
            r.entry_points = False
    try:
        yield
    finally:
        for r, value in zip(registries, saved):
            r.entry_points = value


# --- scoring -------------------------------------------------------------------------------------

def _cell(found: int, total: int) -> Dict[str, Any]:
    return {"found": found, "total": total, "recall": found / total if total else None}


def score_docs(gold: Sequence[Doc], system: Sequence[Doc], held: Iterable[str]) -> Dict[str, Any]:
    """The recall of the held-out gold cues of the gold docs in the system docs (parallel,
    same texts): a gold cue is found when a predicted cue of its doc has exactly its
    character ranges. Overall, per key (with the mean over keys, ``macro_recall``) and per
    corpus (``user_data[CORPUS_KEY]``)."""
    held = set(held)
    per_key: Dict[str, List[int]] = {}
    per_corpus: Dict[str, List[int]] = {}
    for g, s in zip(gold, system):
        predicted = {tuple(n.cue_offsets) for n in get_negations(s)}
        corpus = str(g.user_data.get(CORPUS_KEY, get_convention(g)))
        for neg in get_negations(g):
            key = cue_key(neg)
            if key not in held:
                continue
            hit = int(tuple(neg.cue_offsets) in predicted)
            for table, name in ((per_key, key), (per_corpus, corpus)):
                cell = table.setdefault(name, [0, 0])
                cell[0] += hit
                cell[1] += 1
    found = sum(c[0] for c in per_key.values())
    total = sum(c[1] for c in per_key.values())
    keys = {k: _cell(*c) for k, c in sorted(per_key.items())}
    return {**_cell(found, total),
            "macro_recall": statistics.mean(c["recall"] for c in keys.values()) if keys else None,
            "per_key": keys, "per_corpus": {k: _cell(*c) for k, c in sorted(per_corpus.items())}}


def check_parallel(gold: Sequence[Doc], system: Sequence[Doc], path: Path, test: Path) -> None:
    """Refuse system docs that are not the test docs' predictions (E986)."""
    if len(gold) != len(system):
        raise ValueError(Errors.E986.format(path=path, test=test,
                                            reason=f"{len(system)} docs for {len(gold)} test docs"))
    for i, (g, s) in enumerate(zip(gold, system)):
        if g.text != s.text:
            raise ValueError(Errors.E986.format(path=path, test=test,
                                                reason=f"doc {i} reads {s.text[:60]!r}, not {g.text[:60]!r}"))


def predict(model: Path, gold: Sequence[Doc], overrides: Dict[str, Any], batch_size: int = 64) -> List[Doc]:
    """A trained pipeline's predictions on the gold docs' tokens, each in its own convention."""
    import spacy

    from spacy_negation.analysis.evaluation import annotate_gold
    from spacy_negation.pipeline.base import with_decoder_overrides

    if overrides:
        overrides = with_decoder_overrides(spacy.util.load_config(model / "config.cfg")["components"], overrides)
    nlp = spacy.load(model, config=overrides)
    system, _ = annotate_gold(nlp, list(gold), batch_size=batch_size)
    return system


def parse_sets(items: Sequence[str]) -> Dict[str, Any]:
    """SECTION.KEY=VALUE settings (VALUE read as JSON, else as a string)."""
    out: Dict[str, Any] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SystemExit(f"--set expects SECTION.KEY=VALUE, got {item!r}")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def score_fold(folds_path: Path, fold: int, test: Path, output: Path, model: Optional[Path] = None,
               predicted: Optional[Path] = None, sets: Sequence[str] = (), batch_size: int = 64,
               extra: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """Score a fold: a model's predictions on its test file (or predictions read from a
    file), written to ``output``."""
    folds = load_folds(folds_path)
    held = fold_keys(folds, fold, folds_path)
    vocab = blank_nlp("en").vocab
    gold = read_docbin(test, vocab=vocab)
    if predicted is not None:
        system = read_docbin(predicted, vocab=vocab)
        check_parallel(gold, system, predicted, test)
    else:
        assert model is not None
        system = predict(model, gold, parse_sets(sets), batch_size)
    result = {"fold": fold, "k": folds["k"], "folds_seed": folds.get("seed"), "test": str(test),
              "model": str(model) if model is not None else None,
              "predicted": str(predicted) if predicted is not None else None, "set": list(sets),
              **score_docs(gold, system, held), **(extra or {})}
    atomic_write_text(output, json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    return result


# --- report --------------------------------------------------------------------------------------

def _mean_sd(values: Sequence[float]) -> Dict[str, Any]:
    values = [v for v in values if v is not None]
    if not values:
        return {"mean": None, "sd": None, "n": 0}
    return {"mean": statistics.mean(values), "sd": statistics.stdev(values) if len(values) > 1 else 0.0,
            "n": len(values)}


def read_scores(path: Path) -> Dict[int, Dict[int, Dict[str, Any]]]:
    """The score files ``seedS/foldI.json`` under a folder: seed -> fold -> scores (E987)."""
    out: Dict[int, Dict[int, Dict[str, Any]]] = {}
    for file in sorted(Path(path).glob("seed*/fold*.json")):
        seed, fold = file.parent.name[4:], file.stem[4:]
        if seed.isdigit() and fold.isdigit():
            out.setdefault(int(seed), {})[int(fold)] = json.loads(file.read_text(encoding="utf-8"))
    if not out:
        raise ValueError(Errors.E987.format(pattern="seedS/foldI.json", path=path))
    return dict(sorted(out.items()))


def summarize(scores: Dict[int, Dict[int, Dict[str, Any]]], source: str) -> Dict[str, Any]:
    """One lever's recall over folds and seeds (see the module docstring)."""
    pairs = [s["recall"] for by_fold in scores.values() for s in by_fold.values()]
    pooled: Dict[int, Optional[float]] = {}
    macro: Dict[int, Optional[float]] = {}
    corpora: Dict[str, List[float]] = {}
    keys: Dict[str, Dict[str, Any]] = {}
    folds: Dict[int, List[float]] = {}
    for seed, by_fold in scores.items():
        found = sum(s["found"] for s in by_fold.values())
        total = sum(s["total"] for s in by_fold.values())
        pooled[seed] = found / total if total else None
        recalls = [c["recall"] for s in by_fold.values() for c in s["per_key"].values()]
        macro[seed] = statistics.mean(recalls) if recalls else None
        per_corpus: Dict[str, List[int]] = {}
        for fold, s in by_fold.items():
            folds.setdefault(fold, []).append(s["recall"])
            for corpus, c in s["per_corpus"].items():
                cell = per_corpus.setdefault(corpus, [0, 0])
                cell[0] += c["found"]
                cell[1] += c["total"]
            for key, c in s["per_key"].items():
                entry = keys.setdefault(key, {"fold": fold, "total": c["total"], "recalls": []})
                entry["recalls"].append(c["recall"])
        for corpus, (f, t) in per_corpus.items():
            corpora.setdefault(corpus, []).append(f / t if t else None)
    k = {s.get("k") for by_fold in scores.values() for s in by_fold.values()}
    complete = all(len(by_fold) == max(k) for by_fold in scores.values()) if k and None not in k else False
    return {
        **_mean_sd(pairs), "seeds": sorted(scores), "k": max(k) if k and None not in k else None,
        "complete": complete, "source": source,
        "folds_per_seed": {str(seed): sorted(by_fold) for seed, by_fold in scores.items()},
        "pooled": {**_mean_sd(list(pooled.values())), "per_seed": {str(s): v for s, v in pooled.items()}},
        "macro_words": {**_mean_sd(list(macro.values())), "per_seed": {str(s): v for s, v in macro.items()}},
        "per_fold": {str(f): _mean_sd(v) for f, v in sorted(folds.items())},
        "per_corpus": {c: _mean_sd(v) for c, v in sorted(corpora.items())},
        "per_key": {key: {"fold": e["fold"], "test_cues": e["total"], **_mean_sd(e["recalls"])}
                    for key, e in sorted(keys.items(), key=lambda kv: (-kv[1]["total"], kv[0]))},
        "train_seconds": _mean_sd([s["train_seconds"] for by_fold in scores.values() for s in by_fold.values()
                                   if isinstance(s.get("train_seconds"), (int, float))]),
    }


def compare(base: Dict[str, Any], lever: Dict[str, Any]) -> Dict[str, Any]:
    """A lever against the baseline: the difference of the means, and per seed that both
    have, the difference of the pooled recall and of the mean over keys."""
    out: Dict[str, Any] = {"mean": None if lever["mean"] is None or base["mean"] is None
                           else lever["mean"] - base["mean"]}
    for measure in ("pooled", "macro_words"):
        a, b = base[measure]["per_seed"], lever[measure]["per_seed"]
        diffs = {s: b[s] - a[s] for s in sorted(set(a) & set(b), key=int) if a[s] is not None and b[s] is not None}
        out[measure] = {**_mean_sd(list(diffs.values())), "per_seed": diffs}
    return out


def markdown(data: Dict[str, Any]) -> str:
    """The Markdown beside results/vocabulary.json."""
    def pct(cell: Dict[str, Any]) -> str:
        return "–" if cell.get("mean") is None else f"{100 * cell['mean']:.1f} ± {100 * cell['sd']:.1f}"

    rows = [("baseline", data["leave_cues_out_recall"])] + list(data.get("levers", {}).items())
    lines = ["# Leave-cues-out recall", "",
             "Recall of held-out cue words (the inventory of the English training splits dealt into "
             "folds; a model trained without the sentences holding a fold's words, tested on the "
             "test sentences whose gold cues hold them; exact cue match), in percent, mean ± sd. "
             "Written by `scripts/leave_cues_out.py report`.", "",
             "| lever | fold × seed | pooled over folds (per seed) | mean over cue words | seeds | folds | source |",
             "|---|---|---|---|---|---|---|"]
    for name, cell in rows:
        lines.append(f"| {name} | {pct(cell)} | {pct(cell['pooled'])} | {pct(cell['macro_words'])} | "
                     f"{', '.join(map(str, cell['seeds']))} | {cell['k']}{'' if cell['complete'] else ' (incomplete)'} "
                     f"| `{cell['source']}` |")
    base = data["leave_cues_out_recall"]
    lines += ["", "Per key (baseline; mean over seeds; the 30 most frequent in test):", "",
              "| key | fold | test cues | recall |", "|---|---|---|---|"]
    for key, cell in list(base["per_key"].items())[:30]:
        lines.append(f"| {key} | {cell['fold']} | {cell['test_cues']} | {pct(cell)} |")
    return "\n".join(lines) + "\n"


def report(levers: Sequence[Tuple[str, Path]], output: Path, baseline: Optional[str] = None) -> Dict[str, Any]:
    """Write the levers' summaries into ``output`` (other keys of an existing file kept)."""
    summaries = {name: summarize(read_scores(path), str(path)) for name, path in levers}
    base_name = baseline or levers[0][0]
    data: Dict[str, Any] = {}
    if output.is_file():
        data = json.loads(output.read_text(encoding="utf-8"))
    base = summaries[base_name]
    data["leave_cues_out_recall"] = {**base, "lever": base_name}
    data["levers"] = {name: {**s, "difference": compare(base, s)} for name, s in summaries.items()
                      if name != base_name}
    atomic_write_text(output, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    atomic_write_text(output.with_suffix(".md"), markdown(data))
    return data


# --- run: filter, train and score every fold and seed ----------------------------------------------

def words_components(config: Path) -> Dict[str, str]:
    """The cue components of a training config with a ``words_corpus`` and their conventions
    (``all`` for a component without one: its words file holds every kept sentence)."""
    import spacy

    cfg = spacy.util.load_config(config, interpolate=False)
    init = cfg.get("initialize", {}).get("components", {})
    return {name: cfg["components"][name].get("convention") or "all"
            for name, settings in init.items() if isinstance(settings, dict) and "words_corpus" in settings}


def train_command(config: Path, data: Path, out: Path, seed: int, steps: Optional[int],
                  eval_frequency: Optional[int], sets: Sequence[str]) -> List[str]:
    """The ``spacy train`` command of one fold and seed: the fold's files as training and
    dev data and as each cue component's ``words_corpus``."""
    cmd = [sys.executable, "-m", "spacy", "train", str(config), "--output", str(out), "--system.seed", str(seed),
           "--paths.train", str(data / "train.spacy"), "--paths.dev", str(data / "dev.spacy")]
    for name, convention in words_components(config).items():
        cmd += [f"--initialize.components.{name}.words_corpus", str(data / f"words_{convention}.spacy")]
    if steps is not None:
        cmd += ["--training.max_steps", str(steps)]
    if eval_frequency is not None:
        cmd += ["--training.eval_frequency", str(eval_frequency)]
    for item in sets:
        key, _, value = item.partition("=")
        cmd += [f"--{key}", value]
    return cmd


def lexicon_feature_sets(config: Path, splits: Sequence[str], flagged_dropout: float = 0.0,
                         flagged_min_seen: Optional[int] = None) -> Tuple[List[str], List[str]]:
    """The lexicon-feature lever: the training overrides that give every cue component of
    the config ``spacy-negation.CueTagger.v2`` flagging the lexicon's ``splits``, and the
    scoring overrides that turn its word filter off (a word never a cue in training is
    what the lever is to find; compare with the baseline scored the same way), with
    ``flagged_dropout`` if not 0 and ``flagged_min_seen`` if given (the tagger's settings)."""
    train: List[str] = []
    score: List[str] = []
    for name in words_components(config):
        train += [f"components.{name}.model.@architectures=spacy-negation.CueTagger.v2",
                  f"components.{name}.model.lexicon_splits={json.dumps(list(splits))}"]
        if flagged_dropout:
            train.append(f"components.{name}.model.flagged_dropout={flagged_dropout}")
        if flagged_min_seen is not None:
            train.append(f"components.{name}.model.flagged_min_seen={flagged_min_seen}")
        score.append(f"components.{name}.decoder.min_word_precision=null")
    return train, score


def run(args: argparse.Namespace) -> int:
    if args.lexicon_feature:
        train_sets, score_sets = lexicon_feature_sets(args.config, args.lexicon_feature, args.flagged_dropout,
                                                      args.flagged_min_seen)
        args.set = train_sets + list(args.set)
        args.score_set = score_sets + list(args.score_set)
    folds = load_folds(args.folds)
    fold_ids = args.fold if args.fold else list(range(folds["k"]))
    data_dir = args.data_dir or Path("corpus/loco") / args.name
    training_dir = args.training_dir or Path("training/loco") / args.name
    metrics_dir = args.metrics_dir or Path("metrics/vocabulary") / args.name
    sentences: Optional[Tuple[Sentences, Sentences, Sentences]] = None
    for fold in fold_ids:
        held = fold_keys(folds, fold, args.folds)
        data = data_dir / f"fold{fold}"
        if not (data / "filter.json").is_file():
            print(f"fold {fold}: filter into {data}", file=sys.stderr)
            if not args.dry_run:
                if sentences is None:
                    sentences = tuple(read_sentences(args.corpus_dir, split, args.corpora)  # type: ignore[assignment]
                                      for split in ("train", "dev", "test"))
                assert sentences is not None
                filter_fold(*sentences, held, data, annotated_only=args.annotated_only, substitute=args.substitute,
                            max_per_word=args.max_per_word, sub_seed=args.sub_seed, lexicon_path=args.lexicon)
        for seed in args.seeds:
            out = training_dir / f"seed{seed}" / f"fold{fold}"
            scores = metrics_dir / f"seed{seed}" / f"fold{fold}.json"
            seconds = None
            # spaCy writes model-last at every evaluation: only this file says a training ended
            finished = out / "training-finished.json"
            if not finished.is_file():
                cmd = train_command(args.config, data, out, seed, args.steps, args.eval_frequency, args.set)
                print(" ".join(cmd), file=sys.stderr)
                if not args.dry_run:
                    start = time.perf_counter()
                    code = subprocess.call(cmd)
                    if code:
                        return code
                    seconds = time.perf_counter() - start
                    atomic_write_text(finished, json.dumps({"seconds": seconds}) + "\n")
            if not scores.is_file():
                print(f"fold {fold} seed {seed}: score into {scores}", file=sys.stderr)
                if not args.dry_run:
                    score_fold(args.folds, fold, data / "test.spacy", scores, model=out / "model-best",
                               sets=args.score_set, extra={"train_seconds": seconds, "seed": seed})
    return 0


# --- command line --------------------------------------------------------------------------------

def add_filter_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--corpus-dir", type=Path, default=Path("corpus"),
                   help="the converted corpora (corpus/train.spacy, corpus/bioscope/, corpus/bioscope_clinical/, "
                        "corpus/sfu/)")
    p.add_argument("--corpora", nargs="+", default=list(CORPORA), choices=list(CORPORA))
    p.add_argument("--annotated-only", action="store_true",
                   help="drop only the sentences with a held-out gold cue (keep those with the words elsewhere)")
    p.add_argument("--substitute", type=int, default=0, metavar="COPIES",
                   help="a lever: add COPIES substituted copies of each kept training sentence with a lexical cue")
    p.add_argument("--max-per-word", type=int, default=None, help="with --substitute: at most N copies per word")
    p.add_argument("--sub-seed", type=int, default=0, help="with --substitute: the seed of its choices")
    p.add_argument("--lexicon", type=Path, default=LEXICON_PATH, help="with --substitute: the negation lexicon")


def main(argv: Optional[Sequence[str]] = None) -> int:
    with quick_msgpack():
        return _main(argv)


def _main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("folds", help="deal the cue-word inventory of the training splits into k folds")
    p.add_argument("--corpus-dir", type=Path, default=Path("corpus"))
    p.add_argument("--corpora", nargs="+", default=list(CORPORA), choices=list(CORPORA))
    p.add_argument("--k", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--min-cue-rate", type=float, default=0.3,
                   help="hold out the sentences with a key's words (not as a cue) only for keys that are a cue "
                        "in at least this share of the training sentences with their words")
    p.add_argument("--output", type=Path, default=DEFAULT_FOLDS)
    p = sub.add_parser("filter", help="write a fold's training, dev and test files")
    p.add_argument("--folds", type=Path, default=DEFAULT_FOLDS)
    p.add_argument("--fold", type=int, required=True)
    p.add_argument("--out", type=Path, required=True)
    add_filter_options(p)
    p = sub.add_parser("score", help="recall of a fold's held-out cue words")
    p.add_argument("--folds", type=Path, default=DEFAULT_FOLDS)
    p.add_argument("--fold", type=int, required=True)
    p.add_argument("--test", type=Path, required=True, help="the fold's test.spacy")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--model", type=Path, help="a trained pipeline, run on the test file")
    source.add_argument("--predicted", type=Path, help="its predictions on the test file (.spacy, same docs)")
    p.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                   help="with --model: a setting of its config when loading it, e.g. "
                        "components.negation_cue.decoder.min_word_precision=null")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--output", type=Path, required=True)
    p = sub.add_parser("report", help="mean ± sd over folds and seeds per lever into results/vocabulary.json")
    p.add_argument("--lever", action="append", required=True, metavar="NAME=DIR",
                   help="a lever's score files (DIR/seedS/foldI.json); the first is the baseline")
    p.add_argument("--baseline", default=None, help="the lever that is the baseline (default: the first)")
    p.add_argument("--output", type=Path, default=DEFAULT_RESULTS)
    p = sub.add_parser("run", help="filter, train and score every fold and seed (finished steps are kept)")
    p.add_argument("--name", required=True, help="the lever's name: corpus/loco/NAME, training/loco/NAME, "
                                                 "metrics/vocabulary/NAME")
    p.add_argument("--folds", type=Path, default=DEFAULT_FOLDS)
    p.add_argument("--fold", type=int, nargs="+", default=None, help="these folds only (default: all)")
    p.add_argument("--config", type=Path, required=True)
    p.add_argument("--seeds", type=int, nargs="+", default=[0])
    p.add_argument("--steps", type=int, default=None, help="training.max_steps")
    p.add_argument("--eval-frequency", type=int, default=None, help="training.eval_frequency")
    p.add_argument("--set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                   help="another training override (spacy train --SECTION.KEY VALUE)")
    p.add_argument("--score-set", action="append", default=[], metavar="SECTION.KEY=VALUE",
                   help="a setting of the trained pipeline when scoring it (see score --set)")
    p.add_argument("--lexicon-feature", nargs="+", default=None, metavar="SPLIT",
                   choices=["train", "heldout"],
                   help="a lever: every cue component a CueTagger.v2 flagging these splits of the lexicon, "
                        "scored without the word filter")
    p.add_argument("--flagged-dropout", type=float, default=0.0, metavar="RATE",
                   help="with --lexicon-feature: CueTagger.v2's flagged_dropout")
    p.add_argument("--flagged-min-seen", type=int, default=None, metavar="N",
                   help="with --lexicon-feature: CueTagger.v2's flagged_min_seen (default: its own)")
    p.add_argument("--data-dir", type=Path, default=None)
    p.add_argument("--training-dir", type=Path, default=None)
    p.add_argument("--metrics-dir", type=Path, default=None)
    p.add_argument("--dry-run", action="store_true", help="print the steps, run none")
    add_filter_options(p)
    args = parser.parse_args(argv)
    if args.command == "folds":
        train = read_sentences(args.corpus_dir, "train", args.corpora)
        inventory = build_inventory(train, args.min_cue_rate)
        folds = deal_folds(list(inventory), args.k, args.seed)
        data = {"k": args.k, "seed": args.seed, "min_cue_rate": args.min_cue_rate,
                "corpora": {c: str(args.corpus_dir / CORPORA[c][1]["train"]) for c in args.corpora},
                "fold_cues": [sum(inventory[key]["count"] for key in fold) for fold in folds],
                "folds": folds, "inventory": inventory}
        atomic_write_text(args.output, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        print(f"wrote {args.output}: {len(inventory)} cue keys in {args.k} folds "
              f"({', '.join(f'{len(f)} keys, {n} cues' for f, n in zip(folds, data['fold_cues']))})")
    elif args.command == "filter":
        folds = load_folds(args.folds)
        held = fold_keys(folds, args.fold, args.folds)
        train, dev, test = (read_sentences(args.corpus_dir, split, args.corpora) for split in ("train", "dev", "test"))
        summary = filter_fold(train, dev, test, held, args.out, annotated_only=args.annotated_only,
                              substitute=args.substitute, max_per_word=args.max_per_word, sub_seed=args.sub_seed,
                              lexicon_path=args.lexicon)
        for corpus, c in summary["corpora"].items():
            print(f"{corpus}: train {c['train_kept']}/{c['train']} sentences kept, dev {c['dev_kept']}/{c['dev']}, "
                  f"test {c['test_sentences']} sentences with {sum(c['test_cues'].values())} held-out cues")
        if "substitution" in summary:
            print(f"{summary['substitution']['copies']} substituted copies")
    elif args.command == "score":
        result = score_fold(args.folds, args.fold, args.test, args.output, model=args.model, predicted=args.predicted,
                            sets=args.set, batch_size=args.batch_size)
        print(f"fold {args.fold}: recall {result['found']}/{result['total']} of the held-out cues")
    elif args.command == "report":
        levers = []
        for item in args.lever:
            name, sep, path = item.partition("=")
            if not sep or not name:
                parser.error(f"--lever expects NAME=DIR, got {item!r}")
            levers.append((name, Path(path)))
        if args.baseline is not None and args.baseline not in dict(levers):
            parser.error(f"--baseline {args.baseline!r} is none of the levers")
        data = report(levers, args.output, args.baseline)
        base = data["leave_cues_out_recall"]
        print(f"wrote {args.output}: leave-cues-out recall {base['mean']} ± {base['sd']} (seeds {base['seeds']})")
    else:
        return run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
