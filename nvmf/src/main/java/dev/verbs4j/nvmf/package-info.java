/**
 * An NVMe over Fabrics host (initiator) on the RDMA transport: connects to a target such as
 * Linux's nvmet over rdma_cm and reads and writes its namespaces' blocks straight from and into
 * registered Java memory, the way {@code nvme connect -t rdma} and the kernel's nvme-rdma do.
 *
 * <h2>Objects and their lifetimes</h2>
 * <pre>
 *  NvmfConnectOptions.rdma(address, port, subsystemNqn)     immutable value, with*() copies
 *        |
 *  NvmfController.connect(options) .............................. controller.close()
 *   |  rdma_cm event channel                                              closed last
 *   |  admin queue, QID 0: rdma_cm id + RC QP + PD + admin data region     |
 *   |     Connect, Property Get CAP, CC.EN = 1, Identify Controller        |  CC.SHN = 1
 *   |  I/O queues, QID 1..N: one rdma_cm id + RC QP each, same PD          |  disconnect each
 *   |  keep-alive timer: Keep Alive every KATO / 2 on the admin queue      |  stopped
 *   |  progress thread (withProgressThread(true)): a completion loop whose |  stopped
 *   |    sources are the I/O queues' CQs, BUSY / EVENT / ADAPTIVE          |
 *   |    (withCompletionMode, withProgressSpin)                            |
 *   |                                                                      |
 *   +-- allocateBuffer(bytes) -&gt; IoBuffer ........ buffer.close(), or the controller's close
 *   |
 *   +-- read / write / flush / writeZeroes          synchronous, any thread, split at MDTS
 *   +-- submitRead / submitWrite + IoCallback       asynchronous, allocation-free, one command
 *   +-- newRequest() -&gt; IoRequest, made once:
 *   |     submitRead / submitWrite(request, ...)     asynchronous, allocation-free, a reusable Future
 *   +-- readAsync / writeAsync -&gt; CompletableFuture asynchronous, a new future per I/O
 *   +-- poll()                                      delivers completions (without a progress thread)
 * </pre>
 *
 * <p>Each command travels as a 64-byte capsule on its queue's QP; its data never does: the
 * command names the {@link dev.verbs4j.nvmf.IoBuffer} by address and remote key, and the target
 * RDMA-reads it (writes) or RDMA-writes into it (reads). So a buffer must stay open, and for a
 * write unchanged, until its command completes.
 *
 * <h2>Ownership</h2>
 * The caller owns the {@link dev.verbs4j.nvmf.NvmfController} and closes it; the controller owns
 * every queue, QP, protection domain and timer it made, and closes the {@link dev.verbs4j.nvmf.IoBuffer}s
 * its caller left open. {@link dev.verbs4j.nvmf.NvmfController#discover} connects to the discovery
 * subsystem, reads the log and closes again.
 *
 * <h2>Threads</h2>
 * The controller is thread-safe: synchronous I/O picks an I/O queue by the calling thread and
 * runs one transfer at a time on it; asynchronous completions run on the thread that polls (the
 * caller's in {@link dev.verbs4j.nvmf.NvmfController#poll()}, or the progress thread's completion
 * loop). With a progress thread, a thread that waits (a synchronous call, an
 * {@link dev.verbs4j.nvmf.IoRequest}, a future of {@code readAsync}) runs the loop's passes
 * itself while it waits, as a channel's waiting thread does, and completions then run there;
 * when the loop's thread keeps them, it parks (or, for a synchronous call, yields) until that
 * thread completes its I/O. Without a progress thread, a waiting thread polls.
 * Options, identities, discovery entries and statuses are immutable values.
 *
 * <h2>Errors</h2>
 * Everything thrown is unchecked and extends {@link dev.verbs4j.nvmf.types.NvmfException}:
 * {@link dev.verbs4j.nvmf.types.NvmeStatusException} (and its subclasses) when the target completed a
 * command with an error status, after which the controller still works;
 * {@link dev.verbs4j.nvmf.types.NvmfTransportException} (and {@link dev.verbs4j.nvmf.types.NvmfTimeoutException})
 * when the connection failed, broke or went silent, after which the controller is unusable and
 * {@link dev.verbs4j.nvmf.NvmfController#failure()} says why. Bad arguments throw
 * {@link java.lang.IllegalArgumentException} or {@link java.lang.IndexOutOfBoundsException}
 * before anything is sent.
 *
 * <h2>Packages</h2>
 * This package holds the controller and what is passed to it; what it reports (identities,
 * discovery entries, statuses, the exceptions) and {@link dev.verbs4j.nvmf.types.IoCallback} are in
 * {@link dev.verbs4j.nvmf.types}, which the module's internal packages (wire formats, queues,
 * controller parts, connect sequence) use too, so that every dependency points down to it.
 */
package dev.verbs4j.nvmf;
