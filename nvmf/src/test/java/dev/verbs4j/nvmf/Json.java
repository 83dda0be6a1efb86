package dev.verbs4j.nvmf;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Just enough of nvme-cli's {@code -o json} output for the cross-checks: the values of a key, in order. */
final class Json {
    private Json() {
    }

    static List<String> all(String json, String key) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\"\\s*:\\s*(?:\"([^\"]*)\"|(-?[0-9]+))").matcher(json);
        List<String> out = new ArrayList<>();
        while (m.find()) {
            out.add((m.group(1) != null ? m.group(1) : m.group(2)).strip());
        }
        return out;
    }

    static String first(String json, String key) {
        List<String> v = all(json, key);
        if (v.isEmpty()) {
            throw new AssertionError("no \"" + key + "\" in " + json);
        }
        return v.get(0);
    }

    static long number(String json, String key) {
        return Long.parseLong(first(json, key));
    }
}
