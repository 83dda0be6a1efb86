package dev.verbs4j.guest.rdma;

import dev.verbs4j.guest.ChannelException;
import dev.verbs4j.loop.CompletionLoop;
import dev.verbs4j.loop.spi.LoopDevice;
import dev.verbs4j.loop.spi.PortListener;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * Ends an RDMA channel whose link stays down for its peer-loss timeout. A queue pair with requests
 * in flight learns of a lost link from their completions; an idle one would not, and neither would
 * the control connection beside it while it has no route to the peer. The device's port events
 * say it instead: when the channel's port goes down, the channel ends unless the port is active
 * again within the timeout. Runs on the loop's thread.
 */
final class LinkWatch implements PortListener, AutoCloseable {
    private final int port;
    private final Duration timeout;
    private final CompletionLoop loop;
    private final FailedCompletion failures;
    private final Consumer<ChannelException> end;
    private final AutoCloseable registration;
    private boolean checkPending;

    LinkWatch(LoopDevice device, int port, Duration timeout, CompletionLoop loop, FailedCompletion failures,
              Consumer<ChannelException> end) {
        this.port = port;
        this.timeout = timeout;
        this.loop = loop;
        this.failures = failures;
        this.end = end;
        this.registration = device.watchPorts(this);
    }

    @Override
    public void onPortChange(int changed, boolean active) {
        if (changed != port || active || checkPending) {
            return;
        }
        checkPending = true;
        loop.schedule(timeout, () -> {
            checkPending = false;
            ChannelException lost = failures.linkDownFor(timeout);
            if (lost != null) {
                end.accept(lost);
            }
        });
    }

    @Override
    public void close() {
        try {
            registration.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
