package org.jloadgen.results;

/**
 * How a performance series ended, where LoadGen has no counterpart. LoadGen waits for every issued sample forever;
 * JLoadGen stops waiting when the test is aborted (a signal, {@code abortTest}), when the SUT fails, or when it
 * completes nothing for the completion timeout. Such a series was cut short: its numbers describe only the part
 * before the stop, so it is never VALID and LoadGen's recommendations (which assume a run that went to its end) do
 * not apply. A sample that never completed makes a series INVALID too, however it ended.
 *
 * @param samplesIssued       samples handed to the SUT.
 * @param samplesNotCompleted of those, the samples that never completed (a sample that completed after the engine
 *                            stopped waiting for it counts here, once).
 * @param stoppedBecause      why the series was cut short, as a sentence fragment ({@code "interrupted by a signal
 *                            (SIGINT)"}), or {@code null} when it ran to its normal end.
 * @param samplesFailed       of the samples issued, those the SUT reported failed and went on without
 *                            ({@code ResponseSink.failSample}, a load-testing policy such as {@code on-error=count}):
 *                            never completed, in no latency or rate, and not in {@code samplesNotCompleted}.
 */
public record SeriesEnd(long samplesIssued, long samplesNotCompleted, String stoppedBecause, long samplesFailed)
{
    /**
     * Checks the counts.
     */
    public SeriesEnd
    {
        if (samplesIssued < 0 || samplesNotCompleted < 0 || samplesFailed < 0
            || samplesNotCompleted + samplesFailed > samplesIssued)
        {
            throw new IllegalArgumentException("samples not completed (" + samplesNotCompleted + ") and failed ("
                + samplesFailed + ") must be between 0 and the samples issued (" + samplesIssued + ")");
        }
    }

    /**
     * A series without failed samples.
     *
     * @param samplesIssued       samples handed to the SUT.
     * @param samplesNotCompleted of those, the samples that never completed.
     * @param stoppedBecause      why the series was cut short, or {@code null}.
     */
    public SeriesEnd(final long samplesIssued, final long samplesNotCompleted, final String stoppedBecause)
    {
        this(samplesIssued, samplesNotCompleted, stoppedBecause, 0);
    }

    /**
     * @param samplesIssued samples handed to the SUT, every one completed.
     * @return the end of a series that ran as LoadGen's do.
     */
    public static SeriesEnd complete(final long samplesIssued)
    {
        return new SeriesEnd(samplesIssued, 0, null, 0);
    }

    /**
     * @return whether the engine stopped the series before its normal end.
     */
    public boolean cutShort()
    {
        return stoppedBecause != null;
    }

    /**
     * @return whether every issued sample completed.
     */
    public boolean allCompleted()
    {
        return samplesNotCompleted == 0;
    }

    /**
     * @return whether no sample failed.
     */
    public boolean noneFailed()
    {
        return samplesFailed == 0;
    }

    /**
     * @return samples issued, less the failed and the never completed ones.
     */
    public long samplesCompleted()
    {
        return samplesIssued - samplesNotCompleted - samplesFailed;
    }

    /**
     * @return whether the series ended as LoadGen's do: not cut short, nothing missing, nothing failed.
     */
    public boolean normal()
    {
        return !cutShort() && allCompleted() && noneFailed();
    }

    /**
     * @param reason why the run was aborted.
     * @return the summary's sentence for an aborted run.
     */
    public static String abortSentence(final String reason)
    {
        return "The run was aborted: " + reason + ". Its results cover only the part before the abort; run it again "
            + "to the end.";
    }

    /**
     * @return what the summary's recommendations say about this end, one sentence per line, empty when
     *         {@link #normal()}.
     */
    public String explanation()
    {
        final StringBuilder text = new StringBuilder();
        if (cutShort())
        {
            text.append(abortSentence(stoppedBecause));
        }
        if (!allCompleted())
        {
            if (!text.isEmpty())
            {
                text.append('\n');
            }
            text.append(samplesNotCompleted).append(" of ").append(samplesIssued)
                .append(" issued samples never completed.");
        }
        if (!noneFailed())
        {
            if (!text.isEmpty())
            {
                text.append('\n');
            }
            text.append(samplesFailed).append(" of ").append(samplesIssued).append(" issued samples failed (the SUT "
                + "counted them and went on); the latencies and rates above cover the ").append(samplesCompleted())
                .append(" completed samples only.");
        }
        return text.toString();
    }
}
