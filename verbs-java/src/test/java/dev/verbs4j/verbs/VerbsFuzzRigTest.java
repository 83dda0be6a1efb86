package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the misuse fuzzer ({@link FuzzMain}) in a child JVM on the rig's device: 10 000 random
 * sequences over the public API from several threads, a new seed each run unless
 * {@code -Dverbs4j.fuzz.seed} or {@code VERBS4J_FUZZ_SEED} gives one. Passes when the child exits
 * normally having seen only the exceptions the API promises, leaves no hs_err file, and the
 * device's resource counts are back where they started.
 */
@Tag("rdma")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class VerbsFuzzRigTest {

    @Test
    void randomMisuseNeverCrashesOrLeaks() throws IOException, InterruptedException {
        List<String> options = new ArrayList<>();
        for (String property : List.of("verbs4j.fuzz.seed", "verbs4j.fuzz.sequences")) {
            if (System.getProperty(property) != null) {
                options.add("-D" + property + "=" + System.getProperty(property));
            }
        }
        // the child's watchdog ends a hung sequence after 30 s; this bounds the whole run
        ChildJvm child = ChildJvm.run(FuzzMain.class, options, 240);
        System.out.println("fuzzer output:\n" + child.output());
        System.out.println("hs_err files: " + child.crashReports().size());
        assertTrue(child.crashReports().isEmpty(), "the fuzzer crashed the JVM: " + child.crashReports()
                + "\n" + child.output());
        assertTrue(child.output().contains("result: pass"), child.output());
        assertEquals(0, child.exitStatus(), child.output());
    }
}
