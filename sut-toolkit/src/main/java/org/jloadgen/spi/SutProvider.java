package org.jloadgen.spi;

/**
 * Plugs a system under test into the {@code jloadgen} command line through {@link java.util.ServiceLoader}
 * ({@code META-INF/services/org.jloadgen.spi.SutProvider}), so the harness never depends on a SUT module.
 */
public interface SutProvider
{
    /**
     * @return the name given to {@code --sut}, e.g. {@code cpu}.
     */
    String name();

    /**
     * @return one line for {@code jloadgen run --help}.
     */
    String description();

    /**
     * @return the options the SUT takes, for {@code jloadgen run --sut NAME --help}; the same declarations should
     *         feed {@link org.jloadgen.sut.SutOptions#parse}'s known keys ({@link org.jloadgen.sut.SutOption#keys}).
     *         Empty: it takes none.
     */
    default java.util.List<org.jloadgen.sut.SutOption> options()
    {
        return java.util.List.of();
    }

    /**
     * Builds the SUT and its sample library.
     *
     * @param context the scenario, the options and the synthetic-QSL sizes the user gave.
     * @return the SUT, its QSL and what to close after the test.
     * @throws Exception with a message that names the bad option, file or value.
     */
    SutInstance create(SutContext context) throws Exception;
}
