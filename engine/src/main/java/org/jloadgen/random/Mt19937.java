package org.jloadgen.random;

/**
 * {@code std::mt19937}: the 32-bit Mersenne Twister with the standard parameters, as LoadGen uses for every
 * random draw (spec §4.1; the std::mt19937 of loadgen/loadgen.cc, GenerateQueries). Seeding follows libstdc++: the
 * 64-bit settings seed is reduced mod 2^32. Hand-written because the JDK has no MT19937 and the exact output sequence
 * is part of the contract. Not thread-safe.
 */
public final class Mt19937
{
    /** Seed of a default-constructed {@code std::mt19937}. */
    public static final long DEFAULT_SEED = 5489L;

    private static final int N = 624;
    private static final int M = 397;
    private static final int MATRIX_A = 0x9908B0DF;
    private static final int UPPER_MASK = 0x80000000;
    private static final int LOWER_MASK = 0x7FFFFFFF;

    private final int[] state = new int[N];
    private int index;

    /**
     * @param seed a LoadGen seed; only its low 32 bits are used, as in libstdc++.
     */
    public Mt19937(final long seed)
    {
        seed(seed);
    }

    /**
     * A generator seeded like a default-constructed {@code std::mt19937} (5489).
     */
    public Mt19937()
    {
        this(DEFAULT_SEED);
    }

    private Mt19937(final Mt19937 other)
    {
        System.arraycopy(other.state, 0, state, 0, N);
        index = other.index;
    }

    /**
     * @return a generator in this one's state, which then draws the same outputs as this one independently of it.
     */
    public Mt19937 copy()
    {
        return new Mt19937(this);
    }

    /**
     * {@code std::mt19937::discard}: skips outputs without tempering them.
     *
     * @param outputs number of outputs to skip, at least 0.
     */
    public void discard(final long outputs)
    {
        if (outputs < 0)
        {
            throw new IllegalArgumentException("cannot discard " + outputs + " outputs");
        }
        long left = outputs;
        while (left > 0)
        {
            if (index >= N)
            {
                twist();
            }
            final int step = (int)Math.min(left, N - index);
            index += step;
            left -= step;
        }
    }

    /**
     * Re-seeds the generator.
     *
     * @param seed a LoadGen seed; only its low 32 bits are used.
     */
    public void seed(final long seed)
    {
        final int[] mt = state;
        mt[0] = (int)seed;
        for (int i = 1; i < N; i++)
        {
            final int prev = mt[i - 1];
            mt[i] = 1812433253 * (prev ^ (prev >>> 30)) + i;
        }
        index = N;
    }

    /**
     * @return the next output as an unsigned 32-bit value in {@code [0, 2^32)}.
     */
    public long next()
    {
        return nextInt() & 0xFFFF_FFFFL;
    }

    /**
     * @return the next output as the raw 32 bits (treat as unsigned).
     */
    public int nextInt()
    {
        if (index >= N)
        {
            twist();
        }
        int y = state[index++];
        y ^= y >>> 11;
        y ^= (y << 7) & 0x9D2C5680;
        y ^= (y << 15) & 0xEFC60000;
        y ^= y >>> 18;
        return y;
    }

    private void twist()
    {
        final int[] mt = state;
        int k = 0;
        for (; k < N - M; k++)
        {
            final int y = (mt[k] & UPPER_MASK) | (mt[k + 1] & LOWER_MASK);
            mt[k] = mt[k + M] ^ (y >>> 1) ^ ((y & 1) == 0 ? 0 : MATRIX_A);
        }
        for (; k < N - 1; k++)
        {
            final int y = (mt[k] & UPPER_MASK) | (mt[k + 1] & LOWER_MASK);
            mt[k] = mt[k + (M - N)] ^ (y >>> 1) ^ ((y & 1) == 0 ? 0 : MATRIX_A);
        }
        final int y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
        mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ ((y & 1) == 0 ? 0 : MATRIX_A);
        index = 0;
    }
}
