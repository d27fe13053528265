package org.jloadgen.random;

/**
 * The libstdc++ (GCC 12) algorithms LoadGen draws with, reproduced draw for draw (spec §4.3–§4.5; called from
 * loadgen/loadgen.cc, GenerateQueries and GenerateLoadableSets): {@code uniform_int_distribution} (Lemire's
 * nearly-divisionless method for a 32-bit engine), {@code std::shuffle} (two swaps per draw while n*n fits the engine
 * range), {@code generate_canonical<double, 53>}, {@code uniform_real_distribution<double>} and
 * {@code exponential_distribution<double>} (with glibc's {@code log}, {@link GlibcLog}). Other C++ libraries give other
 * sequences; this is the one the official Linux builds produce.
 */
public final class StdRandom
{
    private static final long ENGINE_RANGE = 0xFFFF_FFFFL;
    private static final double TWO_POW_32 = 4294967296.0;
    private static final double ONE_BELOW_ONE = Math.nextDown(1.0);

    private StdRandom()
    {
    }

    /**
     * {@code std::uniform_int_distribution<T>(lo, hi)(g)} for a range that fits 32 bits.
     *
     * @param g  the engine.
     * @param lo smallest value.
     * @param hi largest value, {@code hi - lo < 2^32}.
     * @return a value in {@code [lo, hi]}.
     */
    public static long uniformInt(final Mt19937 g, final long lo, final long hi)
    {
        final long urange = hi - lo;
        if (urange == ENGINE_RANGE)
        {
            return lo + g.next();
        }
        if (urange < 0 || urange > ENGINE_RANGE)
        {
            throw new IllegalArgumentException("range [" + lo + ", " + hi + "] does not fit 32 bits");
        }
        return lo + lemire(g, urange + 1);
    }

    /**
     * libstdc++ {@code _S_nd}: Lemire's method with a 64-bit product.
     *
     * @param g     the engine.
     * @param range number of values, in {@code [1, 2^32)}.
     * @return a value in {@code [0, range)}.
     */
    private static long lemire(final Mt19937 g, final long range)
    {
        // x < 2^32 and range < 2^32, so the product fits 64 unsigned bits; Java's multiply yields those bits.
        long product = g.next() * range;
        long low = product & 0xFFFF_FFFFL;
        if (low < range)
        {
            final long threshold = ((1L << 32) - range) % range;
            while (low < threshold)
            {
                product = g.next() * range;
                low = product & 0xFFFF_FFFFL;
            }
        }
        return product >>> 32;
    }

    /**
     * {@code std::shuffle(a, a + n, g)} on an int array, as libstdc++ does it.
     *
     * @param a the array; the whole array is shuffled.
     * @param g the engine.
     */
    public static void shuffle(final int[] a, final Mt19937 g)
    {
        shuffle(a, 0, a.length, g);
    }

    /**
     * {@code std::shuffle(a + from, a + to, g)} on an int array, as libstdc++ does it.
     *
     * @param a    the array.
     * @param from first index of the range.
     * @param to   one past the last index of the range.
     * @param g    the engine.
     */
    public static void shuffle(final int[] a, final int from, final int to, final Mt19937 g)
    {
        final long n = to - from;
        if (n <= 0)
        {
            return;
        }
        if (ENGINE_RANGE / n >= n)
        {
            int i = from + 1;
            if ((n & 1) == 0)
            {
                swap(a, i++, from + (int)uniformInt(g, 0, 1));
            }
            while (i != to)
            {
                final long swapRange = (i - from) + 1;
                final long x = uniformInt(g, 0, swapRange * (swapRange + 1) - 1);
                swap(a, i++, from + (int)(x / (swapRange + 1)));
                swap(a, i++, from + (int)(x % (swapRange + 1)));
            }
            return;
        }
        for (int i = from + 1; i != to; i++)
        {
            swap(a, i, from + (int)uniformInt(g, 0, i - from));
        }
    }

    /**
     * {@code std::shuffle} on a long array, as libstdc++ does it.
     *
     * @param a the array; the whole array is shuffled.
     * @param g the engine.
     */
    public static void shuffle(final long[] a, final Mt19937 g)
    {
        final int to = a.length;
        final long n = to;
        if (n <= 0)
        {
            return;
        }
        if (ENGINE_RANGE / n >= n)
        {
            int i = 1;
            if ((n & 1) == 0)
            {
                swap(a, i++, (int)uniformInt(g, 0, 1));
            }
            while (i != to)
            {
                final long swapRange = i + 1;
                final long x = uniformInt(g, 0, swapRange * (swapRange + 1) - 1);
                swap(a, i++, (int)(x / (swapRange + 1)));
                swap(a, i++, (int)(x % (swapRange + 1)));
            }
            return;
        }
        for (int i = 1; i != to; i++)
        {
            swap(a, i, (int)uniformInt(g, 0, i));
        }
    }

    /**
     * {@code std::generate_canonical<double, 53>(g)}: two engine outputs, low word first.
     *
     * @param g the engine.
     * @return a value in {@code [0, 1)}.
     */
    public static double generateCanonical(final Mt19937 g)
    {
        double sum = 0.0;
        double tmp = 1.0;
        sum += (double)g.next() * tmp;
        tmp *= TWO_POW_32;
        sum += (double)g.next() * tmp;
        tmp *= TWO_POW_32;
        final double r = sum / tmp;
        return r >= 1.0 ? ONE_BELOW_ONE : r;
    }

    /**
     * {@code std::uniform_real_distribution<double>(0, 1)(g)}.
     *
     * @param g the engine.
     * @return a value in {@code [0, 1)}.
     */
    public static double uniformReal01(final Mt19937 g)
    {
        return generateCanonical(g);
    }

    /**
     * {@code std::exponential_distribution<double>(lambda)(g)} = {@code -log(1 - U) / lambda}, with glibc's
     * {@code log} (its FMA build, see {@link GlibcLog}): {@link Math#log} is off by one ulp for about 1 input
     * in 1,200, enough to move a truncated nanosecond interval at low rates.
     *
     * @param g      the engine.
     * @param lambda the rate.
     * @return the draw.
     */
    public static double exponential(final Mt19937 g, final double lambda)
    {
        return -GlibcLog.log(1.0 - generateCanonical(g)) / lambda;
    }

    private static void swap(final int[] a, final int i, final int j)
    {
        final int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    private static void swap(final long[] a, final int i, final int j)
    {
        final long t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
