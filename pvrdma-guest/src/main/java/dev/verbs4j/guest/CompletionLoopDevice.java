package dev.verbs4j.guest;

import dev.verbs4j.verbs.CompletionChannel;
import dev.verbs4j.verbs.Context;
import dev.verbs4j.verbs.Verbs;

/**
 * One open device as a loop shares it among its RDMA channels: the context, and the completion
 * channel their CQs signal in EVENT and ADAPTIVE mode (one fd to wait on per device).
 */
final class CompletionLoopDevice implements AutoCloseable {
    private final Context context;
    private final CompletionChannel events;

    CompletionLoopDevice(String name) {
        this.context = Verbs.open(name);
        try {
            this.events = context.createCompletionChannel();
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
    }

    Context context() {
        return context;
    }

    CompletionChannel events() {
        return events;
    }

    @Override
    public void close() {
        try {
            events.close();
        } finally {
            context.close();
        }
    }
}
