"""Is this clinical concept negated? The rule tools and spacy-negation on data/clinical.

The set (data/clinical/clinical.jsonl, its README for the annotation guidelines) holds
invented clinical-style sentences with concept mentions labelled negated or not; the task
is the concept-level one of NegEx (Chapman et al. 2001). Every system gets the same tokens
(spaCy's English tokenizer, ``spacy.blank("en")``), one doc per sentence, each concept as one
entity, and answers per entity: negspacy 1.1.0 (``en`` and ``en_clinical`` termsets,
``ent._.negex``) and medspaCy 1.3.1 ConText (``ent._.is_negated``; Harkema et al. 2009), each
in its own virtualenv through bench/rule_runner.py as in bench/bench_vs_rules.py, and
spacy-negation models through ``nlp.add_pipe("negation", config={"model": ...})`` with
``ent._.negated`` (the entity is negated if any of its tokens is in a scope; the row
"NAME (all tokens)" asks that every token be). Scores: precision, recall and F1 of
"negated" over concepts, a 95% percentile bootstrap interval over sentences (1,000 samples,
seed 0), the paired bootstrap interval of each model's F1 minus the best rule tool's on the
same split, and per pattern of the set the false positives and false negatives of each
system. Nothing is tuned on the test split; it is for reporting only.

python bench/bench_clinical.py --split test --venv-dir /tmp/bvr \
    --model cdsco=training/cdsco/model-best --model bioscope=training/bioscope/model-best

Writes OUT/clinical_invented.json ({system: {"p", "r", "f", "ci_low", "ci_high", "tp", "fp", "fn",
"words_per_second", "errors_by_pattern": {pattern: {"concepts", "negated", "fp", "fn"}}}},
fractions; a model's entry also has "vs_best_rule") and OUT/clinical_invented.md; on --split dev
the files are OUT/clinical_invented_dev.{json,md}.

Is this clinical concept uncertain? The counterpart of the task for speculation, on the
same concepts, when the set labels them: every concept of the split with a boolean
"uncertain" beside "negated" (a split where some concepts have it and others not is an
error). A model answers ``ent._.uncertain`` (row "NAME (all tokens)": every token of the
concept ``token._.uncertain``) from the same run as the negation task; a model that writes
``doc._.speculations`` on none of the sentences does not resolve speculation and is
reported "absent" (a note, not zeros). medspaCy ConText answers ``ent._.is_uncertain``
(the POSSIBLE_EXISTENCE modifiers of its default English rules; bench/uncertain_runner.py
through bench_vs_rules.run_uncertain_tool, a pass of its own). Scores as above; each
system's entry gets "uncertain" ({"p", "r", "f", "ci_low", "ci_high", "tp", "fp", "fn",
"words_per_second"}, a model's also "vs_context": the paired bootstrap interval of its F1
minus ConText's; or {"absent": note}). data/clinical labels negation only (its
guidelines count uncertain mentions as "not negated"), so on it the uncertain task is
reported absent: the set gives no gold for it.
"""
import argparse
import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, List, Optional, Sequence, Tuple

import spacy

from spacy_negation.metrics.bootstrap import paired_bootstrap
from spacy_negation.metrics.core import markdown_table
from spacy_negation.util import atomic_write_text

HERE = Path(__file__).resolve().parent
DEFAULT_DATA = HERE.parent / "data" / "clinical" / "clinical.jsonl"
RULE_NAMES = {"negspacy_en": "negspacy 1.1.0, en", "negspacy_en_clinical": "negspacy 1.1.0, en_clinical",
              "medspacy_context": "medspaCy 1.3.1 ConText"}
#: The "absent" notes of the uncertain task.
ABSENT_NO_GOLD = ("the set labels no concept uncertain or not (no \"uncertain\" beside \"negated\"): no gold for "
                  "\"is this concept uncertain?\"")
ABSENT_MODEL = "the model does not resolve speculation (it wrote doc._.speculations on none of the sentences)"


def vs_rules() -> ModuleType:
    """bench/bench_vs_rules.py, whose rule-tool machinery (virtualenvs, runner) this reuses."""
    spec = importlib.util.spec_from_file_location("bench_vs_rules", HERE / "bench_vs_rules.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {HERE / 'bench_vs_rules.py'}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the task -------------------------------------------------------------------------------
def read_set(path: Path) -> List[Dict[str, Any]]:
    """The sentence records of the set (one JSON object a line)."""
    records = []
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise ValueError(f"{path}:{lineno}: not JSON: {err}") from err
    return records


def task_sentences(records: Sequence[Dict[str, Any]], split: str) -> List[Dict[str, Any]]:
    """The task's sentences of one split: tokens, concept token spans and gold labels.

    records (Sequence[Dict[str, Any]]): the set's records.
    split (str): 'dev' or 'test'.
    RETURNS (List[Dict[str, Any]]): per sentence "id", "pattern", "words", "spaces",
        "targets" ([start, end) token pairs, one per concept), "gold" (negated or not) and
        "uncertain_gold" (uncertain or not per concept; None when the set labels no
        concept of the split so, :func:`labels_uncertainty`).
    """
    nlp = spacy.blank("en")
    out = []
    chosen = [rec for rec in records if rec["split"] == split]
    labelled = any("uncertain" in con for rec in chosen for con in rec["concepts"])
    for rec in chosen:
        if labelled and not all("uncertain" in con for con in rec["concepts"]):
            raise ValueError(f"{rec['id']}: some concepts of split {split!r} are labelled \"uncertain\" and others "
                             "are not: label all of them or none")
        doc = nlp.make_doc(rec["text"])
        targets = []
        for con in rec["concepts"]:
            span = doc.char_span(con["start"], con["end"])
            if span is None:
                raise ValueError(f"{rec['id']}: concept {con['text']!r} at {con['start']}-{con['end']} "
                                 "does not align with spaCy's English tokens")
            targets.append([span.start, span.end])
        out.append({"id": rec["id"], "pattern": rec["pattern"], "words": [t.text for t in doc],
                    "spaces": [bool(t.whitespace_) for t in doc], "targets": targets,
                    "gold": [bool(con["negated"]) for con in rec["concepts"]],
                    "uncertain_gold": [bool(con["uncertain"]) for con in rec["concepts"]] if labelled else None})
    if not out:
        raise ValueError(f"no sentence of split {split!r} in the set")
    return out


def labels_uncertainty(sentences: Sequence[Dict[str, Any]]) -> bool:
    """Whether the split's concepts are labelled uncertain or not (the uncertain task's gold)."""
    return all(rec.get("uncertain_gold") is not None for rec in sentences)


def pattern_errors(sentences: Sequence[Dict[str, Any]], pred: Sequence[Sequence[bool]]) -> Dict[str, Dict[str, int]]:
    """Per pattern of the set: its concepts, how many are negated, and a system's FP and FN."""
    out: Dict[str, Dict[str, int]] = {}
    for rec, answers in zip(sentences, pred):
        c = out.setdefault(rec["pattern"], {"concepts": 0, "negated": 0, "fp": 0, "fn": 0})
        for gold, guess in zip(rec["gold"], answers):
            c["concepts"] += 1
            c["negated"] += gold
            c["fp"] += guess and not gold
            c["fn"] += gold and not guess
    return dict(sorted(out.items()))


# --- systems --------------------------------------------------------------------------------
def run_model(bvr: ModuleType, model: str, sentences: Sequence[Dict[str, Any]],
              cue_patterns: Optional[str] = None) -> Tuple[List[List[bool]], List[List[bool]], float, int]:
    """spacy-negation through nlp.add_pipe("negation", config={"model": model}) (bench_vs_rules' runner).

    RETURNS: per sentence and concept ``ent._.negated`` (any token in a scope), the same with
    every token of the concept in a scope, the component's seconds and the words processed.
    """
    answers = run_model_answers(bvr, model, sentences, cue_patterns)
    return answers["negated"], answers["negated_all"], answers["seconds"], answers["words"]


def run_model_answers(bvr: ModuleType, model: str, sentences: Sequence[Dict[str, Any]],
                      cue_patterns: Optional[str] = None) -> Dict[str, Any]:
    """Both tasks from one run of spacy-negation (bench_vs_rules' runner): per sentence and
    concept "negated" (``ent._.negated``), "negated_all" (every token ``token._.negated``),
    "uncertain" (``ent._.uncertain``) and "uncertain_all" (every token
    ``token._.uncertain``), the last two None when the model resolves no speculation (it
    wrote ``doc._.speculations`` on none of the docs); "seconds" (the component's) and
    "words" (processed)."""
    docs, seconds = bvr.negation_docs(model, sentences, cue_patterns)
    resolves = bvr.annotates_speculation(docs)
    return {"negated": [[bool(ent._.negated) for ent in doc.ents] for doc in docs],
            "negated_all": [[all(t._.negated for t in ent) for ent in doc.ents] for doc in docs],
            "uncertain": [[bool(ent._.uncertain) for ent in doc.ents] for doc in docs] if resolves else None,
            "uncertain_all": [[all(t._.uncertain for t in ent) for ent in doc.ents] for doc in docs] if resolves else None,
            "seconds": seconds, "words": sum(len(d) for d in docs)}


# --- report ---------------------------------------------------------------------------------
def render_markdown(results: Dict[str, Dict[str, Any]], meta: Dict[str, Any]) -> str:
    lines = ["# Is this clinical concept negated? Rule tools and spacy-negation on data/clinical (the project's own invented sentences: development only; real notes: results/clinical.md)", "",
             "Written by `bench/bench_clinical.py` (the task: its docstring; the set and its annotation "
             "guidelines: `data/clinical/README.md`). Precision, recall and F1 of \"negated\" over "
             "concepts in percent, F1's 95% bootstrap interval over sentences.", ""]
    lines.extend(f"- **{key}**: {value if isinstance(value, (str, int)) else json.dumps(value)}"
                 for key, value in meta.items())
    lines.append("")
    lines += markdown_table(["system", "P", "R", "F1", "95% CI", "TP", "FP", "FN"],
                            [[RULE_NAMES.get(name, name), *(f"{100 * e[k]:.1f}" for k in "prf"),
                              f"{100 * e['ci_low']:.1f}-{100 * e['ci_high']:.1f}", str(e["tp"]), str(e["fp"]), str(e["fn"])]
                             for name, e in results.items()])
    if not meta.get("models"):
        lines += ["", "No spacy-negation model was given (`--model NAME=PATH`): this run has no model rows."]
    compared = {name: e["vs_best_rule"] for name, e in results.items() if "vs_best_rule" in e}
    if compared:
        lines += ["", "Each model minus the best rule tool, F1 points (paired bootstrap 95% CI; \"beats\" "
                  "only where the interval excludes 0):", ""]
        for name, d in compared.items():
            verdict = "beats" if d["ci_low"] > 0 else ("loses to" if d["ci_high"] < 0 else "no difference shown")
            lines.append(f"- {name} vs {RULE_NAMES.get(d['tool'], d['tool'])}: {100 * d['diff']:+.1f} "
                         f"({100 * d['ci_low']:+.1f} to {100 * d['ci_high']:+.1f}): {verdict}")
    lines += render_uncertain(results, meta)
    names = list(results)
    patterns = next(iter(results.values()))["errors_by_pattern"] if results else {}
    lines += ["", "## Errors per pattern (false positives / false negatives)", ""]
    lines += markdown_table(["pattern", "concepts", "negated", *(RULE_NAMES.get(n, n) for n in names)],
                            [[pattern, str(c["concepts"]), str(c["negated"])]
                             + [f"{results[n]['errors_by_pattern'][pattern]['fp']} / "
                                f"{results[n]['errors_by_pattern'][pattern]['fn']}" for n in names]
                             for pattern, c in patterns.items()])
    lines.append("")
    return "\n".join(lines)


def render_uncertain(results: Dict[str, Dict[str, Any]], meta: Dict[str, Any]) -> List[str]:
    """The markdown of "is this clinical concept uncertain?": the note when the set gives no
    gold, else each system's row (or "absent") and each model minus ConText."""
    lines = ["", "## Is this clinical concept uncertain? (speculation)", ""]
    if meta.get("uncertain_absent"):
        return lines + [f"Absent: {meta['uncertain_absent']}."]
    rows, notes, compared = [], [], []
    for name, e in results.items():
        u = e.get("uncertain")
        if u is None:
            continue
        if "absent" in u:
            rows.append([RULE_NAMES.get(name, name), "absent", "absent", "absent", "-", "-", "-", "-"])
            notes.append(f"- {name}: absent: {u['absent']}")
            continue
        rows.append([RULE_NAMES.get(name, name), *(f"{100 * u[k]:.1f}" for k in "prf"),
                     f"{100 * u['ci_low']:.1f}-{100 * u['ci_high']:.1f}", str(u["tp"]), str(u["fp"]), str(u["fn"])])
        if "vs_context" in u:
            compared.append((name, u["vs_context"]))
    if not rows:
        return lines + ["No system answered (no model given, ConText not run)."]
    lines += markdown_table(["system", "P", "R", "F1", "95% CI", "TP", "FP", "FN"], rows)
    if notes:
        lines += ["", *notes]
    if compared:
        lines += ["", "Each model minus medspaCy ConText, F1 points (paired bootstrap 95% CI; \"beats\" only where "
                  "the interval excludes 0):", ""]
        for name, d in compared:
            verdict = "beats" if d["ci_low"] > 0 else ("loses to" if d["ci_high"] < 0 else "no difference shown")
            lines.append(f"- {name}: {100 * d['diff']:+.1f} ({100 * d['ci_low']:+.1f} to {100 * d['ci_high']:+.1f}): "
                         f"{verdict}")
    return lines


def main(argv: Optional[Sequence[str]] = None) -> int:
    bvr = vs_rules()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=("dev", "test"), required=True)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the set (JSONL)")
    parser.add_argument("--model", action="append", default=[], help="NAME=PATH_OR_PACKAGE of a negation model; repeatable")
    parser.add_argument("--cue-patterns", action="append", default=[],
                        help="NAME=LIST: also run model NAME with this cue list (e.g. en_clinical), as row 'NAME + LIST'")
    parser.add_argument("--rules", default=",".join(bvr.RULE_TOOLS), help="comma-separated rule tools, or 'none'")
    parser.add_argument("--venv-dir", type=Path, default=Path.home() / ".cache" / "spacy-negation-bench")
    parser.add_argument("--out-dir", type=Path, default=Path("results"))
    args = parser.parse_args(argv)
    models = {}
    for spec in args.model:
        name, _, ref = spec.partition("=")
        models[name] = ref or name
    rules = [] if args.rules == "none" else args.rules.split(",")
    for tool in rules:
        if tool not in bvr.RULE_TOOLS:
            raise SystemExit(f"unknown rule tool {tool!r}; known: {', '.join(bvr.RULE_TOOLS)}")
    sentences = task_sentences(read_set(args.data), args.split)
    gold = [r["gold"] for r in sentences]
    results: Dict[str, Dict[str, Any]] = {}
    rows: Dict[str, List[Tuple[int, int, int]]] = {}
    versions: Dict[str, Any] = {}

    def add(name: str, pred: List[List[bool]], words: int, seconds: float) -> None:
        rows[name] = bvr.counts(gold, pred)
        results[name] = {**bvr.entry(rows[name], words, seconds), "errors_by_pattern": pattern_errors(sentences, pred)}

    has_uncertain = labels_uncertainty(sentences)
    uncertain_gold = [r["uncertain_gold"] for r in sentences] if has_uncertain else []
    uncertain_rows: Dict[str, List[Tuple[int, int, int]]] = {}

    def add_uncertain(name: str, pred: Optional[List[List[bool]]], words: int, seconds: float) -> None:
        if pred is None:
            results[name]["uncertain"] = {"absent": ABSENT_MODEL}
            return
        uncertain_rows[name] = bvr.counts(uncertain_gold, pred)
        results[name]["uncertain"] = bvr.entry(uncertain_rows[name], words, seconds)
        if "medspacy_context" in uncertain_rows and name != "medspacy_context":
            d = paired_bootstrap(uncertain_rows[name], uncertain_rows["medspacy_context"])
            results[name]["uncertain"]["vs_context"] = {"diff": d.value, "ci_low": d.low, "ci_high": d.high}

    for tool in rules:
        pred, seconds, words, versions[tool] = bvr.run_rule_tool(tool, sentences, args.venv_dir)
        add(tool, pred, words, seconds)
        if has_uncertain and tool in bvr.UNCERTAIN_TOOLS:
            upred, useconds, uwords, _ = bvr.run_uncertain_tool(tool, sentences, args.venv_dir, targets="targets")
            add_uncertain(tool, upred, uwords, useconds)
    best = max(rules, key=lambda t: results[t]["f"]) if rules else None
    runs = [(name, ref, None) for name, ref in models.items()]
    for spec in args.cue_patterns:
        name, _, patterns = spec.partition("=")
        if name not in models or not patterns:
            raise SystemExit(f"--cue-patterns takes NAME=LIST with NAME a --model, got {spec!r}")
        runs.append((f"{name} + {patterns}", models[name], patterns))
    for name, ref, patterns in runs:
        answers = run_model_answers(bvr, ref, sentences, patterns)
        seconds, words = answers["seconds"], answers["words"]
        add(name, answers["negated"], words, seconds)
        add(f"{name} (all tokens)", answers["negated_all"], words, seconds)
        if has_uncertain:
            add_uncertain(name, answers["uncertain"], words, seconds)
            add_uncertain(f"{name} (all tokens)", answers["uncertain_all"], words, seconds)
        for key in (name, f"{name} (all tokens)"):
            if best:
                d = paired_bootstrap(rows[key], rows[best])
                results[key]["vs_best_rule"] = {"tool": best, "diff": d.value, "ci_low": d.low, "ci_high": d.high}
    n_concepts = sum(len(g) for g in gold)
    meta = {"split": args.split, "sentences": len(sentences), "concepts": n_concepts,
            "negated": sum(sum(g) for g in gold), "rule_tool_versions": versions, "models": models,
            "command": "python bench/bench_clinical.py " + " ".join(argv if argv is not None else sys.argv[1:]),
            "machine": f"{os.cpu_count()} CPU cores"}
    if has_uncertain:
        meta["uncertain"] = sum(sum(g) for g in uncertain_gold)
    else:
        meta["uncertain_absent"] = ABSENT_NO_GOLD
    stem = "clinical_invented" if args.split == "test" else "clinical_invented_dev"
    args.out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(args.out_dir / f"{stem}.json", json.dumps(results, indent=2) + "\n")
    atomic_write_text(args.out_dir / f"{stem}.md", render_markdown(results, meta))
    print(render_markdown(results, meta))
    print(f"{args.split}: {len(sentences)} sentences, {n_concepts} concepts", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
