/**
 * The completion loop: one platform thread that polls completion queues and waits on sockets and
 * completion channels in one epoll wait, busy, on events, or adaptively
 * ({@link dev.verbs4j.loop.CompletionMode}); an application thread that waits on one of its
 * operations takes the loop over meanwhile. An application may share one loop among several
 * channels; it then starts the loop before the channels and closes it after them:
 * <pre>
 *  CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)
 *   +-- channels configured with this loop: each adds its fds and CQs, and takes them out
 *   |   again when it closes
 *   +-- loop.close()   stops the thread and closes the devices it opened for the channels
 * </pre>
 * What transports plug in with is in {@code dev.verbs4j.loop.spi}, exported to them alone.
 */
package dev.verbs4j.loop;
