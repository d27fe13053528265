#!/usr/bin/python3
"""Train, export and verify JLoadGen's default CPU model: an MLP classifier for Fashion-MNIST.

Only Debian's python3-numpy and python3-onnx are used (run with /usr/bin/python3). The script

1. reads the Fashion-MNIST IDX files (training set from the Debian package dataset-fashion-mnist,
   test set from the copy shipped in the sut-cpu resources),
2. trains a 784-256-128-10 ReLU MLP in numpy with a fixed seed (Adam, cosine learning rate,
   random horizontal flips),
3. exports it as ONNX (opset 17, IR 8): raw uint8 pixels [N, 1, 28, 28] in, float32 logits
   [N, 10] out, the pixel preprocessing (cast, scale to [0, 1], normalise) inside the graph,
4. checks the graph with onnx.checker, runs it through the small numpy evaluator below and
   requires its logits to equal the numpy model's bit for bit,
5. writes model.onnx and model.json (accuracy, seed, architecture, settings) next to the data.

Re-running with the same seed on the same numpy/BLAS reproduces model.onnx byte for byte; the
thread count does not change the result (see RowSplitMatmul).

Usage:
  /usr/bin/python3 sut-cpu/model/train_fashion_mnist.py                 # train, verify, write
  /usr/bin/python3 sut-cpu/model/train_fashion_mnist.py --holdout 5000  # tune on a validation split
  /usr/bin/python3 sut-cpu/model/train_fashion_mnist.py --verify-only   # re-check the committed model
"""

import argparse
import concurrent.futures
import gzip
import hashlib
import json
import os
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto, checker, helper, numpy_helper

SCRIPT_DIR = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT_DIR = os.path.normpath(os.path.join(
    SCRIPT_DIR, "..", "src", "main", "resources", "org", "jloadgen", "sut", "cpu", "fashionmnist"))
DEFAULT_TRAIN_DIR = "/usr/share/datasets/fashion-mnist"

TRAIN_IMAGES = "train-images-idx3-ubyte.gz"
TRAIN_LABELS = "train-labels-idx1-ubyte.gz"
TEST_IMAGES = "t10k-images-idx3-ubyte.gz"
TEST_LABELS = "t10k-labels-idx1-ubyte.gz"
MODEL_FILE = "model.onnx"
MODEL_JSON = "model.json"

CLASS_NAMES = ["T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
               "Sandal", "Shirt", "Sneaker", "Bag", "Ankle boot"]
IMAGE_SIDE = 28
PIXELS = IMAGE_SIDE * IMAGE_SIDE
LAYER_SIZES = [PIXELS, 256, 128, len(CLASS_NAMES)]

INPUT_NAME = "pixels"
OUTPUT_NAME = "logits"
BATCH_DIM = "N"
OPSET = 17
IR_VERSION = 8

SEED = 20250601
EPOCHS = 12
BATCH_SIZE = 128
LEARNING_RATE = 1e-3
ADAM_BETA1 = 0.9
ADAM_BETA2 = 0.999
ADAM_EPSILON = 1e-8
WEIGHT_DECAY = 1e-4
FLIP_PROBABILITY = 0.5

# float32(1/255): the graph multiplies by exactly this constant, so numpy must too.
PIXEL_SCALE = np.float32(1.0 / 255.0)

IDX_IMAGES_MAGIC = 0x00000803
IDX_LABELS_MAGIC = 0x00000801


def read_idx(path, expected_magic):
    """Reads a gzip'ed IDX file (big-endian header, uint8 payload) and checks its header."""
    with gzip.open(path, "rb") as stream:
        data = stream.read()
    if len(data) < 8:
        raise ValueError(f"{path}: {len(data)} bytes, too short for an IDX header")
    magic = int.from_bytes(data[0:4], "big")
    if magic != expected_magic:
        raise ValueError(f"{path}: IDX magic 0x{magic:08x}, expected 0x{expected_magic:08x}")
    dims = magic & 0xFF
    header_bytes = 4 + 4 * dims
    shape = tuple(int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(dims))
    payload = np.frombuffer(data, dtype=np.uint8, offset=header_bytes)
    if payload.size != int(np.prod(shape)):
        raise ValueError(f"{path}: header says {shape} = {int(np.prod(shape))} bytes, "
                         f"payload has {payload.size}")
    return payload.reshape(shape)


def load_split(images_path, labels_path):
    """Returns (pixels uint8 [n, 784], labels int64 [n]) of one Fashion-MNIST split."""
    images = read_idx(images_path, IDX_IMAGES_MAGIC)
    labels = read_idx(labels_path, IDX_LABELS_MAGIC)
    if images.shape[1:] != (IMAGE_SIDE, IMAGE_SIDE):
        raise ValueError(f"{images_path}: images are {images.shape[1:]}, expected 28x28")
    if images.shape[0] != labels.shape[0]:
        raise ValueError(f"{images_path}: {images.shape[0]} images but {labels.shape[0]} labels")
    if labels.max() >= len(CLASS_NAMES):
        raise ValueError(f"{labels_path}: label {labels.max()} out of range")
    return images.reshape(-1, PIXELS), labels.astype(np.int64)


def sha256_of(path):
    """Hex SHA-256 of a file."""
    with open(path, "rb") as stream:
        return hashlib.sha256(stream.read()).hexdigest()


class RowSplitMatmul:
    """a @ b with the output rows split across threads.

    Debian's numpy links the single-threaded reference BLAS. Each output element is still the
    same dot product in the same order whatever the split, so the result is bit-identical to
    a plain a @ b for any thread count (checked by --check-threads).
    """

    MIN_ROWS_PER_THREAD = 64

    def __init__(self, threads):
        self.threads = threads
        self.pool = concurrent.futures.ThreadPoolExecutor(threads) if threads > 1 else None

    def __call__(self, a, b):
        rows = a.shape[0]
        if self.pool is None or rows < self.MIN_ROWS_PER_THREAD * self.threads:
            return a @ b
        out = np.empty((rows, b.shape[1]), dtype=np.result_type(a, b))
        bounds = [rows * i // self.threads for i in range(self.threads + 1)]
        futures = [self.pool.submit(np.matmul, a[lo:hi], b, out[lo:hi])
                   for lo, hi in zip(bounds[:-1], bounds[1:])]
        for future in futures:
            future.result()
        return out


class Mlp:
    """The numpy model: the same float32 operations, in the same order, as the ONNX graph."""

    def __init__(self, rng, pixel_mean, pixel_std):
        self.pixel_mean = np.float32(pixel_mean)
        self.pixel_std = np.float32(pixel_std)
        self.weights = []
        self.biases = []
        for fan_in, fan_out in zip(LAYER_SIZES[:-1], LAYER_SIZES[1:]):
            # He-normal initialisation for ReLU layers.
            scale = np.sqrt(2.0 / fan_in)
            self.weights.append((rng.standard_normal((fan_in, fan_out)) * scale).astype(np.float32))
            self.biases.append(np.zeros(fan_out, dtype=np.float32))

    def preprocess(self, pixels):
        """uint8 [n, 784] -> normalised float32, as the graph's Cast, Mul, Sub, Div nodes do."""
        x = pixels.astype(np.float32)
        x = x * PIXEL_SCALE
        x = x - self.pixel_mean
        return x / self.pixel_std

    def forward(self, pixels, matmul):
        """Returns (logits, per-layer inputs, per-layer pre-activations) for backprop."""
        activation = self.preprocess(pixels)
        inputs = []
        pre_activations = []
        last = len(self.weights) - 1
        for layer, (weight, bias) in enumerate(zip(self.weights, self.biases)):
            inputs.append(activation)
            z = matmul(activation, weight) + bias
            pre_activations.append(z)
            activation = z if layer == last else np.maximum(z, np.float32(0.0))
        return activation, inputs, pre_activations

    def logits(self, pixels, matmul):
        """Inference only."""
        return self.forward(pixels, matmul)[0]

    def parameters(self):
        """Weights then biases, in a fixed order."""
        return self.weights + self.biases


class Adam:
    """Adam with decoupled weight decay on the weight matrices (AdamW), all in float32."""

    def __init__(self, parameters, decayed_count):
        self.first = [np.zeros_like(p) for p in parameters]
        self.second = [np.zeros_like(p) for p in parameters]
        self.decayed_count = decayed_count
        self.step_count = 0

    def step(self, parameters, gradients, learning_rate):
        """Updates parameters in place."""
        self.step_count += 1
        correction1 = 1.0 - ADAM_BETA1 ** self.step_count
        correction2 = 1.0 - ADAM_BETA2 ** self.step_count
        step_size = np.float32(learning_rate * np.sqrt(correction2) / correction1)
        epsilon = np.float32(ADAM_EPSILON * np.sqrt(correction2))
        decay = np.float32(1.0 - learning_rate * WEIGHT_DECAY)
        for i, (param, grad) in enumerate(zip(parameters, gradients)):
            first = self.first[i]
            second = self.second[i]
            first *= np.float32(ADAM_BETA1)
            first += np.float32(1.0 - ADAM_BETA1) * grad
            second *= np.float32(ADAM_BETA2)
            second += np.float32(1.0 - ADAM_BETA2) * (grad * grad)
            if i < self.decayed_count:
                param *= decay
            param -= step_size * first / (np.sqrt(second) + epsilon)


def cosine_learning_rate(step, total_steps):
    """Cosine decay from LEARNING_RATE to 0 over the run."""
    return LEARNING_RATE * 0.5 * (1.0 + np.cos(np.pi * step / total_steps))


def flip_half(pixels, rng):
    """Mirrors each image left-right with probability FLIP_PROBABILITY (labels are unchanged)."""
    flip = rng.random(pixels.shape[0]) < FLIP_PROBABILITY
    images = pixels.reshape(-1, IMAGE_SIDE, IMAGE_SIDE).copy()
    images[flip] = images[flip][:, :, ::-1]
    return images.reshape(-1, PIXELS)


def train_step(model, optimizer, pixels, labels, learning_rate, matmul):
    """One minibatch of softmax cross-entropy; returns the mean loss."""
    logits, inputs, pre_activations = model.forward(pixels, matmul)
    batch = pixels.shape[0]
    shifted = logits - logits.max(axis=1, keepdims=True)
    exp = np.exp(shifted)
    sums = exp.sum(axis=1, keepdims=True)
    rows = np.arange(batch)
    loss = float(np.mean(np.log(sums[:, 0]) - shifted[rows, labels]))

    delta = exp / sums
    delta[rows, labels] -= np.float32(1.0)
    delta /= np.float32(batch)
    weight_grads = [None] * len(model.weights)
    bias_grads = [None] * len(model.biases)
    for layer in reversed(range(len(model.weights))):
        weight_grads[layer] = matmul(inputs[layer].T, delta)
        bias_grads[layer] = delta.sum(axis=0)
        if layer > 0:
            delta = matmul(delta, model.weights[layer].T)
            delta *= pre_activations[layer - 1] > 0
    optimizer.step(model.parameters(), weight_grads + bias_grads, learning_rate)
    return loss


def top1(logits, labels):
    """Number of samples whose highest logit is the label (ties go to the lowest index)."""
    return int(np.count_nonzero(np.argmax(logits, axis=1) == labels))


def train(train_pixels, train_labels, seed, epochs, matmul, validation=None):
    """Trains the MLP; prints one line per epoch."""
    rng = np.random.default_rng(seed)
    normalised = train_pixels.astype(np.float64) / 255.0
    model = Mlp(rng, normalised.mean(), normalised.std())
    optimizer = Adam(model.parameters(), len(model.weights))
    count = train_pixels.shape[0]
    steps_per_epoch = (count + BATCH_SIZE - 1) // BATCH_SIZE
    total_steps = epochs * steps_per_epoch
    step = 0
    for epoch in range(epochs):
        started = time.perf_counter()
        order = rng.permutation(count)
        loss_sum = 0.0
        for start in range(0, count, BATCH_SIZE):
            batch = order[start:start + BATCH_SIZE]
            pixels = flip_half(train_pixels[batch], rng)
            loss_sum += train_step(model, optimizer, pixels, train_labels[batch],
                                   cosine_learning_rate(step, total_steps), matmul)
            step += 1
        line = (f"epoch {epoch + 1:2d}/{epochs}  loss {loss_sum / steps_per_epoch:.4f}  "
                f"{time.perf_counter() - started:.1f} s")
        if validation is not None:
            correct = top1(model.logits(validation[0], matmul), validation[1])
            line += f"  validation top-1 {correct / validation[1].shape[0]:.4f}"
        print(line, flush=True)
    return model


def export_onnx(model, doc):
    """Builds the ONNX graph: Flatten, Cast, Mul, Sub, Div, then Gemm/Relu per layer."""
    initializers = [
        numpy_helper.from_array(np.array(PIXEL_SCALE, dtype=np.float32), "pixel_scale"),
        numpy_helper.from_array(np.array(model.pixel_mean, dtype=np.float32), "pixel_mean"),
        numpy_helper.from_array(np.array(model.pixel_std, dtype=np.float32), "pixel_std"),
    ]
    nodes = [
        # Flatten on uint8 first: a free reshape, so Cast touches a [N, 784] tensor.
        helper.make_node("Flatten", [INPUT_NAME], ["pixels_flat"], name="flatten", axis=1),
        helper.make_node("Cast", ["pixels_flat"], ["pixels_f32"], name="cast",
                         to=TensorProto.FLOAT),
        helper.make_node("Mul", ["pixels_f32", "pixel_scale"], ["pixels_unit"],
                         name="scale_to_unit"),
        helper.make_node("Sub", ["pixels_unit", "pixel_mean"], ["pixels_centered"],
                         name="subtract_mean"),
        helper.make_node("Div", ["pixels_centered", "pixel_std"], ["features"],
                         name="divide_std"),
    ]
    activation = "features"
    last = len(model.weights) - 1
    for layer, (weight, bias) in enumerate(zip(model.weights, model.biases)):
        name = f"fc{layer + 1}"
        initializers.append(numpy_helper.from_array(weight, f"{name}.weight"))
        initializers.append(numpy_helper.from_array(bias, f"{name}.bias"))
        gemm_out = OUTPUT_NAME if layer == last else f"{name}.out"
        nodes.append(helper.make_node("Gemm", [activation, f"{name}.weight", f"{name}.bias"],
                                      [gemm_out], name=name))
        if layer != last:
            activation = f"{name}.relu"
            nodes.append(helper.make_node("Relu", [gemm_out], [activation], name=f"{name}_relu"))
    graph = helper.make_graph(
        nodes, "fashion_mnist_mlp",
        [helper.make_tensor_value_info(INPUT_NAME, TensorProto.UINT8,
                                       [BATCH_DIM, 1, IMAGE_SIDE, IMAGE_SIDE])],
        [helper.make_tensor_value_info(OUTPUT_NAME, TensorProto.FLOAT,
                                       [BATCH_DIM, len(CLASS_NAMES)])],
        initializers)
    onnx_model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET)],
        producer_name="jloadgen/train_fashion_mnist.py", producer_version="1",
        doc_string=doc)
    onnx_model.ir_version = IR_VERSION
    helper.set_model_props(onnx_model, {"classes": ",".join(CLASS_NAMES)})
    return onnx_model


def _gemm(inputs, attrs):
    a, b = inputs[0], inputs[1]
    if attrs.get("transA", 0):
        a = a.T
    if attrs.get("transB", 0):
        b = b.T
    y = a @ b
    alpha = attrs.get("alpha", 1.0)
    if alpha != 1.0:
        y = y * np.float32(alpha)
    if len(inputs) > 2:
        beta = attrs.get("beta", 1.0)
        y = y + (inputs[2] if beta == 1.0 else np.float32(beta) * inputs[2])
    return y


# The element types this evaluator handles (onnx 1.12 has no tensor_dtype_to_np_dtype yet).
REFERENCE_DTYPES = {TensorProto.UINT8: np.uint8, TensorProto.FLOAT: np.float32}


def _cast(inputs, attrs):
    target = REFERENCE_DTYPES.get(attrs["to"])
    if target is None:
        raise ValueError(f"Cast to ONNX type {attrs['to']} is not supported by this evaluator")
    return inputs[0].astype(target)


def _flatten(inputs, attrs):
    axis = attrs.get("axis", 1)
    shape = inputs[0].shape
    return inputs[0].reshape(int(np.prod(shape[:axis])), int(np.prod(shape[axis:])))


# ONNX Mul/Sub/Div broadcast exactly like numpy, and numpy's float32 arithmetic is IEEE.
REFERENCE_OPS = {
    "Flatten": _flatten,
    "Cast": _cast,
    "Mul": lambda inputs, attrs: inputs[0] * inputs[1],
    "Sub": lambda inputs, attrs: inputs[0] - inputs[1],
    "Div": lambda inputs, attrs: inputs[0] / inputs[1],
    "Gemm": _gemm,
    "Relu": lambda inputs, attrs: np.maximum(inputs[0], inputs[0].dtype.type(0)),
}


def run_reference(onnx_model, feeds):
    """Evaluates an ONNX graph of the ops in REFERENCE_OPS with numpy; returns its outputs."""
    graph = onnx_model.graph
    values = {init.name: numpy_helper.to_array(init) for init in graph.initializer}
    for declared in graph.input:
        if declared.name in values:
            continue
        array = feeds[declared.name]
        tensor_type = declared.type.tensor_type
        if array.dtype != REFERENCE_DTYPES.get(tensor_type.elem_type):
            raise ValueError(f"input {declared.name}: dtype {array.dtype} does not match graph")
        dims = tensor_type.shape.dim
        if len(dims) != array.ndim or any(
                d.HasField("dim_value") and d.dim_value != n for d, n in zip(dims, array.shape)):
            raise ValueError(f"input {declared.name}: shape {array.shape} does not match graph")
        values[declared.name] = array
    for node in graph.node:
        op = REFERENCE_OPS.get(node.op_type)
        if op is None or node.domain not in ("", "ai.onnx"):
            raise ValueError(f"node {node.name}: op {node.domain}:{node.op_type} not supported")
        attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
        values[node.output[0]] = op([values[name] for name in node.input], attrs)
    return [values[output.name] for output in graph.output]


def check_onnx(onnx_model, test_pixels):
    """Runs onnx.checker (with shape inference) and the numpy evaluator; returns the logits."""
    checker.check_model(onnx_model, full_check=True)
    images = test_pixels.reshape(-1, 1, IMAGE_SIDE, IMAGE_SIDE)
    (logits,) = run_reference(onnx_model, {INPUT_NAME: images})
    if logits.dtype != np.float32 or logits.shape != (images.shape[0], len(CLASS_NAMES)):
        raise ValueError(f"graph output is {logits.dtype} {logits.shape}, "
                         f"expected float32 ({images.shape[0]}, {len(CLASS_NAMES)})")
    return logits


def describe(model_json):
    """One-line summary for the console."""
    return (f"test top-1 {model_json['test_top1']:.4f} ({model_json['test_correct']}/"
            f"{model_json['test_samples']}), ONNX reference top-1 "
            f"{model_json['onnx_reference_top1']:.4f}")


def verify_only(out_dir, test_pixels, test_labels):
    """Re-checks the committed model.onnx against model.json; returns an exit status."""
    with open(os.path.join(out_dir, MODEL_JSON), encoding="utf-8") as stream:
        recorded = json.load(stream)
    model_path = os.path.join(out_dir, MODEL_FILE)
    if sha256_of(model_path) != recorded["files"][MODEL_FILE]:
        print(f"{model_path}: SHA-256 differs from {MODEL_JSON}", file=sys.stderr)
        return 1
    correct = top1(check_onnx(onnx.load(model_path), test_pixels), test_labels)
    print(f"{model_path}: ONNX reference top-1 {correct / test_labels.shape[0]:.4f} "
          f"({correct}/{test_labels.shape[0]}), recorded {recorded['onnx_reference_top1']:.4f}")
    return 0 if correct == recorded["test_correct"] else 1


def check_threads(train_pixels, train_labels, seed, threads):
    """Trains one epoch on 1 and on `threads` threads; returns 0 if the weights are identical."""
    subset = slice(0, 6000)
    single = train(train_pixels[subset], train_labels[subset], seed, 1, RowSplitMatmul(1))
    multi = train(train_pixels[subset], train_labels[subset], seed, 1, RowSplitMatmul(threads))
    same = all(np.array_equal(a, b) for a, b in zip(single.parameters(), multi.parameters()))
    print(f"1 thread vs {threads} threads: weights {'identical' if same else 'DIFFER'}")
    return 0 if same else 1


def main():
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train-dir", default=DEFAULT_TRAIN_DIR,
                        help="folder with the training-set IDX files (default: %(default)s)")
    parser.add_argument("--out-dir", default=DEFAULT_OUT_DIR,
                        help="folder with the test-set IDX files; model.onnx/model.json go here")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="matmul threads; does not change the result")
    parser.add_argument("--holdout", type=int, default=0,
                        help="train on all but the last N training images, report validation "
                             "top-1 on them, write nothing (for choosing settings)")
    parser.add_argument("--verify-only", action="store_true",
                        help="check the existing model.onnx against model.json and exit")
    parser.add_argument("--check-threads", action="store_true",
                        help="check that --threads does not change the trained weights and exit")
    args = parser.parse_args()
    if args.threads < 1 or args.epochs < 1 or args.holdout < 0:
        parser.error("--threads and --epochs must be >= 1, --holdout >= 0")

    test_pixels, test_labels = load_split(os.path.join(args.out_dir, TEST_IMAGES),
                                          os.path.join(args.out_dir, TEST_LABELS))
    if args.verify_only:
        return verify_only(args.out_dir, test_pixels, test_labels)
    train_pixels, train_labels = load_split(os.path.join(args.train_dir, TRAIN_IMAGES),
                                            os.path.join(args.train_dir, TRAIN_LABELS))
    if args.check_threads:
        return check_threads(train_pixels, train_labels, args.seed, max(args.threads, 2))
    matmul = RowSplitMatmul(args.threads)

    if args.holdout:
        if args.holdout >= train_pixels.shape[0]:
            parser.error(f"--holdout must be below {train_pixels.shape[0]}")
        cut = train_pixels.shape[0] - args.holdout
        train(train_pixels[:cut], train_labels[:cut], args.seed, args.epochs, matmul,
              validation=(train_pixels[cut:], train_labels[cut:]))
        return 0

    started = time.perf_counter()
    model = train(train_pixels, train_labels, args.seed, args.epochs, matmul)
    training_s = time.perf_counter() - started
    numpy_logits = model.logits(test_pixels, lambda a, b: a @ b)
    correct = top1(numpy_logits, test_labels)
    samples = test_labels.shape[0]

    architecture = ("uint8 [N,1,28,28] -> Flatten -> Cast(float32) -> *1/255 -> -mean -> /std "
                    "-> Gemm 784x256 -> Relu -> Gemm 256x128 -> Relu -> Gemm 128x10 -> logits")
    onnx_model = export_onnx(model, "Fashion-MNIST MLP for JLoadGen's CPU SUT: " + architecture)
    onnx_logits = check_onnx(onnx_model, test_pixels)
    onnx_correct = top1(onnx_logits, test_labels)
    max_difference = float(np.max(np.abs(onnx_logits - numpy_logits)))
    if onnx_correct != correct or not np.array_equal(onnx_logits, numpy_logits):
        print(f"ONNX graph disagrees with the numpy model: top-1 {onnx_correct} vs {correct}, "
              f"max |logit difference| {max_difference}", file=sys.stderr)
        return 1

    os.makedirs(args.out_dir, exist_ok=True)
    model_path = os.path.join(args.out_dir, MODEL_FILE)
    onnx.save(onnx_model, model_path)
    parameter_count = int(sum(p.size for p in model.parameters()))
    model_json = {
        "name": "fashion-mnist-mlp",
        "task": "Fashion-MNIST image classification, 10 classes",
        "files": {
            MODEL_FILE: sha256_of(model_path),
            TEST_IMAGES: sha256_of(os.path.join(args.out_dir, TEST_IMAGES)),
            TEST_LABELS: sha256_of(os.path.join(args.out_dir, TEST_LABELS)),
        },
        "input": {"name": INPUT_NAME, "dtype": "uint8",
                  "shape": [BATCH_DIM, 1, IMAGE_SIDE, IMAGE_SIDE]},
        "output": {"name": OUTPUT_NAME, "dtype": "float32",
                   "shape": [BATCH_DIM, len(CLASS_NAMES)]},
        "classes": CLASS_NAMES,
        "preprocessing": {"formula": "(float32(pixel) * scale - mean) / std",
                          "scale": float(PIXEL_SCALE), "mean": float(model.pixel_mean),
                          "std": float(model.pixel_std)},
        "architecture": architecture,
        "layer_sizes": LAYER_SIZES,
        "parameters": parameter_count,
        "onnx": {"opset": OPSET, "ir_version": IR_VERSION,
                 "ops": sorted({node.op_type for node in onnx_model.graph.node}),
                 "bytes": os.path.getsize(model_path)},
        "training": {
            "seed": args.seed,
            "train_samples": int(train_pixels.shape[0]),
            "epochs": args.epochs,
            "batch_size": BATCH_SIZE,
            "optimizer": "AdamW (decoupled weight decay on weight matrices only)",
            "learning_rate": LEARNING_RATE,
            "learning_rate_schedule": "cosine decay to 0, per step",
            "adam_beta1": ADAM_BETA1, "adam_beta2": ADAM_BETA2, "adam_epsilon": ADAM_EPSILON,
            "weight_decay": WEIGHT_DECAY,
            "initialisation": "He-normal weights, zero biases",
            "augmentation": f"horizontal flip with probability {FLIP_PROBABILITY}",
            "loss": "softmax cross-entropy",
            "numpy": np.__version__,
            "onnx": onnx.__version__,
        },
        "test_samples": samples,
        "test_correct": correct,
        "test_top1": correct / samples,
        "onnx_reference_top1": onnx_correct / samples,
        "onnx_reference_max_abs_logit_difference": max_difference,
    }
    with open(os.path.join(args.out_dir, MODEL_JSON), "w", encoding="utf-8") as stream:
        json.dump(model_json, stream, indent=2)
        stream.write("\n")
    print(f"trained in {training_s:.1f} s on {args.threads} thread(s); {describe(model_json)}")
    print(f"wrote {model_path} ({os.path.getsize(model_path)} bytes, {parameter_count} parameters)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
