/**
 * The doctor and the probing under it: what the kernel, rdma-core, the RDMA devices, the PVRDMA
 * PCI functions and the network namespace say, read from sysfs and a few commands, and a verdict
 * on which transport channels will use here; asked about one peer, which path a channel to it
 * takes ({@link dev.verbs4j.guest.doctor.PeerPath}: shm, rdma or tcp, and why). Exported for {@code bin/verbs4j doctor} and for
 * applications that want the same report.
 */
package dev.verbs4j.guest.doctor;
