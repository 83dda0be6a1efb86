/**
 * The doctor and the probing under it: what the kernel, rdma-core, the RDMA devices, the PVRDMA
 * PCI functions and the network namespace say, read from sysfs and a few commands, and a verdict
 * on which transport channels will use here. Exported for {@code bin/verbs4j doctor} and for
 * applications that want the same report.
 */
package dev.verbs4j.guest.doctor;
