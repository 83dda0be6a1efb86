package dev.verbs4j.examples;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The two summary lines the pingpong programs print, computed the way the C code computes them
 * (elapsed microseconds held in a float, printf's round-half-even on the exact binary value), so
 * scripts that parse one program's output parse the other's.
 */
final class PingpongReport {
    private PingpongReport() {}

    static String bytesLine(long size, long iters, long elapsedMicros) {
        float usec = elapsedMicros;
        long bytes = size * iters * 2;
        return bytes + " bytes in " + fixed2(usec / 1000000.) + " seconds = " + fixed2(bytes * 8. / usec)
                + " Mbit/sec";
    }

    static String itersLine(long iters, long elapsedMicros) {
        float usec = elapsedMicros;
        return iters + " iters in " + fixed2(usec / 1000000.) + " seconds = " + fixed2(usec / iters) + " usec/iter";
    }

    /** printf("%.2f"): glibc rounds the exact binary value, ties to even. */
    static String fixed2(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        return new BigDecimal(value).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }
}
