package org.jloadgen.sut.synthetic;

import org.jloadgen.api.QuerySampleResponses;
import org.jloadgen.api.QuerySamples;
import org.jloadgen.api.ResponseSink;
import org.jloadgen.api.SystemUnderTest;

/**
 * The SUT the overhead budget is measured with (as LoadGen's {@code perftests_null_sut.cc}): every sample is
 * completed inside {@code issueQuery}, with no response data. A single sample completes with
 * {@link ResponseSink#complete(long)}; larger queries complete in chunks of a reused response array, so even an
 * Offline query of tens of millions of samples needs no per-sample memory in the SUT.
 */
public final class NullSut implements SystemUnderTest
{
    /** Responses per completion call for large queries. */
    public static final int CHUNK = 1024;

    private final String name;
    private final QuerySampleResponses responses;

    /**
     * A null SUT named {@code NullInlineSUT}.
     */
    public NullSut()
    {
        this("NullInlineSUT");
    }

    /**
     * @param name the SUT name.
     */
    public NullSut(final String name)
    {
        this.name = name;
        this.responses = new QuerySampleResponses(CHUNK);
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public void issueQuery(final QuerySamples samples, final ResponseSink sink)
    {
        final int n = samples.size();
        if (n == 1)
        {
            sink.complete(samples.responseId(0));
            return;
        }
        final QuerySampleResponses r = responses;
        for (int first = 0; first < n; first += CHUNK)
        {
            final int count = Math.min(CHUNK, n - first);
            for (int i = 0; i < count; i++)
            {
                r.set(i, samples.responseId(first + i));
            }
            sink.complete(r, count);
        }
    }

    @Override
    public void flushQueries()
    {
    }
}
