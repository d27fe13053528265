package org.jloadgen.sut.network;

import java.util.List;
import java.util.Locale;

import org.jloadgen.sut.SutOption;
import org.jloadgen.sut.SutOptions;

/**
 * What a network SUT does with a failed request ({@code --sut-opt on-error=fail|count}, {@code retries=N}).
 * <p>
 * {@code fail} (the default, for {@code run} and {@code submission}) is LoadGen's policy: the first failure ends the
 * run, INVALID. {@code count} is a load-testing policy, as vLLM's {@code bench serve}, AIPerf and GuideLLM have: a
 * failed request is counted by cause and reported to the engine as a failed sample
 * ({@code ResponseSink.failSample}), which never counts as completed, and the run goes on. Either way a request is
 * first sent again up to {@code retries} times (on the same slot, at once), and only then counted as failed.
 *
 * @param count   whether failed requests are counted and the run goes on.
 * @param retries how many times a failed request is sent again before it counts as failed.
 */
public record FailurePolicy(boolean count, int retries)
{
    /** LoadGen's policy: the first failure ends the run; no retries. */
    public static final FailurePolicy FAIL = new FailurePolicy(false, 0);
    /** Detail-log key of the failure policy. */
    public static final String POLICY_KEY = "jloadgen_failure_policy";
    /** Detail-log key of the failed requests by cause. */
    public static final String CAUSES_KEY = "jloadgen_failures_by_cause";
    /** Detail-log key of the requests sent again. */
    public static final String RETRIES_KEY = "jloadgen_retries";
    /** The most retries a request may get. */
    public static final int MAX_RETRIES = 100;

    /** The options every network SUT takes. */
    public static final List<SutOption> OPTIONS = List.of(
        new SutOption("on-error", "fail|count", "fail", "fail: the first failed request ends the run, INVALID "
            + "(LoadGen's policy); count: failed requests (HTTP 429/5xx, error status, reset, timeout) are counted "
            + "by cause, never as completed, and the run goes on (a load test)."),
        new SutOption("retries", "integer 0-" + MAX_RETRIES, "0", "Send a failed request again up to N times before "
            + "it counts as failed."));

    /**
     * @param o the SUT's options.
     * @return the policy they give.
     * @throws IllegalArgumentException naming the bad key or value.
     */
    public static FailurePolicy parse(final SutOptions o)
    {
        final String onError = o.string("on-error", "fail").strip().toLowerCase(Locale.ROOT);
        if (!onError.equals("fail") && !onError.equals("count"))
        {
            throw o.invalid("on-error", "fail or count", null);
        }
        final int retries = o.intValue("retries", 0);
        if (retries < 0 || retries > MAX_RETRIES)
        {
            throw o.invalid("retries", "an integer from 0 to " + MAX_RETRIES, null);
        }
        return new FailurePolicy(onError.equals("count"), retries);
    }

    /**
     * @return e.g. {@code on-error=count, retries=2}.
     */
    public String describe()
    {
        return "on-error=" + (count ? "count" : "fail") + ", retries=" + retries;
    }
}
