package dev.verbs4j.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The lkey table against a plain map, over random registrations and deregistrations (negative lkeys too). */
class RegionsByKeyTest {
    @Test
    void agreesWithAMapOverRandomChanges() {
        RegionsByKey<String> table = new RegionsByKey<>();
        Map<Integer, String> expected = new HashMap<>();
        Random random = new Random(42);
        for (int step = 0; step < 20_000; step++) {
            int key = random.nextInt(64) - 32 + (random.nextBoolean() ? Integer.MIN_VALUE / 2 : 0);
            String value = "mr" + step;
            switch (random.nextInt(3)) {
                case 0 -> {
                    table.put(key, value);
                    expected.put(key, value);
                }
                case 1 -> {
                    String current = expected.get(key);
                    table.remove(key, current);
                    expected.remove(key);
                }
                default -> {
                    table.remove(key, "another region"); // a stale deregistration changes nothing
                }
            }
            assertEquals(expected.get(key), table.get(key));
        }
        for (int key = -40; key < 40; key++) {
            assertEquals(expected.get(key), table.get(key));
        }
    }

    @Test
    void anEmptyTableHasNothing() {
        assertNull(new RegionsByKey<String>().get(7));
    }
}
