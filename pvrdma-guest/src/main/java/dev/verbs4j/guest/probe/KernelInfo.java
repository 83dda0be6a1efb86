package dev.verbs4j.guest.probe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operating system and kernel this runs on.
 *
 * @param os      os.name, e.g. Linux
 * @param arch    os.arch, e.g. amd64
 * @param release the kernel release, e.g. 6.1.0-56-amd64
 * @param bits    the JVM's data model, 64 or 32
 */
public record KernelInfo(String os, String arch, String release, int bits) {
    /** Moving RDMA devices between network namespaces: safe floor, see rdma-system(8). */
    public static final int[] NAMESPACES_SINCE = {5, 5};
    private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)");
    private static final Set<String> ARCH_64 = Set.of("amd64", "x86_64", "aarch64", "ppc64le", "s390x", "riscv64");

    /**
     * This machine's kernel: the release from {@code /proc/sys/kernel/osrelease}, the rest from
     * the JVM's system properties.
     *
     * @return the kernel
     */
    public static KernelInfo current() {
        String release;
        try {
            release = Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim();
        } catch (IOException e) {
            release = System.getProperty("os.version", "");
        }
        String arch = System.getProperty("os.arch", "");
        int bits = "64".equals(System.getProperty("sun.arch.data.model")) || ARCH_64.contains(arch) ? 64 : 32;
        return new KernelInfo(System.getProperty("os.name", ""), arch, release, bits);
    }

    /**
     * Whether the OS is Linux.
     *
     * @return true on Linux
     */
    public boolean isLinux() {
        return os.equalsIgnoreCase("Linux");
    }

    /**
     * Whether the machine is 64-bit.
     *
     * @return true for 64 bits
     */
    public boolean is64Bit() {
        return bits == 64;
    }

    /**
     * Whether the kernel release is at least {@code major.minor}.
     *
     * @param major the major version
     * @param minor the minor version
     * @return true when the release is that or newer
     */
    public boolean atLeast(int major, int minor) {
        Matcher m = VERSION.matcher(release);
        if (!m.find()) {
            return false;
        }
        int ma = Integer.parseInt(m.group(1));
        int mi = Integer.parseInt(m.group(2));
        return ma > major || (ma == major && mi >= minor);
    }

    /**
     * Whether the kernel has the RDMA network namespace modes ({@link #NAMESPACES_SINCE} or newer).
     *
     * @return true when it has
     */
    public boolean supportsRdmaNamespaces() {
        return atLeast(NAMESPACES_SINCE[0], NAMESPACES_SINCE[1]);
    }
}
