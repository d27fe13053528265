package org.jloadgen.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import org.jloadgen.api.TestScenario;
import org.jloadgen.testing.SharedData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AccuracyLogWriter} against the official accuracy log of the AccuracyOnly SingleStream example (null SUT
 * answering each sample with its QSL index as 4 little-endian bytes), and the token variants of spec §8.4.
 */
class AccuracyLogWriterTest
{
    @TempDir
    Path dir;

    @Test
    void shouldWriteTheOfficialAccuracyLogByteForByte() throws IOException
    {
        final long[] qslOrder = {0, 2, 13, 11, 10, 15, 9, 14, 4, 3, 5, 8, 7, 1, 12, 6};
        final Path file = dir.resolve("mlperf_log_accuracy.json");
        try (AccuracyLogWriter writer = new AccuracyLogWriter(file, AccuracyLogWriter.TokenFields.NONE))
        {
            for (int seq = 0; seq < qslOrder.length; seq++)
            {
                final byte[] data = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN)
                    .putInt((int)qslOrder[seq]).array();
                writer.write(seq, qslOrder[seq], data, 0, data.length, null, 0);
            }
            assertEquals(16, writer.entries());
        }
        assertEquals(Files.readString(SharedData.data("example-logs/Accuracy-SingleStream/mlperf_log_accuracy.json")),
            Files.readString(file));
    }

    @Test
    void shouldWriteAnEmptyLogAsBracketsOnTwoLines() throws IOException
    {
        final Path file = dir.resolve("empty.json");
        new AccuracyLogWriter(file, AccuracyLogWriter.TokenFields.NONE).close();
        assertEquals("[\n]\n", Files.readString(file));
    }

    @Test
    void shouldEncodeNativePayloadsAsUppercaseHex() throws IOException
    {
        final Path file = dir.resolve("native.json");
        try (Arena arena = Arena.ofConfined();
            AccuracyLogWriter writer = new AccuracyLogWriter(file, AccuracyLogWriter.TokenFields.NONE))
        {
            final MemorySegment payload = arena.allocate(3);
            payload.set(ValueLayout.JAVA_BYTE, 0, (byte)0xAB);
            payload.set(ValueLayout.JAVA_BYTE, 1, (byte)0x0F);
            payload.set(ValueLayout.JAVA_BYTE, 2, (byte)0xF0);
            writer.write(7, 123_456_789_012L, payload, null, 0);
            writer.write(8, 3, MemorySegment.NULL, null, 0);
        }
        assertEquals("[\n{ \"seq_id\" : 7, \"qsl_idx\" : 123456789012, \"data\" : \"AB0FF0\" },\n"
            + "{ \"seq_id\" : 8, \"qsl_idx\" : 3, \"data\" : \"\" }\n]\n", Files.readString(file));
    }

    @Test
    void shouldEncodePayloadsLargerThanTheScratchBuffer() throws IOException
    {
        final byte[] payload = new byte[10_000];
        for (int i = 0; i < payload.length; i++)
        {
            payload[i] = (byte)i;
        }
        final Path file = dir.resolve("large.json");
        try (Arena arena = Arena.ofConfined();
            AccuracyLogWriter writer = new AccuracyLogWriter(file, AccuracyLogWriter.TokenFields.NONE))
        {
            writer.write(0, 0, payload, 0, payload.length, null, 0);
            final MemorySegment segment = arena.allocate(payload.length);
            MemorySegment.copy(payload, 0, segment, ValueLayout.JAVA_BYTE, 0, payload.length);
            writer.write(1, 0, segment, null, 0);
        }
        final StringBuilder hex = new StringBuilder();
        for (final byte b : payload)
        {
            hex.append(String.format("%02X", b & 0xFF));
        }
        assertEquals("[\n{ \"seq_id\" : 0, \"qsl_idx\" : 0, \"data\" : \"" + hex + "\" },\n"
            + "{ \"seq_id\" : 1, \"qsl_idx\" : 0, \"data\" : \"" + hex + "\" }\n]\n", Files.readString(file));
    }

    @Test
    void shouldAddTokenCountForOffline() throws IOException
    {
        final Path file = dir.resolve("offline.json");
        try (AccuracyLogWriter writer = new AccuracyLogWriter(file,
            AccuracyLogWriter.TokenFields.of(TestScenario.OFFLINE, true)))
        {
            writer.write(0, 5, new byte[] {1, 2}, 0, 2, null, 42);
        }
        assertEquals("[\n{ \"seq_id\" : 0, \"qsl_idx\" : 5, \"data\" : \"0102\", \"token_count\" : 42 }\n]\n",
            Files.readString(file));
    }

    @Test
    void shouldAddFirstTokenDataAndCountForOtherScenarios() throws IOException
    {
        final Path file = dir.resolve("server.json");
        try (AccuracyLogWriter writer = new AccuracyLogWriter(file,
            AccuracyLogWriter.TokenFields.of(TestScenario.SERVER, true)))
        {
            writer.write(0, 5, new byte[] {1, 2}, 0, 2, new byte[] {1}, 2);
            writer.write(1, 6, new byte[] {(byte)0xFF}, 0, 1, null, 0);
        }
        assertEquals("[\n{ \"seq_id\" : 0, \"qsl_idx\" : 5, \"data\" : \"0102\", \"token_data\" : \"01\", "
            + "\"token_count\" : 2 },\n"
            + "{ \"seq_id\" : 1, \"qsl_idx\" : 6, \"data\" : \"FF\", \"token_data\" : \"\", \"token_count\" : 0 }\n"
            + "]\n", Files.readString(file));
    }

    @Test
    void shouldChooseTokenFieldsFromScenarioAndSettings()
    {
        assertEquals(AccuracyLogWriter.TokenFields.NONE,
            AccuracyLogWriter.TokenFields.of(TestScenario.SINGLE_STREAM, false));
        assertEquals(AccuracyLogWriter.TokenFields.COUNT, AccuracyLogWriter.TokenFields.of(TestScenario.OFFLINE, true));
        assertEquals(AccuracyLogWriter.TokenFields.DATA_AND_COUNT,
            AccuracyLogWriter.TokenFields.of(TestScenario.MULTI_STREAM, true));
    }

    @Test
    void shouldOnlyPublishTheFileOnClose() throws IOException
    {
        final Path file = dir.resolve("late.json");
        final AccuracyLogWriter writer = new AccuracyLogWriter(file, AccuracyLogWriter.TokenFields.NONE);
        writer.write(0, 0, new byte[0], 0, 0, null, 0);
        assertEquals(false, Files.exists(file));
        writer.close();
        writer.close();
        assertEquals("[\n{ \"seq_id\" : 0, \"qsl_idx\" : 0, \"data\" : \"\" }\n]\n", Files.readString(file));
    }
}
