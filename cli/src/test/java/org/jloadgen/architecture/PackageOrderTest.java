package org.jloadgen.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;
import java.util.List;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import org.jloadgen.LoadGen;
import org.jloadgen.architecture.fixture.config.ReadsTheLog;
import org.jloadgen.architecture.fixture.log.Writer;
import org.jloadgen.architecture.fixture.unlisted.Stray;
import org.jloadgen.cli.Main;
import org.jloadgen.cli.api.ExitCodes;
import org.jloadgen.engine.official.OfficialTestRunner;
import org.jloadgen.sut.synthetic.NullSut;
import org.junit.jupiter.api.Test;

class PackageOrderTest
{
    private static final String FIXTURE_ROOT = "org.jloadgen.architecture.fixture";

    /** One class of each core module: the engine, the SUT toolkit, the official engine, the CLI API, the CLI. */
    private static final List<Class<?>> CORE_MODULES = List.of(LoadGen.class, NullSut.class,
        OfficialTestRunner.class, ExitCodes.class, Main.class);

    /** Where a module's main classes are: {@code target/classes}, or its jar in a reactor build. */
    private static URL location(final Class<?> moduleClass)
    {
        return moduleClass.getProtectionDomain().getCodeSource().getLocation();
    }

    private static Path mainClasses(final Class<?> moduleClass)
    {
        try
        {
            return Path.of(location(moduleClass).toURI());
        }
        catch (final URISyntaxException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** docs/architecture.md, found from the engine's main classes ({@code engine/target/classes} or its jar). */
    private static PackageOrder order()
    {
        return PackageOrder.read(mainClasses(LoadGen.class).getParent().getParent().getParent()
            .resolve("docs").resolve("architecture.md"));
    }

    @Test
    void shouldKeepEveryCorePackageBelowThePackagesThatUseIt()
    {
        final JavaClasses core = new ClassFileImporter().importUrls(CORE_MODULES.stream()
            .map(PackageOrderTest::location).toList());
        for (final Class<?> moduleClass : CORE_MODULES)
        {
            assertTrue(core.contain(moduleClass), "imported " + core.size() + " classes, not " + moduleClass);
        }
        order().rule("org.jloadgen").check(core);
    }

    @Test
    void shouldReadTheTableInDataPathOrder()
    {
        final PackageOrder order = order();
        assertTrue(order.level("config") < order.level("log"), "config below log");
        assertTrue(order.level("clib") < order.level("config"), "clib below config");
        assertTrue(order.level("record") < order.level("results"), "record below results");
        assertTrue(order.level("engine") < order.level("cli"), "engine below cli");
        assertTrue(order.level("engine") < order.level("sut"), "the engine below the SUT toolkit");
        assertTrue(order.level("cli.api") < order.level("cli"), "the CLI API below the CLI");
        assertEquals(null, order.level("overhead"), "overhead lives in the benchmarks module");
    }

    @Test
    void shouldFlagTheFixtureUpwardImportAndItsUnlistedPackage()
    {
        // The fixture mirrors two engine packages under its own root: config.ReadsTheLog uses log.Writer
        // (upward), log.Writer uses config.Setting (downward, allowed), and unlisted.Stray is in no row.
        final JavaClasses fixture = new ClassFileImporter().importPackages(FIXTURE_ROOT);
        final EvaluationResult result = order().rule(FIXTURE_ROOT).evaluate(fixture);

        assertTrue(result.hasViolation(), "the rule must fail on the fixture");
        final List<String> messages = result.getFailureReport().getDetails();
        assertEquals(2, messages.size(), String.join("\n", messages));
        assertTrue(messages.stream().anyMatch(m -> m.startsWith(ReadsTheLog.class.getName() + " (config, level 5) uses "
            + Writer.class.getName() + " (log, level 11)")), String.join("\n", messages));
        assertTrue(messages.stream().anyMatch(m -> m.startsWith(Stray.class.getName() + " is in ")
            && m.contains("does not list")), String.join("\n", messages));
        assertFalse(messages.stream().anyMatch(m -> m.startsWith(Writer.class.getName())), String.join("\n", messages));
    }
}
