/**
 * The safe verbs and rdma_cm API over the generated bindings.
 *
 * <h2>Lifetimes</h2>
 * Every verbs object is {@link java.lang.AutoCloseable}. A parent <em>refuses</em> to close while
 * objects created from it are still open (it throws {@link java.lang.IllegalStateException} naming
 * how many are left): the verbs would fail with EBUSY anyway, and refusing keeps the native
 * object usable instead of leaving it half torn down. Close children first — try-with-resources
 * does this naturally. Any use of a closed object throws {@code IllegalStateException} before
 * native code is reached. Closing is idempotent.
 *
 * <h2>Threads</h2>
 * Control-path calls (create, modify, query, close) are safe from any thread. Posting work
 * requests and polling a CQ may be done from several threads, as libibverbs providers lock their
 * queues; {@link dev.verbs4j.verbs.WorkCompletions} and prepared work requests are per-thread
 * objects. Closing a verbs object while other threads use it is safe: calls in progress finish
 * first (posts and polls hold the object open with an atomic use count, control calls hold its
 * monitor), later calls throw {@link java.lang.IllegalStateException}; see NativeObject. Prepared
 * work requests and completion batches are per-thread objects: close them on the thread that
 * uses them.
 */
package dev.verbs4j.verbs;
