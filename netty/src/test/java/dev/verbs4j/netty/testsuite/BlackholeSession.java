package dev.verbs4j.netty.testsuite;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Opens the {@link Blackhole} before any test class loads: Netty's suite reads where its
 * timed-out connects go once, when its permutation class is first used.
 */
public final class BlackholeSession implements LauncherSessionListener {
    @Override
    public void launcherSessionOpened(LauncherSession session) {
        Blackhole.open();
    }
}
