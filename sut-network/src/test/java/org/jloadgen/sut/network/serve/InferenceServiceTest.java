package org.jloadgen.sut.network.serve;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtSession;
import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import org.jloadgen.api.TestScenario;
import org.jloadgen.spi.BuiltinSutProviders;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;
import org.jloadgen.sut.cpu.CpuSutOptions;
import org.jloadgen.sut.cpu.CpuSutProvider;
import org.jloadgen.sut.cpu.FashionMnist;
import org.jloadgen.sut.cpu.ModelDescriptor;
import org.jloadgen.sut.cpu.OnnxModel;
import org.jloadgen.sut.network.kserve.proto.GRPCInferenceServiceGrpc;
import org.jloadgen.sut.network.kserve.proto.InferParameter;
import org.jloadgen.sut.network.kserve.proto.ModelInferRequest;
import org.jloadgen.sut.network.kserve.proto.ModelInferResponse;
import org.jloadgen.sut.network.kserve.proto.ModelMetadataRequest;
import org.jloadgen.sut.network.kserve.proto.ModelMetadataResponse;
import org.jloadgen.sut.network.kserve.proto.ModelReadyRequest;
import org.jloadgen.sut.network.kserve.proto.ModelStreamInferResponse;
import org.jloadgen.sut.network.kserve.proto.ServerMetadataRequest;
import org.jloadgen.sut.network.kserve.proto.ServerReadyRequest;
import org.junit.jupiter.api.Test;

/**
 * The served KServe v2 service as any client sees it (the generated stub, standard protobuf messages, as Triton's
 * clients send them): metadata, real inferences of the CPU SUT's model with the model's own answers, batches, and
 * every error status.
 */
class InferenceServiceTest
{
    /** A server on a loopback port, its service and a channel to it. */
    private record Served(Server server, ManagedChannel channel, SutBridge bridge, SutInstance instance)
        implements AutoCloseable
    {
        GRPCInferenceServiceGrpc.GRPCInferenceServiceBlockingStub stub()
        {
            return GRPCInferenceServiceGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS);
        }

        @Override
        public void close()
        {
            channel.shutdownNow();
            server.shutdownNow();
            try
            {
                channel.awaitTermination(5, TimeUnit.SECONDS);
                server.awaitTermination(5, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            bridge.close();
            instance.close();
        }
    }

    private static Served serve(final SutInstance instance, final String modelName, final String sutName,
        final int slots) throws IOException
    {
        final ServedModel model = ServedModel.of(modelName, sutName, instance, "UINT8", new long[] {-1});
        final SutBridge bridge = new SutBridge(instance, model, slots);
        final InferenceService service = new InferenceService(model, bridge);
        service.nodeName("test-node");
        final Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).directExecutor()
            .addService(service).build().start();
        final ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext()
            .build();
        return new Served(server, channel, bridge, instance);
    }

    private static Served fashion(final int slots) throws IOException
    {
        final SutInstance cpu = CpuSutProvider.instance(CpuSutOptions.parse(Map.of(), TestScenario.SERVER));
        return serve(cpu, "fashion", "cpu", slots);
    }

    private static byte[] images(final int first, final int count) throws IOException
    {
        final ModelDescriptor d = FashionMnist.prepare(FashionMnist.defaultCacheDir());
        final int bytes = FashionMnist.SIDE * FashionMnist.SIDE;
        try (FileChannel file = FileChannel.open(d.data().dataset(), StandardOpenOption.READ))
        {
            final ByteBuffer buffer = ByteBuffer.allocate(bytes * count);
            file.read(buffer, FashionMnist.IMAGE_HEADER_BYTES + (long)first * bytes);
            return buffer.array();
        }
    }

    /**
     * @return the model's logits for the images, computed by ONNX Runtime directly.
     */
    private static byte[] localLogits(final byte[] images, final int count) throws Exception
    {
        final ModelDescriptor d = FashionMnist.prepare(FashionMnist.defaultCacheDir());
        try (OnnxModel model = OnnxModel.open(d.modelFile(), null, null, 1, false);
             OnnxTensor input = OnnxTensor.createTensor(OrtEnvironment.getEnvironment(), ByteBuffer.wrap(images),
                 new long[] {count, 1, FashionMnist.SIDE, FashionMnist.SIDE}, ai.onnxruntime.OnnxJavaType.UINT8);
             OrtSession.Result result = model.session().run(Map.of(model.inputName(), input)))
        {
            final ByteBuffer out = ((OnnxTensor)result.get(0)).getByteBuffer();
            final byte[] logits = new byte[out.remaining()];
            out.get(logits);
            return logits;
        }
    }

    private static ModelInferRequest.Builder request(final String model, final String datatype, final byte[] data,
        final long... shape)
    {
        return request(model, "pixels", datatype, data, shape);
    }

    private static ModelInferRequest.Builder request(final String model, final String inputName,
        final String datatype, final byte[] data, final long... shape)
    {
        final ModelInferRequest.InferInputTensor.Builder input = ModelInferRequest.InferInputTensor.newBuilder()
            .setName(inputName).setDatatype(datatype);
        for (final long d : shape)
        {
            input.addShape(d);
        }
        return ModelInferRequest.newBuilder().setModelName(model).addInputs(input)
            .addRawInputContents(ByteString.copyFrom(data));
    }

    @Test
    void shouldDescribeTheServedModelAsKServeMetadata() throws Exception
    {
        try (Served s = fashion(64))
        {
            assertEquals("test-node", s.stub().serverMetadata(ServerMetadataRequest.getDefaultInstance()).getName());
            assertTrue(s.stub().serverReady(ServerReadyRequest.getDefaultInstance()).getReady());
            assertTrue(s.stub().modelReady(ModelReadyRequest.newBuilder().setName("fashion").setVersion("1").build())
                .getReady());
            final ModelMetadataResponse meta = s.stub().modelMetadata(ModelMetadataRequest.newBuilder()
                .setName("fashion").build());
            assertEquals("jloadgen_cpu", meta.getPlatform());
            assertEquals(List.of("1"), meta.getVersionsList());
            final ModelMetadataResponse.TensorMetadata in = meta.getInputs(0);
            assertEquals("pixels UINT8 [-1, 1, 28, 28]", in.getName() + " " + in.getDatatype() + " "
                + in.getShapeList());
            final ModelMetadataResponse.TensorMetadata out = meta.getOutputs(0);
            assertEquals("logits FP32 [-1, 10]", out.getName() + " " + out.getDatatype() + " " + out.getShapeList());
        }
    }

    @Test
    void shouldAnswerARealTensorWithTheModelsOwnAnswer() throws Exception
    {
        try (Served s = fashion(64))
        {
            final byte[] image = images(7, 1);
            final ModelInferResponse response = s.stub().modelInfer(request("fashion", "UINT8", image, 1, 1, 28, 28)
                .setId("req-7").build());
            assertEquals("req-7", response.getId());
            assertEquals("fashion", response.getModelName());
            final ModelInferResponse.InferOutputTensor out = response.getOutputs(0);
            assertEquals("logits FP32 [1, 10]", out.getName() + " " + out.getDatatype() + " " + out.getShapeList());
            assertArrayEquals(localLogits(image, 1), response.getRawOutputContents(0).toByteArray());
        }
    }

    @Test
    void shouldAnswerABatchInOneResponse() throws Exception
    {
        try (Served s = fashion(64))
        {
            final byte[] batch = images(100, 5);
            final ModelInferResponse response = s.stub().modelInfer(request("fashion", "UINT8", batch, 5, 1, 28, 28)
                .addOutputs(ModelInferRequest.InferRequestedOutputTensor.newBuilder().setName("logits")).build());
            assertEquals(List.of(5L, 10L), response.getOutputs(0).getShapeList());
            assertArrayEquals(localLogits(batch, 5), response.getRawOutputContents(0).toByteArray());
        }
    }

    @Test
    void shouldAnswerRequestsOnAStreamWithTheirIdsAndErrorsInBand() throws Exception
    {
        try (Served s = fashion(64))
        {
            final byte[] images = images(20, 2);
            final java.util.concurrent.LinkedBlockingQueue<ModelStreamInferResponse> answers =
                new java.util.concurrent.LinkedBlockingQueue<>();
            final java.util.concurrent.CompletableFuture<Void> ended = new java.util.concurrent.CompletableFuture<>();
            final StreamObserver<ModelInferRequest> requests = GRPCInferenceServiceGrpc.newStub(s.channel())
                .modelStreamInfer(new StreamObserver<>()
                {
                    @Override
                    public void onNext(final ModelStreamInferResponse value)
                    {
                        answers.add(value);
                    }

                    @Override
                    public void onError(final Throwable t)
                    {
                        ended.completeExceptionally(t);
                    }

                    @Override
                    public void onCompleted()
                    {
                        ended.complete(null);
                    }
                });
            requests.onNext(request("fashion", "UINT8", java.util.Arrays.copyOfRange(images, 0, 784), 1, 1, 28, 28)
                .setId("first").build());
            requests.onNext(request("fashion", "FP32", java.util.Arrays.copyOfRange(images, 0, 784), 1, 1, 28, 28)
                .setId("bad").build());
            requests.onNext(request("fashion", "UINT8", java.util.Arrays.copyOfRange(images, 784, 1568), 1, 1, 28, 28)
                .setId("second").build());
            requests.onCompleted();
            ended.get(30, TimeUnit.SECONDS);
            final Map<String, ModelStreamInferResponse> byId = new java.util.HashMap<>();
            answers.forEach(a -> byId.put(a.getInferResponse().getId(), a));
            assertEquals(java.util.Set.of("first", "bad", "second"), byId.keySet());
            assertEquals("INVALID_ARGUMENT: input 'pixels' is UINT8, the request sends FP32",
                byId.get("bad").getErrorMessage());
            assertArrayEquals(localLogits(java.util.Arrays.copyOfRange(images, 0, 784), 1),
                byId.get("first").getInferResponse().getRawOutputContents(0).toByteArray());
            assertArrayEquals(localLogits(java.util.Arrays.copyOfRange(images, 784, 1568), 1),
                byId.get("second").getInferResponse().getRawOutputContents(0).toByteArray());
            assertEquals("", byId.get("second").getErrorMessage());
        }
    }

    private static Status.Code code(final Runnable call)
    {
        return assertThrows(StatusRuntimeException.class, call::run).getStatus().getCode();
    }

    private static String message(final Runnable call)
    {
        return assertThrows(StatusRuntimeException.class, call::run).getStatus().getDescription();
    }

    @Test
    void shouldRefuseWhatDoesNotFitWithTheProtocolsStatusCodes() throws Exception
    {
        try (Served s = fashion(4))
        {
            final byte[] image = images(0, 1);
            assertEquals(Status.Code.NOT_FOUND, code(() -> s.stub().modelInfer(request("resnet50", "UINT8", image, 1,
                1, 28, 28).build())));
            assertEquals(Status.Code.NOT_FOUND, code(() -> s.stub().modelReady(ModelReadyRequest.newBuilder()
                .setName("fashion").setVersion("2").build())));
            assertEquals("input 'pixels' is UINT8, the request sends FP32", message(() -> s.stub().modelInfer(
                request("fashion", "FP32", image, 1, 1, 28, 28).build())));
            assertEquals("input 'pixels' has shape [-1,1,28,28], the request sends [1,28,28]", message(() -> s.stub()
                .modelInfer(request("fashion", "UINT8", image, 1, 28, 28).build())));
            assertEquals("input 'pixels' UINT8 [2,1,28,28] needs 1568 bytes (1568 elements of 1 B), "
                + "raw_input_contents has 784",
                message(() -> s.stub().modelInfer(request("fashion", "UINT8", image, 2, 1, 28, 28).build())));
            final byte[] five = images(0, 5);
            assertEquals("a batch of 5 is more than the server's 4 receive slots", message(() -> s.stub()
                .modelInfer(request("fashion", "UINT8", five, 5, 1, 28, 28).build())));
            assertEquals("send input 'pixels' in raw_input_contents (typed contents are not supported)",
                message(() -> s.stub().modelInfer(request("fashion", "UINT8", image, 1, 1, 28, 28)
                    .clearRawInputContents().build())));
            assertEquals("model 'fashion' has no output 'probabilities'; its output is 'logits'", message(() -> s
                .stub().modelInfer(request("fashion", "UINT8", image, 1, 1, 28, 28).addOutputs(ModelInferRequest
                    .InferRequestedOutputTensor.newBuilder().setName("probabilities")).build())));
            // Parameters the server does not know are ignored, as KServe allows.
            assertEquals(1, s.stub().modelInfer(request("fashion", "UINT8", image, 1, 1, 28, 28).putParameters(
                "priority", InferParameter.newBuilder().setInt64Param(1).build()).build()).getOutputsCount());
        }
    }

    @Test
    void shouldSayResourceExhaustedWhenEverySlotIsBusy() throws Exception
    {
        // One slot, a SUT that takes 2 s per sample: a second request finds no room.
        final SutInstance slow = new BuiltinSutProviders.Synthetic().create(new SutContext(TestScenario.SERVER,
            Map.of("service", "fixed:2s"), 16, 16));
        try (Served s = serve(slow, "slow", "synthetic", 1))
        {
            final GRPCInferenceServiceGrpc.GRPCInferenceServiceFutureStub async = GRPCInferenceServiceGrpc
                .newFutureStub(s.channel());
            final var first = async.modelInfer(request("slow", "input", "UINT8", new byte[] {1, 2, 3}, 1, 3)
                .build());
            while (!first.isDone() && s.bridge().freeSlots() > 0)
            {
                Thread.sleep(1);
            }
            final String refused = message(() -> s.stub().modelInfer(request("slow", "input", "UINT8", new byte[] {4},
                1, 1).build()));
            assertTrue(refused.startsWith("all 1 receive slots are in use"), refused);
            final ModelInferResponse answer = first.get(30, TimeUnit.SECONDS);
            // The synthetic SUT answers each sample with 4 bytes, sent as raw UINT8.
            assertEquals("output UINT8 [1, 4]", answer.getOutputs(0).getName() + " "
                + answer.getOutputs(0).getDatatype() + " " + answer.getOutputs(0).getShapeList());
            assertEquals(4, answer.getRawOutputContents(0).size());
        }
    }
}
