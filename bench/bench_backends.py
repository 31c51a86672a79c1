"""Inference backends for the transformer backbone on CPU: PyTorch against ONNX Runtime.

The ``negation`` component spends most of its time in the transformer (``bench_speed.py``
measures the component; this script measures the backbone alone, on the same sentences).
For each English test split it takes every sentence's words, cuts them into word pieces
with the backbone's tokenizer, sorts them by length and runs them in batches of at most
``--bucket-pieces`` padded pieces (the component's budget; unlike its buckets, a batch
is not also cut where lengths jump), through:

- ``torch-fp32``: the Hugging Face model in PyTorch, float32;
- ``torch-int8``: the same with int8 dynamically quantized linear layers
  (``torch.ao.quantization.quantize_dynamic``, what the component does with ``quantize``);
- ``ort-fp32``: the model exported to ONNX (``torch.onnx.export``) and run by ONNX Runtime
  with all graph optimizations;
- ``ort-int8``: that ONNX model with int8 dynamically quantized weights
  (``onnxruntime.quantization.quantize_dynamic``);
- ``ort-fused-int8``: the same after ONNX Runtime's transformer optimizer fused attention,
  layer normalization and GELU (``onnxruntime.transformers.optimizer``).

It prints (and writes to OUT/speed_backends.{json,md}; ``--out-name`` for another name)
word pieces per second (the real pieces, padding not counted; fastest of ``--repeat``
runs) and each backend's largest and mean absolute difference of the last hidden states
from ``torch-fp32``. Speed does not
depend on the weights, so the backbone package's own weights are used (no trained model is
needed). ONNX Runtime and onnx are not dependencies of the package: without them, the
``ort-*`` rows are left out and the script says so.

python bench/bench_backends.py --split cdsco=corpus/test.spacy --split bioscope=corpus/bioscope/test.spacy \
    --split sfu=corpus/sfu/test.spacy --split bioscope_clinical=corpus/bioscope_clinical/test.spacy --out-dir results
"""
import argparse
import importlib.util
import json
import os
import platform
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy
import spacy
from spacy.tokens import DocBin

from bench_vs_rules import SPLIT_NAMES
from spacy_negation.metrics.core import markdown_table
from spacy_negation.ml.transformer import DEFAULT_BACKBONE, resolve_backbone
from spacy_negation.util import atomic_write_text
from timing import best_of

Batch = Dict[str, numpy.ndarray]


def batches(words: Sequence[List[str]], tokenizer: Any, bucket_pieces: int) -> Tuple[List[Batch], int]:
    """Length-sorted padded batches of the sentences' word pieces, and the real pieces."""
    enc = [tokenizer(w, is_split_into_words=True, truncation=True, max_length=512)["input_ids"] for w in words]
    enc.sort(key=len)
    out: List[Batch] = []
    group: List[List[int]] = []
    for ids in enc + [[]]:
        if group and (not ids or (len(group) + 1) * len(ids) > bucket_pieces):
            width = max(len(g) for g in group)
            input_ids = numpy.zeros((len(group), width), dtype=numpy.int64)
            mask = numpy.zeros((len(group), width), dtype=numpy.int64)
            for i, g in enumerate(group):
                input_ids[i, : len(g)] = g
                mask[i, : len(g)] = 1
            out.append({"input_ids": input_ids, "attention_mask": mask})
            group = []
        if ids:
            group.append(ids)
    return out, sum(len(ids) for ids in enc)


def backends(folder: str, threads: int, work: Path) -> Dict[str, Callable[[Batch], numpy.ndarray]]:
    """The backends by name: each maps a batch to its last hidden states."""
    import copy

    import torch
    from transformers import AutoModel

    torch.set_num_threads(threads)
    model = AutoModel.from_pretrained(folder).eval()
    with warnings.catch_warnings():
        # torch's own notices that eager-mode quantization is deprecated (as spacy_negation.ml.quantize)
        warnings.filterwarnings("ignore", message=r"torch\.quantize_per_tensor", category=UserWarning)
        warnings.filterwarnings("ignore", message=r"torch\.ao\.quantization is deprecated", category=DeprecationWarning)
        quantized = torch.ao.quantization.quantize_dynamic(copy.deepcopy(model), {torch.nn.Linear}, dtype=torch.qint8)

    def torch_run(module: Any) -> Callable[[Batch], numpy.ndarray]:
        def run(batch: Batch) -> numpy.ndarray:
            with torch.no_grad():
                out = module(input_ids=torch.from_numpy(batch["input_ids"]),
                             attention_mask=torch.from_numpy(batch["attention_mask"]))
            return out.last_hidden_state.numpy()
        return run

    found: Dict[str, Callable[[Batch], numpy.ndarray]] = {"torch-fp32": torch_run(model), "torch-int8": torch_run(quantized)}
    if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None:
        print("onnxruntime or onnx is not installed: the ort-* backends are left out", file=sys.stderr)
        return found
    import onnx
    import onnxruntime
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from onnxruntime.transformers import optimizer

    fp32 = work / "model.onnx"
    example = (torch.ones((1, 8), dtype=torch.long), torch.ones((1, 8), dtype=torch.long))
    axes = {0: "batch", 1: "pieces"}
    torch.onnx.export(model, example, str(fp32), input_names=["input_ids", "attention_mask"],
                      output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                      dynamic_axes={"input_ids": axes, "attention_mask": axes, "last_hidden_state": axes})
    int8 = work / "model-int8.onnx"
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8)
    fused = work / "model-fused.onnx"
    config = model.config
    optimizer.optimize_model(str(fp32), model_type="bert", num_heads=config.num_attention_heads,
                             hidden_size=config.hidden_size, opt_level=0).save_model_to_file(str(fused))
    fused_int8 = work / "model-fused-int8.onnx"
    quantize_dynamic(str(fused), str(fused_int8), weight_type=QuantType.QInt8,
                     extra_options={"DefaultTensorType": onnx.TensorProto.FLOAT})
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL

    def ort_run(path: Path) -> Callable[[Batch], numpy.ndarray]:
        session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        return lambda batch: session.run(["last_hidden_state"], batch)[0]

    found.update({"ort-fp32": ort_run(fp32), "ort-int8": ort_run(int8), "ort-fused-int8": ort_run(fused_int8)})
    return found


def measure(runs: Dict[str, Callable[[Batch], numpy.ndarray]], data: List[Batch], pieces: int,
            repeat: int) -> Dict[str, Dict[str, float]]:
    """Pieces per second and the difference from torch-fp32 of each backend on one split."""
    reference = [runs["torch-fp32"](b) for b in data]
    out = {}
    for name, run in runs.items():
        seconds = best_of(lambda: [run(b) for b in data], repeat, warm_up=True)
        diffs = [numpy.abs(run(b) - ref)[b["attention_mask"].astype(bool)] for b, ref in zip(data, reference)]
        out[name] = {"pieces_per_second": pieces / seconds,
                     "max_abs_diff": float(max(d.max() for d in diffs)),
                     "mean_abs_diff": float(numpy.concatenate([d.ravel() for d in diffs]).mean())}
        print(f"  {name}: {pieces / seconds:,.0f} pieces/s, |Δ| max {out[name]['max_abs_diff']:.3f} "
              f"mean {out[name]['mean_abs_diff']:.4f}", file=sys.stderr, flush=True)
    return out


def render(results: Dict[str, Any]) -> str:
    """The Markdown of the results: per split the backends' speed and their difference from
    PyTorch float32."""
    meta = results["meta"]
    lines = ["# Inference backends for the transformer backbone", "",
             f"Written by `bench/bench_backends.py` (the setup: its docstring). Backbone `{meta['backbone']}`; "
             f"{meta['machine']}; {meta['threads']} threads; fastest of {meta['repeat']} runs; batches of at most "
             f"{meta['bucket_pieces']} padded pieces, sorted by length. Word pieces per second (padding not counted), "
             "× against PyTorch int8 (the component's default), and the mean absolute difference of the last hidden "
             "states from PyTorch float32.", ""]
    for split in meta["splits"]:
        rows = results[split]
        base = rows["torch-int8"]["pieces_per_second"]
        lines += [f"## {SPLIT_NAMES.get(split, split)} test", ""]
        lines += markdown_table(["backend", "pieces/s", "× torch-int8", "mean abs diff", "max abs diff"],
                                [[name, f"{r['pieces_per_second']:,.0f}", f"{r['pieces_per_second'] / base:.2f}",
                                  f"{r['mean_abs_diff']:.4f}", f"{r['max_abs_diff']:.3f}"] for name, r in rows.items()])
        lines.append("")
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", action="append", required=True, help="NAME=PATH of a gold .spacy file")
    parser.add_argument("--backbone", default=DEFAULT_BACKBONE)
    parser.add_argument("--threads", type=int, default=int(os.environ.get("OMP_NUM_THREADS", "2")))
    parser.add_argument("--bucket-pieces", type=int, default=4096)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out-dir", type=Path, default=Path("."))
    parser.add_argument("--out-name", default="speed_backends", help="the output files' name (.json, .md)")
    args = parser.parse_args(argv)
    folder = resolve_backbone(args.backbone)
    if folder is None:
        parser.error(f"backbone {args.backbone!r} not found (install its package)")
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder)
    vocab = spacy.blank("en").vocab
    splits = dict(s.split("=", 1) for s in args.split)
    meta = {"backbone": args.backbone, "machine": f"{os.cpu_count()} CPU cores, {platform.machine()}",
            "threads": args.threads, "repeat": args.repeat, "bucket_pieces": args.bucket_pieces, "splits": list(splits)}
    results: Dict[str, Any] = {"meta": meta}
    with tempfile.TemporaryDirectory() as tmp:
        runs = backends(folder, args.threads, Path(tmp))
        for split, path in splits.items():
            docs = list(DocBin().from_disk(path).get_docs(vocab))
            words = [[t.text for t in sent] for doc in docs for sent in doc.sents]
            data, pieces = batches(words, tokenizer, args.bucket_pieces)
            print(f"{split}: {len(words)} sentences, {pieces} pieces in {len(data)} batches", file=sys.stderr)
            results[split] = measure(runs, data, pieces, args.repeat)
    args.out_dir.mkdir(parents=True, exist_ok=True)
    atomic_write_text(args.out_dir / f"{args.out_name}.json", json.dumps(results, indent=2) + "\n")
    text = render(results)
    atomic_write_text(args.out_dir / f"{args.out_name}.md", text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
