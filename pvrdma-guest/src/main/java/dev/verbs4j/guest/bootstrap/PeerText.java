package dev.verbs4j.guest.bootstrap;

/**
 * A string the peer sent, as this side may show it in an error, a log line or
 * {@link dev.verbs4j.guest.TransportChoice#reason()}: clipped, and with control characters
 * escaped, so a peer can neither flood a log nor forge its lines.
 */
final class PeerText {
    private PeerText() {}

    static String printable(String s, int max) {
        StringBuilder b = new StringBuilder(Math.min(s.length(), max) + 3);
        for (int i = 0; i < s.length() && i < max; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != 0x7f) {
                b.append(c);
            } else {
                b.append(String.format("\\x%02x", (int) c));
            }
        }
        return s.length() > max ? b.append("...").toString() : b.toString();
    }
}
