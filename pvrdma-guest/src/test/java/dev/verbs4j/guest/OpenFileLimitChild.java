package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Run under a small open-file limit (prlimit --nofile): opens TCP channels to PORT until one
 * cannot be opened, prints that error, then shows nothing was lost (every channel opened still
 * carries a message there and back: none lost its socket to another's) and that the process
 * recovers (after closing half of them, a new channel opens). Args: PORT, the most channels to
 * try (past the limit: each holds a socket). Lines: "opened N",
 * "limit-error: ...", "all-still-work", "reopened-after-close".
 */
public final class OpenFileLimitChild {
    private OpenFileLimitChild() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int atMost = Integer.parseInt(args[1]);
        List<Channel> channels = new ArrayList<>();
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.TCP).loop(loop)
                    .maxMessageSize(256);
            try {
                while (channels.size() < atMost) {
                    channels.add(ChannelConnector.connect("127.0.0.1", port, config));
                }
                // the limit never stopped a channel: sockets were closed under them, so closing
                // them would wait on sockets that are not theirs; the test reads the count
                System.out.println("opened " + channels.size());
                System.out.flush();
                Runtime.getRuntime().halt(0);
            } catch (ChannelException e) {
                System.out.println("opened " + channels.size());
                System.out.println("limit-error: " + e.getMessage());
            }
            for (int i = 0; i < channels.size(); i++) {
                exchange(channels.get(i), i);
            }
            System.out.println("all-still-work");
            for (int i = channels.size() - 1; i >= channels.size() / 2; i--) {
                channels.remove(i).close();
            }
            Channel again = ChannelConnector.connect("127.0.0.1", port, config);
            exchange(again, -1);
            again.close();
            System.out.println("reopened-after-close");
        } finally {
            channels.forEach(Channel::close);
        }
    }

    private static void exchange(Channel channel, int seed) throws Exception {
        channel.send(ChannelTestBytes.pattern(seed, 100)).get(10, TimeUnit.SECONDS);
        ChannelMessage echo = channel.receive().get(10, TimeUnit.SECONDS);
        if (echo.length() != 100 || ChannelTestBytes.mismatch(echo.data(), seed) != -1) {
            throw new IllegalStateException("the echo differs from what was sent");
        }
    }
}
