package dev.verbs4j.guest.doctor;

import dev.verbs4j.guest.probe.KernelInfo;
import dev.verbs4j.guest.probe.PciFunction;
import dev.verbs4j.guest.probe.ProviderInfo;
import dev.verbs4j.guest.probe.ProviderLimits;
import dev.verbs4j.guest.probe.RdmaCoreInfo;
import dev.verbs4j.guest.probe.RdmaNetns;
import dev.verbs4j.guest.probe.RdmaPort;
import dev.verbs4j.verbs.GidEntry;
import java.util.List;
import java.util.Optional;

/**
 * The doctor's findings and verdict, as text for people or JSON for tools.
 *
 * @param facts   what was read
 * @param checks  the findings, in order
 * @param verdict the transport a channel would use, as far as this side can tell
 * @param peer    the path to one peer, when one was asked ({@link PeerPath#ask}); it leaves the exit code alone
 */
public record DoctorReport(DoctorFacts facts, List<DoctorCheck> checks, DoctorVerdict verdict,
                           Optional<PeerPath> peer) {
    /** Copies the checks, so the report is immutable. */
    public DoctorReport {
        checks = List.copyOf(checks);
    }

    /**
     * A report about this side only.
     *
     * @param facts   what was read
     * @param checks  the findings, in order
     * @param verdict the transport a channel would use
     */
    public DoctorReport(DoctorFacts facts, List<DoctorCheck> checks, DoctorVerdict verdict) {
        this(facts, checks, verdict, Optional.empty());
    }

    /**
     * This report with the path to a peer.
     *
     * @param path what asking the peer found
     * @return the report
     */
    public DoctorReport withPeer(PeerPath path) {
        return new DoctorReport(facts, checks, verdict, Optional.of(path));
    }

    /**
     * The checks that failed.
     *
     * @return the FAIL checks, in order; empty when nothing blocks
     */
    public List<DoctorCheck> blockingProblems() {
        return checks.stream().filter(c -> c.status() == CheckStatus.FAIL).toList();
    }

    /**
     * The exit code for {@code bin/verbs4j doctor}.
     *
     * @return 0 when nothing blocks, 1 when some check failed (see {@link Doctor} for which do)
     */
    public int exitCode() {
        return blockingProblems().isEmpty() ? 0 : 1;
    }

    /**
     * The report as the command prints it.
     *
     * @return lines of text for a person
     */
    public String toText() {
        StringBuilder s = new StringBuilder();
        s.append("verbs4j doctor (sysfs ").append(facts.sysfs()).append(")\n");
        int width = checks.stream().mapToInt(c -> c.name().length()).max().orElse(10) + 2;
        for (DoctorCheck c : checks) {
            s.append(String.format("[%-4s] %-" + width + "s%s%n", c.status(), c.name(), c.detail()));
            if (!c.fix().isEmpty() && c.status() != CheckStatus.OK) {
                s.append(" ".repeat(7 + width)).append("fix: ").append(c.fix()).append('\n');
            }
        }
        s.append(verdict.line()).append('\n');
        peer.ifPresent(p -> s.append(p.text()).append('\n'));
        int blocking = blockingProblems().size();
        s.append(blocking == 0 ? "no blocking problem" : blocking + " blocking problem" + (blocking == 1 ? "" : "s"))
                .append(" (exit ").append(exitCode()).append(")\n");
        return s.toString();
    }

    /**
     * The report as {@code doctor --json} prints it.
     *
     * @return one JSON object
     */
    public String toJson() {
        JsonWriter w = new JsonWriter().beginObject();
        w.name("verdict").beginObject().field("transport", verdict.transport()).field("device", verdict.device())
                .field("port", verdict.port()).field("gidIndex", verdict.gidIndex()).field("gidType", verdict.gidType())
                .field("gid", verdict.gid()).field("reason", verdict.reason()).field("line", verdict.line()).endObject();
        peer.ifPresent(p -> p.writeTo(w.name("peer")));
        w.field("exitCode", exitCode()).field("blocking", exitCode() != 0);
        w.name("checks").beginArray();
        for (DoctorCheck c : checks) {
            w.beginObject().field("name", c.name()).field("status", c.status().name()).field("detail", c.detail())
                    .field("fix", c.fix()).endObject();
        }
        w.endArray();
        KernelInfo k = facts.kernel();
        w.name("kernel").beginObject().field("os", k.os()).field("arch", k.arch()).field("release", k.release())
                .field("bits", k.bits()).field("rdmaNamespaces", k.supportsRdmaNamespaces()).endObject();
        RdmaCoreInfo core = facts.rdmaCore();
        w.name("rdmaCore").beginObject().field("present", core.present()).field("version", core.version())
                .field("source", core.source()).stringArray("providers", core.providers()).endObject();
        w.name("memlock").beginObject();
        facts.memlock().ifPresent(m -> w.field("soft", m.soft()).field("hard", m.hard()).field("unlimited", m.isUnlimited()));
        w.endObject();
        RdmaNetns ns = facts.netns();
        w.name("netns").beginObject().field("mode", ns.mode().label()).field("modeSource", ns.modeSource())
                .field("namespace", ns.namespace()).stringArray("visibleDevices", ns.visibleDevices())
                .field("machineDevices", ns.machineDevices()).field("rdmaCm", ns.rdmaCm().label())
                .stringArray("rdmaCmProblems", ns.rdmaCm().problems()).endObject();
        w.name("devices").beginArray();
        facts.devices().forEach(d -> device(w, d));
        w.endArray();
        return w.endObject().toString();
    }

    private void device(JsonWriter w, ProviderInfo d) {
        w.beginObject().field("name", d.name()).field("driver", d.driver()).field("provider", d.provider().name())
                .field("pvrdma", d.isPvrdma()).field("nodeType", d.nodeType()).field("firmware", d.firmware());
        d.pci().ifPresent(p -> pci(w.name("pci"), p));
        d.pairedNic().ifPresent(p -> pci(w.name("pairedNic"), p));
        w.stringArray("netdevs", d.netdevs());
        ProviderLimits l = facts.limits().get(d.name());
        if (l != null) {
            w.name("limits").beginObject().stringArray("qpTypes", l.qpTypes().stream().map(Enum::name).sorted().toList())
                    .field("maxInlineData", l.maxInlineData()).field("srq", l.srq()).field("atomics", l.atomics())
                    .field("reported", l.reported()).field("completionVectors", l.completionVectors())
                    .field("needsGrh", l.needsGrh()).field("reads", l.reads()).endObject();
        }
        w.name("ports").beginArray();
        for (RdmaPort p : d.ports()) {
            w.beginObject().field("port", p.number()).field("state", p.state()).field("active", p.isActive())
                    .field("physState", p.physState()).field("linkLayer", p.linkLayer());
            w.name("gids").beginArray();
            for (GidEntry g : p.gids()) {
                w.beginObject().field("index", g.index()).field("gid", g.formatted())
                        .field("address", g.address().getHostAddress()).field("type", g.type().label())
                        .field("netdev", g.netdev()).endObject();
            }
            w.endArray().endObject();
        }
        w.endArray().endObject();
    }

    private static void pci(JsonWriter w, PciFunction p) {
        w.beginObject().field("address", p.address()).field("ids", p.ids()).field("driver", p.driver())
                .stringArray("netdevs", p.netdevs()).endObject();
    }
}
