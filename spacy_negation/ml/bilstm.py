"""The scope model's PyTorch core: a learned cue/not-cue embedding concatenated to the
token vectors, then a bidirectional LSTM, wrapped for Thinc.

The input width (the token-vector width of the shared transformer or tok2vec) is only
known once the upstream component is initialized, so the PyTorch module is built lazily:
in the Thinc model's ``init``, or, when a pipeline is loaded from disk, from the shapes
of the stored weights.
"""
from io import BytesIO
from typing import Any, Callable, Tuple, cast

from thinc.api import ArgsKwargs, Model, PyTorchWrapper_v2, get_torch_default_device, torch2xp, xp2torch
from thinc.compat import torch
from thinc.shims import PyTorchShim
from thinc.types import Floats3d, Ints1d, Ints2d

#: Rows of the cue embedding: not a cue token, whole-token cue, affixal cue token.
N_CUE_TYPES = 3
CUE_NONE, CUE_WHOLE, CUE_AFFIX = 0, 1, 2

BiLSTMInputs = Tuple[Floats3d, Ints2d, Ints1d]


class CueBiLSTMModule(torch.nn.Module):
    """Cue embedding + bidirectional LSTM over padded windows.

    nI (int): the token-vector width.
    cue_width (int): the width of the cue embedding (0: none; the cue tagger's BiLSTM).
    hidden_width (int): the LSTM width per direction.
    depth (int): the number of LSTM layers.
    n_cue_types (int): rows of the cue embedding.
    """

    def __init__(self, nI: int, cue_width: int, hidden_width: int, depth: int,
                 n_cue_types: int = N_CUE_TYPES) -> None:
        super().__init__()
        self.cue_embed = torch.nn.Embedding(n_cue_types, cue_width) if cue_width else None
        self.lstm = torch.nn.LSTM(nI + cue_width, hidden_width, depth,
                                  bidirectional=True, batch_first=True)

    def forward(self, X: "torch.Tensor", cues: "torch.Tensor",
                lengths: "torch.Tensor") -> "torch.Tensor":
        H = X if self.cue_embed is None else torch.cat([X, self.cue_embed(cues)], dim=-1)
        packed = torch.nn.utils.rnn.pack_padded_sequence(
            H, lengths.cpu(), batch_first=True, enforce_sorted=False
        )
        out, _ = self.lstm(packed)
        out, _ = torch.nn.utils.rnn.pad_packed_sequence(
            out, batch_first=True, total_length=X.shape[1]
        )
        return out


def build_cue_bilstm(cue_width: int, hidden_width: int, depth: int) -> Model[BiLSTMInputs, Floats3d]:
    """A Thinc model around :class:`CueBiLSTMModule`, built lazily.

    cue_width (int): the width of the cue embedding.
    hidden_width (int): the LSTM width per direction.
    depth (int): the number of LSTM layers.
    RETURNS (Model[Tuple[Floats3d, Ints2d, Ints1d], Floats3d]): padded token vectors
        (batch, length, nI), cue types (batch, length) and lengths -> padded outputs
        (batch, length, 2 * hidden_width).
    """

    def deserialize(module: Any, state: bytes, device: "torch.device") -> Any:
        if not state:
            return module
        weights = torch.load(BytesIO(state), map_location=device)
        if module is None:
            n_cue = int(weights["cue_embed.weight"].shape[1]) if "cue_embed.weight" in weights else 0
            nI = int(weights["lstm.weight_ih_l0"].shape[1]) - n_cue
            module = CueBiLSTMModule(nI, cue_width, hidden_width, depth)
        module.load_state_dict(weights)
        module.to(device)
        return module

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
                             model.attrs["depth"])
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


def _convert_inputs(model: Model, inputs: BiLSTMInputs, is_train: bool) -> Tuple[ArgsKwargs, Callable]:
    shim = cast(PyTorchShim, model.shims[0])
    X, cues, lengths = inputs
    device = shim.device
    Xt = xp2torch(X, requires_grad=is_train, device=device)
    cues_t = xp2torch(model.ops.asarray(cues, dtype="int64"), device=device)
    lengths_t = torch.as_tensor(model.ops.to_numpy(lengths), dtype=torch.int64)

    def backprop(dXtorch: ArgsKwargs) -> Floats3d:
        return cast(Floats3d, torch2xp(dXtorch.args[0]))

    return ArgsKwargs(args=(Xt, cues_t, lengths_t), kwargs={}), backprop


def _convert_outputs(
    model: Model, inputs_outputs: Tuple[Any, "torch.Tensor"], is_train: bool
) -> Tuple[Floats3d, Callable[[Floats3d], ArgsKwargs]]:
    shim = cast(PyTorchShim, model.shims[0])
    _, Yt = inputs_outputs
    Y = cast(Floats3d, torch2xp(Yt))

    def backprop(dY: Floats3d) -> ArgsKwargs:
        dYt = xp2torch(dY, device=shim.device)
        return ArgsKwargs(args=(Yt,), kwargs={"grad_tensors": dYt})

    return Y, backprop

