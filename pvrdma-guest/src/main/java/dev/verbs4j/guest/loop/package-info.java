/**
 * The completion loop: one thread that polls the channels' completion queues and waits on their
 * sockets and completion channels, busy, on events, or adaptively. Exported because an
 * application may share one loop among several channels ({@code ChannelConfig.loop}).
 */
package dev.verbs4j.guest.loop;
