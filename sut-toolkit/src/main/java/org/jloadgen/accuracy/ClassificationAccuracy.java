package org.jloadgen.accuracy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * Top-1 accuracy from an accuracy log, for any classification dataset: the MLPerf "accuracy script" step.
 * A response is either a class index (int32/int64) or float32 logits whose argmax is the class. Each QSL index
 * is scored once (the first entry), as the reference scripts do; repeats (MultiStream padding) are counted.
 */
public final class ClassificationAccuracy
{
    private ClassificationAccuracy()
    {
    }

    /** How a response encodes its class. */
    public enum DataType
    {
        /** 4 or 8 bytes: an index; otherwise float32 logits. */
        AUTO,
        /** float32 logits, argmax. */
        FLOAT32,
        /** one int32 class index. */
        INT32,
        /** one int64 class index. */
        INT64,
        /** int32 class indices, best first (a device top-k): the first is the prediction. */
        INT32_RANKED;

        /**
         * @param text {@code auto}, {@code float32}, {@code int32}, {@code int64} or {@code int32_ranked}.
         * @return the type.
         */
        public static DataType parse(final String text)
        {
            for (final DataType t : values())
            {
                if (t.name().equalsIgnoreCase(text))
                {
                    return t;
                }
            }
            throw new IllegalArgumentException("unknown data type '" + text
                + "' (expected auto, float32, int32, int64 or int32_ranked)");
        }
    }

    /**
     * The score.
     *
     * @param entries    entries in the log.
     * @param scored     distinct QSL indices scored.
     * @param correct    of which correct.
     * @param duplicates entries for a QSL index already scored.
     * @param missing    labels with no entry in the log.
     */
    public record Report(long entries, long scored, long correct, long duplicates, long missing)
    {
        /**
         * @return top-1 accuracy in percent.
         */
        public double top1Percent()
        {
            return scored == 0 ? 0 : 100.0 * correct / scored;
        }

        /**
         * @return e.g. {@code top-1 accuracy: 89.19% (8919 of 10000 samples)}.
         */
        public String describe()
        {
            final StringBuilder sb = new StringBuilder();
            sb.append(String.format("top-1 accuracy: %.2f%% (%d of %d samples)", top1Percent(), correct, scored));
            if (duplicates > 0)
            {
                sb.append(String.format("; %d repeated entries ignored", duplicates));
            }
            if (missing > 0)
            {
                sb.append(String.format("; %d labelled samples not in the log", missing));
            }
            return sb.toString();
        }
    }

    /**
     * @param accuracyLog the log.
     * @param labelsFile  labels by QSL index.
     * @param type        response encoding.
     * @param labelOffset added to each label.
     * @return the score.
     */
    public static Report score(final Path accuracyLog, final Path labelsFile, final DataType type,
        final int labelOffset)
    {
        return score(accuracyLog, Labels.read(labelsFile), type, labelOffset);
    }

    /**
     * @param accuracyLog the log.
     * @param labels      label of each QSL index.
     * @param type        response encoding.
     * @param labelOffset added to each label.
     * @return the score.
     */
    public static Report score(final Path accuracyLog, final int[] labels, final DataType type,
        final int labelOffset)
    {
        final BitSet seen = new BitSet(labels.length);
        final long[] counts = new long[4];
        final long entries = AccuracyLogReader.read(accuracyLog, e ->
        {
            if (e.qslIndex() >= labels.length)
            {
                throw new IllegalArgumentException(accuracyLog + ": seq_id " + e.seqId() + " has qsl_idx "
                    + e.qslIndex() + " but there are only " + labels.length + " labels");
            }
            final int qsl = (int)e.qslIndex();
            if (seen.get(qsl))
            {
                counts[1]++;
                return;
            }
            seen.set(qsl);
            counts[0]++;
            if (predict(e.data(), type, accuracyLog, e.seqId()) == labels[qsl] + labelOffset)
            {
                counts[2]++;
            }
        });
        return new Report(entries, counts[0], counts[2], counts[1], labels.length - seen.cardinality());
    }

    /**
     * @param data response bytes.
     * @param type encoding.
     * @param log  for messages.
     * @param seq  for messages.
     * @return the predicted class.
     */
    static long predict(final byte[] data, final DataType type, final Path log, final long seq)
    {
        final ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        final DataType t = type != DataType.AUTO ? type
            : data.length == 4 ? DataType.INT32 : data.length == 8 ? DataType.INT64 : DataType.FLOAT32;
        switch (t)
        {
            case INT32:
                require(data.length == 4, log, seq, "an int32 response must be 4 bytes, got " + data.length);
                return b.getInt(0);
            case INT64:
                require(data.length == 8, log, seq, "an int64 response must be 8 bytes, got " + data.length);
                return b.getLong(0);
            case INT32_RANKED:
                require(data.length > 0 && data.length % 4 == 0, log, seq,
                    "ranked int32 class ids need a positive multiple of 4 bytes, got " + data.length);
                return b.getInt(0);
            default:
                require(data.length > 0 && data.length % 4 == 0, log, seq,
                    "float32 logits need a positive multiple of 4 bytes, got " + data.length);
                int best = 0;
                for (int i = 1; i < data.length / 4; i++)
                {
                    if (b.getFloat(4 * i) > b.getFloat(4 * best))
                    {
                        best = i;
                    }
                }
                return best;
        }
    }

    private static void require(final boolean ok, final Path log, final long seq, final String message)
    {
        if (!ok)
        {
            throw new IllegalArgumentException(log + ": seq_id " + seq + ": " + message);
        }
    }
}
