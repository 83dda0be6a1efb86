package dev.verbs4j.loop.spi;

import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.Context;

/**
 * One open device as a loop shares it among the transports on it: the context, the completion
 * channel their CQs signal in EVENT and ADAPTIVE mode, and the device's port events; both fds sit
 * in the loop's epoll set. Owned by the loop, which closes it when it stops; callers never close it.
 */
public interface LoopDevice {

    /**
     * The device context the loop opened.
     *
     * @return the context, owned by the loop
     */
    Context context();

    /**
     * The completion channel whose fd the loop waits on.
     *
     * @return the channel, owned by the loop
     */
    CompletionChannel events();

    /**
     * Tells {@code listener} of every later change of this device's ports, on the loop's thread,
     * until the returned handle is closed: a transport whose queue pairs sit idle learns that its
     * link went down, which nothing it sends would tell it.
     *
     * @param listener told of each change; it must not block
     * @return closes the watch (idempotent, any thread)
     */
    AutoCloseable watchPorts(PortListener listener);
}
