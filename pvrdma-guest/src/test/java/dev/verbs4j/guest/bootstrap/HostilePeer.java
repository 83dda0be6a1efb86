package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.probe.SameHostFacts;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

/**
 * A peer that connects to a channel server and misbehaves in one of the ways of {@link Kind}, then
 * waits for the server to close the connection (end of stream or reset), at most a bound.
 */
final class HostilePeer {
    /** A message frame's type byte on a TCP channel, after its 4-byte length. */
    private static final byte MESSAGE_FRAME = 1;
    /** A length no sane message has, and what this side would reserve if it trusted it. */
    static final int MADE_UP_LENGTH = 1 << 30;

    enum Kind {
        /** Bytes that are not a bootstrap statement. */
        RANDOM_BYTES("the peer is not a verbs4j channel", false),
        /** A statement cut short, then the end of its stream. */
        TRUNCATED_THEN_CLOSED("closed the connection in the middle of the bootstrap exchange", false),
        /** A statement cut short, then silence with the connection open. */
        TRUNCATED_THEN_SILENT("the peer's bootstrap statement was not complete in time", true),
        /** A statement one byte at a time, each soon enough for a per-read timeout, never whole. */
        TRICKLING("the peer's bootstrap statement was not complete in time", true),
        /** A whole statement whose message size the peer made up (or a nonsense one), then a message that long. */
        MADE_UP_MESSAGE_SIZE("the peer states a maximum message size of", false),
        /** A statement whose first string is as long as a string can be, and not a preference. */
        LONGEST_STRING("the peer states an unknown transport preference", false),
        /** A valid statement, then what is no frame: the channel is set up, then lost. */
        VALID_THEN_GARBAGE("PEER_LOST", false),
        /** Connects and closes at once. */
        NOTHING_THEN_CLOSED("closed the connection in the middle of the bootstrap exchange", false),
        /** Connects and says nothing. */
        NOTHING_THEN_SILENT("the peer's bootstrap statement was not complete in time", true);

        /** What the server's outcome for this peer says. */
        final String expected;
        /** Whether the server has to wait out its time-out for this peer. */
        final boolean stalls;

        Kind(String expected, boolean stalls) {
            this.expected = expected;
            this.stalls = stalls;
        }
    }

    private HostilePeer() {}

    /**
     * Connects, misbehaves as {@code kind}, and waits up to {@code bound} for the server to close.
     *
     * @param peer the peer's number, which picks its loopback address
     * @return the peer's address (the server sees it as the remote one)
     * @throws AssertionError when the server kept the connection open past the bound
     */
    static InetSocketAddress run(int port, int peer, Kind kind, Random random, Duration bound) {
        try (Socket socket = new Socket()) {
            // an address of its own on loopback: the server's word on this peer is found by it alone
            // (a port alone is reused from one peer to the next)
            socket.bind(new InetSocketAddress(address(peer), 0));
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            InetSocketAddress local = (InetSocketAddress) socket.getLocalSocketAddress();
            if (kind == Kind.NOTHING_THEN_CLOSED) {
                return local;
            }
            socket.setSoTimeout((int) bound.toMillis());
            try {
                misbehave(socket, kind, random);
            } catch (IOException e) {
                return local; // the server closed while we were still writing: what we wait for
            }
            awaitClose(socket, kind == Kind.TRICKLING ? trickle(random) : null, bound);
            return local;
        } catch (IOException e) {
            throw new UncheckedIOException("peer " + kind + ": " + e.getMessage(), e);
        }
    }

    /** 127.1.0.0 and up: every peer of a run its own loopback address. */
    private static InetAddress address(int peer) throws IOException {
        return InetAddress.getByAddress(new byte[] {127, (byte) (1 + (peer + 1 >>> 16)), (byte) (peer + 1 >>> 8), (byte) (peer + 1)});
    }

    private static void misbehave(Socket socket, Kind kind, Random random) throws IOException {
        OutputStream out = socket.getOutputStream();
        byte[] hello = hello(4096);
        switch (kind) {
            case RANDOM_BYTES -> {
                byte[] b = new byte[4 + random.nextInt(2048)]; // a whole magic's worth, at least
                random.nextBytes(b);
                b[0] = (byte) (hello[0] ^ 0xff); // never the magic by chance
                out.write(b);
            }
            case TRUNCATED_THEN_CLOSED -> {
                out.write(hello, 0, random.nextInt(hello.length));
                socket.shutdownOutput();
            }
            case TRUNCATED_THEN_SILENT -> out.write(hello, 0, random.nextInt(hello.length));
            case MADE_UP_MESSAGE_SIZE -> {
                int[] sizes = {Integer.MAX_VALUE, MADE_UP_LENGTH, BootstrapHello.PEER_MAX_MESSAGE_LIMIT + 1, 0, -1,
                        Integer.MIN_VALUE};
                out.write(hello(sizes[random.nextInt(sizes.length)]));
                out.write(messageHeader(MADE_UP_LENGTH));
            }
            case LONGEST_STRING -> {
                DataOutputStream data = new DataOutputStream(out);
                data.write(hello, 0, 6); // magic and version
                data.writeShort(0xffff);
                byte[] text = new byte[0xffff];
                Arrays.fill(text, (byte) '\n'); // a peer that would forge log lines
                data.write(text);
                data.flush();
            }
            case VALID_THEN_GARBAGE -> {
                out.write(hello);
                switch (random.nextInt(3)) {
                    case 0 -> out.write(new byte[] {0, 0, 0, 100, 0x7f}); // a frame of an unknown type
                    case 1 -> out.write(messageHeader(MADE_UP_LENGTH)); // over the agreed maximum
                    default -> {
                        byte[] b = new byte[1 + random.nextInt(4096)];
                        random.nextBytes(b);
                        out.write(b);
                        socket.shutdownOutput(); // whatever the bytes said, the stream ends there
                    }
                }
            }
            case NOTHING_THEN_SILENT, TRICKLING, NOTHING_THEN_CLOSED -> { }
        }
        out.flush();
    }

    /** A TRICKLING peer's bytes: magic, version and a string that would take 64 KiB to arrive. */
    private static byte[] trickle(Random random) {
        byte[] b = new byte[6 + 2 + 0xffff];
        System.arraycopy(hello(4096), 0, b, 0, 6);
        b[6] = (byte) 0xff;
        b[7] = (byte) 0xff;
        Arrays.fill(b, 8, b.length, (byte) ('A' + random.nextInt(26)));
        return b;
    }

    /**
     * Reads until the server closes (end of stream or reset). A trickling peer sends its next byte
     * whenever the server has been quiet for a while, and only fails after the bound in all.
     */
    private static void awaitClose(Socket socket, byte[] trickle, Duration bound) throws IOException {
        InputStream in = socket.getInputStream();
        long deadline = System.nanoTime() + bound.toNanos();
        int sent = 0;
        if (trickle != null) {
            socket.setSoTimeout(50);
        }
        byte[] sink = new byte[4096];
        while (true) {
            try {
                if (in.read(sink) < 0) {
                    return;
                }
            } catch (SocketTimeoutException e) {
                if (trickle == null || System.nanoTime() > deadline) {
                    throw new AssertionError("the server kept a bad peer's connection open for more than " + bound);
                }
                try {
                    socket.getOutputStream().write(trickle, sent++ % trickle.length, 1);
                } catch (IOException closed) {
                    return;
                }
            } catch (IOException reset) {
                return;
            }
        }
    }

    /** A valid client statement: TCP, no RDMA here, messages of up to {@code maxMessageSize}. */
    static byte[] hello(int maxMessageSize) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            new BootstrapHello(TransportPreference.TCP, maxMessageSize, ChannelConfig.defaults().sendQueueDepth(),
                    Capabilities.lacking(CapabilitiesGap.NO_DEVICE, "a test peer"), SameHostFacts.here())
                    .writeTo(new DataOutputStream(bytes));
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A message frame's length and type, as a TCP channel reads them, for a payload of {@code length}. */
    private static byte[] messageHeader(int length) {
        int body = length + 6;
        return new byte[] {(byte) (body >>> 24), (byte) (body >>> 16), (byte) (body >>> 8), (byte) body, MESSAGE_FRAME};
    }
}
