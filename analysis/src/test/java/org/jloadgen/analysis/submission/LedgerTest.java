package org.jloadgen.analysis.submission;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LedgerTest
{
    @TempDir
    Path out;

    @Test
    void shouldSkipAStepOnlyWhileItsInputsAndOutputsStand() throws Exception
    {
        final Ledger ledger = new Ledger(out);
        final Path dir = Files.createDirectories(out.resolve("build/a/accuracy"));
        Files.writeString(dir.resolve("accuracy.txt"), "accuracy=89.19%\n");
        Files.writeString(out.resolve("build/a/user.conf"), "x = 1\n");
        assertEquals(Optional.of("not done yet"), ledger.staleBecause("a/Offline/accuracy", "h1"));
        ledger.finish("a/Offline/accuracy", "h1", List.of(dir, out.resolve("build/a/user.conf")),
            Map.of("accuracy", "accuracy=89.19%: x"), 1234);
        assertEquals(Optional.empty(), ledger.staleBecause("a/Offline/accuracy", "h1"));
        assertEquals("accuracy=89.19%: x", ledger.record("a/Offline/accuracy").orElseThrow().values().get("accuracy"));
        assertEquals(Optional.of("its inputs changed"), ledger.staleBecause("a/Offline/accuracy", "h2"));
        final String before = ledger.fingerprint("a/Offline/accuracy");
        Files.writeString(dir.resolve("accuracy.txt"), "accuracy=99%\n");
        assertEquals(Optional.of("build/a/accuracy/accuracy.txt changed since the step wrote it"),
            ledger.staleBecause("a/Offline/accuracy", "h1"));
        Files.writeString(dir.resolve("accuracy.txt"), "accuracy=89.19%\n");
        assertEquals(Optional.empty(), ledger.staleBecause("a/Offline/accuracy", "h1"), "the same bytes again");
        Files.delete(out.resolve("build/a/user.conf"));
        assertEquals(Optional.of("build/a/user.conf is gone"), ledger.staleBecause("a/Offline/accuracy", "h1"));
        ledger.forget("a/Offline/accuracy");
        assertEquals(Optional.of("not done yet"), ledger.staleBecause("a/Offline/accuracy", "h1"));
        assertEquals("none", ledger.fingerprint("a/Offline/accuracy"));
        assertFalse(before.equals("none"));
    }

    @Test
    void shouldPublishAFolderWhole() throws Exception
    {
        final Path target = Files.createDirectories(out.resolve("tree/run_1"));
        Files.writeString(target.resolve("old.txt"), "old");
        final Path stage = Files.createDirectories(out.resolve("work/run_1"));
        Files.writeString(stage.resolve("new.txt"), "new");
        Ledger.publish(stage, target);
        assertTrue(Files.isRegularFile(target.resolve("new.txt")));
        assertFalse(Files.exists(target.resolve("old.txt")), "the old folder is replaced, not merged");
        assertFalse(Files.exists(stage));
        assertFalse(Files.exists(out.resolve("tree/.run_1.old")));
        Ledger.writeAtomically(out.resolve("tree/a.json"), "{}\n");
        assertEquals("{}\n", Files.readString(out.resolve("tree/a.json")));
        try (var files = Files.list(out.resolve("tree")))
        {
            assertEquals(List.of("a.json", "run_1"), files.map(p -> p.getFileName().toString()).sorted().toList(),
                "no temporary file left");
        }
    }
}
