package dev.verbs4j.guest.doctor;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.probe.SameHostFacts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.time.Duration;

/**
 * Which path a channel to one peer takes, and why. Only the peer can prove it: shared memory
 * needs both ends to state one kernel, one network namespace and one user in the bootstrap
 * exchange (and then the unix socket and SO_PEERCRED to agree), RDMA needs both ends' devices.
 * So the doctor asks: it opens a channel to the peer with {@code AUTO}, as an application would,
 * reads its {@link TransportChoice} and closes it (the peer's server sees a client come and go).
 * When nothing answers there, it says what a peer would need for each path.
 *
 * @param peer      "HOST:PORT" as asked
 * @param answered  whether a verbs4j channel server answered there and the channel was set up
 * @param transport "shm", "rdma" or "tcp" when answered; "" otherwise
 * @param line      the choice in one line ({@link TransportChoice#describe()}), or why nothing answered
 * @param reason    the choice's reason when answered; the failure otherwise
 * @param needs     when not answered: what the peer would need for shared memory, and which path
 *                  this side's own facts leave; "" when answered
 * @param local     whether HOST is an address of this machine in this network namespace
 */
public record PeerPath(String peer, boolean answered, String transport, String line, String reason, String needs,
                       boolean local) {

    /**
     * Asks the peer at {@code host}:{@code port} by setting a channel up with it.
     *
     * @param host    the peer's host name or address
     * @param port    its channel server's bootstrap port
     * @param timeout how long the connect and the bootstrap exchange may take
     * @param here    this side's verdict without the peer (what RDMA or TCP would be on its side)
     * @return the path, or what it would need when nothing answered
     */
    public static PeerPath ask(String host, int port, Duration timeout, DoctorVerdict here) {
        String peer = host + ":" + port;
        boolean local = isLocal(host);
        ChannelConfig config = ChannelConfig.defaults().connectTimeout(timeout).rdmaConnectTimeout(timeout);
        try (Channel channel = ChannelConnector.connect(host, port, config)) {
            TransportChoice t = channel.transport();
            return new PeerPath(peer, true, t.kind().label(), t.describe(), t.reason(), "", local);
        } catch (ChannelException e) {
            return new PeerPath(peer, false, "", "no verbs4j channel set up with " + peer + ": " + e.getMessage(),
                    e.getMessage(), needs(SameHostFacts.here(), local, here), local);
        }
    }

    /** What a peer would need, from what this side knows without it. */
    static String needs(SameHostFacts facts, boolean local, DoctorVerdict here) {
        String shm = "shm needs the peer's bootstrap statement: a verbs4j channel server there (ChannelServer, "
                + "bin/verbs4j pingpong --server) on this kernel (boot id " + facts.bootId() + "), in this network "
                + "namespace (" + facts.netns() + "), as uid " + facts.uid();
        String where = local ? "; the address is this machine's, so a server there of this user in this namespace "
                + "would share memory" : "; the address is not one of this machine's in this network namespace, so "
                + "a server there is most likely on another kernel or in another namespace: no shm";
        String otherwise = here.isRdma() ? "; else rdma, if the peer can do RDMA too (here: " + here.device()
                + ", GID index " + here.gidIndex() + ")" : "; else tcp (here: " + here.reason() + ")";
        return shm + where + otherwise;
    }

    /** Whether {@code host} resolves to a loopback address or one of this namespace's interfaces. */
    static boolean isLocal(String host) {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (a.isLoopbackAddress() || a.isAnyLocalAddress() || NetworkInterface.getByInetAddress(a) != null) {
                    return true;
                }
            }
        } catch (IOException | RuntimeException e) {
            // unresolvable: not known to be here
        }
        return false;
    }

    /**
     * The path in one line, as the doctor prints it.
     *
     * @return "peer HOST:PORT: shm (reason: ...)", or the failure and what the peer would need
     */
    public String text() {
        return answered ? "peer " + peer + ": " + line : "peer " + peer + ": " + line + "\n  " + needs;
    }

    void writeTo(JsonWriter w) {
        w.beginObject().field("address", peer).field("answered", answered).field("transport", transport)
                .field("line", line).field("reason", reason).field("needs", needs).field("local", local).endObject();
    }
}
