/**
 * The completion loop: one platform thread that polls the channels' completion queues and waits
 * on their sockets and completion channels, busy, on events, or adaptively
 * ({@link dev.verbs4j.guest.CompletionMode}); an application thread that waits on one of its
 * futures takes the loop over meanwhile ({@link dev.verbs4j.guest.loop.CompletionLoop#drive}). Exported because an application may share one loop
 * among several channels ({@link dev.verbs4j.guest.ChannelConfig#loop}); it then starts the loop
 * before the channels and closes it after them:
 * <pre>
 *  CompletionLoop loop = CompletionLoop.start(CompletionMode.EVENT)
 *   +-- channels with ChannelConfig.loop(loop): each adds its fds and CQs, and takes them out
 *   |   again when it closes
 *   +-- loop.close()   stops the thread and closes the devices it opened for the channels
 * </pre>
 * The methods that take fds, completion queues and devices ({@code watch}, {@code addSource},
 * {@code device}, ...) serve the transports behind the channels; applications do not need them.
 */
package dev.verbs4j.guest.loop;
