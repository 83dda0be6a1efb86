package dev.verbs4j.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The rule that a test class's name says where it runs, checked on the test sources as text (no
 * module here sees every module's test classes). A class tagged for the rig (one of the tags the
 * root pom keeps out of the host run, on the class or a superclass: JUnit's {@code @Tag} is
 * inherited) ends in its topology's suffix; every other test class ends in none of those
 * suffixes, nor in the ones retired for them.
 */
final class RigTestNaming {
    /** Each rig tag and the suffix of its classes' names: the topology (none for rxe0), then "RigTest". */
    static final Map<String, String> SUFFIX_OF_TAG = Map.of(
            "rdma", "RigTest",                                   // the rig's default topology, rxe0
            "rdma-netns", "NetnsRigTest",                        // topology no-rdma
            "rdma-two-hosts", "TwoHostsRigTest",
            "rdma-two-netns", "TwoNetnsRigTest",
            "rdma-two-netns-exclusive", "TwoNetnsExclusiveRigTest",
            "rdma-pvrdma", "PvrdmaRigTest",                      // topology pvrdma: a peer in its L2 guest
            "rdma-nvmet", "NvmetTest");                          // nvmf's tests, named so before this rule
    /** Suffixes that meant "in the rig" before the rule: no test class takes them now. */
    static final List<String> RETIRED = List.of("DeviceTest", "RdmaTest", "InteropTest");

    private static final Pattern CLASS = Pattern.compile(
            "^((?:public |final |abstract )*)class (\\w+)(?:<[^>{]*>)?(?:\\s+extends\\s+([\\w.]+))?", Pattern.MULTILINE);
    private static final Pattern TAG = Pattern.compile("^([ \\t]*)@Tag\\(\"([^\"]+)\"\\)", Pattern.MULTILINE);

    /** One top-level class of a test source: its tags on the class, and rig tags on its members. */
    record Source(String module, String name, boolean isAbstract, String superclass, Set<String> tags,
            Set<String> memberTags) {}

    private RigTestNaming() {}

    /** The top-level class of one source file (null for an interface, record or enum). */
    static Source parse(String module, String text) {
        Matcher c = CLASS.matcher(text);
        if (!c.find()) {
            return null;
        }
        Set<String> tags = new LinkedHashSet<>();
        Set<String> memberTags = new LinkedHashSet<>();
        Matcher t = TAG.matcher(text);
        while (t.find()) {
            (t.start() < c.start() && t.group(1).isEmpty() ? tags : memberTags).add(t.group(2));
        }
        String superclass = c.group(3) == null ? null : c.group(3).substring(c.group(3).lastIndexOf('.') + 1);
        return new Source(module, c.group(2), c.group(1).contains("abstract"), superclass, tags, memberTags);
    }

    /** Every test source under {@code root/MODULE/src/test/java}. */
    static List<Source> scan(Path root) throws IOException {
        List<Source> sources = new ArrayList<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.sorted().toList()) {
                Path tests = module.resolve("src/test/java");
                if (!Files.isDirectory(tests)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(tests)) {
                    for (Path f : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                        Source s = parse(module.getFileName().toString(), Files.readString(f));
                        if (s != null) {
                            sources.add(s);
                        }
                    }
                }
            }
        }
        return sources;
    }

    /** One line per class that breaks the rule; empty when all follow it. */
    static List<String> violations(List<Source> sources, Set<String> rigTags) {
        Map<String, Source> byName = new HashMap<>();
        for (Source s : sources) {
            byName.putIfAbsent(s.module() + "/" + s.name(), s);
            byName.putIfAbsent(s.name(), s);
        }
        List<String> found = new ArrayList<>();
        for (String tag : rigTags) {
            if (!SUFFIX_OF_TAG.containsKey(tag)) {
                found.add("rig tag \"" + tag + "\" has no suffix in RigTestNaming.SUFFIX_OF_TAG");
            }
        }
        for (Source s : sources) {
            String where = s.module() + ": " + s.name();
            for (String tag : s.memberTags()) {
                if (rigTags.contains(tag)) {
                    found.add(where + " tags a member \"" + tag + "\": tag the class, so that all of it runs in one place");
                }
            }
            if (s.isAbstract() || !runsAsTest(s.name())) {
                continue;
            }
            List<String> rig = tagsWithInherited(s, byName).stream().filter(rigTags::contains).toList();
            String suffix = longestKnownSuffix(s.name());
            if (rig.size() > 1) {
                found.add(where + " carries " + rig + ": one topology per class");
            } else if (rig.size() == 1) {
                String wanted = SUFFIX_OF_TAG.get(rig.getFirst());
                if (wanted != null && !wanted.equals(suffix)) {
                    found.add(where + " carries @Tag(\"" + rig.getFirst() + "\"): its name ends in " + wanted);
                }
            } else if (suffix != null) {
                found.add(where + " runs on any host (no rig tag): its name may not end in " + suffix);
            }
        }
        return found;
    }

    /** The names surefire runs by default (the root pom sets no includes). */
    private static boolean runsAsTest(String name) {
        return name.startsWith("Test") || name.endsWith("Test") || name.endsWith("Tests") || name.endsWith("TestCase");
    }

    private static Set<String> tagsWithInherited(Source s, Map<String, Source> byName) {
        Set<String> tags = new LinkedHashSet<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Source c = s; c != null && seen.add(c.module() + "/" + c.name()); ) {
            tags.addAll(c.tags());
            String sup = c.superclass();
            c = sup == null ? null : byName.getOrDefault(c.module() + "/" + sup, byName.get(sup));
        }
        return tags;
    }

    /** The longest rig or retired suffix the name ends in, or null. */
    static String longestKnownSuffix(String name) {
        String best = null;
        List<String> all = new ArrayList<>(SUFFIX_OF_TAG.values());
        all.addAll(RETIRED);
        for (String suffix : all) {
            if (name.endsWith(suffix) && (best == null || suffix.length() > best.length())) {
                best = suffix;
            }
        }
        return best;
    }

    /** The tags the root pom keeps out of the host run ({@code test.excludedGroups}). */
    static Set<String> rigTags(Path rootPom) throws IOException {
        Matcher m = Pattern.compile("<test.excludedGroups>([^<]+)</test.excludedGroups>").matcher(Files.readString(rootPom));
        if (!m.find()) {
            throw new IllegalStateException("no <test.excludedGroups> in " + rootPom);
        }
        Set<String> tags = new LinkedHashSet<>();
        for (String t : m.group(1).split(",")) {
            tags.add(t.trim());
        }
        return tags;
    }
}
