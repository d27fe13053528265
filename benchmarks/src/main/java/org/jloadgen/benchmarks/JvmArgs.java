package org.jloadgen.benchmarks;

/**
 * JVM options every benchmark fork needs: {@code @Fork(jvmArgsAppend = {JvmArgs.NATIVE_ACCESS,
 * JvmArgs.AGRONA_UNSAFE})}. JMH starts forks with a class path, not {@code -jar}, so the jar manifest's
 * {@code Enable-Native-Access} does not reach them.
 */
public final class JvmArgs
{
    /** FFM downcalls and {@code MemorySegment.reinterpret} without warnings. */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    /** Agrona 2.x reaches {@code jdk.internal.misc.Unsafe} and fails to initialise without it. */
    public static final String AGRONA_UNSAFE = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";

    private JvmArgs()
    {
    }
}
