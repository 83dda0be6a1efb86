package dev.verbs4j.examples;

/**
 * A GID as glibc's inet_ntop(AF_INET6) writes it ("::ffff:10.77.0.1", "fe80::1"), which is what
 * the C programs print; java.net's form ("0:0:0:0:0:ffff:a4d:1") differs.
 */
final class Ipv6Text {
    private Ipv6Text() {}

    static String format(byte[] address) {
        int[] words = new int[8];
        for (int i = 0; i < 8; i++) {
            words[i] = (address[2 * i] & 0xff) << 8 | (address[2 * i + 1] & 0xff);
        }
        // the longest run of zero words (the first of equal ones), if at least two long, becomes "::"
        int bestBase = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (words[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && words[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestBase = i;
                bestLen = j - i;
            }
            i = j;
        }
        if (bestLen < 2) {
            bestBase = -1;
        }
        StringBuilder s = new StringBuilder(46);
        for (int i = 0; i < 8; i++) {
            if (bestBase >= 0 && i >= bestBase && i < bestBase + bestLen) {
                if (i == bestBase) {
                    s.append(':');
                }
                continue;
            }
            if (i != 0) {
                s.append(':');
            }
            // IPv4-compatible and IPv4-mapped addresses end in dotted quad
            if (i == 6 && bestBase == 0 && (bestLen == 6 || (bestLen == 5 && words[5] == 0xffff))) {
                s.append(address[12] & 0xff).append('.').append(address[13] & 0xff).append('.')
                        .append(address[14] & 0xff).append('.').append(address[15] & 0xff);
                return s.toString();
            }
            s.append(Integer.toHexString(words[i]));
        }
        if (bestBase >= 0 && bestBase + bestLen == 8) {
            s.append(':');
        }
        return s.toString();
    }
}
