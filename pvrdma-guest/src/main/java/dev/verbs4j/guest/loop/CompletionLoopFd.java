package dev.verbs4j.guest.loop;

/** An fd a {@link CompletionLoop} waits on in its epoll set: a socket, or a device's completion channel. */
public interface CompletionLoopFd {

    /** The fd is ready ({@code events}: the epoll bits, IN, OUT, ERR, HUP); runs on the loop thread. */
    void onReady(int events);
}
