package dev.verbs4j.benchmarks.perf;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** What the client tells the server first: the test, the sizes and the iteration count to use. */
record RunParameters(PerfTest test, List<Integer> sizes, int iterations, int warmup) {

    /** "V4JP": refuses a peer that is not a verbs4j perf client (perftest speaks another format). */
    static final int MAGIC = 0x56344a50;
    static final int VERSION = 1;

    RunParameters {
        sizes = List.copyOf(sizes);
    }

    void writeTo(DataOutput out) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeUTF(test.cliName());
        out.writeInt(iterations);
        out.writeInt(warmup);
        out.writeInt(sizes.size());
        for (int s : sizes) {
            out.writeInt(s);
        }
    }

    static RunParameters readFrom(DataInput in) throws IOException {
        int magic = in.readInt();
        if (magic != MAGIC) {
            throw new IOException(String.format("the peer is not a verbs4j perf client (got 0x%08x first; "
                    + "perftest binaries speak their own exchange format)", magic));
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw new IOException("the peer speaks exchange version " + version + ", this side " + VERSION);
        }
        PerfTest test = PerfTest.parse(in.readUTF());
        int iterations = in.readInt();
        int warmup = in.readInt();
        int n = in.readInt();
        if (n < 1 || n > 64) {
            throw new IOException("implausible size count " + n);
        }
        List<Integer> sizes = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            sizes.add(in.readInt());
        }
        return new RunParameters(test, sizes, iterations, warmup);
    }
}
