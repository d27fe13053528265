package org.jloadgen.sut.tensorrt;

import java.util.Arrays;

/**
 * Which captured CUDA graph runs a batch: the smallest captured batch size that holds it (its extra rows compute on
 * stale input and are not returned), or none when every captured size is smaller. Allocates nothing.
 */
public final class GraphSelector
{
    private final int[] sizes;

    /**
     * @param sizes captured batch sizes, ascending, positive, distinct (may be empty).
     */
    public GraphSelector(final int[] sizes)
    {
        for (int i = 0; i < sizes.length; i++)
        {
            if (sizes[i] <= 0 || i > 0 && sizes[i] <= sizes[i - 1])
            {
                throw new IllegalArgumentException("graph sizes must be positive and ascending: "
                    + Arrays.toString(sizes));
            }
        }
        this.sizes = sizes.clone();
    }

    /**
     * @param n samples in the batch.
     * @return the index of the smallest captured size of at least {@code n}, or -1 for none.
     */
    public int pick(final int n)
    {
        int low = 0;
        int high = sizes.length;
        while (low < high)
        {
            final int mid = (low + high) >>> 1;
            if (sizes[mid] < n)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }
        return low < sizes.length ? low : -1;
    }

    /**
     * @param index from {@link #pick}.
     * @return that graph's batch size.
     */
    public int size(final int index)
    {
        return sizes[index];
    }

    /**
     * @return the number of captured sizes.
     */
    public int count()
    {
        return sizes.length;
    }
}
