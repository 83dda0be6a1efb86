package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.controller.AdminChannel;
import dev.verbs4j.nvmf.types.InvalidNamespaceException;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import dev.verbs4j.nvmf.types.NvmeStatus;
import dev.verbs4j.nvmf.wire.IdentifyData;
import dev.verbs4j.nvmf.wire.Opcodes;
import java.util.function.Supplier;

/**
 * What Identify Namespace last reported, by nsid: the block size of every I/O and the size it is
 * checked against ({@link NamespaceBounds}). A namespace is identified on first use.
 */
final class Namespaces {
    private final Supplier<AdminChannel> admin;
    private final NamespaceIdentity[] byNsid = new NamespaceIdentity[1025];

    Namespaces(Supplier<AdminChannel> admin) {
        this.admin = admin;
    }

    /** Identify Namespace, asked now; remembered for I/O. */
    NamespaceIdentity identify(int nsid) {
        NamespaceIdentity ns = IdentifyData.namespace(nsid, admin.get().identify(Opcodes.CNS_NAMESPACE, nsid));
        if (nsid > 0 && nsid < byNsid.length) {
            byNsid[nsid] = ns;
        }
        return ns;
    }

    /** The namespace as Identify reported it (asked on first use), or InvalidNamespaceException when it is not active. */
    NamespaceIdentity active(int nsid) {
        NamespaceIdentity ns = nsid > 0 && nsid < byNsid.length ? byNsid[nsid] : null;
        if (ns == null || ns.blockSize() == 0) {
            ns = identify(nsid);
            if (ns.blockSize() == 0) {
                throw new InvalidNamespaceException("Identify Namespace " + nsid, 0x0B, NvmeStatus.INVALID_NAMESPACE,
                        "the controller reports no such active namespace");
            }
        }
        return ns;
    }

    /**
     * After a reconnect: asks {@code admin} (the new connection's) for every namespace seen so far;
     * returns why one is not what it was (its block size or size changed), or null when none changed.
     */
    String changedBehind(AdminChannel admin) {
        for (int nsid = 1; nsid < byNsid.length; nsid++) {
            NamespaceIdentity was = byNsid[nsid];
            if (was == null || was.blockSize() == 0) {
                continue;
            }
            NamespaceIdentity is = IdentifyData.namespace(nsid, admin.identify(Opcodes.CNS_NAMESPACE, nsid));
            if (is.blockSize() != was.blockSize() || is.size() != was.size()) {
                return "namespace " + nsid + " changed behind the reconnect: " + is.size() + " blocks of "
                        + is.blockSize() + " bytes, was " + was.size() + " of " + was.blockSize();
            }
        }
        return null;
    }
}
