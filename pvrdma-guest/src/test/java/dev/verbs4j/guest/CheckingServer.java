package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.guest.bootstrap.PendingChannel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A server as an application writes one: a {@link ChannelServer} whose accept thread sets each
 * client up in turn, and a thread per channel that takes its {@link SequencedMessage}s and checks
 * each (whole, in order, once) until the channel ends. It records how every connection went and
 * when, for a test that kills its clients.
 */
final class CheckingServer implements AutoCloseable {
    /** How long one accept waits before it looks again whether the server is closing. */
    private static final Duration ACCEPT_ROUND = Duration.ofSeconds(1);
    /** How long one receive waits before it looks again whether the server is closing. */
    private static final Duration RECEIVE_ROUND = Duration.ofSeconds(1);

    /** One client connection the server took: its set-up, then its channel's messages and end. */
    static final class Connection {
        final int index;
        final long acceptedAt = System.nanoTime();
        private volatile long doneAt;
        private volatile ChannelException setupFailure;
        private volatile ChannelException end;
        private volatile int channelNumber = Integer.MIN_VALUE;
        private volatile int messages;
        private volatile String broken;

        Connection(int index) {
            this.index = index;
        }

        /** Set up and ended, or failed to set up. */
        boolean done() {
            return setupFailure != null || end != null;
        }

        /** When it became done (nanoTime); 0 while it is not. */
        long doneAt() {
            return doneAt;
        }

        /** Why the set-up failed, or null. */
        ChannelException setupFailure() {
            return setupFailure;
        }

        /** How the channel ended, or null (not yet, or never set up). */
        ChannelException end() {
            return end;
        }

        /** The channel number its first message named; MIN_VALUE before one came. */
        int channelNumber() {
            return channelNumber;
        }

        int messages() {
            return messages;
        }

        /** The first message that was not the next one whole, or null. */
        String broken() {
            return broken;
        }

        @Override
        public String toString() {
            String how = setupFailure != null ? "set-up failed: " + setupFailure.getMessage()
                    : end != null ? end.error() + " after " + messages + " messages (" + end.getMessage() + ")"
                    : "open, " + messages + " messages";
            return "connection " + index + (channelNumber == Integer.MIN_VALUE ? "" : " (channel " + channelNumber + ")")
                    + ": " + how + (broken == null ? "" : "; BROKEN: " + broken);
        }
    }

    private final ChannelServer server;
    private final ChannelConfig config;
    private final int maxMessage;
    private final List<Connection> connections = new CopyOnWriteArrayList<>();
    private final List<String> acceptErrors = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private volatile boolean closing;

    CheckingServer(ChannelConfig config, int maxMessage) {
        this.config = config;
        this.maxMessage = maxMessage;
        this.server = ChannelServer.listen("127.0.0.1", 0, config);
        threads.add(Thread.ofPlatform().name("checking-server-accept").start(this::acceptAll));
    }

    int port() {
        return server.port();
    }

    /** Every connection so far, in the order they were accepted. */
    List<Connection> connections() {
        return List.copyOf(connections);
    }

    /** Accepts that failed other than by finding no client in time: none is expected. */
    List<String> acceptErrors() {
        return List.copyOf(acceptErrors);
    }

    private void acceptAll() {
        while (!closing) {
            PendingChannel pending;
            try {
                pending = server.acceptPending(ACCEPT_ROUND);
            } catch (ChannelException e) {
                if (!closing && !e.getMessage().contains("no client connected within")) {
                    acceptErrors.add(e.toString());
                }
                continue;
            }
            Connection connection = new Connection(connections.size());
            connections.add(connection);
            Channel channel;
            try {
                channel = pending.establish(config);
            } catch (ChannelException e) {
                connection.doneAt = System.nanoTime();
                connection.setupFailure = e;
                continue;
            }
            threads.add(Thread.ofPlatform().name("checking-server-" + connection.index)
                    .start(() -> receiveAll(channel, connection)));
        }
    }

    private void receiveAll(Channel channel, Connection connection) {
        MemorySegment memory = Arena.ofAuto().allocate(maxMessage);
        ReceiveBuffer into = new ReceiveBuffer(memory);
        try (channel) {
            while (!closing) {
                try {
                    if (!channel.receive(into, RECEIVE_ROUND)) {
                        continue;
                    }
                } catch (ChannelException e) {
                    connection.doneAt = System.nanoTime();
                    connection.end = e;
                    return;
                }
                int n = connection.messages;
                if (n == 0) {
                    connection.channelNumber = SequencedMessage.channelOf(memory, into.length());
                }
                String wrong = SequencedMessage.check(memory, into.length(), connection.channelNumber, n, maxMessage);
                if (wrong != null && connection.broken == null) {
                    connection.broken = wrong;
                }
                connection.messages = n + 1;
            }
        }
    }

    /**
     * Waits until every connection accepted so far is done, at most until {@code deadline}
     * (nanoTime); the ones still not done.
     */
    List<Connection> awaitDone(long deadline) throws InterruptedException {
        while (true) {
            List<Connection> open = new ArrayList<>(connections.stream().filter(c -> !c.done()).toList());
            if (open.isEmpty() || System.nanoTime() > deadline) {
                return open;
            }
            Thread.sleep(5); // done is set by the server's own threads; 5 ms is what it adds to the measured bound
        }
    }

    /** Stops accepting, ends the channels still open and waits for the server's threads. */
    @Override
    public void close() throws InterruptedException {
        closing = true;
        server.close();
        for (Thread t : threads) {
            t.join(Duration.ofSeconds(30));
        }
    }
}
