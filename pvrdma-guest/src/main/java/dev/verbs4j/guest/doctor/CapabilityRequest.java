package dev.verbs4j.guest.doctor;

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

    public static CapabilityRequest of(QpType qpType) {
        return new CapabilityRequest(qpType, 0, false, false);
    }

    public CapabilityRequest withInline(int bytes) {
        return new CapabilityRequest(qpType, bytes, srq, atomics);
    }

    public CapabilityRequest withSrq() {
        return new CapabilityRequest(qpType, inlineBytes, true, atomics);
    }

    public CapabilityRequest withAtomics() {
        return new CapabilityRequest(qpType, inlineBytes, srq, true);
    }
}
