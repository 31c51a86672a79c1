"""Time of the ``negation`` component on one long line without sentence punctuation and
with a cue every few words: does it stay linear in the line's length?

Such a line is one "sentence" of thousands of tokens with thousands of cues. The scope
model reads a window of at most 512 tokens around each cue (``MAX_WINDOW_TOKENS`` of
``spacy_negation.pipeline.scope.windows``), so its work grows with the number of cues
times a bounded window; this bench measures whether anything else (the decoders' work
between the negations of a sentence) grows faster. For each size it prints the words,
the negations found, the seconds of ``nlp(text)`` (the load not counted) and the words
per second, which stays flat when the run is linear.

By default the model is a tiny CNN pipeline trained in a few seconds
(``bench_annotate_long.build_model``); ``--model`` runs a trained one (a path or a package).

    python bench/bench_long_sentence.py [--sizes 1000 2000 4000 8000] [--model PATH] [--repeat 1]
"""
import argparse
import tempfile
import time
from pathlib import Path
from typing import List, Optional, Sequence

import spacy

from bench_annotate_long import build_model
from spacy_negation import get_negations

#: Phrases with one cue each (3 to 4 words), cycled without punctuation.
PHRASES = ["he did not come", "no one came", "she never smiled", "they did not see", "we found no evidence",
           "it was not raining"]


def long_line(n_words: int) -> str:
    """The phrases cycled, without punctuation, to ``n_words`` words."""
    words: List[str] = []
    k = 0
    while len(words) < n_words:
        words += PHRASES[k % len(PHRASES)].split()
        k += 1
    return " ".join(words[:n_words])


def run(model: str, sizes: Sequence[int], repeat: int) -> None:
    """Print the table of ``nlp(text)`` over the sizes with the model."""
    nlp = spacy.blank("en")
    nlp.add_pipe("negation", config={"model": model})
    nlp(long_line(100))  # warm up
    print(f"{'words':>8} {'cues':>7} {'seconds':>9} {'words/s':>9}")
    for size in sizes:
        text = long_line(size)
        best = float("inf")
        n_cues = 0
        for _ in range(repeat):
            start = time.perf_counter()
            doc = nlp(text)
            best = min(best, time.perf_counter() - start)
            n_cues = len(get_negations(doc))
        print(f"{len(doc):>8,} {n_cues:>7,} {best:>9.2f} {len(doc) / best:>9,.0f}", flush=True)


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 8000])
    parser.add_argument("--model", default=None, help="a trained negation pipeline (default: a tiny CNN trained here)")
    parser.add_argument("--repeat", type=int, default=1, help="the fastest of this many runs per size")
    args = parser.parse_args(argv)
    if args.model is not None:
        run(args.model, args.sizes, args.repeat)
        return
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "model"
        build_model(model)
        run(str(model), args.sizes, args.repeat)


if __name__ == "__main__":
    main()
