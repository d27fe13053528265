package org.jloadgen.api;

import java.util.List;

/**
 * A SUT that has something to say in the detail log beside LoadGen's records: what it did before the clock started
 * (a network SUT's warm-up of its connections and code paths) and what it counted while it ran (requests that
 * failed, token throughputs). The engine writes each note as a record of JLoadGen's own, whose key starts with
 * {@code jloadgen_} so that LoadGen's tools, which read their own keys, never mistake it for one of theirs; LoadGen's
 * records are written as before.
 */
public interface SutLogNotes
{
    /** Every note's key starts with this. */
    String KEY_PREFIX = "jloadgen_";

    /**
     * @return notes for the detail log's header, after the SUT's name and the waits (called once per test, before the
     *         first series).
     */
    default List<Note> notesBeforeRun()
    {
        return List.of();
    }

    /**
     * @return notes for the end of the detail log (called once per test, after the last series, before the logs
     *         close).
     */
    default List<Note> notesAfterRun()
    {
        return List.of();
    }

    /**
     * @return lines for JLoadGen's section of the summary, after LoadGen's lines (e.g. failed requests by cause and
     *         goodput under a counting failure policy); called once per test, after the last series. Empty by
     *         default, so that the summary stays LoadGen's byte for byte.
     */
    default List<String> summaryAfterRun()
    {
        return List.of();
    }

    /**
     * One detail-log record: a string, a whole number or a real number, as LoadGen's records hold.
     *
     * @param key   the key, {@code jloadgen_...}.
     * @param value a {@link String}, {@link Long} or {@link Double}.
     */
    record Note(String key, Object value)
    {
        /**
         * Checks the key and the value's type.
         */
        public Note
        {
            if (!key.startsWith(KEY_PREFIX))
            {
                throw new IllegalArgumentException("a SUT's detail-log key must start with " + KEY_PREFIX + ": " + key);
            }
            if (!(value instanceof String || value instanceof Long || value instanceof Double))
            {
                throw new IllegalArgumentException("a detail-log value is a string, a long or a double: " + key);
            }
        }
    }
}
