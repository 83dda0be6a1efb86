package dev.verbs4j.examples;

/**
 * {@code bin/verbs4j ud-pingpong}: talks to rdma-core's ibv_ud_pingpong (either side), same
 * options, same out-of-band exchange, same output.
 */
public final class UdPingpong {
    private UdPingpong() {}

    public static void main(String[] args) {
        PingpongProgram.main(PingpongOptions.Flavor.UD, args);
    }
}
