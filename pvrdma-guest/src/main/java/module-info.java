/**
 * The Channel API (RDMA, or TCP where RDMA cannot be had), the bootstrap that chooses the
 * transport, the machine facts behind that choice, and the doctor that explains it.
 */
module dev.verbs4j.guest {
    requires transitive dev.verbs4j.verbs;
    requires transitive dev.verbs4j.loop;
    requires dev.verbs4j.unix;
    requires org.slf4j;
    exports dev.verbs4j.guest;
    exports dev.verbs4j.guest.bootstrap;
    exports dev.verbs4j.guest.probe;
    exports dev.verbs4j.guest.doctor;
}
