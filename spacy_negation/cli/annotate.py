"""``annotate``: resolve the negations of a corpus (text, JSONL or Parquet) into JSONL,
Parquet or a DocBin, resumably, on this machine or on a Ray cluster."""
import argparse
import sys

from ..limits import (MAX_BATCH_SIZE, MAX_PROCESSES, MAX_RETRIES, MAX_SHARD_SIZE, MAX_THREADS,
                      MAX_WORKERS)
from ._args import bounded_int, input_file, output_file, work_dir


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``annotate``."""
    p.add_argument("input", type=input_file,
                   help="plain text (one document per line, id = line number), .jsonl or "
                        ".parquet (a regular file: a FIFO or device is refused)")
    p.add_argument("output", type=output_file, help="the .jsonl, .parquet or .spacy file to write")
    p.add_argument("--model", required=True, help="trained negation pipeline: package or path")
    p.add_argument("--input-format", choices=("text", "jsonl", "parquet"), default=None,
                   help="input format (default: from the suffix: .txt, .jsonl, .parquet)")
    p.add_argument("--output-format", choices=("jsonl", "parquet", "spacy"), default=None,
                   help="output format (default: from the suffix: .jsonl, .parquet, .spacy)")
    p.add_argument("--text-field", default="text", help="JSONL field / Parquet column of the "
                                                         "text (default: text)")
    p.add_argument("--id-field", default="id", help="JSONL field / Parquet column of the id "
                                                     "(default: id; '' = line/row number)")
    p.add_argument("--shard-size", type=bounded_int("--shard-size", 1, MAX_SHARD_SIZE), default=1000,
                   help=f"records per shard (default: 1000, at most {MAX_SHARD_SIZE})")
    p.add_argument("--batch-size", type=bounded_int("--batch-size", 1, MAX_BATCH_SIZE), default=64,
                   help=f"docs per batch (default: 64, at most {MAX_BATCH_SIZE})")
    p.add_argument("--on-error", choices=("raise", "skip"), default="raise",
                   help="bad records (no text field, not UTF-8, bad JSON, a lone surrogate, an "
                        "id beyond 64 bits): stop with an error "
                        "naming the line (raise, default) or report them and skip (skip)")
    p.add_argument("--engine", choices=("local", "ray"), default="local",
                   help="local: this machine (--n-process); ray: Ray workers (default: local)")
    p.add_argument("--n-process", type=bounded_int("--n-process", 1, MAX_PROCESSES), default=1,
                   help=f"local engine: processes (default: 1, at most {MAX_PROCESSES})")
    p.add_argument("--address", default=None,
                   help="ray engine: address of a running cluster (default: a local cluster)")
    p.add_argument("--workers", type=bounded_int("--workers", 1, MAX_WORKERS), default=None,
                   help="ray engine: worker actors (default: cluster CPUs / threads per worker; "
                        f"at most {MAX_WORKERS})")
    p.add_argument("--threads", type=bounded_int("--threads", 1, MAX_THREADS), default=None,
                   help="torch threads of the local process and of each of its --n-process "
                        "workers, or of each Ray worker (its CPUs); default: $OMP_NUM_THREADS "
                        f"if set, else 1; at most {MAX_THREADS}")
    p.add_argument("--max-retries", type=bounded_int("--max-retries", 0, MAX_RETRIES), default=3,
                   help="ray engine: restarts of a failed worker and retries of its shards "
                        f"(default: 3, at most {MAX_RETRIES})")
    p.add_argument("--work-dir", type=work_dir, default=None,
                   help="folder of the finished shards (default: OUTPUT.shards); a folder or a "
                        "path where one can be made")
    p.add_argument("--keep-shards", action="store_true", help="keep the work folder at the end")
    p.add_argument("--keep-user-data", action="store_true",
                   help=".spacy output: keep the docs' tensors and other components' user data "
                        "(the transformer's doc._.trf_data, megabytes per document); by default "
                        "the DocBin holds the docs, their ids and negations only")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")


def run(args: argparse.Namespace) -> int:
    """Annotate a corpus with a trained negation pipeline: one output record per document
    (its id and, per negation, the cue, scope and event as character offsets with their
    text). The input is split into shards; finished shards are kept in a work folder, so a
    re-run after an interruption continues where it stopped."""
    from ..annotate import annotate

    try:
        summary = annotate(
            args.input, args.output, args.model, input_fmt=args.input_format,
            output_fmt=args.output_format, text_field=args.text_field, id_field=args.id_field,
            shard_size=args.shard_size, batch_size=args.batch_size, on_error=args.on_error,
            engine=args.engine, n_process=args.n_process, address=args.address,
            workers=args.workers, threads=args.threads,
            max_retries=args.max_retries, work_dir=args.work_dir, keep_shards=args.keep_shards,
            keep_user_data=args.keep_user_data, progress=not args.no_progress)
    except (ImportError, RuntimeError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: the finished shards are kept; run the same command again to "
              "resume", file=sys.stderr)
        return 130
    for index, reason in sorted(summary.redone.items()):
        print(f"redone: shard {index} of an earlier run ({reason})", file=sys.stderr)
    if summary.resumed:
        print(f"resumed: {summary.resumed} of {summary.n_shards} shards were finished "
              "by an earlier run", file=sys.stderr)
    print(f"wrote {summary.n_docs} documents ({summary.n_words} words) to {args.output}; "
          f"{summary.words_per_second:,.0f} words/s after {summary.seconds_loading:.1f} s "
          f"loading; {len(summary.skipped)} bad records skipped", file=sys.stderr)
    return 0
