package dev.verbs4j.loop.spi;

/** An fd a loop waits on in its epoll set: a socket, or a device's completion channel. */
public interface FdHandler {

    /**
     * The fd is ready; runs in the loop's passes.
     *
     * @param events the epoll bits that are ready: IN, OUT, ERR, HUP
     */
    void onReady(int events);

    /**
     * Whether the application's messages arrive on this fd (a TCP channel's socket): a spinning
     * loop then looks at the epoll set on every pass. Without such fds it looks there every
     * 100 µs, since control sockets and tasks (queued without a syscall) do not need a system
     * call per spin.
     *
     * @return true for a socket that carries messages; false by default
     */
    default boolean carriesMessages() {
        return false;
    }
}
