/**
 * What the NVMe-oF initiator reports: the target's answers as immutable values
 * ({@link dev.verbs4j.nvmf.types.ControllerIdentity}, {@link dev.verbs4j.nvmf.types.NamespaceIdentity},
 * {@link dev.verbs4j.nvmf.types.DiscoveryEntry}, {@link dev.verbs4j.nvmf.types.NvmeStatus}), the
 * errors every call throws ({@link dev.verbs4j.nvmf.types.NvmfException} and its subclasses) and
 * the completion of a callback I/O ({@link dev.verbs4j.nvmf.types.IoCallback}).
 *
 * <p>These sit below {@link dev.verbs4j.nvmf.NvmfController} and below the initiator's internal
 * packages (wire formats, queues, controller parts, connect sequence), which decode into them and
 * throw them; they depend on nothing else of the initiator, so the dependencies point down.
 */
package dev.verbs4j.nvmf.types;
