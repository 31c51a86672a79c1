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

Is this word uncertain? On a split whose gold annotates speculation (the BioScope abstracts
and clinical and SFU Review readers put ``doc._.speculations`` in the docs; CD-SCO has
none: "absent"), the same task for speculation, mirrored: the targets are the split's
target words (as above) that are not in a gold speculation cue (as the negation task
leaves out the negation cues; a negation cue word may be a target here), and a target is
uncertain in the gold when it lies in a gold speculation scope (``token._.uncertain``;
the readers keep a cue out of its own scope although BioScope's ``<xcope>`` holds it, so
the cue words, which are not asked, are the only difference). A model answers
``ent._.uncertain`` of the one-token entity (``doc[i:i+1]._.uncertain``) from the same
pass as the negation task, so its words per second are that pass's: it resolves both at
once. A model resolves speculation when it writes ``doc._.speculations`` (the span group
``speculations``) on the docs it is given; one that writes it on none is reported
"absent" (a note, not zeros). medspaCy ConText answers ``ent._.is_uncertain`` (the
POSSIBLE_EXISTENCE modifiers of its default English rules) in a pass of its own with
these targets as entities (bench/uncertain_runner.py, in the medspaCy virtualenv), timed
as above. Scores as above; each system's entry gets "uncertain" ({"p", "r", "f",
"ci_low", "ci_high", "words_per_second", "tp", "fp", "fn", "timed_runs"}, or {"absent":
note}); each split gets "uncertain_word": {"model", "model_f", "context_f", "diff",
"ci_low", "ci_high", "targets", "uncertain"} (fractions), the split's model (its
--recommend, else --general, else the only --model) against ConText, ci_low and ci_high
the paired bootstrap 95% interval of model_f - context_f (1,000 samples, seed 0); its
missing values are null with an "absent" note (no speculation gold, a model that does
not resolve speculation, no model named, ConText not run). --rows adds each system's
(TP, FP, FN) per sentence of this task under the split's "uncertain_word".

Spanish: no comparison. The medspaCy release the bench supports (1.3.1, the latest on
the package registry) ships no Spanish ConText rules: its ``resources/es/context_rules.json``
holds an empty rule list (ConText with ``language_code="es"`` loads 0 rules and answers
"not negated" for every concept); negspacy 1.1.0 has English termsets only. A NUBes split
(``--split nubes=...``) is refused; the inspection: bench/README.md.
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
from spacy_negation.negation import SPECULATIONS_KEY
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
#: Rule tools that answer "is this word uncertain?" (bench/uncertain_runner.py).
UNCERTAIN_TOOLS = ("medspacy_context",)
#: The keys of a split's results that are not systems.
SPLIT_KEYS = ("uncertain_word",)
#: Splits without a rule tool to compare against, and why (bench/README.md).
NO_RULES_SPLITS = {
    "nubes": "NUBes is Spanish and no rule tool of the bench handles Spanish: medspaCy 1.3.1 (the latest release) "
             "ships no Spanish ConText rules (its resources/es/context_rules.json holds an empty rule list) and "
             "negspacy 1.1.0 English termsets only; bench/README.md",
}
#: The "absent" notes of the uncertain task.
ABSENT_NO_GOLD = "{split} annotates no speculation: no gold for \"is this word uncertain?\""
ABSENT_MODEL = "the model does not resolve speculation (it wrote doc._.speculations on none of the sentences)"
ABSENT_NO_MODEL = "no model named for this split (--recommend, --general or a single --model)"
ABSENT_CONTEXT = "medspaCy ConText was not run (--rules)"


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

    The uncertain task's "spec_targets" (the split's target tokens that are not in a
    speculation cue; a negation cue may be one) and "spec_gold" (in a gold speculation
    scope) are there too; they mean something only on
    docs that annotate speculation (:func:`annotates_speculation`).
    """
    out = []
    for doc in docs:
        cue_tokens = {p.i for neg in doc._.negations for p in neg.cue}
        spec_cue_tokens = {p.i for spec in doc._.speculations for p in spec.cue}
        for sent in doc.sents:
            targets = [t.i - sent.start for t in sent if t.i not in cue_tokens and is_target(t, split)]
            spec_targets = [t.i - sent.start for t in sent if t.i not in spec_cue_tokens and is_target(t, split)]
            out.append({"words": [t.text for t in sent], "spaces": [bool(t.whitespace_) for t in sent],
                        "targets": targets, "gold": [bool(sent[i]._.negated) for i in targets],
                        "spec_targets": spec_targets, "spec_gold": [bool(sent[i]._.uncertain) for i in spec_targets]})
    return out


def annotates_speculation(docs: Sequence[Doc]) -> bool:
    """Whether docs carry speculation annotation: the span group of ``doc._.speculations``
    on any of them (the gold docs of a corpus that annotates speculation, even without an
    instance; the docs of a model that resolves speculation)."""
    return any(SPECULATIONS_KEY in doc.spans for doc in docs)


def uncertain_answers(docs: Sequence[Doc], sentences: Sequence[Dict[str, Any]]) -> Optional[List[List[bool]]]:
    """A model's answers to "is this word uncertain?": per sentence, ``ent._.uncertain`` of
    each of its "spec_targets" as a one-token entity; None when the model resolves no
    speculation (it wrote ``doc._.speculations`` on none of the docs)."""
    if not annotates_speculation(docs):
        return None
    return [[bool(doc[i:i + 1]._.uncertain) for i in rec["spec_targets"]] for doc, rec in zip(docs, sentences)]


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
    pred, _, seconds, words = run_model_answers(model, sentences, repeat)
    return pred, seconds, words


def run_model_answers(model: str, sentences: Sequence[Dict[str, Any]], repeat: int = 1
                      ) -> Tuple[List[List[bool]], Optional[List[List[bool]]], float, int]:
    """spacy-negation's answers to both tasks from one run: "negated" per target, "uncertain"
    per speculation target (None: the model resolves no speculation), the component's
    seconds and the words processed."""
    docs, seconds = negation_docs(model, sentences, repeat=repeat)
    return ([[bool(ent._.negated) for ent in doc.ents] for doc in docs], uncertain_answers(docs, sentences),
            seconds, sum(len(d) for d in docs))


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


def run_in_venv(script: str, tool: str, sentences: Sequence[Dict[str, Any]], venv_dir: Path, repeat: int = 1,
                targets: str = "targets") -> Dict[str, Any]:
    """Run a runner script of bench/ (rule_runner.py, uncertain_runner.py) on the sentences,
    with their ``targets`` key as the entities, in the tool's virtualenv; its output."""
    venv_name, requirements = RULE_TOOLS[tool]
    python = ensure_venv(venv_dir, venv_name, requirements)
    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.jsonl", Path(tmp) / "out.json"
        src.write_text("".join(json.dumps({"words": r["words"], "spaces": r["spaces"], "targets": r[targets]}) + "\n"
                               for r in sentences), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": ""}
        subprocess.run([str(python), str(HERE / script), tool, str(src), str(dst), str(repeat)], check=True, env=env)
        out: Dict[str, Any] = json.loads(dst.read_text(encoding="utf-8"))
    return out


def run_rule_tool(tool: str, sentences: Sequence[Dict[str, Any]], venv_dir: Path,
                  repeat: int = 1) -> Tuple[List[List[bool]], float, int, Dict[str, str]]:
    """A rule tool in its own virtualenv (see rule_runner.py); its seconds are the fastest
    of ``repeat`` timed passes."""
    out = run_in_venv("rule_runner.py", tool, sentences, venv_dir, repeat)
    return out["negated"], out["seconds"], out["words"], out["versions"]


def run_uncertain_tool(tool: str, sentences: Sequence[Dict[str, Any]], venv_dir: Path, repeat: int = 1,
                       targets: str = "spec_targets") -> Tuple[List[List[bool]], float, int, Dict[str, str]]:
    """A rule tool's answers to "is this word uncertain?" (ConText's ``ent._.is_uncertain``,
    see uncertain_runner.py) with the sentences' ``targets`` key as the entities; its
    seconds are the fastest of ``repeat`` timed passes."""
    if tool not in UNCERTAIN_TOOLS:
        raise ValueError(f"{tool} answers no uncertainty; these do: {', '.join(UNCERTAIN_TOOLS)}")
    out = run_in_venv("uncertain_runner.py", tool, sentences, venv_dir, repeat, targets)
    return out["uncertain"], out["seconds"], out["words"], out["versions"]


def uncertain_word(model: Optional[str], model_rows: Optional[Sequence[Tuple[int, int, int]]],
                   context_rows: Optional[Sequence[Tuple[int, int, int]]], spec_gold: Sequence[Sequence[bool]],
                   absent: Sequence[str] = ()) -> Dict[str, Any]:
    """A split's "uncertain_word" entry: the model's F1 of "uncertain" against ConText's and the
    paired bootstrap interval of the difference (fractions); what is missing is null, with
    the notes ``absent`` (joined) saying why.

    model (Optional[str]): the model's name (None: no model named).
    model_rows, context_rows: per sentence (TP, FP, FN) of each, or None when absent.
    spec_gold (Sequence[Sequence[bool]]): the gold of the task, for its counts.
    absent (Sequence[str]): why a side is missing.
    """
    out: Dict[str, Any] = {"model": model, "model_f": None, "context_f": None, "diff": None, "ci_low": None,
                           "ci_high": None, "targets": sum(len(g) for g in spec_gold),
                           "uncertain": sum(sum(g) for g in spec_gold)}
    for key, rows in (("model_f", model_rows), ("context_f", context_rows)):
        if rows is not None:
            out[key] = prf(*(sum(r[k] for r in rows) for k in range(3)))["f"]
    if model_rows is not None and context_rows is not None:
        d = paired_bootstrap(model_rows, context_rows)
        out.update(diff=d.value, ci_low=d.low, ci_high=d.high)
    if absent:
        out["absent"] = "; ".join(absent)
    return out


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
             "speed in words per second of the negation component alone. Where the corpus annotates "
             "speculation, \"is this word uncertain?\" the same way against medspaCy ConText.", ""]
    for key, value in meta.items():
        lines.append(f"- **{key}**: {json.dumps(value) if isinstance(value, (dict, list)) else value}")
    for split, all_systems in results.items():
        systems = {name: e for name, e in all_systems.items() if name not in SPLIT_KEYS}
        lines += ["", f"## {SPLIT_NAMES.get(split, split)} {part}", ""]
        lines += markdown_table(["system", "P", "R", "F1", "95% CI", "words/s", "timed runs"],
                                [[_system_name(name, e),
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
        if "uncertain_word" in all_systems:
            lines += render_uncertain(systems, all_systems["uncertain_word"])
    lines.append("")
    return "\n".join(lines)


def _system_name(name: str, e: Dict[str, Any]) -> str:
    return f"{name} ({e['model']})" if "model" in e else name


def render_uncertain(systems: Dict[str, Dict[str, Any]], word: Dict[str, Any]) -> List[str]:
    """The markdown of a split's "is this word uncertain?": each system's row (or "absent"),
    the model minus ConText with its paired interval, and the notes of what is absent."""
    lines = ["", "### Is this word uncertain? (speculation)", ""]
    rows = []
    for name, e in systems.items():
        u = e.get("uncertain")
        if u is None:
            continue
        if "absent" in u:
            rows.append([_system_name(name, e), "absent", "absent", "absent", "-", "-", "-"])
            continue
        rows.append([_system_name(name, e), *(f"{100 * u[k]:.1f}" for k in "prf"),
                     f"{100 * u['ci_low']:.1f}-{100 * u['ci_high']:.1f}",
                     f"{u['words_per_second']:,.0f}" if u.get("words_per_second") else "-", str(u.get("timed_runs", 1))])
    if rows:
        lines += markdown_table(["system", "P", "R", "F1", "95% CI", "words/s", "timed runs"], rows)
        lines += ["", f"{word['targets']} targets, {word['uncertain']} uncertain in the gold; a model's words/s "
                      "are its negation pass's (one pass resolves both)."]
        lines += [f"- {_system_name(name, e)}: absent: {e['uncertain']['absent']}"
                  for name, e in systems.items() if "absent" in e.get("uncertain", {})]
        lines.append("")
    if word.get("diff") is not None:
        verdict = ("beats" if word["ci_low"] > 0 else ("loses to" if word["ci_high"] < 0 else "no difference shown"))
        lines.append(f"{word['model']} minus medspacy_context, F1 points (paired bootstrap 95% CI; \"beats\" only "
                     f"where the interval excludes 0): {100 * word['diff']:+.1f} ({100 * word['ci_low']:+.1f} to "
                     f"{100 * word['ci_high']:+.1f}): {verdict}")
    else:
        lines.append(f"{word.get('model') or 'model'} against medspacy_context: absent ({word.get('absent', '')})")
    return lines


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
    for split in splits:
        if split in NO_RULES_SPLITS:
            raise SystemExit(f"--split {split}: {NO_RULES_SPLITS[split]}")
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
    uncertain_rows: Dict[str, Dict[str, List[Tuple[int, int, int]]]] = {}
    for split, path in splits.items():
        docs = read_docbin(path)
        has_spec = annotates_speculation(docs)
        sentences = task_sentences(docs, split)
        if args.limit:
            sentences = sentences[:args.limit]
        gold = [r["gold"] for r in sentences]
        spec_gold = [r["spec_gold"] for r in sentences]
        results[split] = {}
        unc: Dict[str, List[Tuple[int, int, int]]] = uncertain_rows.setdefault(split, {})
        for tool in rules:
            pred, seconds, words, versions[tool] = run_rule_tool(tool, sentences, args.venv_dir, args.repeat)
            rows = counts(gold, pred)
            answers[split, tool] = rows
            results[split][tool] = {**entry(rows, words, seconds), "timed_runs": args.repeat}
            if has_spec and tool in UNCERTAIN_TOOLS:
                upred, useconds, uwords, _ = run_uncertain_tool(tool, sentences, args.venv_dir, args.repeat)
                unc[tool] = counts(spec_gold, upred)
                results[split][tool]["uncertain"] = {**entry(unc[tool], uwords, useconds), "timed_runs": args.repeat}
        for name, ref in models.items():
            pred, model_upred, seconds, words = run_model_answers(ref, sentences, args.repeat)
            rows = counts(gold, pred)
            answers[split, name] = rows
            results[split][name] = {**entry(rows, words, seconds), "timed_runs": args.repeat}
            if has_spec and model_upred is None:
                results[split][name]["uncertain"] = {"absent": ABSENT_MODEL}
            elif has_spec and model_upred is not None:
                unc[name] = counts(spec_gold, model_upred)
                results[split][name]["uncertain"] = {**entry(unc[name], words, seconds), "timed_runs": args.repeat}
        for role, name in (("general", args.general), ("fast", args.fast), ("recommended", recommend.get(split))):
            if name:
                results[split][role] = {**results[split][name], "model": name}
                if rules:
                    results[split][role]["vs"] = {}
                    for tool in rules:
                        d = paired_bootstrap(answers[split, name], answers[split, tool])
                        results[split][role]["vs"][tool] = {"diff": d.value, "ci_low": d.low, "ci_high": d.high}
        the_model = recommend.get(split) or args.general or (next(iter(models)) if len(models) == 1 else None)
        absent = []
        if not has_spec:
            absent.append(ABSENT_NO_GOLD.format(split=SPLIT_NAMES.get(split, split)))
        else:
            if the_model is None:
                absent.append(ABSENT_NO_MODEL)
            elif the_model not in unc:
                absent.append(f"{the_model}: {ABSENT_MODEL}")
            if "medspacy_context" not in unc:
                absent.append(ABSENT_CONTEXT)
        results[split]["uncertain_word"] = uncertain_word(
            the_model, unc.get(the_model) if the_model else None, unc.get("medspacy_context"), spec_gold, absent)
        print(f"{split}: {len(sentences)} sentences, {sum(len(g) for g in gold)} targets"
              + (f", {sum(len(g) for g in spec_gold)} uncertain-task targets" if has_spec else ""), file=sys.stderr)
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
        for split, by_name in uncertain_rows.items():
            if by_name:
                rows_out.setdefault(split, {})["uncertain_word"] = {
                    name: [list(row) for row in rows] for name, rows in by_name.items()}
        atomic_write_text(args.out_dir / f"{stem}_rows.json", json.dumps(rows_out) + "\n")
    atomic_write_text(args.out_dir / f"{stem}.md", render_markdown(results, meta, args.part))
    print(render_markdown(results, meta, args.part))
    return 0


if __name__ == "__main__":
    sys.exit(main())
