package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ReceiveBuffer;
import dev.verbs4j.guest.TransportChoice;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.guest.bootstrap.ChannelServer;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code verbs4j idle-loop}: what a completion loop costs while its channels are idle. In this one
 * process, a server loop and a client loop hold N connected channel pairs (N channels each); after
 * one message each way, nothing is sent for the measured seconds. With {@code --receiving}, an
 * application thread waits in {@link Channel#receive(ReceiveBuffer, Duration)} on every channel
 * meanwhile, as a server thread waits for its next request: on TCP that thread reads the socket
 * itself, and the loop must still sleep. Prints one Markdown row: the loop threads' CPU
 * milliseconds per second and wake-ups (context switches) per second, server loop / client loop,
 * from /proc ({@link LoopThreadStats}).
 */
public final class IdleLoopBench {
    static final String HEADER = "| mode | transport | idle channels per loop | threads in receive per loop | seconds "
            + "| loop CPU ms/s (server / client) | loop wake-ups/s (server / client) |\n|---|---|---:|---:|---:|---:|---:|";
    /** After the last thread got its message, before the measured seconds: past the TCP channel's 10 ms linger. */
    private static final Duration SETTLE = Duration.ofSeconds(1);
    private static final Duration WAIT = Duration.ofSeconds(60);

    /** What {@code verbs4j idle-loop} was asked ({@link IdleLoopCommand}). */
    record Options(CompletionMode mode, int channels, int seconds, boolean receiving, TransportPreference transport,
                   String bind, String device, int gidIndex) {}

    private IdleLoopBench() {}

    /**
     * Runs {@code verbs4j idle-loop}: a bad command line exits 2 with the reason, a failure exits 1.
     *
     * @param args the command line ({@link IdleLoopCommand})
     */
    public static void main(String[] args) {
        Cli.exit(new IdleLoopCommand(), args);
    }

    static void run(Options o, PrintStream out) throws Exception {
        Figures f = measure(o);
        out.println("transport: " + f.transport().describe());
        out.println(HEADER);
        out.println(String.format(Locale.ROOT, "| %s | %s | %d | %d | %d | %.1f / %.1f | %.1f / %.1f |",
                o.mode().label(), f.transport().kind().label(), o.channels(), o.receiving() ? o.channels() : 0,
                o.seconds(), f.server().cpuNanos() / 1e6 / f.seconds(), f.client().cpuNanos() / 1e6 / f.seconds(),
                f.server().contextSwitches() / f.seconds(), f.client().contextSwitches() / f.seconds()));
    }

    /**
     * What one idle run measured: the server's and the client's loop thread over {@code seconds},
     * and the whole process's CPU time meanwhile (every thread, the waiting receivers included).
     */
    record Figures(TransportChoice transport, double seconds, LoopThreadStats server, LoopThreadStats client,
                   long processCpuNanos) {}

    /** Opens the channels, lets them go idle, and counts what their loops do for {@code o.seconds()}. */
    static Figures measure(Options o) throws Exception {
        List<Channel> open = new ArrayList<>();
        try (CompletionLoop serverLoop = CompletionLoop.start(o.mode());
             CompletionLoop clientLoop = CompletionLoop.start(o.mode());
             ChannelServer listener = ChannelServer.listen(o.bind(), 0, config(o, serverLoop))) {
            try {
                for (int i = 0; i < o.channels(); i++) {
                    CompletableFuture<Channel> client = CompletableFuture.supplyAsync(
                            () -> ChannelConnector.connect(o.bind(), listener.port(), config(o, clientLoop)));
                    open.add(listener.accept(WAIT));
                    open.add(client.get(WAIT.toSeconds(), TimeUnit.SECONDS));
                }
                int serverTid = loopTid(serverLoop);
                int clientTid = loopTid(clientLoop);
                if (o.receiving()) {
                    waitInReceive(open, o.seconds());
                } else {
                    oneMessageEachWay(open.get(0), open.get(1));
                }
                LoopThreadStats serverBefore = LoopThreadStats.of(serverTid);
                LoopThreadStats clientBefore = LoopThreadStats.of(clientTid);
                long cpuBefore = ProcessCpu.nanos();
                long start = System.nanoTime();
                Thread.sleep(o.seconds() * 1000L); // the measured idle time
                double elapsed = (System.nanoTime() - start) / 1e9;
                long cpu = ProcessCpu.nanos() - cpuBefore;
                return new Figures(open.getFirst().transport(), elapsed, LoopThreadStats.of(serverTid).minus(serverBefore),
                        LoopThreadStats.of(clientTid).minus(clientBefore), cpu);
            } finally {
                for (Channel c : open) {
                    c.close(); // and ends the receives still waiting
                }
            }
        }
    }

    private static ChannelConfig config(Options o, CompletionLoop loop) {
        return ChannelConfig.defaults().transport(o.transport()).loop(loop).maxMessageSize(64).receiveDepth(8)
                .sendQueueDepth(8).device(o.device()).gidIndex(o.gidIndex());
    }

    /**
     * The kernel id of {@code loop}'s own thread: a task it runs while nobody drives it (this
     * thread waits on a plain future; {@code runAndWait} could run the task here).
     */
    private static int loopTid(CompletionLoop loop) throws Exception {
        CompletableFuture<Integer> tid = new CompletableFuture<>();
        loop.execute(() -> tid.complete(LoopThreadStats.currentTid()));
        return tid.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** One message each way between a pair, each taken by a listener on the loop: then the channels go idle. */
    private static void oneMessageEachWay(Channel a, Channel b) throws Exception {
        for (Channel[] pair : new Channel[][] {{a, b}, {b, a}}) {
            CompletableFuture<Void> heard = new CompletableFuture<>();
            pair[0].setListener(new ChannelListener() {
                @Override
                public void onMessage(Channel channel, ChannelMessage message) {
                    heard.complete(null);
                }
            });
            pair[1].send(MemorySegment.NULL);
            heard.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /**
     * Starts a thread per channel that receives one message (each peer sends one) and then waits
     * in receive for the next, past the measured seconds; returns once every thread has its first
     * message and {@link #SETTLE} has passed. The channels' close ends the waits (daemon threads:
     * nothing waits for them).
     */
    private static void waitInReceive(List<Channel> open, int seconds) throws Exception {
        CountDownLatch first = new CountDownLatch(open.size());
        Duration wait = Duration.ofSeconds(seconds).plus(WAIT);
        for (Channel channel : open) {
            Thread.ofPlatform().daemon().name("receiver").start(() -> {
                ReceiveBuffer into = new ReceiveBuffer(Arena.ofAuto().allocate(channel.maxMessageSize()));
                try {
                    if (channel.receive(into, WAIT)) {
                        first.countDown();
                        channel.receive(into, wait);
                    }
                } catch (ChannelException closed) {
                    // the run is over: its close ended this wait
                }
            });
        }
        for (Channel channel : open) {
            channel.send(MemorySegment.NULL);
        }
        if (!first.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
            throw new IllegalStateException("a receiving thread did not get its first message");
        }
        Thread.sleep(SETTLE.toMillis());
    }
}
