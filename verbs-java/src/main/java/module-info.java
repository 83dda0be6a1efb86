/** The safe verbs and rdma_cm API. */
module dev.verbs4j.verbs {
    requires dev.verbs4j.bindings;
    requires dev.verbs4j.unix;
    requires org.slf4j;
    exports dev.verbs4j.verbs;
}
