"""Feature print, Glimpse against ONNX Runtime, one thread each, same inputs, same run, in fp32 and int8.

Exports the network of Models/featureprint.glimpsemodel (the folded file, fp16 weights widened to fp32,
so both engines compute the same function) to ONNX: by default written directly with the onnx package
(Conv nodes carry TF SAME's asymmetric pads, Clip for ReLU6, so ONNX Runtime fuses everything), or with
--export torch through torch.onnx (separate Pad nodes at stride 2, which ONNX Runtime does not fuse). Prepares N 224 x 224 PNG inputs from
catalog photos in a temporary folder, then alternates rounds: ONNX Runtime (intra_op_num_threads=1,
inter_op_num_threads=1, sequential execution, all graph optimisations) over every input R times, and
the Glimpse executable on the same folder with --repeat R. Prints a table and, as the last line, JSON.
Beside the wall-clock p50s, both engines record the CPU time of the running thread (*_cpu_ms), which the
machine's other load does not inflate.

int8: Glimpse runs Models/featureprint-int8.glimpsemodel (scripts/featureprint/quantize.py); ONNX Runtime
quantises the same fp32 ONNX graph with its own static quantisation (onnxruntime.quantization.quantize_static:
QDQ format, int8 weights per channel, MinMax calibration) on the same calibration photos the Glimpse file was
calibrated on (the catalog photos and ../shared/labelled/images when present, squashed to 224 x 224), and is
timed in the same rounds. The JSON also gives the cosine between Glimpse's int8 and fp32 prints over every
catalog photo (cosine_int8_fp32_mean / _min) and the same for ONNX Runtime's int8 against its fp32.
Run through scripts/bench-featureprint.sh.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import featureprint as fp  # noqa: E402


class FileNetwork(torch.nn.Module):
    """The ops of a Glimpse feature-print file as a torch module (NCHW input already scaled)."""

    def __init__(self, header, ops):
        super().__init__()
        self.header, self.ops = header, ops
        for i, op in enumerate(ops):
            if op["kind"] == fp.KIND_CONV:
                w = op["weights"].transpose(0, 3, 1, 2)
            elif op["kind"] == fp.KIND_DEPTHWISE:
                w = op["weights"].transpose(2, 0, 1)[:, None]
            elif op["kind"] == fp.KIND_FC:
                w = op["weights"]
            else:
                continue
            self.register_buffer(f"w{i}", torch.from_numpy(np.ascontiguousarray(w, dtype=np.float32)))
            self.register_buffer(f"b{i}", torch.from_numpy(np.ascontiguousarray(op["bias"], dtype=np.float32)))

    def forward(self, x):
        values = {0: x}
        size = int(self.header["input_size"])  # square input, fixed by the file
        sizes = {0: size}
        for i, op in enumerate(self.ops):
            a = values[op["input"]]
            s_in = sizes.get(op["input"], 1)
            k = op["kind"]
            if k in (fp.KIND_CONV, fp.KIND_DEPTHWISE):
                groups = 1 if k == fp.KIND_CONV else op["cin"]
                if op["pad"] == fp.PAD_SAME:
                    before, after = fp.same_padding(s_in, op["kh"], op["sh"])
                    if before == after:  # symmetric: the convolution pads itself
                        y = F.conv2d(a, getattr(self, f"w{i}"), getattr(self, f"b{i}"), stride=op["sh"],
                                     padding=before, groups=groups)
                    else:
                        y = F.conv2d(F.pad(a, [before, after, before, after]), getattr(self, f"w{i}"),
                                     getattr(self, f"b{i}"), stride=op["sh"], groups=groups)
                else:
                    y = F.conv2d(a, getattr(self, f"w{i}"), getattr(self, f"b{i}"), stride=op["sh"], groups=groups)
                sizes[op["output"]] = -(-s_in // op["sh"])
            elif k == fp.KIND_ADD:
                y = a + values[op["input2"]]
                sizes[op["output"]] = s_in
            elif k == fp.KIND_POOL:
                y = a.mean(dim=(2, 3))
            else:
                y = F.linear(a, getattr(self, f"w{i}"), getattr(self, f"b{i}"))
            if op["act"] == fp.ACT_RELU6:
                y = y.clamp(0.0, 6.0)
            values[op["output"]] = y
        return values[self.header["embedding"]], values[self.header["logits"]]


def onnx_from_file(header, ops, path):
    """The file's network as an ONNX graph (opset 13), NCHW input 'image' already scaled."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits = [], []
    special = {0: "image", header["embedding"]: "embedding", header["logits"]: "logits"}
    name = lambda v: special.get(v, f"v{v}")  # noqa: E731
    sizes = {0: int(header["input_size"])}
    inits.append(numpy_helper.from_array(np.array(0.0, dtype=np.float32), "zero"))
    inits.append(numpy_helper.from_array(np.array(6.0, dtype=np.float32), "six"))
    for i, op in enumerate(ops):
        k, x, out = op["kind"], name(op["input"]), name(op["output"])
        target = out + "_pre" if op["act"] == fp.ACT_RELU6 else out
        if k in (fp.KIND_CONV, fp.KIND_DEPTHWISE):
            if k == fp.KIND_CONV:
                w, group = op["weights"].transpose(0, 3, 1, 2), 1
            else:
                w, group = op["weights"].transpose(2, 0, 1)[:, None], op["cin"]
            inits.append(numpy_helper.from_array(np.ascontiguousarray(w, dtype=np.float32), f"w{i}"))
            inits.append(numpy_helper.from_array(np.ascontiguousarray(op["bias"], dtype=np.float32), f"b{i}"))
            s_in = sizes[op["input"]]
            if op["pad"] == fp.PAD_SAME:
                top, bottom = fp.same_padding(s_in, op["kh"], op["sh"])
                left, right = fp.same_padding(s_in, op["kw"], op["sw"])
            else:
                top = bottom = left = right = 0
            nodes.append(helper.make_node("Conv", [x, f"w{i}", f"b{i}"], [target], group=group,
                                          kernel_shape=[op["kh"], op["kw"]], strides=[op["sh"], op["sw"]],
                                          pads=[top, left, bottom, right]))
            sizes[op["output"]] = -(-s_in // op["sh"])
        elif k == fp.KIND_ADD:
            nodes.append(helper.make_node("Add", [x, name(op["input2"])], [target]))
            sizes[op["output"]] = sizes[op["input"]]
        elif k == fp.KIND_POOL:
            nodes.append(helper.make_node("GlobalAveragePool", [x], [out + "_4d"]))
            nodes.append(helper.make_node("Flatten", [out + "_4d"], [target], axis=1))
        else:
            inits.append(numpy_helper.from_array(np.ascontiguousarray(op["weights"], dtype=np.float32), f"w{i}"))
            inits.append(numpy_helper.from_array(np.ascontiguousarray(op["bias"], dtype=np.float32), f"b{i}"))
            nodes.append(helper.make_node("Gemm", [x, f"w{i}", f"b{i}"], [target], transB=1))
        if op["act"] == fp.ACT_RELU6:
            nodes.append(helper.make_node("Clip", [target, "zero", "six"], [out]))
    s = int(header["input_size"])
    graph = helper.make_graph(
        nodes, "featureprint", [helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 3, s, s])],
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, [1, ops[-1]["cin"]]),
         helper.make_tensor_value_info("logits", TensorProto.FLOAT, [1, ops[-1]["cout"]])]
        if header["logits"] != fp.NO_VALUE else
        [helper.make_tensor_value_info("embedding", TensorProto.FLOAT, [1, ops[-1]["cout"]])],
        initializer=inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, path)


def ort_session(ort, path):
    so = ort.SessionOptions()
    so.intra_op_num_threads = 1
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(path, so, providers=["CPUExecutionProvider"])


def ort_quantize(fp32_path, int8_path, calibration, activations):
    """ONNX Runtime's static quantisation of the fp32 graph, calibrated on `calibration` (N x 3 x 224 x 224)."""
    from onnxruntime.quantization import (CalibrationDataReader, CalibrationMethod, QuantFormat, QuantType,
                                          quantize_static)

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.i = 0

        def get_next(self):
            if self.i >= len(calibration):
                return None
            self.i += 1
            return {"image": calibration[self.i - 1:self.i]}

    quantize_static(fp32_path, int8_path, Reader(), quant_format=QuantFormat.QDQ, per_channel=True,
                    activation_type=QuantType.QUInt8 if activations == "u8" else QuantType.QInt8,
                    weight_type=QuantType.QInt8, calibrate_method=CalibrationMethod.MinMax)


def glimpse_run(glimpse, model, inputs_dir, repeat, prints=None):
    cmd = [glimpse, "--model", model, "--inputs", inputs_dir, "--repeat", str(repeat)]
    if prints:
        cmd += ["--prints", prints, "--warmup", "0"]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr}")
    lines = [l for l in proc.stdout.splitlines() if l.strip().startswith("{")]
    if not lines:
        sys.exit(f"error: {glimpse} printed no JSON line:\n{proc.stdout}")
    g = json.loads(lines[-1])
    if "p50_ms" not in g or "mean_ms" not in g:
        sys.exit(f"error: {glimpse} JSON lacks p50_ms/mean_ms: {lines[-1]}")
    return g


def stats(ms):
    ms = np.asarray(ms, dtype=np.float64)
    return {"p50_ms": float(np.percentile(ms, 50)), "mean_ms": float(ms.mean()),
            "p90_ms": float(np.percentile(ms, 90)), "min_ms": float(ms.min()), "n": int(len(ms))}


def main():
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--model", default=os.path.join(root, "Models", "featureprint.glimpsemodel"))
    ap.add_argument("--int8-model", default=os.path.join(root, "Models", "featureprint-int8.glimpsemodel"),
                    help="the Glimpse int8 file ('none': fp32 only)")
    ap.add_argument("--photos", default=os.path.join(root, "Images", "photos"))
    ap.add_argument("--calibration", action="append", default=None,
                    help="calibration photos besides the catalog's for ONNX Runtime's int8 (repeatable; default "
                         "../shared/labelled/images when it exists, as scripts/featureprint/quantize.py)")
    ap.add_argument("--ort-int8-activations", choices=["u8", "s8"], default="u8",
                    help="ONNX Runtime's int8 activations: u8 (its recommended choice on x86) or s8")
    ap.add_argument("--glimpse", default=os.path.join(root, ".build", "release", "glimpse-featureprint-bench"),
                    help="the Glimpse bench executable; 'none' measures ONNX Runtime alone")
    ap.add_argument("--inputs", type=int, default=16, help="number of catalog photos used as inputs")
    ap.add_argument("--repeat", type=int, default=10, help="passes over the inputs per round")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds of each engine")
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--export", choices=["onnx", "torch"], default="onnx",
                    help="write the ONNX graph directly (default) or through torch.onnx")
    args = ap.parse_args()
    torch.set_num_threads(1)

    import onnxruntime as ort

    glimpse = None if args.glimpse == "none" else args.glimpse
    if glimpse and not os.access(glimpse, os.X_OK):
        sys.exit(f"error: the Glimpse bench executable {glimpse} is missing; build it with "
                 "`swift build -c release --product glimpse-featureprint-bench` (or pass --glimpse none "
                 "to time ONNX Runtime alone)")

    with open(args.model, "rb") as f:
        header, ops = fp.decode_file(f.read())
    tmp = tempfile.mkdtemp(prefix="glimpse-featureprint-bench-")
    try:
        # Inputs: the same PNG files for both engines.
        inputs_dir = os.path.join(tmp, "inputs")
        os.makedirs(inputs_dir)
        photos = fp.photo_files(args.photos)
        step = max(1, len(photos) // args.inputs)
        chosen = photos[::step][:args.inputs]
        for p in chosen:
            arr = fp.reduce_to_input(fp.load_rgb(p), "squash")
            Image.fromarray(arr, "RGB").save(os.path.join(inputs_dir, os.path.splitext(os.path.basename(p))[0] + ".png"))
        pngs = sorted(os.path.join(inputs_dir, n) for n in os.listdir(inputs_dir))
        pixels = np.stack([np.asarray(Image.open(p).convert("RGB")) for p in pngs])
        scaled = fp.to_network_input(pixels).numpy()  # N x 3 x 224 x 224, (x - 127) / 128

        # Export, and check that ONNX Runtime computes the original network.
        onnx_path = os.path.join(tmp, "featureprint.onnx")
        if args.export == "onnx":
            onnx_from_file(header, ops, onnx_path)
        else:
            import warnings

            net = FileNetwork(header, ops).eval()
            with torch.no_grad(), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                torch.onnx.export(net, torch.from_numpy(scaled[:1]), onnx_path, opset_version=13,
                                  input_names=["image"], output_names=["embedding", "logits"])
        sess = ort_session(ort, onnx_path)
        emb_ort = np.concatenate([sess.run(["embedding"], {"image": scaled[i:i + 1]})[0] for i in range(len(pngs))])
        emb_ref, _ = fp.original_forward(fp.load_original(), pixels)
        agreement = float(fp.cosine_rows(emb_ref, emb_ort).min())
        print(f"ONNX Runtime {ort.__version__}, model exported ({args.export}) from {os.path.relpath(args.model, root)}; "
              f"embedding cosine to the original fp32 network, min over {len(pngs)} inputs: {agreement:.7f}",
              file=sys.stderr)

        int8 = args.int8_model != "none"
        if int8:
            if not os.path.exists(args.int8_model):
                sys.exit(f"error: {args.int8_model} is missing; run scripts/convert-featureprint.sh")
            folders = args.calibration
            if folders is None:
                default = os.path.join(root, "..", "shared", "labelled", "images")
                folders = [default] if os.path.isdir(default) else []
            calibration_photos = fp.photo_files(args.photos) + [p for d in folders for p in fp.photo_files(d)]
            calibration = fp.to_network_input(np.stack(
                [fp.reduce_to_input(fp.load_rgb(p), "squash") for p in calibration_photos])).numpy()
            onnx_int8 = os.path.join(tmp, "featureprint-int8.onnx")
            t0 = time.time()
            ort_quantize(onnx_path, onnx_int8, calibration, args.ort_int8_activations)
            sess8 = ort_session(ort, onnx_int8)
            emb_ort8 = np.concatenate([sess8.run(["embedding"], {"image": scaled[i:i + 1]})[0]
                                       for i in range(len(pngs))])
            ort8_cos = fp.cosine_rows(emb_ort, emb_ort8)
            print(f"ONNX Runtime int8 (QDQ, {args.ort_int8_activations} activations, s8 per-channel weights, MinMax "
                  f"over {len(calibration_photos)} photos) quantised in {time.time() - t0:.1f} s; embedding cosine to "
                  f"its fp32 over {len(pngs)} inputs: mean {ort8_cos.mean():.5f}, min {ort8_cos.min():.5f}",
                  file=sys.stderr)

        sessions = [("fp32", sess)] + ([("int8", sess8)] if int8 else [])
        for _, session in sessions:
            for i in range(args.warmup):
                session.run(["embedding"], {"image": scaled[i % len(pngs):i % len(pngs) + 1]})

        ort_ms = {name: [] for name, _ in sessions}
        ort_cpu_ms = {name: [] for name, _ in sessions}
        glimpse_rounds = {name: [] for name, _ in sessions}
        models = {"fp32": args.model, "int8": args.int8_model}
        for r in range(args.rounds):
            for name, session in sessions:
                for _ in range(args.repeat):
                    for i in range(len(pngs)):
                        x = scaled[i:i + 1]
                        c0, t0 = time.thread_time(), time.perf_counter()
                        session.run(["embedding"], {"image": x})
                        ort_ms[name].append((time.perf_counter() - t0) * 1000.0)
                        ort_cpu_ms[name].append((time.thread_time() - c0) * 1000.0)
                if glimpse:
                    glimpse_rounds[name].append(glimpse_run(glimpse, models[name], inputs_dir, args.repeat))
            print(f"round {r + 1}/{args.rounds}: " + "; ".join(
                f"{name}: ONNX Runtime p50 {np.percentile(ort_ms[name][-args.repeat * len(pngs):], 50):.2f} ms"
                + (f", Glimpse p50 {glimpse_rounds[name][-1]['p50_ms']:.2f} ms" if glimpse else "")
                for name, _ in sessions), file=sys.stderr)

        cosines = None
        if glimpse and int8:
            # Glimpse's int8 prints against its fp32 prints, over every catalog photo.
            catalog_dir = os.path.join(tmp, "catalog")
            os.makedirs(catalog_dir)
            for p in photos:
                Image.fromarray(fp.reduce_to_input(fp.load_rgb(p), "squash"), "RGB").save(
                    os.path.join(catalog_dir, os.path.splitext(os.path.basename(p))[0] + ".png"))
            prints = {}
            for name in ("fp32", "int8"):
                out = os.path.join(tmp, f"prints-{name}.json")
                glimpse_run(glimpse, models[name], catalog_dir, 1, prints=out)
                with open(out) as f:
                    data = json.load(f)
                prints[name] = np.asarray(data["prints"], dtype=np.float64)
            cosines = (prints["fp32"] * prints["int8"]).sum(1)
            print(f"Glimpse int8 against fp32 prints over {len(cosines)} catalog photos: mean cosine "
                  f"{cosines.mean():.5f}, min {cosines.min():.5f}", file=sys.stderr)

        o = stats(ort_ms["fp32"])
        rows = [("onnxruntime " + ort.__version__, o)]
        result = {"glimpse_ms": None, "onnxruntime_ms": round(o["p50_ms"], 3), "ratio": None}

        def glimpse_stats(rounds):
            return {"p50_ms": float(np.median([g["p50_ms"] for g in rounds])),
                    "cpu_p50_ms": float(np.median([g.get("cpu_p50_ms", float("nan")) for g in rounds])),
                    "mean_ms": float(np.mean([g["mean_ms"] for g in rounds])),
                    "p90_ms": float(np.median([g.get("p90_ms", float("nan")) for g in rounds])),
                    "min_ms": float(min(g.get("min_ms", float("nan")) for g in rounds)), "n": args.rounds}

        if glimpse:
            g = glimpse_stats(glimpse_rounds["fp32"])
            rows.insert(0, ("glimpse", g))
            result.update(glimpse_ms=round(g["p50_ms"], 3), ratio=round(g["p50_ms"] / o["p50_ms"], 3),
                          glimpse_mean_ms=round(g["mean_ms"], 3), glimpse_rounds=glimpse_rounds["fp32"])
        # CPU time of the running thread: what the machine's other load does not inflate (ONNX Runtime runs
        # on the calling thread with one intra-op thread).
        ort_cpu = {name: float(np.percentile(v, 50)) for name, v in ort_cpu_ms.items()}
        result.update(onnxruntime_cpu_ms=round(ort_cpu["fp32"], 3))
        if glimpse:
            result.update(glimpse_cpu_ms=round(g["cpu_p50_ms"], 3), cpu_ratio=round(g["cpu_p50_ms"] / ort_cpu["fp32"], 3))
        if int8:
            result.update(onnxruntime_int8_cpu_ms=round(ort_cpu["int8"], 3))
            if glimpse:
                g8c = glimpse_stats(glimpse_rounds["int8"])["cpu_p50_ms"]
                result.update(glimpse_int8_cpu_ms=round(g8c, 3),
                              cpu_ratio_int8_vs_ort_fp32=round(g8c / ort_cpu["fp32"], 3),
                              cpu_ratio_int8_vs_ort_int8=round(g8c / ort_cpu["int8"], 3))
        if int8:
            o8 = stats(ort_ms["int8"])
            rows.append(("onnxruntime int8", o8))
            result.update(onnxruntime_int8_ms=round(o8["p50_ms"], 3),
                          onnxruntime_int8_activations=args.ort_int8_activations,
                          onnxruntime_int8_cosine_mean=round(float(ort8_cos.mean()), 5),
                          onnxruntime_int8_cosine_min=round(float(ort8_cos.min()), 5))
            if glimpse:
                g8 = glimpse_stats(glimpse_rounds["int8"])
                rows.insert(1, ("glimpse int8", g8))
                result.update(glimpse_int8_ms=round(g8["p50_ms"], 3),
                              ratio_int8_vs_ort_fp32=round(g8["p50_ms"] / o["p50_ms"], 3),
                              ratio_int8_vs_ort_int8=round(g8["p50_ms"] / o8["p50_ms"], 3),
                              ratio_int8_vs_glimpse_fp32=round(g8["p50_ms"] / g["p50_ms"], 3),
                              cosine_int8_fp32_mean=round(float(cosines.mean()), 5),
                              cosine_int8_fp32_min=round(float(cosines.min()), 5),
                              cosine_photos=len(cosines), glimpse_int8_rounds=glimpse_rounds["int8"])
        result.update(onnxruntime_mean_ms=round(o["mean_ms"], 3), onnxruntime_version=ort.__version__,
                      onnx_from=os.path.relpath(args.model, root), onnx_export=args.export, onnxruntime_cosine_min=round(agreement, 7),
                      inputs=len(pngs), repeat=args.repeat, rounds=args.rounds, threads=1,
                      loadavg_1min=round(os.getloadavg()[0], 2), cpus=os.cpu_count())
        print(f"{'engine':<22} {'p50 ms':>8} {'mean ms':>8} {'p90 ms':>8} {'min ms':>8}")
        for name, s in rows:
            print(f"{name:<22} {s['p50_ms']:8.2f} {s['mean_ms']:8.2f} {s['p90_ms']:8.2f} {s['min_ms']:8.2f}")
        if glimpse:
            print(f"ratio glimpse / onnxruntime (p50): {result['ratio']:.3f}")
        if glimpse and int8:
            print(f"ratio glimpse int8 / onnxruntime fp32: {result['ratio_int8_vs_ort_fp32']:.3f}, "
                  f"/ onnxruntime int8: {result['ratio_int8_vs_ort_int8']:.3f}")
            print(f"CPU time p50 (thread): glimpse fp32 {result['glimpse_cpu_ms']:.2f}, int8 "
                  f"{result['glimpse_int8_cpu_ms']:.2f}; onnxruntime fp32 {result['onnxruntime_cpu_ms']:.2f}, int8 "
                  f"{result['onnxruntime_int8_cpu_ms']:.2f} ms; int8 ratios {result['cpu_ratio_int8_vs_ort_fp32']:.3f} "
                  f"/ {result['cpu_ratio_int8_vs_ort_int8']:.3f}")
        print(json.dumps(result))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
