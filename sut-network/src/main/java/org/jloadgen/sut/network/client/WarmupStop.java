package org.jloadgen.sut.network.client;

/**
 * When the network warm-up has sent enough: at least {@value #MIN_REQUESTS} answered requests, and an answer rate
 * that has stopped rising. The rate is taken over rounds of {@value #ROUND_REQUESTS} answers; once
 * {@value #FLAT_ROUNDS} rounds in a row fail to beat the best earlier round by {@value #RISE_PERCENT}%, the JIT of
 * both sides has done what requests can make it do. The minimum is what nodes started just before the client need,
 * measured: a rate rule alone stopped on a plateau while C2 was still compiling ({@code sut-network/README.md});
 * warm nodes are flat from the start and stop there. {@code warmup-ms} caps the time whatever the rate does. One
 * thread; allocates nothing.
 */
final class WarmupStop
{
    /** Answered requests before the rate is looked at. */
    static final long MIN_REQUESTS = 60_000;
    /** Answered requests per round of the rate. */
    static final long ROUND_REQUESTS = 5_000;
    /** Answered requests after which the warm-up ends whatever the rate does. */
    static final long MAX_REQUESTS = 200_000;
    /** How much faster than the best earlier round a round must be to count as rising. */
    static final int RISE_PERCENT = 5;
    /** Rounds in a row without a rise that end the warm-up. */
    static final int FLAT_ROUNDS = 2;

    private long roundStartDone;
    private long roundStartNs;
    private double bestPerSecond;
    private double lastPerSecond;
    private int flatRounds;
    private int rounds;

    /**
     * @param startNs when the first request went out ({@link System#nanoTime()}).
     */
    WarmupStop(final long startNs)
    {
        this.roundStartNs = startNs;
    }

    /**
     * @param done  requests answered (or failed) so far.
     * @param nowNs the time now.
     * @return whether the warm-up has sent enough.
     */
    boolean enough(final long done, final long nowNs)
    {
        if (done - roundStartDone >= ROUND_REQUESTS)
        {
            final long tookNs = Math.max(1, nowNs - roundStartNs);
            final double perSecond = (done - roundStartDone) * 1e9 / tookNs;
            flatRounds = perSecond * 100 > bestPerSecond * (100 + RISE_PERCENT) ? 0 : flatRounds + 1;
            bestPerSecond = Math.max(bestPerSecond, perSecond);
            lastPerSecond = perSecond;
            rounds++;
            roundStartDone = done;
            roundStartNs = nowNs;
        }
        return done >= MAX_REQUESTS || (done >= MIN_REQUESTS && flatRounds >= FLAT_ROUNDS);
    }

    /**
     * @return whether the rate had stopped rising (false: the time cap or {@value #MAX_REQUESTS} ended it first).
     */
    boolean settled()
    {
        return flatRounds >= FLAT_ROUNDS;
    }

    /**
     * @return for the detail log, e.g. {@code answer rate settled at 11840/s (best round 12210/s, 6 rounds)}.
     */
    String describe()
    {
        if (rounds == 0)
        {
            return "no full round of " + ROUND_REQUESTS + " answers";
        }
        return (settled() ? "answer rate settled at " : "answer rate still rising, last round ")
            + Math.round(lastPerSecond) + "/s (best round " + Math.round(bestPerSecond) + "/s, " + rounds
            + (rounds == 1 ? " round)" : " rounds)");
    }
}
