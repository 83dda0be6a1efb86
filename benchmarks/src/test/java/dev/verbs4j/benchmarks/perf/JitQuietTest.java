package dev.verbs4j.benchmarks.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class JitQuietTest {
    @Test
    void anEmptyCompilerQueueHasNoTasks() {
        assertEquals(0, JitQuiet.tasksIn("Current compiles: \n\nC2 compile queue:\nEmpty\n\n"));
    }

    @Test
    void runningAndQueuedCompilesAreCounted() {
        String queue = """
                Current compiles:\s
                C2 CompilerThread0 1043   !         dev.verbs4j.loop.CompletionLoop::drive (413 bytes)

                C2 compile queue:
                1088       dev.verbs4j.guest.transport.ChannelBase::send (35 bytes)
                1089       java.util.ArrayDeque::inc (12 bytes)
                """;
        assertEquals(3, JitQuiet.tasksIn(queue));
    }

    @Test
    void thisJvmAnswersHowManyCompilesArePending() {
        assertTrue(JitQuiet.compilesPending() >= 0, "the DiagnosticCommand MBean answers Compiler.queue");
    }
}
