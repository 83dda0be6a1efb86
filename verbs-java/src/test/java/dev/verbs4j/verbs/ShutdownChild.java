package dev.verbs4j.verbs;

import java.util.concurrent.CountDownLatch;

/**
 * Run by {@link ShutdownRigTest} in a child JVM: opens a device, connects two QPs, starts a
 * thread that polls and one that posts RDMA writes, and exits while they run with every verbs
 * object still open. The JVM must end with status 0, not with a crash.
 */
public final class ShutdownChild {
    private ShutdownChild() {}

    public static void main(String[] args) throws InterruptedException {
        QpLoopback l = QpLoopback.rc(QpCapabilities.small());
        MemoryRegion mr = l.mrA;
        CountDownLatch running = new CountDownLatch(2);
        Thread poller = new Thread(() -> {
            try (WorkCompletions wc = new WorkCompletions(16)) {
                running.countDown();
                while (true) {
                    l.cqA.poll(wc);
                    l.cqB.poll(wc);
                }
            }
        }, "poller");
        Thread sender = new Thread(() -> {
            PreparedSend send = l.a.prepareSend(1, 1).sge(0, 0, mr, 0, 8).opcode(0, SendOpcode.RDMA_WRITE)
                    .remote(0, l.mrB.address(), l.mrB.rkey()).flags(0, SendFlag.SIGNALED.bit());
            running.countDown();
            while (true) {
                try {
                    send.post();
                } catch (WorkRequestException e) {
                    // send queue full until the poller catches up
                }
            }
        }, "sender");
        poller.start();
        sender.start();
        running.await();
        System.out.println("exiting with the verbs objects open");
        System.exit(0);
    }
}
