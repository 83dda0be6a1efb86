package dev.verbs4j.examples;

/**
 * {@code bin/verbs4j rc-pingpong}: talks to rdma-core's ibv_rc_pingpong (either side), same
 * options, same out-of-band exchange, same output.
 */
public final class RcPingpong {
    private RcPingpong() {}

    public static void main(String[] args) {
        PingpongProgram.main(PingpongOptions.Flavor.RC, args);
    }
}
