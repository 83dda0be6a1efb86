package dev.verbs4j.examples.nvmf;

import dev.verbs4j.nvmf.NvmfController;
import dev.verbs4j.nvmf.types.DiscoveryEntry;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** The discovery log page, printed as {@code nvme discover} prints it. */
@Command(name = "discover", mixinStandardHelpOptions = true,
        description = "list the subsystems and ports a target's discovery controller reports")
final class DiscoverCommand implements Runnable {
    @Mixin
    ConnectOptions connection;

    @Override
    public void run() {
        List<DiscoveryEntry> entries = NvmfController.discover(connection.toOptions(false));
        System.out.println("Discovery Log Number of Records " + entries.size());
        int i = 0;
        for (DiscoveryEntry e : entries) {
            System.out.println("=====Discovery Log Entry " + i++ + "======");
            System.out.println("trtype:  " + e.transportName());
            System.out.println("adrfam:  " + (e.addressFamily() == 1 ? "ipv4" : e.addressFamily() == 2 ? "ipv6" : "other"));
            System.out.println("subtype: " + e.subsystemTypeName());
            System.out.println("portid:  " + e.portId());
            System.out.println("trsvcid: " + e.serviceId());
            System.out.println("subnqn:  " + e.subsystemNqn());
            System.out.println("traddr:  " + e.address());
            System.out.println("rdma_qptype: " + (e.rdmaQpType() == 1 ? "connected" : String.valueOf(e.rdmaQpType())));
            System.out.println("rdma_cms:    " + (e.rdmaCms() == 1 ? "rdma-cm" : String.valueOf(e.rdmaCms())));
        }
    }
}
