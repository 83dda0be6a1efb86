package dev.verbs4j.guest;

import java.nio.channels.SelectionKey;

/** A socket a {@link CompletionLoop} watches through its selector. */
interface CompletionLoopSelectable {

    /** The key is ready (readable or writable); runs on the loop thread. */
    void onSelected(SelectionKey key);
}
