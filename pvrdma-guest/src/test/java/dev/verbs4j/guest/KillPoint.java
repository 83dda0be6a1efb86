package dev.verbs4j.guest;

import java.util.Random;

/**
 * Where in a {@link ChannelLifePeer}'s life a test kills it: after the line that starts a phase of
 * channel {@code channel} (for the RDMA connect: once the peer's pinned memory grows during that
 * channel's bootstrap), plus {@code delayMillis}.
 */
record KillPoint(Phase phase, int channel, int delayMillis) {

    /**
     * The phases a kill aims at, each with the span its random delay is drawn from: about the
     * phase's length in the rig, measured on a quiet and a busy host. There a peer's first connect
     * takes 8-37 s up to its RDMA connect and that 2-10 s (a cold JVM links libibverbs and makes
     * its first verbs objects); a later one 0.06-1 s up to it and 0.07-2 s in it. A stream of 100
     * messages takes about 1-2 s on a first channel and 0.3-1 s on later ones; a close 50-600 ms
     * and 15-40 ms. A delay past its phase lands in the next, and the kill counts there.
     */
    enum Phase {
        /** From just before the connect call: the TCP connect, the hellos, and often the RDMA connect. */
        BOOTSTRAP("bootstrap", 9000, 300),
        /** From the peer's buffers' registration: its QP, the endpoints' exchange, RTR and RTS, the probe SENDs. */
        RDMA_CONNECT("rdma-connect", 2000, 150),
        /** From the channel being up: messages on their way. */
        STREAM("stream", 1500, 600),
        /** From just before close(): the last sends completing, the goodbye, the resources freed. */
        CLOSE("close", 100, 30);

        final String word;
        /** The delay's span on the first channel (a cold JVM's first connect is slow) and on later ones, in ms. */
        private final int firstChannelSpan, laterSpan;

        Phase(String word, int firstChannelSpan, int laterSpan) {
            this.word = word;
            this.firstChannelSpan = firstChannelSpan;
            this.laterSpan = laterSpan;
        }

        /** The marker line of channel {@code n}'s start of this phase (the RDMA connect has none: its bootstrap's). */
        String line(int n) {
            return "phase " + (this == RDMA_CONNECT ? BOOTSTRAP.word : word) + " " + n;
        }
    }

    /** Channels of the peer's life the kill may fall in: 0 (its first, in a cold JVM) to this less one. */
    static final int CHANNELS = 2;

    /**
     * Kill {@code index} of a run: the phases in turn from {@code firstPhase} (so a run of any length
     * aims at each as often, give or take one), channel and delay at random.
     */
    static KillPoint draw(int index, int firstPhase, Random random) {
        Phase phase = Phase.values()[(firstPhase + index) % Phase.values().length];
        int channel = random.nextInt(CHANNELS);
        int span = channel == 0 ? phase.firstChannelSpan : phase.laterSpan;
        return new KillPoint(phase, channel, random.nextInt(span));
    }

    @Override
    public String toString() {
        return phase.word + " of channel " + channel + " + " + delayMillis + " ms";
    }
}
