"""Is this word negated? spacy-negation against the rule tools negspacy and medspaCy ConText.

The task: in each English test split, the targets are the nouns (gold PTB tag NN*) on
CD-SCO and every alphabetic token that is not on spaCy's English stop list on BioScope
(abstracts and clinical radiology reports) and SFU Review; cue tokens are not targets. A target is negated in the gold when it lies in a
gold scope of that corpus. Every system gets the gold tokens and sentence boundaries (one
doc per sentence) with each target as an entity and answers, per entity, whether it is
negated (negspacy: ``ent._.negex``; ConText: ``ent._.is_negated``; spacy-negation:
``ent._.negated``). Scores: precision, recall and F1 of "negated", a 95% percentile
bootstrap interval over sentences (1,000 samples, seed 0), and the paired bootstrap
interval of the recommended model's F1 minus each rule tool's. Speed: words per second of
the negation component alone (the docs are built before the clock starts), after one
untimed warm-up pass over the same sentences, the fastest of ``--repeat`` timed passes (3
by default, as ``timeit`` advises and ``bench_speed.py`` does: single passes on a shared
2-core machine spread by a third); models and rule tools alike. Each entry records its
``timed_runs`` (entries without one come from single-pass runs).

negspacy 1.1.0 and medspaCy 1.3.1 cannot share one environment (medspaCy needs spaCy <
3.8), so each gets its own virtualenv under --venv-dir, built on first use from the package
registry; ``bench/rule_runner.py`` runs inside it.

python bench/bench_vs_rules.py --split cdsco=corpus/test.spacy --split bioscope=corpus/bioscope/test.spacy \
    --split sfu=corpus/sfu/test.spacy --model en_negation_cdsco --model en_negation_bioscope \
    --model en_negation_sfu --recommend cdsco=en_negation_cdsco --recommend bioscope=en_negation_bioscope \
    --recommend sfu=en_negation_sfu --out-dir results

(--general and --fast name the general and the fast model among the --model ones: their
entries are repeated under "general" and "fast" with paired intervals against each rule tool.)
Writes OUT/vs_rules.json ({split: {system: {"p", "r", "f", "ci_low", "ci_high",
"words_per_second", ...}}}, fractions) and OUT/vs_rules.md.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import spacy
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.tokens import Doc, Span

from spacy_negation import register_extensions
from spacy_negation.corpora.docbin import read_docbin
from spacy_negation.metrics.bootstrap import bootstrap_interval, paired_bootstrap
from spacy_negation.metrics.core import markdown_table, prf
from spacy_negation.util import atomic_write_text

HERE = Path(__file__).resolve().parent
#: Rule tools -> (virtualenv name, its requirements).
RULE_TOOLS: Dict[str, Tuple[str, Tuple[str, ...]]] = {
    "negspacy_en": ("negspacy", ("negspacy==1.1.0", "spacy>=3.8,<3.9")),
    "negspacy_en_clinical": ("negspacy", ("negspacy==1.1.0", "spacy>=3.8,<3.9")),
    "medspacy_context": ("medspacy", ("medspacy==1.3.1",)),
}
SPLIT_NAMES = {"cdsco": "CD-SCO", "bioscope": "BioScope abstracts", "sfu": "SFU Review",
               "bioscope_clinical": "BioScope clinical"}


# --- the task -------------------------------------------------------------------------------
def is_target(token: Any, split: str) -> bool:
    """Whether a gold token is a target of the task on this split (cue tokens aside)."""
    if split == "cdsco":
        return token.tag_.startswith("NN")
    return token.is_alpha and token.lower_ not in STOP_WORDS


def task_sentences(docs: Sequence[Doc], split: str) -> List[Dict[str, Any]]:
    """The task's sentences: words, spaces, target indices and their gold labels.

    docs (Sequence[Doc]): gold docs with sentence boundaries and negations.
    split (str): 'cdsco' (targets: nouns) or another split (targets: content words).
    RETURNS (List[Dict[str, Any]]): one record per sentence.
    """
    out = []
    for doc in docs:
        cue_tokens = {p.i for neg in doc._.negations for p in neg.cue}
        for sent in doc.sents:
            targets = [t.i - sent.start for t in sent if t.i not in cue_tokens and is_target(t, split)]
            out.append({"words": [t.text for t in sent], "spaces": [bool(t.whitespace_) for t in sent],
                        "targets": targets, "gold": [bool(sent[i]._.negated) for i in targets]})
    return out


def counts(gold: Sequence[Sequence[bool]], pred: Sequence[Sequence[bool]]) -> List[Tuple[int, int, int]]:
    """Per sentence (TP, FP, FN) of the class 'negated'."""
    rows = []
    for g, p in zip(gold, pred):
        if len(g) != len(p):
            raise ValueError(f"a sentence has {len(g)} targets but {len(p)} answers")
        rows.append((sum(a and b for a, b in zip(g, p)), sum(b and not a for a, b in zip(g, p)),
                     sum(a and not b for a, b in zip(g, p))))
    return rows


def entry(rows: Sequence[Tuple[int, int, int]], words: int, seconds: float) -> Dict[str, Any]:
    """The JSON entry of one system on one split."""
    tp, fp, fn = (sum(r[k] for r in rows) for k in range(3))
    ci = bootstrap_interval(rows)
    return {**prf(tp, fp, fn), "ci_low": ci.low, "ci_high": ci.high,
            "words_per_second": words / seconds if seconds else None, "tp": tp, "fp": fp, "fn": fn}


# --- systems --------------------------------------------------------------------------------
def negation_docs(model: str, sentences: Sequence[Dict[str, Any]],
                  cue_patterns: Optional[str] = None, repeat: int = 1) -> Tuple[List[Doc], float]:
    """The sentences as docs with their targets as entities (a target is a token index or a
    [start, end) pair of token indices), run through spacy-negation with
    nlp.add_pipe("negation", config={"model": model}) (and the cue list ``cue_patterns``,
    a shipped list's name or a file, when given); and the component's seconds (the fastest of
    ``repeat`` timed passes; the docs of the first)."""
    register_extensions()
    nlp = spacy.blank("en")
    config: Dict[str, Any] = {"model": model}
    if cue_patterns:
        config["cue_patterns"] = cue_patterns
    nlp.add_pipe("negation", config=config)

    def make_docs() -> List[Doc]:
        docs = []
        for rec in sentences:
            n = len(rec["words"])
            doc = Doc(nlp.vocab, words=rec["words"], spaces=rec["spaces"], sent_starts=[True] + [False] * (n - 1))
            bounds = [(t, t + 1) if isinstance(t, int) else tuple(t) for t in rec["targets"]]
            doc.ents = [Span(doc, a, b, label="TARGET") for a, b in bounds]
            docs.append(doc)
        return docs

    # an untimed warm-up pass: the first call of each input shape pays for allocations and
    # kernel selection, which a long-running application pays once
    list(nlp.pipe(make_docs()))
    first: List[Doc] = []
    best = float("inf")
    for i in range(repeat):
        docs = make_docs()
        start = time.perf_counter()
        docs = list(nlp.pipe(docs))
        best = min(best, time.perf_counter() - start)
        first = first or docs
    return first, best


def run_model(model: str, sentences: Sequence[Dict[str, Any]], repeat: int = 1) -> Tuple[List[List[bool]], float, int]:
    """spacy-negation through nlp.add_pipe("negation", config={"model": model})."""
    docs, seconds = negation_docs(model, sentences, repeat=repeat)
    return [[bool(ent._.negated) for ent in doc.ents] for doc in docs], seconds, sum(len(d) for d in docs)


def ensure_venv(venv_dir: Path, name: str, requirements: Sequence[str]) -> Path:
    """The Python of a virtualenv with the requirements, built once (a stamp file marks it)."""
    venv = venv_dir / name
    python = venv / "bin" / "python"
    stamp = venv / ".bench-requirements"
    wanted = "\n".join(requirements)
    if not (stamp.exists() and stamp.read_text() == wanted):
        print(f"building {venv} ({', '.join(requirements)})", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", *requirements], check=True)
        stamp.write_text(wanted)
    return python


def run_rule_tool(tool: str, sentences: Sequence[Dict[str, Any]], venv_dir: Path,
                  repeat: int = 1) -> Tuple[List[List[bool]], float, int, Dict[str, str]]:
    """A rule tool in its own virtualenv (see rule_runner.py); its seconds are the fastest
    of ``repeat`` timed passes."""
    venv_name, requirements = RULE_TOOLS[tool]
    python = ensure_venv(venv_dir, venv_name, requirements)
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.jsonl", Path(tmp) / "out.json"
        src.write_text("".join(json.dumps({k: r[k] for k in ("words", "spaces", "targets")}) + "\n"
                               for r in sentences), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": ""}
        subprocess.run([str(python), str(HERE / "rule_runner.py"), tool, str(src), str(dst), str(repeat)],
                       check=True, env=env)
        out = json.loads(dst.read_text(encoding="utf-8"))
    return out["negated"], out["seconds"], out["words"], out["versions"]


def merge_results(old: Dict[str, Dict[str, Dict[str, Any]]],
                  new: Dict[str, Dict[str, Dict[str, Any]]]) -> Dict[str, Dict[str, Dict[str, Any]]]:
    """The results of an earlier run with this run's systems replaced (per split, in the
    earlier order, new systems last; a role such as "general" follows the new run). An
    entry of an earlier run that names no run is marked "earlier run"."""
    out: Dict[str, Dict[str, Dict[str, Any]]] = {}
    for split in [*old, *(s for s in new if s not in old)]:
        systems = {name: {"run": "earlier run", **e} for name, e in old.get(split, {}).items()}
        systems.update(new.get(split, {}))
        out[split] = systems
    return out


# --- report ---------------------------------------------------------------------------------
def render_markdown(results: Dict[str, Dict[str, Dict[str, Any]]], meta: Dict[str, Any], part: str = "test") -> str:
    lines = ["# Is this word negated? spacy-negation against the rule tools", "",
             "Written by `bench/bench_vs_rules.py` (the task and the command: its docstring). "
             "F1 of \"negated\" in percent with its 95% bootstrap interval over sentences; "
             "speed in words per second of the negation component alone.", ""]
    for key, value in meta.items():
        lines.append(f"- **{key}**: {json.dumps(value) if isinstance(value, (dict, list)) else value}")
    for split, systems in results.items():
        lines += ["", f"## {SPLIT_NAMES.get(split, split)} {part}", ""]
        lines += markdown_table(["system", "P", "R", "F1", "95% CI", "words/s", "timed runs"],
                                [[f"{name} ({e['model']})" if "model" in e else name,
                                  *(f"{100 * e[k]:.1f}" for k in "prf"), f"{100 * e['ci_low']:.1f}-{100 * e['ci_high']:.1f}",
                                  f"{e['words_per_second']:,.0f}" if e.get("words_per_second") else "-",
                                  str(e.get("timed_runs", 1))] for name, e in systems.items()])
        for role, title in (("recommended", "Recommended"), ("general", "General"), ("fast", "Fast")):
            system = systems.get(role)
            if not (system and system.get("vs")):
                continue
            lines += ["", f"{title} model minus each rule tool, F1 points (paired bootstrap 95% CI; "
                      "\"beats\" only where the interval excludes 0):", ""]
            for tool, d in system["vs"].items():
                verdict = "beats" if d["ci_low"] > 0 else ("loses to" if d["ci_high"] < 0 else "no difference shown")
                lines.append(f"- {tool}: {100 * d['diff']:+.1f} ({100 * d['ci_low']:+.1f} to "
                             f"{100 * d['ci_high']:+.1f}): {verdict}")
    lines.append("")
    return "\n".join(lines)


def parse_pairs(values: Optional[List[str]], what: str) -> Dict[str, str]:
    out = {}
    for value in values or []:
        if "=" not in value:
            raise SystemExit(f"--{what} takes NAME=VALUE, got {value!r}")
        key, val = value.split("=", 1)
        out[key] = val
    return out


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", action="append", required=True, help="SPLIT=GOLD.spacy (cdsco, bioscope, sfu, bioscope_clinical)")
    parser.add_argument("--model", action="append", default=[], help="a negation model (package name or path); repeatable; NAME=PATH names a path")
    parser.add_argument("--recommend", action="append", default=[], help="SPLIT=MODEL_NAME: the model the README recommends there")
    parser.add_argument("--general", default=None, help="the general English model's name (of --model)")
    parser.add_argument("--fast", default=None, help="the fast CPU model's name (of --model)")
    parser.add_argument("--rules", default=",".join(RULE_TOOLS), help="comma-separated rule tools, or 'none'")
    parser.add_argument("--venv-dir", type=Path, default=Path.home() / ".cache" / "spacy-negation-bench")
    parser.add_argument("--limit", type=int, default=0, help="first N sentences of each split (0: all)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="timed passes per system and split after the warm-up (the fastest counts)")
    parser.add_argument("--out-dir", type=Path, default=Path("results"))
    parser.add_argument("--part", default="test", help="the splits' part, for headings; other than test, the "
                                                       "files are vs_rules_PART.json and .md")
    parser.add_argument("--rows", action="store_true",
                        help="also write OUT/vs_rules_rows.json: each system's (TP, FP, FN) per sentence, for "
                             "intervals pooled over runs")
    parser.add_argument("--update", action="store_true",
                        help="keep the systems of the existing OUT/vs_rules*.json that this run does not "
                             "measure (each entry records the run that measured it)")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    splits = parse_pairs(args.split, "split")
    models = {}
    for spec in args.model:
        name, _, ref = spec.partition("=")
        models[name] = ref or name
    recommend = parse_pairs(args.recommend, "recommend")
    rules = [] if args.rules == "none" else args.rules.split(",")
    for tool in rules:
        if tool not in RULE_TOOLS:
            raise SystemExit(f"unknown rule tool {tool!r}; known: {', '.join(RULE_TOOLS)}")
    register_extensions()
    results: Dict[str, Dict[str, Dict[str, Any]]] = {}
    versions: Dict[str, Any] = {}
    answers: Dict[Tuple[str, str], List[Tuple[int, int, int]]] = {}
    for split, path in splits.items():
        sentences = task_sentences(read_docbin(path), split)
        if args.limit:
            sentences = sentences[:args.limit]
        gold = [r["gold"] for r in sentences]
        results[split] = {}
        for tool in rules:
            pred, seconds, words, versions[tool] = run_rule_tool(tool, sentences, args.venv_dir, args.repeat)
            rows = counts(gold, pred)
            answers[split, tool] = rows
            results[split][tool] = {**entry(rows, words, seconds), "timed_runs": args.repeat}
        for name, ref in models.items():
            pred, seconds, words = run_model(ref, sentences, args.repeat)
            rows = counts(gold, pred)
            answers[split, name] = rows
            results[split][name] = {**entry(rows, words, seconds), "timed_runs": args.repeat}
        for role, name in (("general", args.general), ("fast", args.fast), ("recommended", recommend.get(split))):
            if name:
                results[split][role] = {**results[split][name], "model": name}
                if rules:
                    results[split][role]["vs"] = {}
                    for tool in rules:
                        d = paired_bootstrap(answers[split, name], answers[split, tool])
                        results[split][role]["vs"][tool] = {"diff": d.value, "ci_low": d.low, "ci_high": d.high}
        print(f"{split}: {len(sentences)} sentences, {sum(len(g) for g in gold)} targets", file=sys.stderr)
    run = time.strftime("%Y-%m-%d", time.gmtime()) + f", {os.cpu_count()} CPU cores {platform.processor() or platform.machine()}"
    for systems in results.values():
        for entry_ in systems.values():
            entry_["run"] = run
    meta = {"rule_tool_versions": versions, "models": models, "sentences_limit": args.limit or "all",
            "machine": f"{os.cpu_count()} CPU cores", "timed_runs": f"fastest of {args.repeat}"}
    args.out_dir.mkdir(parents=True, exist_ok=True)
    stem = "vs_rules" if args.part == "test" else f"vs_rules_{args.part}"
    if args.update and (args.out_dir / f"{stem}.json").is_file():
        results = merge_results(json.loads((args.out_dir / f"{stem}.json").read_text(encoding="utf-8")), results)
        meta["updated"] = f"the systems whose run is {run!r} were measured in that run; the others come from earlier runs"
    atomic_write_text(args.out_dir / f"{stem}.json", json.dumps(results, indent=2) + "\n")
    if args.rows:
        rows_out: Dict[str, Dict[str, Any]] = {}
        for (split, name), rows in answers.items():
            rows_out.setdefault(split, {})[name] = [list(row) for row in rows]
        atomic_write_text(args.out_dir / f"{stem}_rows.json", json.dumps(rows_out) + "\n")
    atomic_write_text(args.out_dir / f"{stem}.md", render_markdown(results, meta, args.part))
    print(render_markdown(results, meta, args.part))
    return 0


if __name__ == "__main__":
    sys.exit(main())
