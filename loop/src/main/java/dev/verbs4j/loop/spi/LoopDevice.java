package dev.verbs4j.loop.spi;

import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.Context;

/**
 * One open device as a loop shares it among the transports on it: the context, and the
 * completion channel their CQs signal in EVENT and ADAPTIVE mode, whose fd sits in the loop's
 * epoll set. Owned by the loop, which closes it when it stops; callers never close it.
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
}
