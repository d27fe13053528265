package org.jloadgen.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.EvaluationResult;
import org.jloadgen.LoadGen;
import org.jloadgen.architecture.fixture.config.ReadsTheLog;
import org.jloadgen.architecture.fixture.log.Writer;
import org.jloadgen.architecture.fixture.unlisted.Stray;
import org.junit.jupiter.api.Test;

class PackageOrderTest
{
    private static final String FIXTURE_ROOT = "org.jloadgen.architecture.fixture";

    private static Path harnessMainClasses()
    {
        try
        {
            return Path.of(LoadGen.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        }
        catch (final URISyntaxException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** harness/README.md, found from the main classes ({@code harness/target/classes}). */
    private static PackageOrder order()
    {
        return PackageOrder.read(harnessMainClasses().getParent().getParent().resolve("README.md"));
    }

    @Test
    void shouldKeepEveryHarnessPackageBelowThePackagesThatUseIt()
    {
        final JavaClasses harness = new ClassFileImporter().importPath(harnessMainClasses());
        assertTrue(harness.contain(LoadGen.class), "imported " + harness.size() + " classes");
        order().rule("org.jloadgen").check(harness);
    }

    @Test
    void shouldReadTheTableInDataPathOrder()
    {
        final PackageOrder order = order();
        assertTrue(order.level("config") < order.level("log"), "config below log");
        assertTrue(order.level("clib") < order.level("config"), "clib below config");
        assertTrue(order.level("record") < order.level("results"), "record below results");
        assertTrue(order.level("engine") < order.level("cli"), "engine below cli");
        assertEquals(null, order.level("overhead"), "overhead lives in the benchmarks module");
    }

    @Test
    void shouldFlagTheFixtureUpwardImportAndItsUnlistedPackage()
    {
        // The fixture mirrors two harness packages under its own root: config.ReadsTheLog uses log.Writer
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
