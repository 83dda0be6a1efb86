/**
 * The Channel API a Java application in a (PVRDMA) guest codes against: channels that pick RDMA
 * when both ends can and fall back to TCP, with the same calls either way. The completion loop
 * that runs them is in {@code dev.verbs4j.guest.loop}, the doctor and device probing in
 * {@code dev.verbs4j.guest.doctor}; the transports behind the channels are not exported.
 */
package dev.verbs4j.guest;
