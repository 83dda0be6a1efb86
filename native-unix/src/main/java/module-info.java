/**
 * The Linux calls every other verbs4j module makes: libc through FFM with errno captured, file
 * descriptors, eventfd, epoll, sockets and iovecs. It is verbs4j's native layer, not part of
 * its API: applications use the verbs, loop and channel modules.
 */
module dev.verbs4j.unix {
    exports dev.verbs4j.unix;
}
