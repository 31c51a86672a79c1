"""Train a tiny test config (configs/test/*.cfg) for a fixed number of steps and dump
the predictions of the trained pipeline: run it with two versions of the code and
compare the dumps (``python bench/dump_predictions.py --compare A.json B.json``) to
check that a change of the model code trains the same.

    python bench/train_tiny.py CONFIG TRAIN.spacy OUT_DIR [--backbone DIR] [--steps 36]
        [--cue-architecture NAME]

Writes OUT_DIR/model-last, OUT_DIR/model-best and OUT_DIR/predictions.json (the
predictions of model-last on TRAIN.spacy, with its scores); prints the scores of
model-best as spaCy's training recorded them.
"""
import argparse
import json
from pathlib import Path

from spacy.cli.train import train

from dump_predictions import dump


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("config", type=Path)
    parser.add_argument("train_data", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--backbone", default=None, help="transformer folder (trf configs)")
    parser.add_argument("--steps", type=int, default=36)
    parser.add_argument("--cue-architecture", default=None,
                        help="another registered cue tagger, e.g. spacy-negation.BiLSTMCueTagger.v1")
    args = parser.parse_args()
    overrides = {"paths.train": str(args.train_data), "paths.dev": str(args.train_data),
                 "training.max_steps": args.steps, "training.eval_frequency": 12}
    if args.backbone:
        overrides["components.transformer.model.name"] = args.backbone
    if args.cue_architecture:
        overrides["components.negation_cue.model.@architectures"] = args.cue_architecture
    train(args.config, args.out, overrides=overrides)
    result = dump(args.out / "model-last", args.train_data)
    (args.out / "predictions.json").write_text(json.dumps(result, ensure_ascii=False), encoding="utf8")
    meta = json.loads((args.out / "model-best" / "meta.json").read_text(encoding="utf8"))
    print(json.dumps({k: v for k, v in meta["performance"].items() if k.endswith("_f")}, sort_keys=True))


if __name__ == "__main__":
    main()
