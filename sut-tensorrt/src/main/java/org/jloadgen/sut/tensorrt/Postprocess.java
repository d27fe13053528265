package org.jloadgen.sut.tensorrt;

import java.util.Locale;

/**
 * What happens to the chosen output on the device before it is copied back: nothing (raw output rows come back) or
 * the top-k kernel (only {@code k} int32 class ids per sample come back).
 *
 * @param kind what to do.
 * @param k    ids per sample for {@link Kind#TOPK}, else 0.
 */
public record Postprocess(Kind kind, int k)
{
    /** What to do. */
    public enum Kind
    {
        /** Top-1 (argmax) when the output is float32 [N, classes] and the kernel library is loaded, else none. */
        AUTO,
        /** Copy the raw output rows. */
        NONE,
        /** Top-k class ids on the device. */
        TOPK
    }

    /** {@code postprocess=auto}. */
    public static final Postprocess AUTO = new Postprocess(Kind.AUTO, 0);
    /** {@code postprocess=none}. */
    public static final Postprocess NONE = new Postprocess(Kind.NONE, 0);
    /** {@code postprocess=argmax}. */
    public static final Postprocess ARGMAX = new Postprocess(Kind.TOPK, 1);

    /**
     * Checks k.
     */
    public Postprocess
    {
        if (kind == Kind.TOPK ? k < 1 || k > org.jloadgen.bindings.CudaKernels.TOPK_MAX : k != 0)
        {
            throw new IllegalArgumentException("top-k needs k from 1 to " + org.jloadgen.bindings.CudaKernels.TOPK_MAX
                + ", got " + k);
        }
    }

    /**
     * @param text {@code auto}, {@code none}, {@code argmax} or {@code topk:K}.
     * @return the post-processing.
     * @throws IllegalArgumentException for anything else.
     */
    public static Postprocess parse(final String text)
    {
        final String s = text.strip().toLowerCase(Locale.ROOT);
        switch (s)
        {
            case "auto":
                return AUTO;
            case "none":
                return NONE;
            case "argmax":
            case "top1":
                return ARGMAX;
            default:
                if (s.startsWith("topk:"))
                {
                    return new Postprocess(Kind.TOPK, Integer.parseInt(s.substring(5).strip()));
                }
                throw new IllegalArgumentException("not auto, none, argmax or topk:K: " + text);
        }
    }

    /**
     * @return e.g. {@code top-5 class ids on the device}.
     */
    public String describe()
    {
        return switch (kind)
        {
            case AUTO -> "auto";
            case NONE -> "none (raw output rows)";
            case TOPK -> k == 1 ? "argmax on the device" : "top-" + k + " class ids on the device";
        };
    }
}
