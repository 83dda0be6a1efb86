/** NVMe over Fabrics host (initiator) on the RDMA transport, over verbs-java. */
module dev.verbs4j.nvmf {
    requires transitive dev.verbs4j.loop;
    requires dev.verbs4j.verbs;
    exports dev.verbs4j.nvmf;
    exports dev.verbs4j.nvmf.types;
}
