package dev.verbs4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.verbs4j.examples.RigTestNaming.Source;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every test class of every module is named for where it runs ({@link RigTestNaming}): a rig
 * test ends in its topology's suffix ({@code RigTest}, {@code NetnsRigTest}, ...), a host test in
 * none of them; and the rule itself catches each way of breaking it.
 */
class RigTestNamingTest {
    private static final Path ROOT = Path.of("..");
    private static final Set<String> RIG = Set.of("rdma", "rdma-netns", "rdma-two-hosts", "rdma-two-netns",
            "rdma-two-netns-exclusive", "rdma-nvmet", "rdma-pvrdma");

    @Test
    void everyTestClassOfTheProjectFollowsTheRule() throws Exception {
        Set<String> rigTags = RigTestNaming.rigTags(ROOT.resolve("pom.xml"));
        assertEquals(RIG, rigTags, "the root pom's rig tags");
        List<Source> sources = RigTestNaming.scan(ROOT);
        long rigClasses = sources.stream().filter(s -> s.tags().stream().anyMatch(rigTags::contains)).count();
        assertTrue(sources.size() > 200 && rigClasses > 60, sources.size() + " sources, " + rigClasses + " rig classes: "
                + "the scan missed modules");
        List<String> broken = RigTestNaming.violations(sources, rigTags);
        assertEquals(List.of(), broken, String.join("\n", broken));
    }

    @Test
    void aRigTestNamedTheOldWayOrForAnotherTopologyBreaksIt() {
        assertBroken("m: QpRcDeviceTest carries @Tag(\"rdma\"): its name ends in RigTest",
                "@Tag(\"rdma\")\nclass QpRcDeviceTest {}");
        assertBroken("m: DoctorRigTest carries @Tag(\"rdma-netns\"): its name ends in NetnsRigTest",
                "@Tag(\"rdma-netns\")\nclass DoctorRigTest {}");
        assertBroken("m: QpNetnsRigTest carries @Tag(\"rdma\"): its name ends in RigTest",
                "@Tag(\"rdma\")\nfinal class QpNetnsRigTest {}");
        assertBroken("m: QpTwoNetnsExclusiveRigTest carries @Tag(\"rdma-two-netns\"): its name ends in TwoNetnsRigTest",
                "@Tag(\"rdma-two-netns\")\n@Timeout(5)\npublic class QpTwoNetnsExclusiveRigTest {}");
        assertBroken("m: ReadNvmetRigTest carries @Tag(\"rdma-nvmet\"): its name ends in NvmetTest",
                "@Tag(\"rdma-nvmet\")\nclass ReadNvmetRigTest {}");
        assertBroken("m: EchoTests carries @Tag(\"rdma\"): its name ends in RigTest", "@Tag(\"rdma\")\nclass EchoTests {}");
    }

    @Test
    void aHostTestThatLooksLikeARigTestBreaksIt() {
        assertBroken("m: FramesRigTest runs on any host (no rig tag): its name may not end in RigTest",
                "@Tag(\"slow\")\nclass FramesRigTest {}");
        assertBroken("m: ReadNvmetTest runs on any host (no rig tag): its name may not end in NvmetTest",
                "class ReadNvmetTest {}");
        assertBroken("m: NoDeviceTest runs on any host (no rig tag): its name may not end in DeviceTest",
                "class NoDeviceTest {}");
        assertBroken("m: PingpongInteropTest runs on any host (no rig tag): its name may not end in InteropTest",
                "class PingpongInteropTest {\n    /** {@code @Tag(\"rdma\")} in a comment is no tag. */\n}");
    }

    @Test
    void aTagIsInheritedAndBelongsOnTheClass() {
        assertEquals(List.of("m: TcpEchoTest carries @Tag(\"rdma\"): its name ends in RigTest"), violations(
                "@Tag(\"rdma\")\nabstract class EchoSuite {}", "class TcpEchoTest extends EchoSuite {}"));
        assertEquals(List.of(), violations("@Tag(\"rdma\")\nabstract class EchoSuite {}",
                "class TcpEchoRigTest extends dev.verbs4j.EchoSuite {}", "class UnrelatedTest extends Other<T> {}"));
        assertBroken("m: QpRigTest tags a member \"rdma\": tag the class, so that all of it runs in one place",
                "@Tag(\"rdma\")\nclass QpRigTest {\n    @Test\n    @Tag(\"rdma\")\n    void x() {}\n}");
        assertBroken("m: QpRigTest carries [rdma, rdma-two-hosts]: one topology per class",
                "@Tag(\"rdma\")\n@Tag(\"rdma-two-hosts\")\nclass QpRigTest {}");
    }

    @Test
    void aNewRigTagWithoutASuffixBreaksIt() {
        assertEquals(List.of("rig tag \"rdma-three-hosts\" has no suffix in RigTestNaming.SUFFIX_OF_TAG"),
                RigTestNaming.violations(List.of(), Set.of("rdma-three-hosts")));
    }

    @Test
    void classesThatFollowTheRulePass() {
        assertEquals(List.of(), violations("@Tag(\"rdma\")\nclass QpRcRigTest {}",
                "@Tag(\"rdma-netns\")\nclass DoctorNetnsRigTest {}", "@Tag(\"rdma-nvmet\")\nclass ErrorsNvmetTest {}",
                "@Tag(\"rdma-two-netns-exclusive\")\nclass TwoNetnsExclusiveRigTest {}",
                "class RdmaNetnsTest {}", "class NoDeviceHostTest {}", "class InteropRig {}", "record Pair(int a) {}"));
    }

    private static void assertBroken(String expected, String source) {
        assertEquals(List.of(expected), violations(source));
    }

    private static List<String> violations(String... sources) {
        return RigTestNaming.violations(
                Stream.of(sources).map(s -> RigTestNaming.parse("m", s)).filter(s -> s != null).toList(), RIG);
    }
}
