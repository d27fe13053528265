#!/usr/bin/env python3
"""An independent KServe v2 gRPC client for `jloadgen serve`: Debian's python3-grpcio and python3-protobuf, with
message classes that protoc (protobuf-compiler) generates from the project's own proto. It sends valid and
malformed ModelInfer requests and checks that each malformed one gets the protocol's status code with the right
reason, and that the server stays up.

usage: kserve_conformance.py PROTO_DIR OUT_DIR HOST:PORT MODEL MAX_MESSAGE_BYTES
Prints one line per check and ends with 'N passed, N failed'; exits 1 when a check failed.
"""
import os
import subprocess
import sys


def main():
    proto_dir, out_dir, target, model, max_bytes = sys.argv[1:6]
    max_bytes = int(max_bytes)
    os.makedirs(out_dir, exist_ok=True)
    subprocess.run(["protoc", "-I", proto_dir, "--python_out", out_dir,
                    os.path.join(proto_dir, "grpc_predict_v2.proto")], check=True)
    sys.path.insert(0, out_dir)
    import grpc
    import grpc_predict_v2_pb2 as pb

    channel = grpc.insecure_channel(target, options=[("grpc.max_send_message_length", -1),
                                                     ("grpc.max_receive_message_length", -1)])
    service = "/inference.GRPCInferenceService/"

    def method(name, request_type, response_type):
        return channel.unary_unary(service + name, request_serializer=request_type.SerializeToString,
                                   response_deserializer=response_type.FromString)

    live = method("ServerLive", pb.ServerLiveRequest, pb.ServerLiveResponse)
    metadata = method("ModelMetadata", pb.ModelMetadataRequest, pb.ModelMetadataResponse)
    infer = method("ModelInfer", pb.ModelInferRequest, pb.ModelInferResponse)

    results = []

    def check(name, ok, detail=""):
        results.append(ok)
        print(("ok     " if ok else "FAILED ") + name + ((": " + detail) if detail else ""), flush=True)

    meta = metadata(pb.ModelMetadataRequest(name=model), timeout=10)
    tensor = meta.inputs[0]
    check("metadata names the input", tensor.name != "" and tensor.datatype == "UINT8",
          tensor.name + " " + tensor.datatype + " " + str(list(tensor.shape)))

    def request(shape, data, datatype="UINT8", name=None, model_name=model, raw=True):
        r = pb.ModelInferRequest(model_name=model_name)
        t = r.inputs.add()
        t.name = tensor.name if name is None else name
        t.datatype = datatype
        t.shape.extend(shape)
        if raw:
            r.raw_input_contents.append(data)
        return r

    def expect_ok(name, req):
        try:
            answer = infer(req, timeout=10)
            check(name, len(answer.raw_output_contents) == 1, "answered")
        except grpc.RpcError as e:
            check(name, False, str(e.code()) + " " + e.details())

    def expect_error(name, req, code, reason):
        try:
            infer(req, timeout=30)
            check(name, False, "answered instead of " + code.name)
        except grpc.RpcError as e:
            got = e.code() == code and reason in (e.details() or "")
            check(name, got, e.code().name + ": " + (e.details() or ""))

    expect_ok("valid [1,64] UINT8, 64 bytes", request([1, 64], bytes(64)))
    expect_ok("valid batch [3,64], 192 bytes", request([3, 64], bytes(192)))
    expect_error("[1,64] carrying 32 bytes", request([1, 64], bytes(32)), grpc.StatusCode.INVALID_ARGUMENT,
                 "needs 64 bytes")
    expect_error("[1,-5]", request([1, -5], bytes(5)), grpc.StatusCode.INVALID_ARGUMENT, "negative dimension")
    expect_error("[0,64]", request([0, 64], b""), grpc.StatusCode.INVALID_ARGUMENT, "batch of 0")
    expect_error("[64] (no batch axis)", request([64], bytes(64)), grpc.StatusCode.INVALID_ARGUMENT,
                 "the request sends [64]")
    expect_error("FP32 for a UINT8 input", request([1, 16], bytes(64), datatype="FP32"),
                 grpc.StatusCode.INVALID_ARGUMENT, "is UINT8, the request sends FP32")
    expect_error("an unknown input name", request([1, 64], bytes(64), name="nope"),
                 grpc.StatusCode.INVALID_ARGUMENT, "has no input 'nope'")
    expect_error("no raw_input_contents", request([1, 64], None, raw=False), grpc.StatusCode.INVALID_ARGUMENT,
                 "raw_input_contents")
    expect_error("an unknown model", request([1, 64], bytes(64), model_name="nope"), grpc.StatusCode.NOT_FOUND,
                 "'nope' is not found")
    expect_error("a request over the server's largest message", request([1, max_bytes + 1024],
                 bytes(max_bytes + 1024)), grpc.StatusCode.RESOURCE_EXHAUSTED, "")
    try:
        check("still live after the malformed requests", live(pb.ServerLiveRequest(), timeout=10).live)
    except grpc.RpcError as e:
        check("still live after the malformed requests", False, str(e.code()))
    expect_ok("still answers a valid request", request([1, 64], bytes(64)))

    passed = sum(1 for r in results if r)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
