package dev.verbs4j.bindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks every generated struct/union layout (size, alignment, member offsets and sizes) against
 * gcc and the installed headers, so a header/jextract mismatch cannot reach the verbs layer.
 */
class StructLayoutTest {

    /** Generated struct classes whose C name cannot be spelled; none today. */
    private static final int MAX_SKIPPED = 0;
    /** Far below the real count; guards against the walk silently finding nothing. */
    private static final int MIN_MEMBERS = 500;

    private static final List<String> REQUIRED_TYPES = List.of(
            "ibv_context", "ibv_context_ops", "verbs_context", "ibv_device_attr", "ibv_port_attr", "ibv_gid",
            "ibv_pd", "ibv_mr", "ibv_cq", "ibv_comp_channel", "ibv_qp", "ibv_qp_init_attr", "ibv_qp_attr",
            "ibv_qp_cap", "ibv_srq", "ibv_srq_init_attr", "ibv_ah_attr", "ibv_global_route", "ibv_wc",
            "ibv_send_wr", "ibv_recv_wr", "ibv_sge", "ibv_async_event", "rdma_cm_id", "rdma_cm_event",
            "rdma_conn_param", "rdma_ud_param", "rdma_event_channel", "rdma_route", "rdma_addr",
            "sockaddr_in", "sockaddr_in6", "sockaddr_storage", "pthread_mutex_t", "pthread_cond_t");

    /** Members the verbs layer dereferences directly (ops dispatch, work requests, completions). */
    private static final List<String> REQUIRED_MEMBERS = List.of(
            "ibv_context.ops", "ibv_context.abi_compat", "ibv_context_ops.post_send", "ibv_context_ops.post_recv",
            "ibv_context_ops.post_srq_recv", "ibv_context_ops.poll_cq", "ibv_context_ops.req_notify_cq",
            "verbs_context.query_port", "verbs_context.sz", "verbs_context.context", "ibv_qp.context",
            "ibv_cq.context", "ibv_srq.context", "ibv_send_wr.wr.rdma.rkey", "ibv_send_wr.wr.ud.remote_qpn",
            "ibv_send_wr.wr.atomic.compare_add", "ibv_wc.imm_data", "ibv_wc.invalidated_rkey",
            "ibv_async_event.element.qp", "rdma_cm_id.route", "rdma_route.addr", "rdma_addr.src_addr",
            "rdma_addr.dst_sin6", "rdma_cm_event.param.conn", "rdma_cm_event.param.ud", "rdma_conn_param.private_data",
            "rdma_ud_param.qkey", "sockaddr_in6.sin6_addr");

    private static GeneratedStructs structs;
    private static Map<String, Long> cValues;

    @BeforeAll
    static void evaluateInC(@TempDir Path workDir) throws Exception {
        structs = GeneratedStructs.collect();
        cValues = CLayoutProbe.evaluate(structs.facts, workDir);
        System.out.printf("layout check: %d structs, %d fields checked (%d sizes/offsets compared with gcc), %d skipped%s%n",
                structs.types.size(), structs.members.size(), structs.facts.size(), structs.skipped.size(),
                structs.skipped.isEmpty() ? "" : " " + structs.skipped);
    }

    @Test
    void everyGeneratedLayoutMatchesTheCompiler() {
        List<String> mismatches = LayoutComparison.mismatches(structs.facts, cValues);
        assertTrue(mismatches.isEmpty(), mismatches.size() + " layout mismatches:\n" + String.join("\n", mismatches));
        assertTrue(structs.members.size() >= MIN_MEMBERS,
                "only " + structs.members.size() + " members found; the reflection walk is broken");
        assertTrue(structs.skipped.size() <= MAX_SKIPPED, "struct classes with no C name: " + structs.skipped);
    }

    @Test
    void coversTheTypesAndMembersTheVerbsLayerUses() {
        List<String> missing = new ArrayList<>();
        REQUIRED_TYPES.stream().filter(type -> !structs.types.contains(type)).forEach(missing::add);
        REQUIRED_MEMBERS.stream().filter(member -> !structs.members.contains(member)).forEach(missing::add);
        assertEquals(List.of(), missing, "not checked against C");
    }

    /** Every named member of a checked struct (e.g. each ops function pointer) has an accessor that was checked. */
    @Test
    void noNamedMemberEscapesTheWalk() throws Exception {
        List<String> unchecked = new ArrayList<>();
        for (String type : structs.types) {
            Class<?> generated = Class.forName(Rdma.class.getPackageName() + "." + type);
            if (generated.getSuperclass() != Object.class) {
                continue; // typedef alias of a struct checked under its own name
            }
            GroupLayout layout = (GroupLayout) generated.getMethod("layout").invoke(null);
            for (MemoryLayout member : layout.memberLayouts()) {
                String name = member.name().orElse("");
                boolean named = !(member instanceof PaddingLayout) && !name.startsWith("$anon");
                if (named && !structs.members.contains(type + "." + name)) {
                    unchecked.add(type + "." + name);
                }
            }
        }
        assertEquals(List.of(), unchecked);
    }

    /** The comparison must flag a wrong offset: feeds it one on purpose, next to a right one. */
    @Test
    void comparisonReportsAWrongOffset() {
        String expression = "offsetof(struct ibv_wc, imm_data)";
        long cOffset = cValues.get(expression);
        LayoutFact right = new LayoutFact(expression, cOffset);
        LayoutFact wrong = new LayoutFact(expression, cOffset + 4);
        LayoutFact unknown = LayoutFact.offsetOf("struct ibv_wc", "no_such_member", 0);

        List<String> mismatches = LayoutComparison.mismatches(List.of(right, wrong, unknown), cValues);

        assertEquals(List.of(
                expression + ": Java " + (cOffset + 4) + ", C " + cOffset,
                "offsetof(struct ibv_wc, no_such_member): no value from the C program"), mismatches);
    }
}
