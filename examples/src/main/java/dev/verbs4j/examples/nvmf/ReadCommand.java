package dev.verbs4j.examples.nvmf;

import dev.verbs4j.nvmf.IoBuffer;
import dev.verbs4j.nvmf.NvmfController;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Reads blocks to a file (or stdout), with {@code nvme read}'s long option names. */
@Command(name = "read", mixinStandardHelpOptions = true, description = "read blocks from a namespace")
final class ReadCommand implements Runnable {
    @Mixin
    ConnectOptions connection;

    @Mixin
    NamespaceOption namespace;

    @Option(names = "--start-block", defaultValue = "0", description = "first LBA (default ${DEFAULT-VALUE})")
    long startBlock;

    @Option(names = "--block-count", defaultValue = "1",
            description = "number of blocks (a plain count, not nvme-cli's 0-based one; default ${DEFAULT-VALUE})")
    long blockCount;

    @Option(names = "--data", description = "file to write the data to (default: stdout)")
    Path data;

    @Override
    public void run() {
        try (NvmfController c = NvmfController.connect(connection.toOptions(true))) {
            int bs = c.namespace(namespace.nsid).blockSize();
            try (IoBuffer buf = c.allocateBuffer(blockCount * bs)) {
                c.read(namespace.nsid, startBlock, blockCount, buf, 0);
                byte[] bytes = buf.segment().toArray(ValueLayout.JAVA_BYTE);
                if (data == null) {
                    OutputStream out = System.out;
                    out.write(bytes);
                    out.flush();
                } else {
                    Files.write(data, bytes);
                    System.err.println("read: " + blockCount + " blocks of " + bs + " bytes from LBA " + startBlock
                            + " to " + data);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot write " + data + ": " + e.getMessage(), e);
        }
    }
}
