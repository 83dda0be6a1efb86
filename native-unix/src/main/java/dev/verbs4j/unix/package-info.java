/**
 * The Linux calls under the completion loop, through FFM with errno captured: an epoll set
 * ({@link dev.verbs4j.unix.Epoll}), an eventfd ({@link dev.verbs4j.unix.EventFd}),
 * non-blocking TCP sockets ({@link dev.verbs4j.unix.NativeSocket}, with reusable iovec
 * arrays in {@link dev.verbs4j.unix.Iovecs}) and what every fd needs
 * ({@link dev.verbs4j.unix.FileDescriptor}). A failed call throws a
 * {@link dev.verbs4j.unix.LinuxCallException} naming the call and its errno.
 *
 * <p>The loop owns its sockets (rather than NIO's) because one thread cannot wait on an NIO
 * selector and on the CQ channels' fds in one call. Every fd is level-triggered in the set: a
 * handler may stop early (a bounded read pass, a channel that ended mid-buffer) and is told again,
 * and a socket asks for OUT only while bytes are queued, so level triggering never spins.
 *
 * <p>Not exported from the module: the channels, their transports and the loop are its only users.
 */
package dev.verbs4j.unix;
