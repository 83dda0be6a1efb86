package dev.verbs4j.nvmf;

import dev.verbs4j.nvmf.controller.AdminChannel;
import dev.verbs4j.nvmf.types.InvalidNamespaceException;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import dev.verbs4j.nvmf.types.NvmeStatus;
import dev.verbs4j.nvmf.wire.IdentifyData;
import dev.verbs4j.nvmf.wire.Opcodes;

/**
 * What Identify Namespace last reported, by nsid: the block size of every I/O and the size it is
 * checked against ({@link NamespaceBounds}). A namespace is identified on first use.
 */
final class Namespaces {
    private final AdminChannel admin;
    private final NamespaceIdentity[] byNsid = new NamespaceIdentity[1025];

    Namespaces(AdminChannel admin) {
        this.admin = admin;
    }

    /** Identify Namespace, asked now; remembered for I/O. */
    NamespaceIdentity identify(int nsid) {
        NamespaceIdentity ns = IdentifyData.namespace(nsid, admin.identify(Opcodes.CNS_NAMESPACE, nsid));
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
}
