package org.jloadgen.spi;

import java.io.PrintStream;

/**
 * What {@code jloadgen run} does when it is given no arguments at all (the README's main job). A SUT module
 * contributes one through {@link java.util.ServiceLoader}; the highest {@link #priority()} wins.
 */
public interface DefaultJob
{
    /**
     * @return one line saying what the job runs.
     */
    String description();

    /**
     * @return higher wins when several modules provide a default job.
     */
    int priority();

    /**
     * Runs the job.
     *
     * @param out standard output.
     * @param err standard error.
     * @return the process exit code.
     * @throws Exception if the job cannot run.
     */
    int run(PrintStream out, PrintStream err) throws Exception;
}
