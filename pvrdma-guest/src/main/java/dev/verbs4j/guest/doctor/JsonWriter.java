package dev.verbs4j.guest.doctor;

/**
 * A very small JSON writer: objects, arrays, strings, numbers and booleans, with correct string
 * escaping. Enough for the doctor's report without a JSON library.
 */
final class JsonWriter {
    private final StringBuilder out = new StringBuilder();
    private boolean needComma;

    JsonWriter beginObject() {
        separate();
        out.append('{');
        needComma = false;
        return this;
    }

    JsonWriter endObject() {
        out.append('}');
        needComma = true;
        return this;
    }

    JsonWriter beginArray() {
        separate();
        out.append('[');
        needComma = false;
        return this;
    }

    JsonWriter endArray() {
        out.append(']');
        needComma = true;
        return this;
    }

    /** The name of the next member; follow it with a value, object or array. */
    JsonWriter name(String name) {
        separate();
        string(name);
        out.append(':');
        needComma = false;
        return this;
    }

    JsonWriter value(String s) {
        separate();
        string(s);
        needComma = true;
        return this;
    }

    JsonWriter value(long n) {
        separate();
        out.append(n);
        needComma = true;
        return this;
    }

    JsonWriter value(boolean b) {
        separate();
        out.append(b);
        needComma = true;
        return this;
    }

    JsonWriter field(String name, String s) {
        return name(name).value(s);
    }

    JsonWriter field(String name, long n) {
        return name(name).value(n);
    }

    JsonWriter field(String name, boolean b) {
        return name(name).value(b);
    }

    JsonWriter stringArray(String name, Iterable<String> values) {
        name(name).beginArray();
        values.forEach(this::value);
        return endArray();
    }

    private void separate() {
        if (needComma) {
            out.append(',');
            needComma = false;
        }
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
