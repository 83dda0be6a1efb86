package dev.verbs4j.examples;

import dev.verbs4j.guest.Doctor;
import dev.verbs4j.guest.DoctorReport;
import dev.verbs4j.guest.SysfsRoot;
import java.nio.file.Files;
import java.nio.file.Path;

/** {@code bin/verbs4j doctor}: is this guest ready for RDMA, and which transport would it use. */
public final class DoctorCommand {
    private static final String USAGE = """
            Usage: verbs4j doctor [--json] [--sysfs DIR]
            Checks this machine for what RDMA needs (64-bit Linux, kernel, rdma-core, devices and
            drivers, port state, GIDs, memlock limit, RDMA network namespace mode, PVRDMA limits)
            and says which transport a channel would use: rdma (device, GID index) or tcp (why).

              --json        machine-readable report on stdout
              --sysfs DIR   read a recorded sysfs tree instead of /sys
              -h, --help    this text

            Exit status: 0 when nothing blocks (also when TCP is the outcome because there is no
            RDMA device), 1 when a check FAILs (an RDMA device is present but unusable, or this is
            not 64-bit Linux), 2 on a usage error.
            """;

    private DoctorCommand() {}

    public static void main(String[] args) {
        boolean json = false;
        SysfsRoot sysfs = SysfsRoot.system();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-h", "--help" -> {
                    System.out.print(USAGE);
                    return;
                }
                case "--json" -> json = true;
                case "--sysfs" -> {
                    Path dir = Path.of(Options.value(args, ++i, "--sysfs"));
                    if (!Files.isDirectory(dir)) {
                        Options.fail("--sysfs " + dir + " is not a directory", null);
                    }
                    sysfs = SysfsRoot.at(dir);
                }
                default -> Options.fail("unknown option " + args[i], USAGE);
            }
        }
        DoctorReport report = Doctor.run(sysfs);
        System.out.print(json ? report.toJson() + "\n" : report.toText());
        System.exit(report.exitCode());
    }
}
