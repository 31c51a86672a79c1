"""Time of ``annotate`` on long documents: is it linear in the document length?

A tiny CNN negation pipeline (configs/test/negation_cnn_tiny.cfg) is trained offline for a
60 steps on six hand-made sentences (it then finds their cues); each document is those
sentences repeated up to the length asked for, on one line (so every sentence holds a
negation and a document of N tokens has about N / 6 negations). For each document it
prints the time of ``annotate`` (plain text in, JSONL out, one document per input; the
pipeline's load time is not counted) and the time per 1,000 tokens, which stays flat
when the run is linear in the document length; then the same for a document of about
1 MB on a single line, in JSONL and Parquet (when pyarrow is installed).

    python bench/bench_annotate_long.py [--sizes 2000 5000 10000 20000] [--mb 1.0]
        [--formats jsonl parquet]
"""
import argparse
import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Tuple

import spacy
from spacy.tokens import Doc
from spacy.training import Example

import spacy_negation.ml.models  # noqa: F401  (registers the architectures, if no entry points)
import spacy_negation.pipeline  # noqa: F401  (registers the factories, if no entry points)
import spacy_negation.scoring.scorers  # noqa: F401  (registers the scorer, if no entry points)
from spacy_negation import register_extensions, set_negations

REPO = Path(__file__).resolve().parents[1]
CONFIG = REPO / "configs" / "test" / "negation_cnn_tiny.cfg"

Spec = Dict[str, List[int]]
#: (words, negations as token indices); every sentence ends with a full stop.
SENTENCES: List[Tuple[List[str], List[Spec]]] = [
    (["He", "did", "not", "come", "home", "."], [{"cue": [2], "scope": [0, 1, 3, 4], "event": [3]}]),
    (["No", "one", "came", "to", "the", "party", "."], [{"cue": [0], "scope": [1, 2, 3, 4, 5], "event": [2]}]),
    (["She", "never", "smiled", "."], [{"cue": [1], "scope": [0, 2], "event": [2]}]),
    (["They", "did", "not", "see", "the", "dog", "."], [{"cue": [2], "scope": [0, 1, 3, 4, 5], "event": [3]}]),
    (["We", "found", "no", "evidence", "."], [{"cue": [2], "scope": [3], "event": [3]}]),
    (["It", "was", "not", "raining", "."], [{"cue": [2], "scope": [0, 1, 3], "event": [3]}]),
]


def _text(words: List[str]) -> str:
    return " ".join(words[:-1]) + words[-1]


def build_model(out: Path, steps: int = 60) -> None:
    """Train the tiny CNN pipeline on SENTENCES for ``steps`` updates; save it to ``out``."""
    register_extensions()
    config = spacy.util.load_config(CONFIG, interpolate=True)
    nlp = spacy.util.load_model_from_config(config, auto_fill=True, validate=True)
    examples = []
    for words, negations in SENTENCES:
        spaces = [i + 2 < len(words) for i in range(len(words))]
        ref = Doc(nlp.vocab, words=words, spaces=spaces,
                  sent_starts=[True] + [False] * (len(words) - 1))
        set_negations(ref, [{role: [ref[i] for i in idx] for role, idx in neg.items()}
                            for neg in negations])
        examples.append(Example(nlp.make_doc(ref.text), ref))
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: examples)
    rng = random.Random(0)
    for _ in range(steps):
        rng.shuffle(examples)
        nlp.update(examples, sgd=optimizer, drop=0.0)
    nlp.to_disk(out)


def long_text(n_tokens: int) -> str:
    """The sentences repeated, on one line, until the text has at least n_tokens tokens."""
    parts: List[str] = []
    count = k = 0
    while count < n_tokens:
        words = SENTENCES[k % len(SENTENCES)][0]
        parts.append(_text(words))
        count += len(words)
        k += 1
    return " ".join(parts)


def time_annotate(model: Path, text: str, folder: Path, fmt: str) -> Dict[str, Any]:
    from spacy_negation.annotate import annotate

    inp = folder / "in.txt"
    inp.write_text(text + "\n", encoding="utf-8")
    out = folder / f"out.{fmt}"
    if out.exists():
        out.unlink()
    summary = annotate(inp, out, str(model), progress=False)
    if fmt == "jsonl":
        n_negations = sum(len(json.loads(line)["negations"])
                          for line in out.read_text(encoding="utf-8").splitlines())
    else:
        import pyarrow.parquet as pq

        n_negations = sum(len(n) for n in pq.read_table(out, columns=["negations"])
                          .column("negations").to_pylist())
    return {"seconds": summary.seconds, "tokens": summary.n_words, "negations": n_negations}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[2000, 5000, 10000, 20000])
    parser.add_argument("--mb", type=float, default=1.0, help="the single-line document's size")
    parser.add_argument("--formats", nargs="+", default=["jsonl", "parquet"])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        model = folder / "model"
        build_model(model)
        print(f"{'document':>28} {'tokens':>8} {'negations':>9} {'seconds':>8} {'s/1k tokens':>12}")
        for size in args.sizes:
            r = time_annotate(model, long_text(size), folder, "jsonl")
            print(f"{f'{size:,} tokens (jsonl)':>28} {r['tokens']:>8,} {r['negations']:>9,} {r['seconds']:>8.2f} "
                  f"{1000 * r['seconds'] / r['tokens']:>12.4f}")
        text = long_text(1)
        while len(text.encode("utf-8")) < args.mb * 1e6:
            text = text + " " + text
        text = text[:int(args.mb * 1e6)].rsplit(" ", 1)[0]
        for fmt in args.formats:
            if fmt == "parquet":
                try:
                    import pyarrow  # noqa: F401
                except ImportError:
                    print("parquet: pyarrow is not installed, skipped")
                    continue
            r = time_annotate(model, text, folder, fmt)
            label = f"{len(text.encode('utf-8')) / 1e6:.2f} MB line ({fmt})"
            print(f"{label:>28} {r['tokens']:>8,} {r['negations']:>9,} {r['seconds']:>8.2f} "
                  f"{1000 * r['seconds'] / r['tokens']:>12.4f}")


if __name__ == "__main__":
    main()
