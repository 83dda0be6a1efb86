package dev.verbs4j.netty;

import dev.verbs4j.guest.TransportPreference;
import org.junit.jupiter.api.Tag;

/** {@link StreamWindowTest} over RDMA forced, on the rig's rxe0, with 1 MiB (the rig emulates its CPU). */
@Tag("rdma")
class RdmaStreamWindowRigTest extends StreamWindowTest {
    @Override
    TransportPreference transport() {
        return TransportPreference.RDMA;
    }

    @Override
    String device() {
        return System.getenv().getOrDefault("RIG_DEVICE", "rxe0");
    }

    @Override
    long total() {
        return 1L << 20;
    }
}
