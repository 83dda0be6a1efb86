package dev.verbs4j.guest;

import dev.verbs4j.guest.bootstrap.ChannelConnector;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.CompletionMode;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Run under a small open-file limit (prlimit --nofile): opens TCP channels to PORT until one
 * cannot be opened, prints that error, then shows nothing was lost (the first channel still
 * carries a message there and back) and that the process recovers (after closing half of them,
 * a new channel opens). Args: PORT. Lines: "limit-error: ...", "first-still-works",
 * "reopened-after-close", "opened N".
 */
public final class OpenFileLimitChild {
    private OpenFileLimitChild() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        List<Channel> channels = new ArrayList<>();
        try (CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)) {
            ChannelConfig config = ChannelConfig.defaults().transport(TransportPreference.TCP).loop(loop)
                    .maxMessageSize(256);
            try {
                while (channels.size() < 100_000) {
                    channels.add(ChannelConnector.connect("127.0.0.1", port, config));
                }
            } catch (ChannelException e) {
                System.out.println("opened " + channels.size());
                System.out.println("limit-error: " + e.getMessage());
            }
            exchange(channels.get(0), 7);
            System.out.println("first-still-works");
            for (int i = channels.size() - 1; i >= channels.size() / 2; i--) {
                channels.remove(i).close();
            }
            Channel again = ChannelConnector.connect("127.0.0.1", port, config);
            exchange(again, 8);
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
