/** RDMA-or-TCP channels, completion loops, PVRDMA and namespace awareness, the doctor. */
module dev.verbs4j.guest {
    requires transitive dev.verbs4j.verbs;
    requires org.slf4j;
    exports dev.verbs4j.guest;
    exports dev.verbs4j.guest.loop;
    exports dev.verbs4j.guest.doctor;
}
