package dev.verbs4j.guest.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class AckTimeoutTest {
    @Test
    void theDefaultPeerLossTimeoutGivesRdmaCmsRoceAckTimeout() {
        assertEquals(17, AckTimeout.code(Duration.ofSeconds(5)), "537 ms, eight tries 4.3 s");
    }

    @Test
    void theEightTriesOfTheCodeFitInTheBoundAndThoseOfTheNextDoNot() {
        for (long millis : new long[] {1, 10, 100, 537, 1000, 5000, 10_000, 60_000}) {
            int code = AckTimeout.code(Duration.ofMillis(millis));
            double tries = (AckTimeout.RETRIES + 1) * AckTimeout.wait(code) / 1e6;
            assertTrue(code == 1 || tries <= millis, millis + " ms: code " + code + " takes " + tries + " ms");
            assertTrue(code == 31 || (AckTimeout.RETRIES + 1) * AckTimeout.wait(code + 1) / 1e6 > millis,
                    millis + " ms: code " + (code + 1) + " would fit too");
        }
    }

    @Test
    void boundsOutsideTheCodesTakeTheFirstOrTheLast() {
        assertEquals(1, AckTimeout.code(Duration.ofNanos(1)));
        assertEquals(31, AckTimeout.code(Duration.ofDays(365)));
    }
}
