package dev.verbs4j.guest.loop;

/** An fd a {@link CompletionLoop} waits on in its epoll set: a socket, or a device's completion channel. */
public interface CompletionLoopFd {

    /**
     * The fd is ready; runs on the loop thread.
     *
     * @param events the epoll bits that are ready: IN, OUT, ERR, HUP
     */
    void onReady(int events);
}
