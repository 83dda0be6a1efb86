package dev.verbs4j.benchmarks.modes;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.guest.Channel;
import dev.verbs4j.guest.ChannelConfig;
import dev.verbs4j.guest.ChannelConnector;
import dev.verbs4j.guest.ChannelListener;
import dev.verbs4j.guest.ChannelMessage;
import dev.verbs4j.guest.ChannelServer;
import dev.verbs4j.guest.CompletionMode;
import dev.verbs4j.guest.TransportPreference;
import dev.verbs4j.guest.loop.CompletionLoop;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code verbs4j idle-loop}: what a completion loop costs while its channels are idle. In this one
 * process, a server loop and a client loop hold N connected channel pairs (N channels each); after
 * one message to find each loop's thread, nothing is sent for the measured seconds. Prints one
 * Markdown row: the loop threads' CPU milliseconds per second and wake-ups (context switches) per
 * second, server loop / client loop, from /proc ({@link LoopThreadStats}).
 */
public final class IdleLoopBench {
    static final String HEADER = "| mode | idle channels per loop | seconds | loop CPU ms/s (server / client) "
            + "| loop wake-ups/s (server / client) |\n|---|---:|---:|---:|---:|";
    private static final Duration WAIT = Duration.ofSeconds(60);

    /** What {@code verbs4j idle-loop} was asked ({@link IdleLoopCommand}). */
    record Options(CompletionMode mode, int channels, int seconds, TransportPreference transport, String bind,
                   String device, int gidIndex) {}

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
                out.println("transport: " + open.getFirst().transport().describe());
                int serverTid = loopTid(open.get(0), open.get(1));
                int clientTid = loopTid(open.get(1), open.get(0));
                LoopThreadStats serverBefore = LoopThreadStats.of(serverTid);
                LoopThreadStats clientBefore = LoopThreadStats.of(clientTid);
                long start = System.nanoTime();
                Thread.sleep(o.seconds() * 1000L); // the measured idle time
                double elapsed = (System.nanoTime() - start) / 1e9;
                LoopThreadStats server = LoopThreadStats.of(serverTid).minus(serverBefore);
                LoopThreadStats client = LoopThreadStats.of(clientTid).minus(clientBefore);
                out.println(HEADER);
                out.println(String.format(Locale.ROOT, "| %s | %d | %d | %.1f / %.1f | %.1f / %.1f |", o.mode().label(),
                        o.channels(), o.seconds(), server.cpuNanos() / 1e6 / elapsed, client.cpuNanos() / 1e6 / elapsed,
                        server.contextSwitches() / elapsed, client.contextSwitches() / elapsed));
            } finally {
                for (Channel c : open) {
                    c.close();
                }
            }
        }
    }

    private static ChannelConfig config(Options o, CompletionLoop loop) {
        return ChannelConfig.defaults().transport(o.transport()).loop(loop).maxMessageSize(64).receiveDepth(8)
                .sendQueueDepth(8).device(o.device()).gidIndex(o.gidIndex());
    }

    /** The kernel id of the loop thread {@code receiver}'s listener runs on: one empty message from {@code sender}. */
    private static int loopTid(Channel receiver, Channel sender) throws Exception {
        CompletableFuture<Integer> tid = new CompletableFuture<>();
        receiver.setListener(new ChannelListener() {
            @Override
            public void onMessage(Channel channel, ChannelMessage message) {
                tid.complete(LoopThreadStats.currentTid());
            }
        });
        sender.send(MemorySegment.NULL);
        return tid.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
}
