package dev.verbs4j.rig;

import java.util.concurrent.atomic.AtomicInteger;

/** Fresh TCP ports for rig tests, so one test's TIME_WAIT never meets the next test's listener. */
public final class Ports {
    /** Each test JVM starts at its own offset (by pid), so two JVMs in one boot rarely share a port. */
    private static final AtomicInteger NEXT = new AtomicInteger(18600 + (int) (ProcessHandle.current().pid() % 50) * 20);

    private Ports() {}

    /** A port no earlier call of this JVM returned. */
    public static int next() {
        return NEXT.getAndIncrement();
    }
}
