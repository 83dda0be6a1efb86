package dev.verbs4j.examples.cli;

import dev.verbs4j.guest.TransportPreference;

/** {@code --transport auto|rdma|tcp|shm}, as {@link TransportPreference#parse} reads it. */
public final class TransportPreferenceConverter extends WordConverter<TransportPreference> {
    public TransportPreferenceConverter() {
        super(TransportPreference::parse);
    }
}
