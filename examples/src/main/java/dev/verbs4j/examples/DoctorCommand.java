package dev.verbs4j.examples;

import dev.verbs4j.examples.cli.Cli;
import dev.verbs4j.examples.cli.CommonOptions;
import dev.verbs4j.guest.doctor.Doctor;
import dev.verbs4j.guest.doctor.DoctorReport;
import dev.verbs4j.guest.probe.SysfsRoot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code bin/verbs4j doctor}: is this guest ready for RDMA, and which transport would it use. */
@Command(name = "doctor", description = {"is this guest ready for RDMA; which transport it would use, and why",
        "Checks this machine for what RDMA needs (64-bit Linux, kernel, rdma-core, devices and drivers, port "
                + "state, GIDs, memlock limit, RDMA network namespace mode, PVRDMA adapter, driver and limits) and "
                + "says which transport a channel would use: rdma (device, GID index) or tcp (why)."},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:nothing blocks (also when TCP is the outcome because there is no RDMA device)",
                "1:a check FAILs (an RDMA device is present but unusable, or this is not 64-bit Linux)",
                "2:usage error"},
        footer = "")
public final class DoctorCommand implements Callable<Integer> {
    @Option(names = "--json", description = "machine-readable report on stdout")
    boolean json;

    @Option(names = "--sysfs", paramLabel = "DIR", description = "read a recorded sysfs tree instead of /sys")
    Path sysfs;

    @Mixin
    CommonOptions common;

    @Spec
    CommandSpec spec;

    private DoctorCommand() {}

    public static void main(String[] args) {
        Cli.exit(new DoctorCommand(), args);
    }

    @Override
    public Integer call() {
        if (sysfs != null && !Files.isDirectory(sysfs)) {
            throw Cli.usageError(spec, "--sysfs " + sysfs + " is not a directory");
        }
        common.applyVerbosity();
        DoctorReport report = Doctor.run(sysfs == null ? SysfsRoot.system() : SysfsRoot.at(sysfs));
        System.out.print(json ? report.toJson() + "\n" : report.toText());
        return report.exitCode();
    }
}
