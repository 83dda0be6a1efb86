package dev.verbs4j.netty.grpc;

import dev.verbs4j.guest.TransportPreference;

/** gRPC over this transport's TCP fallback (TCP forced): any host. */
class TcpGrpcTest extends GrpcConformanceSuite {
    @Override
    TransportPreference transport() {
        return TransportPreference.TCP;
    }
}
