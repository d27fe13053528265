package org.jloadgen.concurrent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The CPUs a run may keep busy, for choosing between busy-spinning and parking. A thread that busy-spins holds a CPU
 * whether or not it has work, and on a machine where the spinning threads fill every CPU, whatever else wakes (the
 * JIT, the collector, the kernel, log writers, other processes) takes a CPU from one of them for a scheduler slice:
 * milliseconds of added latency. So a thread may spin only where a CPU is free for it, and one CPU is always left
 * for everything else.
 * <p>
 * The count is the number of CPUs the process may use when the budget is made ({@link Runtime#availableProcessors()}:
 * the affinity mask, and the cgroup quota in a container), taken once, so that pinning a thread later does not
 * shrink it. SUTs built on the toolkit register their worker threads ({@link #addSutThreads}): they are busy while
 * they run batches, so an issue thread may spin only on a CPU left over by them. SUTs with threads of their own that
 * do not register are not counted; their users choose the waits explicitly. Each registration carries a line on how
 * those threads wait and why, which the engine writes to the detail log. Network SUTs register their transport
 * threads (gRPC/Netty event loops, HTTP client threads) and reserve a CPU for each server they load on this machine.
 * <p>
 * The process's budget ({@link #process()}) also counts the CPUs other processes keep busy ({@link OtherProcesses}:
 * {@code /proc/stat} less this process's own time, from when the budget is made until it is first consulted, at least
 * 250 ms; {@code -Djloadgen.otherBusyCpus=N} fixes the figure instead): a process that shares the machine with a busy
 * neighbour does not spin on the CPU the neighbour needs. Budgets made with {@link #CpuBudget(int)} count no other
 * processes.
 */
public final class CpuBudget
{
    private static final CpuBudget PROCESS = measuringFromNow();

    private final int cpus;
    private final List<Registration> registrations = new CopyOnWriteArrayList<>();
    private final boolean countsOtherProcesses;
    /** The measurement of other processes, opened when the process's budget is made; null once closed. */
    private OtherProcesses.Window otherProcessesWindow;
    private volatile OtherProcesses otherProcesses;

    /**
     * @param cpus CPUs the process may use.
     */
    public CpuBudget(final int cpus)
    {
        this(cpus, false);
    }

    /**
     * A budget that counts a given figure for the other processes (what {@link #process()} measures), e.g. to
     * resolve the waits of a machine shared with a known load.
     *
     * @param cpus   CPUs the process may use.
     * @param others what other processes keep busy.
     */
    public CpuBudget(final int cpus, final OtherProcesses others)
    {
        this(cpus, true);
        this.otherProcesses = others;
    }

    private CpuBudget(final int cpus, final boolean countsOtherProcesses)
    {
        this.countsOtherProcesses = countsOtherProcesses;
        if (cpus < 1)
        {
            throw new IllegalArgumentException("a CPU budget needs at least one CPU: " + cpus);
        }
        this.cpus = cpus;
    }

    /**
     * @return the process's budget, its measurement of other processes opened now, while the process starts.
     */
    private static CpuBudget measuringFromNow()
    {
        final CpuBudget budget = new CpuBudget(Runtime.getRuntime().availableProcessors(), true);
        budget.otherProcessesWindow = OtherProcesses.Window.open();
        return budget;
    }

    /**
     * @return the budget of this process: the CPUs it could use when this class was first used.
     */
    public static CpuBudget process()
    {
        return PROCESS;
    }

    /**
     * @return the CPUs the process may use.
     */
    public int cpus()
    {
        return cpus;
    }

    /**
     * @return what other processes keep busy: measured once for the process's budget, from when it was made until
     *         first asked (at least {@link OtherProcesses#WINDOW_MS}); none for a budget made with
     *         {@link #CpuBudget(int)}.
     */
    public OtherProcesses otherProcesses()
    {
        OtherProcesses others = otherProcesses;
        if (others == null)
        {
            synchronized (this)
            {
                others = otherProcesses;
                if (others == null)
                {
                    others = countsOtherProcesses ? OtherProcesses.configuredOr(otherProcessesWindow)
                        : new OtherProcesses(0, 0, 0, false);
                    otherProcessesWindow = null;
                    otherProcesses = others;
                }
            }
        }
        return others;
    }

    /**
     * @return the whole CPUs other processes are counted as keeping busy.
     */
    public int otherBusyCpus()
    {
        return countsOtherProcesses ? otherProcesses().wholeCpus() : 0;
    }

    /**
     * @return the CPUs threads may spin on: all but one, which is left for everything else.
     */
    public int spinnableCpus()
    {
        return cpus - 1;
    }

    /**
     * Registers SUT threads that keep CPUs busy while the SUT runs (a SUT's workers).
     *
     * @param threads     how many.
     * @param description who they are and how they wait, for the detail log.
     * @return the registration; close it when the threads stop.
     */
    public Registration addSutThreads(final int threads, final String description)
    {
        final Registration registration = new Registration(threads, description, true);
        registrations.add(registration);
        return registration;
    }

    /**
     * Reserves CPUs for latency-critical threads that are not the SUT's and not JLoadGen's issue thread: the official
     * LoadGen's issue thread under {@code --engine official}, which sleeps to each query and needs a CPU to wake on.
     * Spinning SUT threads then leave one for it.
     *
     * @param threads     how many.
     * @param description who they are, for the detail log.
     * @return the reservation; close it when the threads stop.
     */
    public Registration reserve(final int threads, final String description)
    {
        final Registration registration = new Registration(threads, description, false);
        registrations.add(registration);
        return registration;
    }

    /**
     * @return the SUT threads registered now.
     */
    public int sutThreads()
    {
        return threads(true);
    }

    /**
     * @return the threads {@link #reserve reserved} now.
     */
    public int reservedThreads()
    {
        return threads(false);
    }

    private int threads(final boolean sut)
    {
        int threads = 0;
        for (final Registration r : registrations)
        {
            if (r.sut == sut)
            {
                threads += r.threads;
            }
        }
        return threads;
    }

    /**
     * @return the descriptions of the registered SUT threads and reservations, in registration order.
     */
    public List<String> sutThreadDescriptions()
    {
        final List<String> descriptions = new ArrayList<>();
        for (final Registration r : registrations)
        {
            descriptions.add(r.description);
        }
        return descriptions;
    }

    /**
     * @return the CPUs the registered SUT threads, reservations and other processes leave (may be zero or negative
     *         when they outnumber the CPUs).
     */
    public int freeCpus()
    {
        return cpus - sutThreads() - reservedThreads() - otherBusyCpus();
    }

    /**
     * @param spinning threads that would busy-spin, besides the registered SUT threads.
     * @return whether they each have a CPU of their own, with one CPU left for everything else, one for each
     *         reserved thread and those other processes keep busy.
     */
    public boolean canSpin(final int spinning)
    {
        return sutThreads() + reservedThreads() + otherBusyCpus() + spinning <= spinnableCpus();
    }

    /**
     * @return e.g. {@code "2 CPUs, 1 SUT thread"} or {@code "2 CPUs, 0 SUT threads, 1 reserved"}, for the reasons
     *         the logs give; the process's budget adds what other processes keep busy
     *         ({@code ", 1 busy in other processes (1.27 CPUs over 250 ms, /proc/stat)"}).
     */
    public String describe()
    {
        final int sut = sutThreads();
        final int reserved = reservedThreads();
        return cpus + (cpus == 1 ? " CPU" : " CPUs") + ", " + sut + (sut == 1 ? " SUT thread" : " SUT threads")
            + (reserved > 0 ? ", " + reserved + " reserved" : "")
            + (countsOtherProcesses ? ", " + otherProcesses().describe() : "");
    }

    /**
     * SUT threads or reserved threads counted against the budget until {@link #close()}.
     */
    public final class Registration implements AutoCloseable
    {
        private final int threads;
        private final String description;
        private final boolean sut;

        private Registration(final int threads, final String description, final boolean sut)
        {
            if (threads < 1)
            {
                throw new IllegalArgumentException("a registration needs at least one thread: " + threads);
            }
            this.threads = threads;
            this.description = description;
            this.sut = sut;
        }

        /**
         * Stops counting the threads (idempotent).
         */
        @Override
        public void close()
        {
            registrations.remove(this);
        }
    }
}
