package dev.verbs4j.guest.rdma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ProbeArrivalTest {
    @Test
    void eachArrivalTravelsAsItsByte() {
        for (ProbeArrival a : ProbeArrival.values()) {
            assertEquals(a, ProbeArrival.ofCode(a.code()));
        }
        assertThrows(IllegalArgumentException.class, () -> ProbeArrival.ofCode(3));
        assertThrows(IllegalArgumentException.class, () -> ProbeArrival.ofCode(-1));
    }

    @Test
    void anIntactProbeRefusesNothing() {
        assertNull(ProbeArrival.INTACT.immediatesRefusal());
        assertNull(ProbeArrival.INTACT.oneSidedRefusal());
        assertNull(ProbeArrival.INTACT.limits());
    }

    /** Both ways of the emulation's damage refuse immediates and one-sided operations, each with its reason. */
    @Test
    void aDamagedProbeRefusesWhatWouldArriveAltered() {
        for (ProbeArrival a : new ProbeArrival[] {ProbeArrival.WITHOUT_IMMEDIATE, ProbeArrival.IMMEDIATE_ALTERED}) {
            assertNotNull(a.immediatesRefusal(), a.name());
            assertNotNull(a.oneSidedRefusal(), a.name());
            assertNotNull(a.limits(), a.name());
        }
    }
}
