package dev.verbs4j.guest.probe;

import dev.verbs4j.verbs.DeviceAttributes;
import dev.verbs4j.verbs.QpType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a device can be asked for, from what is known about its provider plus what the device
 * reports, so the library never requests what the device lacks (PVRDMA answers EINVAL to a UC
 * QP and silently grants no inline data).
 *
 * @param device            the device name
 * @param provider          its provider
 * @param qpTypes           the QP types it creates
 * @param maxInlineData     largest inline send, or {@link #INLINE_AT_CREATION} when only
 *                          ibv_create_qp tells (it returns what it granted)
 * @param srq               shared receive queues available
 * @param atomics           atomic operations available
 * @param reported          true when srq/atomics come from ibv_query_device, false when the
 *                          device was not queried (then PVRDMA gets neither, to be safe)
 * @param completionVectors completion vectors, 0 when unknown
 * @param needsGrh          address handles must carry a GRH (every RoCE device)
 * @param reads             RDMA READ available (max_qp_rd_atom and max_qp_init_rd_atom above 0); QEMU's
 *                          emulated PVRDMA reports 0 for both
 */
public record ProviderLimits(String device, RdmaProvider provider, Set<QpType> qpTypes, int maxInlineData,
        boolean srq, boolean atomics, boolean reported, int completionVectors, boolean needsGrh, boolean reads) {

    public static final int INLINE_AT_CREATION = -1;

    /** Copies the set of QP types, so the record is immutable. */
    public ProviderLimits {
        qpTypes = Set.copyOf(qpTypes);
    }

    /**
     * The limits of a device.
     *
     * @param info              the device as sysfs describes it
     * @param attributes        ibv_query_device's answer, if the device could be opened
     * @param completionVectors the context's num_comp_vectors, 0 if unknown
     * @return the limits: the device's answer where there is one, the provider's known limits otherwise
     */
    public static ProviderLimits of(ProviderInfo info, Optional<DeviceAttributes> attributes, int completionVectors) {
        boolean reported = attributes.isPresent();
        boolean pvrdma = info.isPvrdma();
        boolean reads = attributes.map(a -> a.maxQpRdAtom() > 0 && a.maxQpInitRdAtom() > 0).orElse(!pvrdma);
        boolean ethernet = info.ports().stream().anyMatch(RdmaPort::isEthernet);
        return switch (pvrdma ? RdmaProvider.PVRDMA : info.provider()) {
            // vmw_pvrdma: create_qp takes RC and UD only, sets max_inline_data to 0, offers SRQ
            // only when the device reports max_srq > 0 and atomics only when it reports CAS|FAA,
            // registers exactly one completion vector, and create_ah requires a GRH.
            case PVRDMA -> new ProviderLimits(info.name(), RdmaProvider.PVRDMA, EnumSet.of(QpType.RC, QpType.UD), 0,
                    attributes.map(DeviceAttributes::supportsSrq).orElse(false),
                    attributes.map(DeviceAttributes::supportsAtomics).orElse(false), reported, 1, true, reads);
            case RXE -> new ProviderLimits(info.name(), RdmaProvider.RXE, EnumSet.allOf(QpType.class),
                    INLINE_AT_CREATION, attributes.map(DeviceAttributes::supportsSrq).orElse(true),
                    attributes.map(DeviceAttributes::supportsAtomics).orElse(true), reported, completionVectors, true,
                    reads);
            // iWARP is connected-only: RC, no atomics.
            case SIW -> new ProviderLimits(info.name(), RdmaProvider.SIW, EnumSet.of(QpType.RC), INLINE_AT_CREATION,
                    attributes.map(DeviceAttributes::supportsSrq).orElse(true), false, reported, completionVectors,
                    false, reads);
            case OTHER -> new ProviderLimits(info.name(), info.provider(), EnumSet.allOf(QpType.class),
                    INLINE_AT_CREATION, attributes.map(DeviceAttributes::supportsSrq).orElse(false),
                    attributes.map(DeviceAttributes::supportsAtomics).orElse(false), reported, completionVectors,
                    ethernet, reads);
        };
    }

    /**
     * The reasons this device cannot serve the request.
     *
     * @param request what the caller is about to ask for
     * @return the reasons; empty when it can
     */
    public List<String> whyNot(CapabilityRequest request) {
        List<String> reasons = new ArrayList<>();
        String who = device + " (" + provider.label() + ")";
        if (!qpTypes.contains(request.qpType())) {
            reasons.add(who + " creates " + typeList() + " queue pairs only, not " + request.qpType());
        }
        if (request.inlineBytes() > 0 && maxInlineData != INLINE_AT_CREATION && request.inlineBytes() > maxInlineData) {
            reasons.add(maxInlineData == 0
                    ? who + " has no inline data (max_inline_data 0); " + request.inlineBytes()
                            + " inline bytes requested: send from a registered buffer"
                    : who + " allows " + maxInlineData + " inline bytes, " + request.inlineBytes() + " requested");
        }
        if (request.srq() && !srq) {
            reasons.add(who + (reported ? " reports no shared receive queues (max_srq 0)"
                    : " shared receive queues not confirmed (device not queried)"));
        }
        if (request.atomics() && !atomics) {
            reasons.add(who + (reported ? " reports no atomic operations (atomic_cap NONE)"
                    : " atomic operations not confirmed (device not queried)"));
        }
        return reasons;
    }

    /**
     * The inline size to ask for: the wanted size, cut to what the device allows.
     *
     * @param wanted the inline bytes the caller wants
     * @return the inline bytes to ask for
     */
    public int inlineFor(int wanted) {
        return maxInlineData == INLINE_AT_CREATION ? wanted : Math.min(wanted, maxInlineData);
    }

    /**
     * The limits in one line.
     *
     * @return e.g. "RC+UD QPs, no inline data, SRQ no, atomics no, RDMA READ no, 1 completion vector, AH needs GRH"
     */
    public String describe() {
        String inline = maxInlineData == INLINE_AT_CREATION ? "inline data as granted at QP creation"
                : maxInlineData == 0 ? "no inline data" : "inline up to " + maxInlineData + " bytes";
        String source = reported ? "" : " (not reported)";
        return typeList() + " QPs, " + inline + ", SRQ " + (srq ? "yes" : "no" + source) + ", atomics "
                + (atomics ? "yes" : "no" + source) + ", RDMA READ " + (reads ? "yes" : "no" + source) + ", "
                + (completionVectors > 0 ? completionVectors + " completion vector" + (completionVectors == 1 ? "" : "s")
                        : "completion vectors unknown")
                + (needsGrh ? ", AH needs GRH" : "");
    }

    private String typeList() {
        return EnumSet.copyOf(qpTypes).stream().map(Enum::name).collect(Collectors.joining("+"));
    }
}
