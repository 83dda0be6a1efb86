package dev.verbs4j.examples.nvmf;

import dev.verbs4j.nvmf.IoBuffer;
import dev.verbs4j.nvmf.NvmfController;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Writes a file's bytes to blocks, with {@code nvme write}'s long option names. */
@Command(name = "write", mixinStandardHelpOptions = true, description = "write blocks to a namespace")
final class WriteCommand implements Runnable {
    @Mixin
    ConnectOptions connection;

    @Mixin
    NamespaceOption namespace;

    @Option(names = "--start-block", defaultValue = "0", description = "first LBA (default ${DEFAULT-VALUE})")
    long startBlock;

    @Option(names = "--block-count",
            description = "number of blocks (a plain count; default: the data's size in blocks, rounded up, zero-padded)")
    Long blockCount;

    @Option(names = "--data", required = true, description = "file with the data to write")
    Path data;

    @Override
    public void run() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(data);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + data + ": " + e.getMessage(), e);
        }
        try (NvmfController c = NvmfController.connect(connection.toOptions(true))) {
            int bs = c.namespace(namespace.nsid).blockSize();
            long blocks = blockCount != null ? blockCount : Math.max(1, (bytes.length + bs - 1) / bs);
            try (IoBuffer buf = c.allocateBuffer(blocks * bs)) {
                MemorySegment.copy(MemorySegment.ofArray(bytes), 0, buf.segment(), 0, Math.min(bytes.length, blocks * bs));
                c.write(namespace.nsid, startBlock, blocks, buf, 0);
                c.flush(namespace.nsid);
                System.err.println("write: " + blocks + " blocks of " + bs + " bytes at LBA " + startBlock);
            }
        }
    }
}
