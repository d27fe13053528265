package org.jloadgen.bindings;

import java.util.List;

/**
 * The JVM flags every JLoadGen JVM needs, in one place for Java code that starts a JVM (child JVMs of tests and
 * benchmarks, JMH forks: {@code @Fork(jvmArgsAppend = {JvmFlags.NATIVE_ACCESS, JvmFlags.AGRONA_UNSAFE})}). JMH
 * and child JVMs start with a class path, not {@code -jar}, so a jar manifest's {@code Enable-Native-Access} does
 * not reach them. The same flags are {@code JLOADGEN_JVM_FLAGS} in {@code scripts/env.sh} for the launcher and the
 * scripts, and the property {@code jloadgen.nativeAccess} in the root POM for Maven's test JVMs; a test in this
 * module keeps the three equal. They live in the lowest module so that every module reaches them.
 */
public final class JvmFlags
{
    /** FFM downcalls and {@code MemorySegment.reinterpret} without warnings. */
    public static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    /** Agrona 2.x reaches {@code jdk.internal.misc.Unsafe} and fails to initialise without it. */
    public static final String AGRONA_UNSAFE = "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED";
    /** Both, in the order the launcher passes them. */
    public static final List<String> REQUIRED = List.of(NATIVE_ACCESS, AGRONA_UNSAFE);

    private JvmFlags()
    {
    }
}
