package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A JVM that exits while threads post and poll on open verbs objects ends normally (no hs_err). */
@Tag("rdma")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ShutdownRigTest {

    @Test
    void exitWithObjectsOpenWhileAnotherThreadPolls() throws IOException, InterruptedException {
        ChildJvm child = ChildJvm.run(ShutdownChild.class, List.of(), 120);
        assertTrue(child.crashReports().isEmpty(), "the child crashed: " + child.crashReports());
        assertTrue(child.output().contains("exiting with the verbs objects open"), child.output());
        assertEquals(0, child.exitStatus(), "exit status of a JVM leaving verbs objects open:\n" + child.output());
    }
}
