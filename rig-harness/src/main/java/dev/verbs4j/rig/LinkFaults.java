package dev.verbs4j.rig;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Faults on one end of a rig link, as a flaky cable, switch or NIC would cause them: tc netem on
 * the netdev's egress (loss, delay and jitter, reordering, duplication, corruption) and the link
 * taken down and brought up again. A veth end's egress is everything its peer end receives, so a
 * fault on both ends of a pair covers both directions. {@link #close} undoes whatever was applied.
 * <p>
 * Netem goes in before the traffic ({@link #installNetem}) and a fault only changes it in place
 * ({@link #netem}): replacing a live link's root qdisc fails its transmissions for a moment
 * (ENETDOWN), which soft-RoCE does not retry but answers by failing the queue pair that sent,
 * a fault of the test's making, not of the wire's.
 *
 * @param namespace the network namespace the netdev lives in (as {@code ip netns} names it), or
 *                  null for the initial one
 * @param netdev    the netdev, e.g. a veth end
 */
public record LinkFaults(String namespace, String netdev) implements AutoCloseable {

    /** Loads sch_netem: the rig's guest kernel has it as a module. */
    public static void requireNetem() {
        Commands.run("modprobe", "sch_netem");
    }

    /** Makes netem the egress qdisc, passing everything as it comes, while no traffic flows. */
    public void installNetem() {
        run(List.of("tc", "qdisc", "replace", "dev", netdev, "root", "netem"));
    }

    /**
     * Changes the installed netem ({@link #installNetem}) in place to what {@code spec} says, e.g.
     * {@code "loss 5%"}, {@code "delay 5ms 2ms"}, {@code "delay 2ms reorder 25% 50%"},
     * {@code "duplicate 5%"}, {@code "corrupt 5%"} (tc-netem(8)).
     */
    public void netem(String spec) {
        List<String> command = new ArrayList<>(List.of("tc", "qdisc", "change", "dev", netdev, "root", "netem"));
        command.addAll(Arrays.asList(spec.trim().split("\\s+")));
        run(command);
    }

    /** Takes the link down: both ends of a veth pair lose their carrier. */
    public void down() {
        run(List.of("ip", "link", "set", netdev, "down"));
    }

    /**
     * Brings the link up again, and forgets the neighbours it failed to resolve while it was down:
     * a FAILED entry would refuse connections (EHOSTUNREACH) for seconds after the link is back.
     */
    public void up() {
        run(List.of("ip", "link", "set", netdev, "up"));
        run(List.of("ip", "neigh", "flush", "dev", netdev));
    }

    /** The netdev's egress qdiscs as {@code tc -s qdisc show} reports them, with their drop counts. */
    public String stats() {
        return run(List.of("tc", "-s", "qdisc", "show", "dev", netdev));
    }

    /** Removes netem (if any) and brings the link up. */
    @Override
    public void close() {
        if (stats().contains("netem")) {
            run(List.of("tc", "qdisc", "del", "dev", netdev, "root"));
        }
        up();
    }

    private String run(List<String> command) {
        List<String> inNamespace = new ArrayList<>();
        if (namespace != null) {
            inNamespace.addAll(List.of("ip", "netns", "exec", namespace));
        }
        inNamespace.addAll(command);
        return Commands.run(Commands.TIMEOUT, inNamespace);
    }
}
