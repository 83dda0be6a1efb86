package dev.verbs4j.nvmf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.nvmf.types.ControllerState;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The reconnect schedule as Linux's nvme-fabrics counts it, on a clock the test moves: an attempt
 * a delay after the failure and after each failed attempt, ceil(loss / delay) attempts, zero loss
 * timeout no reconnect, a negative one forever; and the options' defaults and checks.
 */
class ReconnectScheduleTest {
    private static final long S = 1_000_000_000L;
    private static final NvmfConnectOptions BASE = NvmfConnectOptions.rdma("127.0.0.1", 4420, "nqn.2026-12.dev.verbs4j:t");

    @Test
    void defaultsAreNvmeClisAndKeptByTheOtherSetters() {
        assertEquals(Duration.ofSeconds(10), BASE.reconnectDelay());
        assertEquals(Duration.ofSeconds(600), BASE.controllerLossTimeout());
        NvmfConnectOptions o = BASE.withReconnectDelay(Duration.ofSeconds(2)).withControllerLossTimeout(Duration.ofSeconds(7));
        o = o.withIoQueues(2).withProgressThread(true).withKeepAlive(Duration.ofSeconds(3)).withSubsystemNqn("nqn.x");
        assertEquals(Duration.ofSeconds(2), o.reconnectDelay());
        assertEquals(Duration.ofSeconds(7), o.controllerLossTimeout());
        assertEquals(60, new ReconnectSchedule(BASE.reconnectDelay(), BASE.controllerLossTimeout()).maxAttempts());
    }

    @Test
    void aDelayThatIsNotPositiveIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> BASE.withReconnectDelay(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> BASE.withReconnectDelay(Duration.ofSeconds(-1)));
        assertThrows(NullPointerException.class, () -> BASE.withControllerLossTimeout(null));
    }

    @Test
    void attemptsComeEveryDelayUntilTheCountOfTheLossTimeoutIsSpent() {
        ReconnectSchedule s = new ReconnectSchedule(Duration.ofSeconds(2), Duration.ofSeconds(5));
        assertEquals(3, s.maxAttempts()); // ceil(5 / 2), as DIV_ROUND_UP
        long now = 100 * S;
        assertEquals(ControllerState.RECONNECTING, s.failed(now));
        assertEquals(2 * S, s.nanosUntilAttempt(now));
        now += 2 * S;
        assertTrue(s.nanosUntilAttempt(now) <= 0);
        now += S / 2; // the attempt took half a second
        assertEquals(ControllerState.RECONNECTING, s.attemptFailed(now));
        assertEquals(2 * S, s.nanosUntilAttempt(now)); // a delay after the failed attempt
        now += 2 * S;
        assertEquals(ControllerState.RECONNECTING, s.attemptFailed(now));
        now += 2 * S;
        assertEquals(ControllerState.LOST, s.attemptFailed(now));
        assertEquals(3, s.attempts());
        assertEquals(ControllerState.LOST, s.attemptSucceeded()); // too late
        assertEquals(ControllerState.LOST, s.failed(now));
    }

    @Test
    void aSuccessfulAttemptMakesItLiveAndTheNextFailureStartsTheCountAgain() {
        ReconnectSchedule s = new ReconnectSchedule(Duration.ofSeconds(1), Duration.ofSeconds(2));
        s.failed(0);
        s.attemptFailed(S);
        assertEquals(ControllerState.LIVE, s.attemptSucceeded());
        assertEquals(ControllerState.RECONNECTING, s.failed(10 * S));
        assertEquals(0, s.attempts());
        assertEquals(ControllerState.RECONNECTING, s.attemptFailed(11 * S));
        assertEquals(ControllerState.LOST, s.attemptFailed(12 * S));
    }

    @Test
    void zeroLossTimeoutLosesTheControllerAtTheFirstFailure() {
        ReconnectSchedule s = new ReconnectSchedule(Duration.ofSeconds(10), Duration.ZERO);
        assertEquals(0, s.maxAttempts());
        assertEquals(ControllerState.LOST, s.failed(0));
    }

    @Test
    void negativeLossTimeoutTriesForever() {
        ReconnectSchedule s = new ReconnectSchedule(Duration.ofSeconds(1), Duration.ofSeconds(-1));
        assertEquals(-1, s.maxAttempts());
        s.failed(0);
        for (int i = 1; i <= 10_000; i++) {
            assertEquals(ControllerState.RECONNECTING, s.attemptFailed(i * S));
        }
    }

    @Test
    void closeEndsReconnectingAndNothingRevivesIt() {
        ReconnectSchedule s = new ReconnectSchedule(Duration.ofSeconds(1), Duration.ofSeconds(60));
        s.failed(0);
        s.closed();
        assertEquals(ControllerState.CLOSED, s.attemptSucceeded());
        assertEquals(ControllerState.CLOSED, s.attemptFailed(S));
        s.lost();
        assertEquals(ControllerState.CLOSED, s.state());
    }
}
