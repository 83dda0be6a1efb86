package dev.verbs4j.guest.probe;

import java.util.LinkedHashMap;
import java.util.Map;

/** A sysfs {@code uevent} file: KEY=VALUE lines (DRIVER, PCI_ID, PCI_SLOT_NAME, ...). */
final class Uevent {
    private Uevent() {}

    static Map<String, String> read(SysfsRoot sys, String relative) {
        Map<String, String> values = new LinkedHashMap<>();
        sys.read(relative).ifPresent(text -> text.lines().forEach(line -> {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
            }
        }));
        return values;
    }
}
