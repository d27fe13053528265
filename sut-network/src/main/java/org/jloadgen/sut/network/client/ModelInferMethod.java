package org.jloadgen.sut.network.client;

import java.io.InputStream;

import io.grpc.MethodDescriptor;
import org.jloadgen.sut.network.kserve.proto.GRPCInferenceServiceGrpc;

/**
 * {@code inference.GRPCInferenceService/ModelInfer} as the client's hot path calls it: the request is an
 * {@link InferCall} serialized by its {@link RequestStream} straight from the sample slab, the response is handed
 * over as the transport's stream and read by the call's listener into the slot's buffer. The generated
 * marshallers would build a {@code ModelInferRequest} (copying the sample into a {@code ByteString}) per request
 * and a {@code ModelInferResponse} object per answer.
 */
final class ModelInferMethod
{
    /** The method, with the project's marshallers. */
    static final MethodDescriptor<InferCall, InputStream> METHOD = MethodDescriptor.<InferCall, InputStream>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(GRPCInferenceServiceGrpc.getModelInferMethod().getFullMethodName())
        .setRequestMarshaller(new RequestMarshaller())
        .setResponseMarshaller(new ResponseMarshaller())
        .setSampledToLocalTracing(false)
        .build();

    /** {@code ModelStreamInfer} (Triton's streaming extension), with the same marshallers. */
    static final MethodDescriptor<InferCall, InputStream> STREAM = MethodDescriptor.<InferCall, InputStream>newBuilder()
        .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
        .setFullMethodName(GRPCInferenceServiceGrpc.getModelStreamInferMethod().getFullMethodName())
        .setRequestMarshaller(new RequestMarshaller())
        .setResponseMarshaller(new ResponseMarshaller())
        .setSampledToLocalTracing(false)
        .build();

    private ModelInferMethod()
    {
    }

    /**
     * Serializes a request through the call's reused stream.
     */
    private static final class RequestMarshaller implements MethodDescriptor.Marshaller<InferCall>
    {
        @Override
        public InputStream stream(final InferCall call)
        {
            return call.requestStream();
        }

        @Override
        public InferCall parse(final InputStream stream)
        {
            throw new UnsupportedOperationException("the client never receives ModelInfer requests");
        }
    }

    /**
     * Passes the response stream through to the listener, which reads it on the same thread.
     */
    private static final class ResponseMarshaller implements MethodDescriptor.Marshaller<InputStream>
    {
        @Override
        public InputStream stream(final InputStream value)
        {
            return value;
        }

        @Override
        public InputStream parse(final InputStream stream)
        {
            return stream;
        }
    }
}
