package dev.verbs4j.nvmf.types;

/** Where a controller is in its life, as Linux's nvme core names the states it shares with us. */
public enum ControllerState {
    /** Connected: I/O goes to the target. */
    LIVE,
    /** A transport failure took the queues down; reconnect attempts run, I/O is held. */
    RECONNECTING,
    /** Given up (the loss timeout expired, or reconnecting is off): every I/O fails. */
    LOST,
    /** Closed by its owner. */
    CLOSED
}
