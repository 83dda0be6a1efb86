package dev.verbs4j.guest.probe;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Whether rdma-core's user space (libibverbs and its provider libraries) is installed, and which
 * version.
 *
 * @param present   libibverbs.so.1 was found
 * @param version   rdma-core's version, e.g. "44.0-2" (package) or "44.0" (from the library's name)
 * @param source    how it was found
 * @param providers the provider libraries next to it, by name: "rxe", "vmw_pvrdma", ...
 */
public record RdmaCoreInfo(boolean present, String version, String source, List<String> providers) {
    private static final List<String> LIBRARY_DIRS = List.of("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
            "/usr/lib64", "/usr/lib", "/lib64", "/lib/x86_64-linux-gnu", "/usr/local/lib64", "/usr/local/lib");
    // The real file behind the soname carries rdma-core's version: libibverbs.so.1.14.44.0 is 44.0.
    private static final Pattern LIBRARY = Pattern.compile("libibverbs\\.so\\.1\\.\\d+\\.(\\d+\\.\\d+)");
    private static final Pattern PROVIDER = Pattern.compile("lib(\\w+)-rdmav\\d+\\.so");

    /** Copies the list components, so the record is immutable. */
    public RdmaCoreInfo {
        providers = List.copyOf(providers);
    }

    /**
     * No rdma-core here.
     *
     * @return facts saying libibverbs.so.1 was not found
     */
    public static RdmaCoreInfo absent() {
        return new RdmaCoreInfo(false, "", "libibverbs.so.1 not found", List.of());
    }

    /**
     * Finds libibverbs and its providers on this machine; asks dpkg-query for the version.
     *
     * @return what was found
     */
    public static RdmaCoreInfo detect() {
        Optional<Path> library = findLibrary();
        List<String> providers = library.map(l -> providersIn(l.getParent().resolve("libibverbs"))).orElse(List.of());
        Optional<String> packaged = Commands.output(List.of("dpkg-query", "-W", "-f=${Status}|${Version}", "libibverbs1"))
                .filter(s -> s.contains("installed|")).map(s -> s.substring(s.indexOf('|') + 1));
        if (packaged.isPresent()) {
            return new RdmaCoreInfo(true, packaged.get(), "package libibverbs1", providers);
        }
        Optional<String> rpm = Commands.output(List.of("rpm", "-q", "--qf", "%{VERSION}-%{RELEASE}", "libibverbs"));
        if (rpm.isPresent()) {
            return new RdmaCoreInfo(true, rpm.get(), "package libibverbs", providers);
        }
        return library.map(l -> new RdmaCoreInfo(true, versionOfLibrary(l.getFileName().toString()).orElse("unknown"),
                l.toString(), providers)).orElse(absent());
    }

    /**
     * The rdma-core version in a library file name: "libibverbs.so.1.14.44.0" gives "44.0".
     *
     * @param fileName the library's file name
     * @return the version, empty when the name has none
     */
    public static Optional<String> versionOfLibrary(String fileName) {
        Matcher m = LIBRARY.matcher(fileName);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /**
     * Whether a user-space provider is installed.
     *
     * @param name the provider, e.g. "rxe" or "vmw_pvrdma"
     * @return true when it is among {@link #providers()}
     */
    public boolean hasProvider(String name) {
        return providers.contains(name);
    }

    private static Optional<Path> findLibrary() {
        for (String dir : LIBRARY_DIRS) {
            Path soname = Path.of(dir, "libibverbs.so.1");
            if (Files.exists(soname)) {
                try {
                    return Optional.of(soname.toRealPath());
                } catch (java.io.IOException e) {
                    return Optional.of(soname);
                }
            }
        }
        return Optional.empty();
    }

    private static List<String> providersIn(Path dir) {
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.list(dir)) {
                files.map(p -> PROVIDER.matcher(p.getFileName().toString())).filter(Matcher::matches)
                        .forEach(m -> names.add(m.group(1)));
            } catch (java.io.IOException e) {
                return List.of();
            }
        }
        names.sort(null);
        return names;
    }
}
