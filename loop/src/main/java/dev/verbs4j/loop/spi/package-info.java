/**
 * What a transport plugs into a completion loop with ({@link dev.verbs4j.loop.spi.LoopEngine}):
 * fd handlers, completion-queue sources, timers and shared devices. Exported only to verbs4j's
 * transport modules (the channel layer, the NVMe-oF initiator); applications use
 * {@link dev.verbs4j.loop.CompletionLoop}.
 */
package dev.verbs4j.loop.spi;
