package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's code blocks are excerpts of the compiled quick-starts: each source region between
 * {@code // README:begin NAME} and {@code // README:end} must appear, dedented, as the Java block
 * right after the README's {@code <!-- excerpt: NAME ... -->} line, and every such line must name
 * a region. So the README cannot show code that does not compile or run.
 */
class ReadmeExcerptsTest {
    private static final Path QUICKSTART = Path.of("src", "main", "java", "dev", "verbs4j", "examples", "quickstart");
    private static final Path README = Path.of("..", "README.md");
    private static final Pattern BEGIN = Pattern.compile("^\\s*// README:begin (\\S+)\\s*$");
    private static final Pattern END = Pattern.compile("^\\s*// README:end\\s*$");
    private static final Pattern README_BLOCK =
            Pattern.compile("<!-- excerpt: (\\S+)[^\\n]*-->\\n```java\\n(.*?)```", Pattern.DOTALL);

    /** NAME → the dedented lines between its markers, from every quick-start source. */
    static Map<String, String> excerpts() throws IOException {
        Map<String, String> found = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(QUICKSTART)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                List<String> lines = Files.readAllLines(file);
                String name = null;
                List<String> body = new ArrayList<>();
                for (String line : lines) {
                    Matcher begin = BEGIN.matcher(line);
                    if (begin.matches()) {
                        assertEquals(null, name, file + ": README:begin inside " + name);
                        name = begin.group(1);
                        body.clear();
                    } else if (END.matcher(line).matches()) {
                        assertTrue(name != null, file + ": README:end without begin");
                        assertEquals(null, found.put(name, dedent(body)), "excerpt " + name + " defined twice");
                        name = null;
                    } else if (name != null) {
                        body.add(line);
                    }
                }
                assertEquals(null, name, file + ": README:begin " + name + " has no end");
            }
        }
        return found;
    }

    static String dedent(List<String> lines) {
        int indent = lines.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder b = new StringBuilder();
        for (String l : lines) {
            b.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
        }
        return b.toString();
    }

    @Test
    void everyReadmeBlockIsTheExcerptOfItsQuickStart() throws IOException {
        Map<String, String> excerpts = excerpts();
        assertFalse(excerpts.isEmpty(), "no README:begin markers under " + QUICKSTART.toAbsolutePath());
        String readme = Files.readString(README);
        Matcher m = README_BLOCK.matcher(readme);
        Map<String, String> shown = new LinkedHashMap<>();
        while (m.find()) {
            shown.put(m.group(1), m.group(2));
        }
        for (Map.Entry<String, String> e : excerpts.entrySet()) {
            assertTrue(shown.containsKey(e.getKey()), "README.md has no block for excerpt " + e.getKey()
                    + "; add:\n<!-- excerpt: " + e.getKey() + " -->\n```java\n" + e.getValue() + "```");
            assertEquals(e.getValue(), shown.get(e.getKey()), "README.md's block " + e.getKey()
                    + " differs from its source; it should read:\n" + e.getValue());
        }
        for (String name : shown.keySet()) {
            assertTrue(excerpts.containsKey(name), "README.md shows excerpt " + name + " that no quick-start has");
        }
    }
}
