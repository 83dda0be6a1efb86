package dev.verbs4j.verbs;

/** Receives a device's async events, on the delivering thread of {@link AsyncEvents}. */
@FunctionalInterface
public interface AsyncEventListener {
    void onEvent(AsyncEvent event);
}
