"""Throughput of ``annotate --engine ray`` with 1 and 2 Ray workers on the same input.

The pipeline is configs/negation_trf.cfg (the real all-MiniLM-L6-v2 backbone), initialized
on CD-SCO training sentences but not trained: the transformer, which takes nearly all the
time, computes exactly as in a trained model; the untrained cue head finds fewer cues, so
the scope head runs less (the number of negations found is printed). The input is the text
of CD-SCO training sentences, one per line. A local Ray cluster of --cpus CPUs; each worker
gets one CPU and one torch thread. Words per second are measured from the moment all
workers have loaded the model to the last shard written (the loading time is printed
apart); peak RSS per worker is each worker process's maximum resident set size (getrusage);
the driver's CPU time (user + system, this process: reading, scheduling, writing) bounds
how many workers one driver can feed; the workers' CPU time on their shards gives words
per CPU second and the share of their cores the workers got (below 100 % when other
processes compete for the cores).

    python bench/bench_annotate.py [--n-sents 3000] [--shard-size 100] [--repeat 1]
        [--json results/scale.json]
"""
import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List

REPO = Path(__file__).resolve().parents[1]


def build_model(out: Path, shared: Path, n_init: int) -> List[str]:
    """Save the untrained transformer pipeline to ``out``; return the CD-SCO training
    sentences' texts."""
    import spacy
    from spacy.tokens import Doc
    from spacy.training import Example

    import spacy_negation.ml.models  # noqa: F401  (registers the architectures, if no entry points)
    import spacy_negation.pipeline  # noqa: F401  (registers the factories, if no entry points)
    import spacy_negation.scoring.scorers  # noqa: F401  (registers the scorer, if no entry points)
    from spacy_negation.corpora.starsem_docs import CDSCO_FILES, read_starsem_docs
    from spacy_negation.ml.training_corpus import split_sentences

    config = spacy.util.load_config(REPO / "configs" / "negation_trf.cfg", interpolate=True)
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    gold = read_starsem_docs(shared / "corpora" / "cd-sco" / CDSCO_FILES["training"], nlp.vocab)
    sents = [s for d in gold for s in split_sentences(d)]
    examples = [Example(Doc(nlp.vocab, words=[t.text for t in s],
                            spaces=[bool(t.whitespace_) for t in s]), s) for s in sents[:n_init]]
    nlp.initialize(lambda: examples)
    nlp.to_disk(out)
    return [s.text.strip() for s in sents]


def run(model: Path, inp: Path, out: Path, workers: int, shard_size: int, batch_size: int) -> Dict[str, Any]:
    from spacy_negation.annotate import annotate

    cpu0 = sum(os.times()[:2])
    t0 = time.perf_counter()
    shard_cpu: List[float] = []
    summary = annotate(inp, out, str(model), shard_size=shard_size, batch_size=batch_size,
                       engine="ray", workers=workers, threads=1, progress=False,
                       on_shard=lambda r: shard_cpu.append(r.cpu_seconds))
    wall = time.perf_counter() - t0
    driver_cpu = sum(os.times()[:2]) - cpu0
    n_neg = sum(len(json.loads(line)["negations"]) for line in out.open(encoding="utf-8"))
    return {"words": summary.n_words, "docs": summary.n_docs, "negations": n_neg,
            "seconds": summary.seconds, "seconds_loading": summary.seconds_loading,
            "wall_seconds": wall, "words_per_second": summary.words_per_second,
            "peak_rss_mb": max(summary.workers.values()), "n_worker_processes": len(summary.workers),
            "driver_cpu_seconds": driver_cpu, "worker_cpu_seconds": sum(shard_cpu),
            "words_per_cpu_second": summary.n_words / sum(shard_cpu),
            "cpu_share": sum(shard_cpu) / (workers * summary.seconds)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shared", type=Path, default=REPO / ".." / "shared")
    parser.add_argument("--n-sents", type=int, default=3000, help="input documents (sentences)")
    parser.add_argument("--n-init", type=int, default=50, help="sentences to initialize on")
    parser.add_argument("--shard-size", type=int, default=100)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--cpus", type=int, default=2, help="CPUs of the local Ray cluster")
    parser.add_argument("--repeat", type=int, default=1, help="runs per worker count (best kept)")
    parser.add_argument("--json", type=Path, default=None, help="write the results here")
    args = parser.parse_args()

    import ray

    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        texts = build_model(tmpdir / "model", args.shared, args.n_init)[: args.n_sents]
        inp = tmpdir / "input.txt"
        inp.write_text("".join(t + "\n" for t in texts), encoding="utf-8")
        ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False)
        try:
            results: Dict[str, Dict[str, Any]] = {}
            for workers in (1, 2):
                runs = [run(tmpdir / "model", inp, tmpdir / f"out{workers}_{k}.jsonl", workers,
                            args.shard_size, args.batch_size) for k in range(args.repeat)]
                results[str(workers)] = max(runs, key=lambda r: r["words_per_second"])
                r = results[str(workers)]
                print(f"{workers} worker(s): {r['docs']} docs, {r['words']} words, "
                      f"{r['negations']} negations; loading {r['seconds_loading']:.1f} s, "
                      f"annotating {r['seconds']:.1f} s: {r['words_per_second']:,.0f} words/s; "
                      f"wall {r['wall_seconds']:.1f} s; peak RSS per worker "
                      f"{r['peak_rss_mb']:,.0f} MB; driver CPU {r['driver_cpu_seconds']:.1f} s; "
                      f"workers' CPU {r['worker_cpu_seconds']:.1f} s = "
                      f"{r['words_per_cpu_second']:,.0f} words per CPU second, "
                      f"{100 * r['cpu_share']:.0f} % of {workers} core(s)", flush=True)
            same = (tmpdir / "out1_0.jsonl").read_bytes() == (tmpdir / "out2_0.jsonl").read_bytes()
        finally:
            ray.shutdown()
    load_after = os.getloadavg()
    speedup = results["2"]["words_per_second"] / results["1"]["words_per_second"]
    print(f"speed-up with 2 workers: {speedup:.2f}; outputs identical: {same}; load average "
          f"before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")
    if args.json:
        data = {"workers": {k: {"words_per_second": round(v["words_per_second"], 1),
                                "peak_rss_mb": round(v["peak_rss_mb"], 1),
                                "seconds": round(v["seconds"], 2),
                                "seconds_loading": round(v["seconds_loading"], 2),
                                "words": v["words"], "docs": v["docs"],
                                "negations": v["negations"],
                                "driver_cpu_seconds": round(v["driver_cpu_seconds"], 2),
                                "worker_cpu_seconds": round(v["worker_cpu_seconds"], 2),
                                "words_per_cpu_second": round(v["words_per_cpu_second"], 1),
                                "cpu_share": round(v["cpu_share"], 3)}
                            for k, v in results.items()},
                "speedup_2": round(speedup, 3), "outputs_identical": same,
                "load_average_before": [round(x, 2) for x in load_before],
                "load_average_after": [round(x, 2) for x in load_after],
                "cpus": args.cpus, "n_sents": len(texts), "shard_size": args.shard_size,
                "batch_size": args.batch_size}
        args.json.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
