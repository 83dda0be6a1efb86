package dev.verbs4j.rig;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The harness knows every variable that ci/rig's help says the guest's command gets. */
class RigVariableTest {
    @Test
    void everyVariableOfTheRigsHelpIsKnown() throws Exception {
        String script = Files.readString(Path.of("..", "ci", "rig")); // surefire runs in rig-harness/
        int from = script.indexOf("Environment of the command in the guest");
        int to = script.indexOf("Forwarded from the host", from);
        assertTrue(from > 0 && to > from, "ci/rig's help has no guest environment section");
        Set<String> documented = new TreeSet<>();
        Matcher m = Pattern.compile("RIG_[A-Z0-9_]*[A-Z0-9]").matcher(script.substring(from, to));
        while (m.find()) {
            documented.add(m.group());
        }
        Set<String> known = new TreeSet<>(Arrays.stream(RigVariable.values()).map(Enum::name).toList());
        assertEquals(documented, known);
    }
}
