"""The BiLSTM-over-windows layer of the taggers (the BiLSTM-Tagger of Sineva et al.
2021): a learned cue-type embedding concatenated to the windows' token vectors, then a
bidirectional LSTM over each window, in PyTorch, wrapped for Thinc. Padded windows in,
one array per window out.

The input width (the token-vector width of the shared transformer or tok2vec) is only
known once the upstream component is initialized, so the PyTorch module is built lazily:
in the Thinc model's ``init``, or, when a pipeline is loaded from disk, from the shapes
of the stored weights.
"""
from io import BytesIO
from typing import Any, Callable, List, Tuple, cast

from thinc.api import ArgsKwargs, Model, PyTorchWrapper_v2, get_torch_default_device, torch2xp, xp2torch
from thinc.compat import torch
from thinc.shims import PyTorchShim
from thinc.types import Floats2d, Floats3d

from .fork import register_fork_hook
from .windows import CUE_AFFIX, CUE_NONE, CUE_WHOLE, N_CUE_TYPES, PaddedWindows

# The cue types are defined with the windows (ml.windows); they are also importable from
# here, where the components took them from before.
__all__ = ["CUE_AFFIX", "CUE_NONE", "CUE_WHOLE", "N_CUE_TYPES", "CueBiLSTMModule",
           "build_cue_bilstm", "build_module", "is_built"]


class CueBiLSTMModule(torch.nn.Module):
    """Cue embedding + bidirectional LSTM over padded windows.

    nI (int): the token-vector width.
    cue_width (int): the width of the cue embedding (0: none; the cue tagger's BiLSTM).
    hidden_width (int): the LSTM width per direction.
    depth (int): the number of LSTM layers.
    n_cue_types (int): rows of the cue embedding.
    n_kinds (int): rows of a learned kind embedding (0: none, the cue codes are cue
        types; else a code is ``kind * n_cue_types + cue type`` and the kind's embedding
        is added to the cue type's, on every token of the window: the scope tagger v2).
    """

    def __init__(self, nI: int, cue_width: int, hidden_width: int, depth: int,
                 n_cue_types: int = N_CUE_TYPES, n_kinds: int = 0) -> None:
        super().__init__()
        self.n_cue_types = n_cue_types
        self.cue_embed = torch.nn.Embedding(n_cue_types, cue_width) if cue_width else None
        self.kind_embed = torch.nn.Embedding(n_kinds, cue_width) if cue_width and n_kinds else None
        self.lstm = torch.nn.LSTM(nI + cue_width, hidden_width, depth,
                                  bidirectional=True, batch_first=True)

    def forward(self, X: "torch.Tensor", cues: "torch.Tensor",
                lengths: "torch.Tensor") -> "torch.Tensor":
        if self.cue_embed is None:
            H = X
        elif self.kind_embed is None:
            H = torch.cat([X, self.cue_embed(cues)], dim=-1)
        else:
            embedded = self.cue_embed(cues % self.n_cue_types) + self.kind_embed(cues // self.n_cue_types)
            H = torch.cat([X, embedded], dim=-1)
        packed = torch.nn.utils.rnn.pack_padded_sequence(
            H, lengths.cpu(), batch_first=True, enforce_sorted=False
        )
        out, _ = self.lstm(packed)
        out, _ = torch.nn.utils.rnn.pad_packed_sequence(
            out, batch_first=True, total_length=X.shape[1]
        )
        return out


def build_cue_bilstm(cue_width: int, hidden_width: int, depth: int,
                     n_kinds: int = 0) -> Model[PaddedWindows, List[Floats2d]]:
    """The BiLSTM-over-windows layer: a Thinc model around :class:`CueBiLSTMModule`,
    built lazily.

    cue_width (int): the width of the cue embedding.
    hidden_width (int): the LSTM width per direction.
    depth (int): the number of LSTM layers.
    n_kinds (int): rows of the kind embedding (0: none; see :class:`CueBiLSTMModule`).
    RETURNS (Model[PaddedWindows, List[Floats2d]]): padded token vectors (windows,
        length, nI), cue types (windows, length) and lengths -> per window, outputs
        (length, 2 * hidden_width).
    """

    def deserialize(module: Any, state: bytes, device: "torch.device") -> Any:
        if not state:
            return module
        weights = torch.load(BytesIO(state), map_location=device)
        if module is None:
            n_cue = int(weights["cue_embed.weight"].shape[1]) if "cue_embed.weight" in weights else 0
            nI = int(weights["lstm.weight_ih_l0"].shape[1]) - n_cue
            module = CueBiLSTMModule(nI, cue_width, hidden_width, depth, n_kinds=n_kinds)
        module.load_state_dict(weights)
        module.to(device)
        return module

    register_fork_hook()  # a torch layer: nlp.pipe(n_process=N) forks safely
    model: Model = PyTorchWrapper_v2(
        None,
        convert_inputs=_convert_inputs,
        convert_outputs=_convert_outputs,
    )
    shim = cast(PyTorchShim, model.shims[0])
    shim._serialize_model = _serialize
    shim._deserialize_model = deserialize
    model.attrs["cue_width"] = cue_width
    model.attrs["hidden_width"] = hidden_width
    model.attrs["depth"] = depth
    if n_kinds:  # (a v1 model's attributes stay as they were)
        model.attrs["n_kinds"] = n_kinds
    model.set_dim("nO", 2 * hidden_width)
    return model


def build_module(model: Model, nI: int) -> None:
    """Create the PyTorch module of a model from :func:`build_cue_bilstm` (if missing).

    model (Model): the wrapper.
    nI (int): the token-vector width.
    """
    shim = cast(PyTorchShim, model.shims[0])
    if shim._model is not None:
        return
    module = CueBiLSTMModule(nI, model.attrs["cue_width"], model.attrs["hidden_width"],
                             model.attrs["depth"], n_kinds=model.attrs.get("n_kinds", 0))
    shim._model = module.to(get_torch_default_device())
    model.set_dim("nI", nI)


def is_built(model: Model) -> bool:
    """Whether the PyTorch module of a :func:`build_cue_bilstm` model exists."""
    return cast(PyTorchShim, model.shims[0])._model is not None


def _serialize(module: Any) -> bytes:
    if module is None:
        return b""
    buf = BytesIO()
    torch.save(module.state_dict(), buf)
    return buf.getvalue()


def _convert_inputs(model: Model, inputs: PaddedWindows, is_train: bool) -> Tuple[ArgsKwargs, Callable]:
    shim = cast(PyTorchShim, model.shims[0])
    X, cues, lengths = inputs
    device = shim.device
    Xt = xp2torch(X, requires_grad=is_train, device=device)
    cues_t = xp2torch(model.ops.asarray(cues, dtype="int64"), device=device)
    lengths_t = torch.as_tensor(model.ops.to_numpy(lengths), dtype=torch.int64)

    def backprop(dXtorch: ArgsKwargs) -> PaddedWindows:
        return cast(Floats3d, torch2xp(dXtorch.args[0])), cues, lengths

    return ArgsKwargs(args=(Xt, cues_t, lengths_t), kwargs={}), backprop


def _convert_outputs(
    model: Model, inputs_outputs: Tuple[PaddedWindows, "torch.Tensor"], is_train: bool
) -> Tuple[List[Floats2d], Callable[[List[Floats2d]], ArgsKwargs]]:
    shim = cast(PyTorchShim, model.shims[0])
    (_, _, lengths), Yt = inputs_outputs
    Hp = cast(Floats3d, torch2xp(Yt))
    Ys: List[Floats2d] = [Hp[b, :n] for b, n in enumerate(lengths.tolist())]

    def backprop(dYs: List[Floats2d]) -> ArgsKwargs:
        dHp = model.ops.alloc3f(*Hp.shape)
        for b, dY in enumerate(dYs):
            dHp[b, : len(dY)] = dY
        dYt = xp2torch(dHp, device=shim.device)
        return ArgsKwargs(args=(Yt,), kwargs={"grad_tensors": dYt})

    return Ys, backprop

