/**
 * The safe verbs and rdma_cm API over the generated bindings: one Java class per verbs object,
 * with the same names and the same rules as libibverbs and librdmacm, and a Java exception
 * (with errno and a hint) instead of a crash on misuse.
 *
 * <h2>The objects</h2>
 * {@link dev.verbs4j.verbs.Verbs} lists the devices and opens one as a
 * {@link dev.verbs4j.verbs.Context}. Everything else is created from a parent and lives inside it:
 * <ul>
 *   <li>{@link dev.verbs4j.verbs.Context} (an open device) creates
 *       {@link dev.verbs4j.verbs.ProtectionDomain}s, {@link dev.verbs4j.verbs.CompletionQueue}s,
 *       {@link dev.verbs4j.verbs.CompletionChannel}s and the {@link dev.verbs4j.verbs.AsyncEvents}
 *       reader.</li>
 *   <li>{@link dev.verbs4j.verbs.ProtectionDomain} creates {@link dev.verbs4j.verbs.MemoryRegion}s,
 *       {@link dev.verbs4j.verbs.QueuePair}s (directly, or staged through
 *       {@link dev.verbs4j.verbs.QueuePairBuilder} and {@link dev.verbs4j.verbs.PreparedQueuePair}),
 *       {@link dev.verbs4j.verbs.SharedReceiveQueue}s and {@link dev.verbs4j.verbs.AddressHandle}s.</li>
 *   <li>A {@link dev.verbs4j.verbs.QueuePair} <em>uses</em> its send and receive CQs and its SRQ
 *       besides its PD; a {@link dev.verbs4j.verbs.CompletionQueue} may use a
 *       {@link dev.verbs4j.verbs.CompletionChannel} to wake a waiting thread.</li>
 *   <li>{@link dev.verbs4j.verbs.PreparedSend} and {@link dev.verbs4j.verbs.PreparedReceive} are
 *       work requests built once for a QP (or SRQ) and posted many times;
 *       {@link dev.verbs4j.verbs.WorkCompletions} is a reusable batch that CQ polls fill.</li>
 *   <li>rdma_cm: a {@link dev.verbs4j.verbs.CmEventChannel} creates
 *       {@link dev.verbs4j.verbs.CmId}s, connection endpoints addressed by IP and port. An id is
 *       bound to a device by resolving an address (or by a connect request), and its
 *       {@link dev.verbs4j.verbs.CmId#context()} is then a Context that librdmacm owns.
 *       {@link dev.verbs4j.verbs.CmHandshake} connects a prepared QP through an id;
 *       {@link dev.verbs4j.verbs.EndpointExchange} does the same job over a TCP socket with
 *       {@link dev.verbs4j.verbs.QueuePairEndpoint} values.</li>
 * </ul>
 *
 * <h2>Lifetimes and close order</h2>
 * Every verbs object is {@link java.lang.AutoCloseable} and owned by the caller who created it;
 * no object closes another behind the caller's back, with two exceptions said where they apply: a
 * {@link dev.verbs4j.verbs.CmId} closes the QP it created, and a
 * {@link dev.verbs4j.verbs.PreparedQueuePair} owns its QP until it hands it over. Parents outlive
 * their children; close in the reverse order of creation, which try-with-resources does
 * naturally:
 * <pre>
 *                              time ──────────────────────────────────────────▶
 * Context                      ●═══════════════════════════════════════════■ ⑥ Verbs.open
 *  ├─ CompletionChannel          ●═══════════════════════════════════■ ⑤
 *  ├─ CompletionQueue              ●═══════════════════════════■ ④ uses its channel
 *  ├─ AsyncEvents                  ●═══════════════════════════■ ④
 *  └─ ProtectionDomain           ●═════════════════════════════■ ④
 *      ├─ MemoryRegion               ●═══════════════════■ ③ (its memory's Arena: longer)
 *      ├─ SharedReceiveQueue         ●═══════════════════■ ③
 *      ├─ AddressHandle                ●═══════════■ ②
 *      └─ QueuePair                    ●═══════════■ ② uses its CQs, SRQ
 *          ├─ PreparedSend               ●═══■ ① per thread
 *          └─ PreparedReceive            ●═══■ ① per thread
 *
 * WorkCompletions              per polling thread, tied to no object
 *
 * CmEventChannel               ●═══════════════════════════════════════════■ ⑥
 *  └─ CmId                       ●═══════════════════════════════════■ ⑤ closes its QP
 *      ├─ Context              borrowed: librdmacm closes it
 *      │   ├─ ProtectionDomain     ●═════════════════════■ ③ the caller's
 *      │   └─ CompletionQueue      ●═════════════════════■ ③ the caller's
 *      └─ QueuePair                  ●═════════════■ ② rdma_create_qp
 *
 * ● create   ■ close   ①..⑥ close order: lower numbers first, equal numbers in any order
 * </pre>
 * The rules behind the picture:
 * <ul>
 *   <li>A parent <em>refuses</em> to close while objects created from it (or using it, as a CQ
 *       used by a QP) are still open: {@code close()} throws {@link java.lang.IllegalStateException}
 *       naming how many are left, and the object stays open and usable. The verbs would fail with
 *       EBUSY anyway; refusing keeps the native object usable instead of half torn down. A
 *       completion channel with CQs still on it fails the same way with a
 *       {@link dev.verbs4j.verbs.VerbsException} (EBUSY).</li>
 *   <li>A memory region does not own its memory: keep the {@link java.lang.foreign.Arena} open
 *       until the region is closed, and the region until the work requests naming it have
 *       completed.</li>
 *   <li>Closing a QP drops the work requests still outstanding on it without completions; move it
 *       to ERR ({@link dev.verbs4j.verbs.QueuePair#toError()}) and poll the flushed completions
 *       first when they matter.</li>
 *   <li>Any use of a closed object throws {@link java.lang.IllegalStateException} before native
 *       code is reached. Closing is idempotent. A close that fails in the verb throws
 *       {@link dev.verbs4j.verbs.VerbsException} and leaves the object open.</li>
 * </ul>
 *
 * <h2>Threads</h2>
 * Control-path calls (create, modify, query, close) are safe from any thread. Posting work
 * requests and polling a CQ may be done from several threads, as libibverbs providers lock their
 * queues; {@link dev.verbs4j.verbs.WorkCompletions} and prepared work requests are per-thread
 * objects: each thread has its own, and closes it itself. Closing a verbs object while other
 * threads use it is safe: calls in progress finish first (posts and polls hold the object open
 * with an atomic use count, control calls hold its monitor), later calls throw
 * {@link java.lang.IllegalStateException}. A {@link dev.verbs4j.verbs.CompletionChannel} is waited
 * on by one thread at a time; {@link dev.verbs4j.verbs.CompletionChannel#wakeup()} may come from
 * any. rdma_cm events are per id: one thread waits for a given id's events at a time. Value types
 * (records, attributes, endpoints, enums) are immutable; builders are for one thread.
 *
 * <h2>The hot path allocates nothing</h2>
 * {@link dev.verbs4j.verbs.PreparedSend#post()}, {@link dev.verbs4j.verbs.PreparedReceive#post()},
 * {@link dev.verbs4j.verbs.CompletionQueue#poll(WorkCompletions)}, the accessors of
 * {@link dev.verbs4j.verbs.WorkCompletions},
 * {@link dev.verbs4j.verbs.CompletionQueue#requestNotification(boolean)} and
 * {@link dev.verbs4j.verbs.CompletionChannel#await(long)} allocate no Java objects and no native
 * memory: work requests and completion batches live in native memory laid out once, setters write
 * into it, and posts and polls call the provider's function pointers (read once per context)
 * directly, as the static inline verbs of {@code verbs.h} do. Checks that need the arguments
 * (ranges, opcode against QP type, inline limits, lkeys) run in the setters; a post re-checks
 * only what can change between posts (closed objects, freed memory).
 *
 * <h2>Errors</h2>
 * Failed verbs throw {@link dev.verbs4j.verbs.VerbsException} (unchecked) with the verb's name,
 * its errno and, where one is known, a hint; its subclasses say more:
 * {@link dev.verbs4j.verbs.MemoryLockLimitException} (registration hit RLIMIT_MEMLOCK),
 * {@link dev.verbs4j.verbs.WorkRequestException} (a post was refused, and at which request), and
 * {@link dev.verbs4j.verbs.CmException} (an rdma_cm wait got another event, or none).
 * {@link dev.verbs4j.verbs.QpStateException} (an {@link java.lang.IllegalStateException}) refuses
 * a QP transition the state machine does not allow. Bad arguments give
 * {@link java.lang.IllegalArgumentException} before native code runs. A failed call leaves the
 * objects it touched as they were.
 */
package dev.verbs4j.verbs;
