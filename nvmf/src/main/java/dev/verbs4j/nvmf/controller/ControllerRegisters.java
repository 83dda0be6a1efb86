package dev.verbs4j.nvmf.controller;

import dev.verbs4j.nvmf.types.NvmfTimeoutException;
import dev.verbs4j.nvmf.types.NvmfTransportException;
import dev.verbs4j.nvmf.wire.Properties;
import java.util.concurrent.locks.LockSupport;

/** Enables a controller and waits for CSTS.RDY; shuts it down with CC.SHN and waits for CSTS.SHST. */
public final class ControllerRegisters {
    private static final long STATUS_POLL_NANOS = 1_000_000;

    private ControllerRegisters() {
    }

    /** CC.EN = 1 with 64/16-byte queue entries; returns the CC written. */
    public static int enable(AdminChannel admin, long cap, long timeoutNanos) {
        int cc = Properties.CC_QUEUE_ENTRY_SIZES | Properties.CC_ENABLE;
        admin.propertySet(Properties.CC, false, cc);
        long deadline = System.nanoTime() + Math.max(timeoutNanos, Properties.readyTimeoutMillis(cap) * 1_000_000);
        while (true) {
            int csts = (int) admin.propertyGet(Properties.CSTS, false);
            if ((csts & Properties.CSTS_FATAL) != 0) {
                throw new NvmfTransportException("the controller reports a fatal status (CSTS.CFS) after CC.EN = 1, CC 0x"
                        + Integer.toHexString(cc));
            }
            if ((csts & Properties.CSTS_READY) != 0) {
                return cc;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new NvmfTimeoutException("the controller did not become ready (CSTS.RDY) within CAP.TO");
            }
            LockSupport.parkNanos(STATUS_POLL_NANOS);
        }
    }

    /** Normal shutdown: CC.SHN = 01b, then wait until CSTS.SHST says complete. */
    public static void shutdown(AdminChannel admin, int cc, long timeoutNanos) {
        admin.propertySet(Properties.CC, false, cc | Properties.CC_SHUTDOWN_NORMAL);
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            int csts = (int) admin.propertyGet(Properties.CSTS, false);
            if ((csts & Properties.CSTS_SHUTDOWN_MASK) == Properties.CSTS_SHUTDOWN_COMPLETE) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new NvmfTimeoutException("the controller did not finish its shutdown (CSTS.SHST)");
            }
            LockSupport.parkNanos(STATUS_POLL_NANOS);
        }
    }
}
