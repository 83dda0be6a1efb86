package dev.verbs4j.guest.doctor;

/** A strict JSON syntax check for the tests (the project carries no JSON library). */
public final class JsonCheck {
    private final String s;
    private int i;

    private JsonCheck(String s) {
        this.s = s;
    }

    /** Throws IllegalArgumentException with the position when {@code json} is not one valid JSON value. */
    public static void validate(String json) {
        JsonCheck c = new JsonCheck(json);
        c.value();
        c.space();
        if (c.i != json.length()) {
            throw c.error("trailing text");
        }
    }

    private void value() {
        space();
        if (i >= s.length()) {
            throw error("value expected");
        }
        char c = s.charAt(i);
        switch (c) {
            case '{' -> members('}', true);
            case '[' -> members(']', false);
            case '"' -> string();
            default -> {
                if (s.startsWith("true", i) || s.startsWith("null", i)) {
                    i += 4;
                } else if (s.startsWith("false", i)) {
                    i += 5;
                } else {
                    number();
                }
            }
        }
    }

    private void members(char close, boolean object) {
        i++;
        space();
        if (peek() == close) {
            i++;
            return;
        }
        while (true) {
            if (object) {
                space();
                string();
                space();
                expect(':');
            }
            value();
            space();
            if (peek() == ',') {
                i++;
            } else {
                expect(close);
                return;
            }
        }
    }

    private void string() {
        expect('"');
        while (true) {
            char c = next();
            if (c == '"') {
                return;
            }
            if (c < 0x20) {
                throw error("control character in string");
            }
            if (c == '\\') {
                char e = next();
                if (e == 'u') {
                    for (int k = 0; k < 4; k++) {
                        if (Character.digit(next(), 16) < 0) {
                            throw error("bad \\u escape");
                        }
                    }
                } else if ("\"\\/bfnrt".indexOf(e) < 0) {
                    throw error("bad escape");
                }
            }
        }
    }

    private void number() {
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        try {
            Double.parseDouble(s.substring(start, i));
        } catch (NumberFormatException e) {
            throw error("bad value");
        }
    }

    private void space() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : 0;
    }

    private char next() {
        if (i >= s.length()) {
            throw error("unexpected end");
        }
        return s.charAt(i++);
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("'" + c + "' expected");
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at " + i + ": ..." + s.substring(Math.max(0, i - 30), Math.min(s.length(), i + 30)));
    }
}
