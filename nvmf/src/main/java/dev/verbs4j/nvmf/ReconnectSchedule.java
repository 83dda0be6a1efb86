package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.types.ControllerState;
import java.time.Duration;

/**
 * When a controller tries to reconnect after a transport failure, as Linux's nvme-fabrics does:
 * the first attempt one reconnect delay after the failure, each further one a delay after the
 * last failed attempt, at most ceil(loss timeout / delay) attempts (a negative loss timeout:
 * no limit; zero: none, the failure loses the controller). Times are the caller's clock
 * (System.nanoTime in use, any clock in tests); not thread-safe, its owner serializes calls.
 */
final class ReconnectSchedule {
    private final long delayNanos;
    /** -1: no limit. */
    private final long maxAttempts;
    private ControllerState state = ControllerState.LIVE;
    private long attempts;
    private long nextAttemptAt;

    ReconnectSchedule(Duration reconnectDelay, Duration lossTimeout) {
        this.delayNanos = reconnectDelay.toNanos();
        if (lossTimeout.isNegative()) {
            maxAttempts = -1;
        } else {
            long loss = lossTimeout.toNanos();
            maxAttempts = loss / delayNanos + (loss % delayNanos == 0 ? 0 : 1);
        }
    }

    ControllerState state() {
        return state;
    }

    /** Attempts made since the last failure. */
    long attempts() {
        return attempts;
    }

    /** The attempts allowed after one failure, -1 for no limit. */
    long maxAttempts() {
        return maxAttempts;
    }

    /** A transport failure of the live controller at {@code now}: RECONNECTING, or LOST when no attempt is allowed. */
    ControllerState failed(long now) {
        if (state != ControllerState.LIVE) {
            return state;
        }
        attempts = 0;
        nextAttemptAt = now + delayNanos;
        state = maxAttempts == 0 ? ControllerState.LOST : ControllerState.RECONNECTING;
        return state;
    }

    /** While RECONNECTING: how long from {@code now} until the next attempt is due (0 or less: now). */
    long nanosUntilAttempt(long now) {
        return nextAttemptAt - now;
    }

    /** An attempt that ended in failure at {@code now}: RECONNECTING with the next one a delay away, or LOST. */
    ControllerState attemptFailed(long now) {
        if (state != ControllerState.RECONNECTING) {
            return state;
        }
        attempts++;
        if (maxAttempts >= 0 && attempts >= maxAttempts) {
            state = ControllerState.LOST;
        } else {
            nextAttemptAt = now + delayNanos;
        }
        return state;
    }

    /** An attempt that connected: LIVE again (unless closed meanwhile). */
    ControllerState attemptSucceeded() {
        if (state == ControllerState.RECONNECTING) {
            state = ControllerState.LIVE;
        }
        return state;
    }

    /** The controller was given up for another reason (it came back as another controller). */
    void lost() {
        if (state != ControllerState.CLOSED) {
            state = ControllerState.LOST;
        }
    }

    /** Its owner closed it: nothing more is tried. */
    void closed() {
        state = ControllerState.CLOSED;
    }
}
