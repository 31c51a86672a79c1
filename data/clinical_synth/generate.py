"""Generates synthetic clinical-style training sentences with negation cues and scopes.

The sentences come from templates of the phrasing of clinical notes that the biomedical
training corpora lack: denial verbs with coordinated findings, lists after "No", section
headers, run-on report lines, "negative for", "no evidence of", "free of", "ruled out",
"resolved", "-ve", "without", and counter-examples without negation (affirmed findings,
clinical words with negative-looking affixes, pseudo-negations). The annotation follows
BioScope (Vincze et al. 2008) in the CD-SCO layout of this project: whole-word cues (no
affixal cues), the scope without the cue and without the subject of an active clause (the
subject of a passive or of a negative predicate such as "absent" is in scope, as in
BioScope). README.md in this folder lists every template and convention.

The vocabulary (findings, tests, diagnoses, treatments in vocabulary.json beside this file;
anatomy and phrasing in synth_lexicon.py) is written from general medical knowledge. The
templates are in synth_negated.py and synth_templates.py, on the sentence builder of
synth_sentence.py; this script draws the sentences, groups them into notes and checks them.
The held-out clinical set (data/clinical/notes.txt) is only read to check that it does not
leak: no finding, test, diagnosis or treatment string of the vocabulary equals a concept of
that set, and no generated sentence equals or contains one of its sentences; generation
fails otherwise.

python data/clinical_synth/generate.py            # writes train.jsonl, prints counts
python data/clinical_synth/generate.py --check    # fails if train.jsonl is not up to date

Output: one sentence a line, ``{"id", "note", "template", "text", "negations": [{"cue":
[[start, end], ...], "scope": [[start, end], ...]}], "concepts": [{"start", "end", "text",
"negated"}]}`` with character offsets into ``text``; ``concepts`` marks the findings the
template placed, negated iff inside a scope (for checks; the reader ignores them).
"""
import argparse
import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from spacy_negation.metrics.core import markdown_table

from synth_lexicon import (AFFIX_FINDINGS, AFFIX_SITES, ANATOMY_ALLOWED, DIAGNOSES, EXCLUDING_STUDIES, IMAGING,
                           MEDICATIONS, SIGNS, SYMPTOMS, TESTS, TREATMENTS)
from synth_templates import TEMPLATES, Generator

HERE = Path(__file__).resolve().parent
OUTPUT = HERE / "train.jsonl"
HELD_OUT = HERE.parent / "clinical" / "notes.txt"
SEED = 26
N_SENTENCES = 2000
NOTE_SIZE = (6, 12)


def generate(n: int = N_SENTENCES, seed: int = SEED) -> List[Dict[str, Any]]:
    """The records: n sentences from the weighted templates, grouped into notes of 6 to 12
    sentences; no duplicate texts.

    n (int): the number of sentences.
    seed (int): the random seed.
    RETURNS (List[Dict[str, Any]]): the records in order.
    """
    gen = Generator(seed)
    names = list(TEMPLATES)
    weights = [TEMPLATES[name][1] for name in names]
    records: List[Dict[str, Any]] = []
    seen: Set[str] = set()
    note, in_note, note_size = 0, 0, 0
    while len(records) < n:
        name = gen.rng.choices(names, weights)[0]
        record = gen.sentence(TEMPLATES[name][0]).record()
        if record["text"] in seen:
            continue
        seen.add(record["text"])
        if in_note == note_size:
            note, in_note, note_size = note + 1, 0, gen.rng.randint(*NOTE_SIZE)
        in_note += 1
        records.append({"id": f"synth{note:04d}-{in_note:02d}", "note": f"synth{note:04d}", "template": name,
                        **record})
    return records


# --- leak checks against the held-out set ---------------------------------------------------
def held_out() -> Tuple[List[str], Set[str]]:
    """The sentences and the (lower-cased) concept strings of data/clinical/notes.txt, parsed
    by that set's own build script."""
    spec = importlib.util.spec_from_file_location("clinical_build", HELD_OUT.parent / "build.py")
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {HELD_OUT.parent / 'build.py'}")
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    records = build.parse_notes(HELD_OUT.read_text(encoding="utf-8"), HELD_OUT.name)
    return [r["text"] for r in records], {c["text"].lower() for r in records for c in r["concepts"]}


def vocabulary() -> Set[str]:
    """Every finding, test, diagnosis, treatment and medication string of the templates."""
    words = (SYMPTOMS + SIGNS + IMAGING + DIAGNOSES + TESTS + TREATMENTS + EXCLUDING_STUDIES + MEDICATIONS
             + AFFIX_FINDINGS + AFFIX_SITES)
    return {w.lower() for w in words}


def leaks(records: Sequence[Dict[str, Any]]) -> List[str]:
    """What the records share with the held-out set: vocabulary strings equal to one of its
    concepts (other than anatomy), generated sentences equal to or containing one of its
    sentences (compared case-insensitively with whitespace collapsed).

    records (Sequence[Dict[str, Any]]): the generated records.
    RETURNS (List[str]): one message per leak (empty: none).
    """
    sentences, concepts = held_out()
    out = [f"vocabulary string {w!r} is a concept of {HELD_OUT.name}"
           for w in sorted(vocabulary() & concepts)]
    out += [f"concept {c['text']!r} of {r['id']} is a concept of {HELD_OUT.name}"
            for r in records for c in r["concepts"]
            if c["text"].lower() in concepts and c["text"].lower() not in ANATOMY_ALLOWED]
    norm = [" ".join(s.lower().split()) for s in sentences]
    for r in records:
        text = " ".join(r["text"].lower().split())
        out += [f"{r['id']} {r['text']!r} contains the held-out sentence {s!r}" for s in norm if s in text]
    return out


def to_jsonl(records: Sequence[Dict[str, Any]]) -> str:
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def counts(records: Sequence[Dict[str, Any]]) -> List[str]:
    """A Markdown table: sentences, negation instances and concepts per template."""
    rows: Dict[str, Counter] = {}
    for r in records:
        c = rows.setdefault(r["template"], Counter())
        c["sentences"] += 1
        c["negations"] += len(r["negations"])
        c["negated"] += sum(x["negated"] for x in r["concepts"])
        c["affirmed"] += sum(not x["negated"] for x in r["concepts"])
    total: Counter = sum(rows.values(), Counter())
    keys = ("sentences", "negations", "negated", "affirmed")
    return markdown_table(["template", "sentences", "negations", "negated concepts", "affirmed concepts"],
                          [[name, *(str(c[k]) for k in keys)]
                           for name, c in [(t, rows[t]) for t in TEMPLATES if t in rows] + [("**total**", total)]])


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="fail if train.jsonl is not up to date")
    parser.add_argument("-n", type=int, default=N_SENTENCES, help=f"sentences (default {N_SENTENCES})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"random seed (default {SEED})")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    records = generate(args.n, args.seed)
    problems = leaks(records)
    if problems:
        print("\n".join(problems[:20]), file=sys.stderr)
        print(f"{len(problems)} overlap(s) with the held-out set {HELD_OUT}; nothing written", file=sys.stderr)
        return 1
    content = to_jsonl(records)
    if args.check:
        if not args.output.exists() or args.output.read_text(encoding="utf-8") != content:
            print(f"{args.output} is not the output of {Path(__file__).name}; run it", file=sys.stderr)
            return 1
    else:
        tmp = args.output.with_suffix(".jsonl.tmp")
        tmp.write_text(content, encoding="utf-8")
        tmp.replace(args.output)
    print("\n".join(counts(records)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
