package org.jloadgen.testing;

/**
 * Queueing theory of the M/M/c queue (Poisson arrivals at rate {@code lambda}, {@code c} servers with exponential
 * service at rate {@code mu} each, first come first served), the answer the simulated synthetic SUT must give:
 * the probability that an arrival waits (Erlang C) and the distribution of its response time T = wait + service.
 * A waiting arrival's wait is exponential with rate {@code c mu - lambda}, so
 * <pre>
 * P(T &gt; t) = (1 - C) e^(-mu t) + C (g e^(-mu t) - mu e^(-g t)) / (g - mu),   g = c mu - lambda
 * </pre>
 * (the sum of two exponentials; {@code C (1 + mu t) e^(-mu t)} when {@code g = mu}).
 *
 * @param servers c.
 * @param mu      service rate per server (1/s).
 */
public record MmcQueue(int servers, double mu)
{
    /**
     * @param lambda arrival rate (1/s), below {@code c mu}.
     * @return Erlang C: the probability that an arrival waits.
     */
    public double waitProbability(final double lambda)
    {
        final double a = lambda / mu;
        final double rho = a / servers;
        if (!(rho < 1))
        {
            throw new IllegalArgumentException("unstable: lambda " + lambda + " >= c mu " + servers * mu);
        }
        double term = 1;
        double sum = 0;
        for (int k = 0; k < servers; k++)
        {
            sum += term;
            term *= a / (k + 1);
        }
        // term is now a^c / c!.
        final double last = term / (1 - rho);
        return last / (sum + last);
    }

    /**
     * @param lambda arrival rate.
     * @param tSeconds a response time.
     * @return P(T &gt; t).
     */
    public double tail(final double lambda, final double tSeconds)
    {
        final double c = waitProbability(lambda);
        final double g = servers * mu - lambda;
        final double serviceTail = Math.exp(-mu * tSeconds);
        final double sum = Math.abs(g - mu) < 1e-9 * mu ? (1 + mu * tSeconds) * serviceTail
            : (g * serviceTail - mu * Math.exp(-g * tSeconds)) / (g - mu);
        return (1 - c) * serviceTail + c * sum;
    }

    /**
     * @param lambda     arrival rate.
     * @param percentile e.g. 0.99.
     * @return the response time (s) at that percentile.
     */
    public double percentileSeconds(final double lambda, final double percentile)
    {
        double lo = 0;
        double hi = 1 / mu;
        while (tail(lambda, hi) > 1 - percentile)
        {
            hi *= 2;
        }
        for (int i = 0; i < 200; i++)
        {
            final double mid = (lo + hi) / 2;
            if (tail(lambda, mid) > 1 - percentile)
            {
                lo = mid;
            }
            else
            {
                hi = mid;
            }
        }
        return (lo + hi) / 2;
    }

    /**
     * @param boundSeconds a latency bound.
     * @param fraction     the largest share of arrivals allowed over it.
     * @return the largest arrival rate at which at most that share of response times exceeds the bound (the
     *         tail falls as lambda falls, so this is a bisection on lambda).
     */
    public double largestRate(final double boundSeconds, final double fraction)
    {
        double lo = 0;
        double hi = servers * mu * (1 - 1e-12);
        if (tail(hi * 1e-9, boundSeconds) > fraction)
        {
            return 0;
        }
        for (int i = 0; i < 200; i++)
        {
            final double mid = (lo + hi) / 2;
            if (tail(mid, boundSeconds) <= fraction)
            {
                lo = mid;
            }
            else
            {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * @param lambda arrival rate.
     * @return the mean response time (s): C / (c mu - lambda) + 1 / mu.
     */
    public double meanSeconds(final double lambda)
    {
        return waitProbability(lambda) / (servers * mu - lambda) + 1 / mu;
    }
}
