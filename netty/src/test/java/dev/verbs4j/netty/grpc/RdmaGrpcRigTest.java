package dev.verbs4j.netty.grpc;

import dev.verbs4j.guest.TransportPreference;
import org.junit.jupiter.api.Tag;

/** gRPC over RDMA forced (no fallback) on the rig's rxe0: the client's channels say RDMA carried them. */
@Tag("rdma")
class RdmaGrpcRigTest extends GrpcConformanceSuite {
    @Override
    TransportPreference transport() {
        return TransportPreference.RDMA;
    }

    @Override
    String device() {
        return System.getenv().getOrDefault("RIG_DEVICE", "rxe0");
    }
}
