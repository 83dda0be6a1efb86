package dev.verbs4j.verbs;

/**
 * {@code struct ibv_srq_attr}, as {@link SharedReceiveQueue#query()} reports it. An immutable
 * snapshot.
 *
 * @param maxWorkRequests receives the SRQ holds
 * @param maxSge          SGEs per receive
 * @param limit           armed limit: when fewer receives remain, an SRQ_LIMIT_REACHED async event
 *                        fires (0 = not armed)
 */
public record SrqAttributes(int maxWorkRequests, int maxSge, int limit) {
}
