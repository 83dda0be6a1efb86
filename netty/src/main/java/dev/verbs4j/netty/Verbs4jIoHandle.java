package dev.verbs4j.netty;

import io.netty.channel.IoEvent;
import io.netty.channel.IoHandle;
import io.netty.channel.IoRegistration;

/**
 * What a channel of this transport registers with a {@link Verbs4jIoHandler}. Its I/O comes as
 * the completion loop's callbacks on the event loop's thread, not as {@link IoEvent}s: the
 * registration only ties the channel to the loop, and lets the handler close it at shutdown.
 */
abstract class Verbs4jIoHandle implements IoHandle {

    /** Closes the channel at once: the event loop shuts down. */
    abstract void closeNow();

    @Override
    public void handle(IoRegistration registration, IoEvent ioEvent) {
        // no events: the completion loop calls the channel back itself
    }

    @Override
    public void close() {
        closeNow();
    }
}
