package dev.verbs4j.guest.loop;

import dev.verbs4j.verbs.CompletionQueue;
import dev.verbs4j.verbs.WorkCompletions;

/** A completion queue a {@link CompletionLoop} polls, and who handles what it yields. */
public interface CompletionLoopSource {

    /**
     * The queue to poll.
     *
     * @return the completion queue, owned by the source
     */
    CompletionQueue queue();

    /**
     * Handles the {@code batch.count()} completions just polled; runs on the loop thread.
     *
     * @param batch the completions, valid only during this call
     */
    void deliver(WorkCompletions batch);
}
