package dev.verbs4j.examples.nvmf;

import dev.verbs4j.nvmf.NvmfController;
import dev.verbs4j.nvmf.types.ControllerIdentity;
import dev.verbs4j.nvmf.types.NamespaceIdentity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Identify Controller and Identify Namespace, with nvme-cli's field names. */
@Command(name = "identify", mixinStandardHelpOptions = true,
        description = "connect and print Identify Controller and Identify Namespace")
final class IdentifyCommand implements Runnable {
    @Mixin
    ConnectOptions connection;

    @Mixin
    NamespaceOption namespace;

    @Override
    public void run() {
        try (NvmfController c = NvmfController.connect(connection.toOptions(true))) {
            ControllerIdentity id = c.identity();
            System.out.printf("cntlid  : %d%nsn      : %s%nmn      : %s%nfr      : %s%nver     : 0x%x%n"
                            + "mdts    : %d (%d bytes)%nnn      : %d%nsubnqn  : %s%nioccsz  : %d%niorcsz  : %d%n"
                            + "msdbd   : %d%nkas     : %d%n",
                    c.controllerId(), id.serial(), id.model(), id.firmware(), id.version(), id.mdts(),
                    c.maxTransferBytes(), id.namespaceCount(), id.subsystemNqn(), id.ioCapsuleSize() / 16,
                    id.ioResponseSize() / 16, id.maxSglDescriptors(), id.keepAliveGranularity());
            NamespaceIdentity ns = c.namespace(namespace.nsid);
            System.out.printf("nsid    : %d%nnsze    : %d%nncap    : %d%nnuse    : %d%nflbas   : %d%n"
                            + "lba size: %d%nsize    : %d bytes%n",
                    namespace.nsid, ns.size(), ns.capacity(), ns.utilization(), ns.formatIndex(), ns.blockSize(), ns.sizeBytes());
        }
    }
}
