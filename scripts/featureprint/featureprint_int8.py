"""The int8 feature-print file (format version 2, weight type 2; docs in Models/README.md): per-channel int8
weight quantisation, encoding and decoding, and a float simulation of what the int8 network computes.
Used by scripts/featureprint/quantize.py; needs the same packages as featureprint.py.
"""

import struct
import zlib

import numpy as np
import torch
import torch.nn.functional as F

from featureprint import (ACT_RELU6, INPUT_MEAN, INPUT_SCALE, INPUT_SIZE, KIND_ADD, KIND_CONV, KIND_DEPTHWISE,
                          KIND_FC, KIND_POOL, MAGIC, NETWORK, NO_VALUE, PAD_SAME, Reader, _str, same_padding)

FORMAT_VERSION_INT8 = 2
WEIGHT_INT8 = 2
WEIGHTED_KINDS = (KIND_CONV, KIND_DEPTHWISE, KIND_FC)


def weight_channel_axis(kind):
    """The axis of a layer's weights that runs over output channels (depthwise: the last)."""
    return 2 if kind == KIND_DEPTHWISE else 0


MAX_BIAS_CODE = 2 ** 24


def quantize_weights(kind, w, bias=None, input_scale=0.0):
    """Symmetric per-output-channel int8: scale = max|w| / 127 per channel (1 for an all-zero channel),
    q = round(w / scale) in -127...127. With an int8 input of scale input_scale, a channel's scale is raised
    where needed so that its bias is at most 2^24 accumulator steps (input scale x weight scale): a channel of
    near-zero weights and a large bias would otherwise overflow the int32 bias. Returns (q int8, scales f32)."""
    w = np.asarray(w, dtype=np.float64)
    axis = weight_channel_axis(kind)
    moved = np.moveaxis(w, axis, 0).reshape(w.shape[axis], -1)
    peak = np.abs(moved).max(axis=1)
    scales = np.where(peak > 0, peak / 127.0, 1.0)
    if bias is not None and input_scale > 0:
        scales = np.maximum(scales, np.abs(np.asarray(bias, dtype=np.float64)) / (input_scale * MAX_BIAS_CODE))
    scales = scales.astype(np.float32)
    shape = [1] * w.ndim
    shape[axis] = -1
    q = np.clip(np.rint(w / scales.astype(np.float64).reshape(shape)), -127, 127).astype(np.int8)
    return q, scales


def dequantize_weights(kind, q, scales):
    shape = [1] * q.ndim
    shape[weight_channel_axis(kind)] = -1
    return (q.astype(np.float32) * np.asarray(scales, dtype=np.float32).reshape(shape)).astype(np.float32)


def encode_int8_file(ops, value_count, embedding_id, logits_id, provenance, input_q):
    """ops carry 'qweights' (int8), 'wscales' (f32 per output channel), 'bias' (f32) for weighted kinds and
    'oscale'/'ozp' (0 scale: the value stays float) for every op; input_q = (scale, zero point)."""
    body = bytearray()
    body += _str(NETWORK)
    body += _str(provenance)
    body += struct.pack("<IffIIIIfiI", INPUT_SIZE, INPUT_MEAN, INPUT_SCALE, WEIGHT_INT8, value_count,
                        embedding_id, logits_id, float(input_q[0]), int(input_q[1]), len(ops))
    for op in ops:
        body += struct.pack("<BBBBIIIIIIIII", op["kind"], op["act"], op["pad"], 0, op["input"],
                            op["input2"], op["output"], op["kh"], op["kw"], op["sh"], op["sw"],
                            op["cin"], op["cout"])
        body += struct.pack("<fi", float(op["oscale"]), int(op["ozp"]))
        if op["kind"] in WEIGHTED_KINDS:
            q = np.ascontiguousarray(op["qweights"], dtype=np.int8)
            expected = {KIND_CONV: (op["cout"], op["kh"], op["kw"], op["cin"]),
                        KIND_DEPTHWISE: (op["kh"], op["kw"], op["cin"]),
                        KIND_FC: (op["cout"], op["cin"])}[op["kind"]]
            assert q.shape == expected, (q.shape, expected)
            body += q.tobytes()
            body += np.asarray(op["wscales"], dtype="<f4").tobytes()
            body += np.asarray(op["bias"], dtype="<f4").tobytes()
    total = 8 + 2 + 2 + 8 + len(body) + 4
    data = MAGIC + struct.pack("<HHQ", FORMAT_VERSION_INT8, 0, total) + bytes(body)
    return data + struct.pack("<I", zlib.crc32(data) & 0xFFFFFFFF)


def decode_int8_file(data):
    """Parses and checks an int8 feature-print file; weights come back dequantised (float32) beside
    'qweights' and 'wscales'."""
    if len(data) < 24 or data[:8] != MAGIC:
        raise ValueError("not a Glimpse feature-print file")
    (crc,) = struct.unpack("<I", data[-4:])
    if zlib.crc32(data[:-4]) & 0xFFFFFFFF != crc:
        raise ValueError("checksum mismatch")
    r = Reader(data[:-4])
    r.take(8)
    version, reserved, total = r.unpack("<HHQ")
    if version != FORMAT_VERSION_INT8 or reserved != 0 or total != len(data):
        raise ValueError(f"bad header: version {version}, reserved {reserved}, length {total}/{len(data)}")
    h = dict(network=r.string(), provenance=r.string())
    (h["input_size"], h["input_mean"], h["input_scale"], h["weight_type"], h["value_count"], h["embedding"],
     h["logits"], h["input_qscale"], h["input_qzp"], op_count) = r.unpack("<IffIIIIfiI")
    if h["weight_type"] != WEIGHT_INT8:
        raise ValueError("bad weight type")
    ops = []
    for _ in range(op_count):
        (kind, act, pad, res, inp, inp2, out, kh, kw, sh, sw, cin, cout) = r.unpack("<BBBBIIIIIIIII")
        oscale, ozp = r.unpack("<fi")
        op = dict(kind=kind, act=act, pad=pad, input=inp, input2=inp2, output=out, kh=kh, kw=kw, sh=sh,
                  sw=sw, cin=cin, cout=cout, weights=None, bias=None, oscale=oscale, ozp=ozp)
        shape = {KIND_CONV: (cout, kh, kw, cin), KIND_DEPTHWISE: (kh, kw, cin), KIND_FC: (cout, cin)}.get(kind)
        if shape is not None:
            n = int(np.prod(shape))
            op["qweights"] = np.frombuffer(r.take(n), dtype=np.int8).reshape(shape)
            op["wscales"] = np.frombuffer(r.take(cout * 4), dtype="<f4").astype(np.float32)
            op["bias"] = np.frombuffer(r.take(cout * 4), dtype="<f4").astype(np.float32)
            op["weights"] = dequantize_weights(kind, op["qweights"], op["wscales"])
        ops.append(op)
    if r.pos != len(r.data):
        raise ValueError("trailing bytes")
    return h, ops


def quantize_values(x, scale, zp):
    """Real values to int8 codes and back: the value an int8 tensor with (scale, zero point) holds."""
    q = torch.clamp(torch.round(x / scale) + zp, -128, 127)
    return (q - zp) * scale


@torch.no_grad()
def int8_forward(header, ops, batch):
    """What the int8 file computes, simulated in float: every quantised value rounded to its int8 grid,
    weights dequantised, biases rounded to the accumulator's grid (input scale x weight scale).
    Returns (embedding, logits) numpy float32."""
    x = np.asarray(batch, dtype=np.float32)
    if x.ndim == 3:
        x = x[None]
    x = (x - header["input_mean"]) * header["input_scale"]
    x = torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2)))
    values = {0: quantize_values(x, header["input_qscale"], header["input_qzp"])}
    scales = {0: header["input_qscale"]}
    for op in ops:
        a = values[op["input"]]
        k = op["kind"]
        if k in (KIND_CONV, KIND_DEPTHWISE):
            bias = torch.from_numpy(np.asarray(op["bias"], dtype=np.float32))
            if scales[op["input"]] > 0:
                s_acc = scales[op["input"]] * op["wscales"].astype(np.float64)
                bias = torch.from_numpy((np.rint(op["bias"] / s_acc) * s_acc).astype(np.float32))
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
            y = F.conv2d(a, w, bias, stride=(op["sh"], op["sw"]), groups=groups)
        elif k == KIND_ADD:
            y = a + values[op["input2"]]
        elif k == KIND_POOL:
            y = a.mean(dim=(2, 3))
        else:
            y = a @ torch.from_numpy(op["weights"]).T + torch.from_numpy(op["bias"])
        if op["act"] == ACT_RELU6:
            y = y.clamp(0.0, 6.0)
        if op["oscale"] > 0:
            y = quantize_values(y, op["oscale"], op["ozp"])
        values[op["output"]] = y
        scales[op["output"]] = op["oscale"]
    emb = values[header["embedding"]].numpy()
    logits = values[header["logits"]].numpy() if header["logits"] != NO_VALUE else None
    return emb, logits
