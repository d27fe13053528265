package org.jloadgen.sut.tensorrt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

import org.jloadgen.samples.DType;
import org.jloadgen.sut.tensorrt.device.DeviceEvent;
import org.jloadgen.sut.tensorrt.device.DeviceException;
import org.jloadgen.sut.tensorrt.device.DeviceStream;
import org.jloadgen.sut.tensorrt.device.Gpu;
import org.jloadgen.sut.tensorrt.device.EngineTensor;
import org.jloadgen.sut.tensorrt.simulated.SimulatedBackend;
import org.jloadgen.sut.tensorrt.simulated.SimulatedModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simulated device faults where a GPU would, so the pipeline's bookkeeping is checked in CI: a copy outside an
 * allocation, a copy in the wrong direction, work from a thread that did not make the device current, a failing
 * model. Faults are sticky and never hang a waiter.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SimulatedDeviceTest
{
    @Test
    void shouldCopyChainedByEventsAcrossStreams()
    {
        final SimulatedBackend backend = new SimulatedBackend(SimulationSettings.DEFAULT);
        final Gpu gpu = backend.open(0);
        final long host = gpu.allocatePinned(64);
        final long device = gpu.allocate(64);
        final long back = gpu.allocatePinned(64);
        MemorySegment.ofAddress(host).reinterpret(64).fill((byte)7);
        try (DeviceStream copy = gpu.newStream(); DeviceStream other = gpu.newStream();
            DeviceEvent copied = gpu.newEvent(true, false); DeviceEvent started = gpu.newEvent(true, false))
        {
            copy.record(started);
            copy.copyToDevice(device, host, 64);
            copy.record(copied);
            other.waitFor(copied);
            other.copyToHost(back, device, 64);
            other.synchronize();
            assertEquals(7, MemorySegment.ofAddress(back).reinterpret(64).get(ValueLayout.JAVA_BYTE, 63));
            assertTrue(copied.isComplete());
            assertTrue(copied.elapsedNs(started) >= 0);
        }
        gpu.free(device);
        gpu.freePinned(host);
        gpu.freePinned(back);
        assertEquals(1, backend.device(0).h2dCopies());
        assertEquals(1, backend.device(0).h2dPinnedCopies());
        assertEquals(1, backend.device(0).d2hCopies());
    }

    @Test
    void shouldFaultOnACopyPastTheEndOfAnAllocationAndStayFailed()
    {
        final SimulatedBackend backend = new SimulatedBackend(SimulationSettings.DEFAULT);
        final Gpu gpu = backend.open(0);
        final long host = gpu.allocatePinned(128);
        final long device = gpu.allocate(64);
        try (DeviceStream stream = gpu.newStream(); DeviceEvent done = gpu.newEvent(false, false))
        {
            stream.copyToDevice(device + 32, host, 64);
            stream.record(done);
            final DeviceException fault = assertThrows(DeviceException.class, done::synchronize);
            assertTrue(fault.getMessage().startsWith("illegal address: the destination of a host-to-device copy"),
                fault.getMessage());
            assertThrows(DeviceException.class, done::isComplete, "sticky, as a CUDA context error is");
        }
    }

    @Test
    void shouldFaultOnAWrongDirectionAndOnAThreadWithoutTheDevice() throws InterruptedException
    {
        final SimulatedBackend backend = new SimulatedBackend(SimulationSettings.DEFAULT);
        final Gpu gpu = backend.open(0);
        final long device = gpu.allocate(64);
        try (DeviceStream stream = gpu.newStream(); DeviceEvent done = gpu.newEvent(false, false))
        {
            stream.copyToDevice(device, device, 16);
            stream.record(done);
            assertTrue(assertThrows(DeviceException.class, done::synchronize).getMessage()
                .startsWith("invalid copy direction"));
            final Throwable[] seen = new Throwable[1];
            final Thread other = new Thread(() ->
            {
                try
                {
                    stream.record(done);
                }
                catch (final DeviceException ex)
                {
                    seen[0] = ex;
                }
            });
            other.start();
            other.join();
            assertTrue(seen[0].getMessage().contains("while its current device is unset (cudaSetDevice missing)"),
                String.valueOf(seen[0]));
        }
    }

    @Test
    void shouldTurnAModelThatThrowsIntoADeviceFaultInsteadOfAHang()
    {
        final SimulatedModel broken = new SimulatedModel()
        {
            @Override
            public EngineTensor input()
            {
                return new EngineTensor("input", true, "uint8", DType.UINT8, 1, new long[] {-1, 4});
            }

            @Override
            public EngineTensor output()
            {
                return new EngineTensor("logits", false, "float32", DType.FLOAT32, 4, new long[] {-1, 2});
            }

            @Override
            public void infer(final MemorySegment input, final MemorySegment output, final int batch)
            {
                throw new IllegalStateException("model bug");
            }
        };
        final SimulatedBackend backend = new SimulatedBackend(SimulationSettings.DEFAULT, broken);
        final Gpu gpu = backend.open(0);
        final var engine = backend.load(gpu, backend.build(gpu, new org.jloadgen.sut.tensorrt.device.EngineBuild(
            java.nio.file.Path.of("m.onnx"), "input", new long[] {4}, 2, 2, 1, false, false, true, 0, -1)), "test");
        final long in = gpu.allocate(8);
        final long out = gpu.allocate(16);
        try (DeviceStream stream = gpu.newStream(); DeviceEvent done = gpu.newEvent(false, false);
            var context = engine.newContext(0, stream))
        {
            context.prepare("input", new long[] {4});
            context.bind("input", in);
            context.bind("logits", out);
            context.setBatch(2);
            context.enqueue(stream);
            stream.record(done);
            final DeviceException fault = assertThrows(DeviceException.class, done::synchronize);
            assertTrue(fault.getMessage().contains("simulated infer failed on GPU 0: java.lang.IllegalStateException: "
                + "model bug"), fault.getMessage());
            assertThrows(DeviceException.class, () -> context.setBatch(3), "above the profile's batch");
        }
        engine.close();
        assertFalse(backend.device(0).liveObjects().contains("engines 1"));
    }
}
