/** The safe verbs and rdma_cm API. */
module dev.verbs4j.verbs {
    requires dev.verbs4j.bindings;
    requires org.slf4j;
    exports dev.verbs4j.verbs;
}
