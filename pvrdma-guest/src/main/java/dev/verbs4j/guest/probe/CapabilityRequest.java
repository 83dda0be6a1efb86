package dev.verbs4j.guest.probe;

import dev.verbs4j.verbs.QpType;

/**
 * What a caller is about to ask a device for, checked by {@link ProviderLimits#whyNot} before
 * the device is asked.
 *
 * @param qpType      the queue pair type
 * @param inlineBytes max_inline_data wanted (0 = none)
 * @param srq         a shared receive queue is wanted
 * @param atomics     compare-and-swap / fetch-and-add will be posted
 */
public record CapabilityRequest(QpType qpType, int inlineBytes, boolean srq, boolean atomics) {

    /**
     * A request for a queue pair type with nothing else.
     *
     * @param qpType the queue pair type
     * @return the request
     */
    public static CapabilityRequest of(QpType qpType) {
        return new CapabilityRequest(qpType, 0, false, false);
    }

    /**
     * The same request with inline data.
     *
     * @param bytes max_inline_data wanted
     * @return a new request
     */
    public CapabilityRequest withInline(int bytes) {
        return new CapabilityRequest(qpType, bytes, srq, atomics);
    }

    /**
     * The same request with a shared receive queue.
     *
     * @return a new request
     */
    public CapabilityRequest withSrq() {
        return new CapabilityRequest(qpType, inlineBytes, true, atomics);
    }

    /**
     * The same request with atomics.
     *
     * @return a new request
     */
    public CapabilityRequest withAtomics() {
        return new CapabilityRequest(qpType, inlineBytes, srq, true);
    }
}
