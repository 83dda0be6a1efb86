package dev.verbs4j.guest.bootstrap;

import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelError;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.ChannelMessage;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;

/**
 * A server as an application would write one: a thread accepts, a pool runs each bootstrap
 * exchange, every channel echoes what it receives. It records how each connection ended, by
 * the client's address: refused in the exchange, or set up and later ended; and the most heap one
 * exchange allocated.
 */
public final class EchoingServer implements AutoCloseable {
    private final ChannelServer server;
    private final ChannelConfig config;
    private final ExecutorService exchanges = Executors.newCachedThreadPool();
    private final Thread acceptor;
    private final ConcurrentHashMap<InetSocketAddress, CompletableFuture<String>> outcomes = new ConcurrentHashMap<>();
    /** Connections that failed before their address was known, and why. */
    private final List<String> anonymous = new ArrayList<>();
    /** Every channel set up, kept until {@link #close()}: memory they grew stays counted. */
    private final List<Channel> channels = new ArrayList<>();
    private final LongAccumulator mostAllocated = new LongAccumulator(Math::max, 0);
    private volatile boolean closing;

    public EchoingServer(ChannelConfig config) {
        this.config = config;
        this.server = ChannelServer.listen("127.0.0.1", 0, config);
        this.acceptor = Thread.ofPlatform().name("echoing-server-accept").start(this::acceptAll);
    }

    public int port() {
        return server.port();
    }

    /** How the connection from {@code client} ended: "refused: why" or "ended ERROR: why". */
    public CompletableFuture<String> outcome(InetSocketAddress client) {
        return outcomes.computeIfAbsent(client, p -> new CompletableFuture<>());
    }

    /** Outcomes recorded so far, the anonymous ones included. */
    public int outcomesRecorded() {
        synchronized (anonymous) {
            return anonymous.size() + (int) outcomes.values().stream().filter(CompletableFuture::isDone).count();
        }
    }

    List<String> anonymousOutcomes() {
        synchronized (anonymous) {
            return List.copyOf(anonymous);
        }
    }

    long mostHeapAllocatedByOneExchange() {
        return mostAllocated.get();
    }

    private void acceptAll() {
        while (!closing) {
            PendingChannel pending;
            try {
                pending = server.acceptPending(Duration.ofMinutes(10));
            } catch (ChannelException e) {
                if (!closing) {
                    synchronized (anonymous) {
                        anonymous.add(e.getMessage());
                    }
                }
                continue;
            }
            exchanges.execute(() -> establish(pending));
        }
    }

    private void establish(PendingChannel pending) {
        InetSocketAddress client = pending.remoteAddress();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        try {
            Channel channel = pending.establish(config);
            synchronized (channels) {
                channels.add(channel);
            }
            channel.setListener(new Echo(outcome(client)));
        } catch (ChannelException e) {
            outcome(client).complete("refused: " + e.getMessage());
        } finally {
            mostAllocated.accumulate(threads.getCurrentThreadAllocatedBytes() - before);
        }
    }

    @Override
    public void close() throws InterruptedException {
        closing = true;
        server.close();
        acceptor.join();
        exchanges.shutdown();
        if (!exchanges.awaitTermination(30, TimeUnit.SECONDS)) {
            throw new AssertionError("a bootstrap exchange did not end within 30 s of the server's close");
        }
        synchronized (channels) {
            channels.forEach(Channel::close);
            channels.clear();
        }
    }

    /** Sends every message back; records how the channel ended. */
    private record Echo(CompletableFuture<String> outcome) implements ChannelListener {
        @Override
        public void onMessage(Channel channel, ChannelMessage message) {
            if (message.hasImmediate()) {
                channel.send(message.data(), message.immediate());
            } else {
                channel.send(message.data());
            }
        }

        @Override
        public void onClosed(Channel channel, ChannelException cause) {
            ChannelError error = cause == null ? ChannelError.CLOSED : cause.error();
            outcome.complete("ended " + error + ": " + (cause == null ? "" : cause.getMessage()));
        }
    }
}
