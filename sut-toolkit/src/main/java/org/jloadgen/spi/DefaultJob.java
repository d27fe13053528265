package org.jloadgen.spi;

import java.io.PrintStream;

/**
 * What {@code jloadgen run} does when it is given no arguments at all, or only {@code --out DIR} (the README's main
 * job). A SUT module
 * contributes one through {@link java.util.ServiceLoader}; the highest {@link #priority()} wins, and its
 * {@link #sutName()} is also the default of {@code --sut}.
 */
public interface DefaultJob
{
    /**
     * @return one line saying what the job runs.
     */
    String description();

    /**
     * @return where the job's logs go without {@code --out}.
     */
    java.nio.file.Path defaultOutDir();

    /**
     * @return higher wins when several modules provide a default job.
     */
    int priority();

    /**
     * @return the {@code --sut} name of the SUT this job runs: {@code jloadgen run} with options but without
     *         {@code --sut} uses the same SUT, so that a bare run and a run with options never differ in the SUT.
     */
    String sutName();

    /**
     * Runs the job.
     *
     * @param out standard output.
     * @param err standard error.
     * @return the process exit code.
     * @throws Exception if the job cannot run.
     */
    int run(PrintStream out, PrintStream err) throws Exception;

    /**
     * Runs the job with its logs under a folder of the user's ({@code jloadgen run --out DIR}).
     *
     * @param outDir where the logs go instead of the job's default folder.
     * @param out    standard output.
     * @param err    standard error.
     * @return the process exit code.
     * @throws Exception if the job cannot run.
     */
    int run(java.nio.file.Path outDir, PrintStream out, PrintStream err) throws Exception;
}
