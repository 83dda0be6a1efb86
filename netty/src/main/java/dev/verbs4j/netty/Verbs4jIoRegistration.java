package dev.verbs4j.netty;

import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;

/** A channel's place on a {@link Verbs4jIoHandler}: its attachment is the handler. */
final class Verbs4jIoRegistration implements IoRegistration {
    private final Verbs4jIoHandler handler;
    private final Verbs4jIoHandle handle;
    private boolean valid = true;

    Verbs4jIoRegistration(Verbs4jIoHandler handler, Verbs4jIoHandle handle) {
        this.handler = handler;
        this.handle = handle;
    }

    Verbs4jIoHandle handle() {
        return handle;
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> T attachment() {
        return (T) handler;
    }

    @Override
    public long submit(IoOps ops) {
        throw new UnsupportedOperationException("verbs4j's channels take no IoOps: the completion loop calls them");
    }

    @Override
    public boolean isValid() {
        return valid;
    }

    /** On the event loop's thread, as Netty deregisters there. */
    @Override
    public boolean cancel() {
        if (!valid) {
            return false;
        }
        valid = false;
        handler.deregistered(this);
        handle.unregistered();
        return true;
    }
}
