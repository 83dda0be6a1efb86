package dev.verbs4j.verbs;

/**
 * Receives a device's async events, on the delivering thread of {@link AsyncEvents} (one thread per
 * context, so calls never overlap). A listener that throws is logged and the delivery goes on.
 */
@FunctionalInterface
public interface AsyncEventListener {
    /**
     * Called once per event, before the event is acknowledged; return promptly, as the next event
     * waits, and do not close the {@link AsyncEvents} that calls it from here.
     *
     * @param event the event (a value copied out of libibverbs' struct)
     */
    void onEvent(AsyncEvent event);
}
