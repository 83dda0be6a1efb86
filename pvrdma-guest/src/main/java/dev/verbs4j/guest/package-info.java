/**
 * The layer a Java application in a (PVRDMA) guest uses: channels that pick RDMA when both ends
 * can and fall back to TCP, completion loops, and the doctor.
 */
package dev.verbs4j.guest;
