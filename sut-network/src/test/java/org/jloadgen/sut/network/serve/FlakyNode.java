package org.jloadgen.sut.network.serve;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import org.jloadgen.api.TestScenario;
import org.jloadgen.spi.BuiltinSutProviders;
import org.jloadgen.spi.SutContext;
import org.jloadgen.spi.SutInstance;

/**
 * A {@code jloadgen serve --sut null} node in this process, on a loopback port, that answers every
 * {@code every}-th {@code ModelInfer} call (in arrival order) with {@code RESOURCE_EXHAUSTED} instead (a rate-limited
 * KServe server), or never answers it ({@link #silent}), for tests of the client's failure policies.
 */
public final class FlakyNode implements AutoCloseable
{
    private final SutInstance instance;
    private final SutBridge bridge;
    private final Server server;
    private final AtomicLong infers = new AtomicLong();

    private FlakyNode(final int every, final boolean silent) throws IOException
    {
        instance = new BuiltinSutProviders.Null().create(new SutContext(TestScenario.SERVER, Map.of(), 1024, 1024));
        final ServedModel model = ServedModel.of("null", "null", instance, "UINT8", new long[] {-1});
        bridge = new SutBridge(instance, model, 1024);
        final InferenceService service = new InferenceService(model, bridge);
        service.nodeName("flaky");
        final ServerInterceptor refuse = new ServerInterceptor()
        {
            @Override
            public <Q, A> ServerCall.Listener<Q> interceptCall(final ServerCall<Q, A> call, final Metadata headers,
                final ServerCallHandler<Q, A> next)
            {
                if ("ModelInfer".equals(call.getMethodDescriptor().getBareMethodName())
                    && infers.incrementAndGet() % every == 0)
                {
                    if (!silent)
                    {
                        call.close(Status.RESOURCE_EXHAUSTED.withDescription("rate limited, retry later"),
                            new Metadata());
                    }
                    return new ServerCall.Listener<>()
                    {
                    };
                }
                return next.startCall(call, headers);
            }
        };
        server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).directExecutor()
            .addService(ServerInterceptors.intercept(service, refuse)).build().start();
    }

    /**
     * @param every refuse every {@code every}-th inference call.
     * @return the node, serving model {@code null}.
     * @throws IOException if it cannot listen.
     */
    public static FlakyNode start(final int every) throws IOException
    {
        return new FlakyNode(every, false);
    }

    /**
     * @param every leave every {@code every}-th inference call unanswered (until the client cancels it).
     * @return the node, serving model {@code null}.
     * @throws IOException if it cannot listen.
     */
    public static FlakyNode silent(final int every) throws IOException
    {
        return new FlakyNode(every, true);
    }

    /**
     * @return {@code 127.0.0.1:PORT}.
     */
    public String endpoint()
    {
        return "127.0.0.1:" + server.getPort();
    }

    /**
     * @return inference calls received, refused ones included.
     */
    public long infers()
    {
        return infers.get();
    }

    @Override
    public void close() throws InterruptedException
    {
        server.shutdownNow();
        server.awaitTermination(5, TimeUnit.SECONDS);
        bridge.close();
        instance.close();
    }
}
