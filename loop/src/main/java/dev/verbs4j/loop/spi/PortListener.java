package dev.verbs4j.loop.spi;

/** Told on the loop's thread when a port of a {@link LoopDevice} goes down or becomes active again. */
@FunctionalInterface
public interface PortListener {

    /**
     * A port changed state (the device's PORT_ERR or PORT_ACTIVE async event).
     *
     * @param port   the port number
     * @param active true when the port became active, false when it went down
     */
    void onPortChange(int port, boolean active);
}
