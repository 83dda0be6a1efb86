package dev.verbs4j.netty.testsuite;

/**
 * Why a test of Netty's suite cannot apply to this transport: properties of RDMA, shared by the
 * runs over RDMA and over the TCP fallback (the transport keeps RDMA's rules on both).
 */
public final class RdmaDifferences {
    /** SocketChannelNotYetConnectedTest#readMustBePendingUntilChannelIsActive. */
    public static final String PLAIN_TCP_SERVER = "The test's server is Netty's NIO transport on kernel TCP: an RDMA "
            + "connection needs a peer that exchanges queue-pair numbers with it (the bootstrap exchange), which a "
            + "plain TCP server cannot";
    /** SocketDataReadInitialStateTest#testAutoReadOffNoDataReadUntilReadCalled. */
    public static final String CONNECTED_ONLY_WHEN_ACCEPTED = "An RDMA connection is up only once the server's "
            + "application takes it (rdma_accept, here the bootstrap exchange of QP numbers): a client cannot finish "
            + "connecting while the server channel does not read, as a TCP client does in the kernel's listen backlog";

    private RdmaDifferences() {
    }
}
