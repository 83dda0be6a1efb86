package dev.verbs4j.guest.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The one place every sysfs read goes through, so the same code runs on the live {@code /sys} and
 * on a recorded copy of it (a directory tree of plain files).
 *
 * <p>Recorded trees hold no symbolic links: where the kernel has a link whose <em>target</em>
 * carries the information (such as {@code device/driver -> ../../../bus/pci/drivers/vmw_pvrdma}),
 * the tree has a plain file of the same name whose content is the link target. {@link #linkName}
 * understands both forms.
 */
public final class SysfsRoot {
    private final Path root;

    private SysfsRoot(Path root) {
        this.root = root;
    }

    /**
     * The live sysfs of this machine.
     *
     * @return {@code /sys}
     */
    public static SysfsRoot system() {
        return new SysfsRoot(Path.of("/sys"));
    }

    /**
     * A recorded tree (or any directory laid out like {@code /sys}).
     *
     * @param root the directory
     * @return a view of it
     */
    public static SysfsRoot at(Path root) {
        return new SysfsRoot(root);
    }

    /**
     * The directory this view reads.
     *
     * @return the root directory
     */
    public Path root() {
        return root;
    }

    /**
     * Whether this is the machine's own sysfs.
     *
     * @return true for {@code /sys}, false for a recording
     */
    public boolean isLive() {
        return root.toAbsolutePath().normalize().equals(Path.of("/sys"));
    }

    /**
     * A path under the root.
     *
     * @param relative a path relative to the root, e.g. "class/infiniband"
     * @return the resolved path
     */
    public Path path(String relative) {
        return root.resolve(relative);
    }

    /**
     * Whether a path under the root exists.
     *
     * @param relative a path relative to the root
     * @return true when it exists
     */
    public boolean exists(String relative) {
        return Files.exists(path(relative));
    }

    /**
     * A one-line attribute, trimmed; empty when it is missing or the kernel refuses the read
     * (unpopulated GID entries answer EINVAL, for instance).
     *
     * @param relative a path relative to the root
     * @return the content, trimmed
     */
    public Optional<String> read(String relative) {
        try {
            return Optional.of(Files.readString(path(relative), StandardCharsets.UTF_8).trim());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * The entry names of a directory, sorted.
     *
     * @param relative a path relative to the root
     * @return the names; empty when the directory does not exist
     */
    public List<String> list(String relative) {
        Path dir = path(relative);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(dir)) {
            return new ArrayList<>(entries.map(p -> p.getFileName().toString()).sorted().toList());
        } catch (IOException e) {
            return List.of();
        }
    }

    /**
     * The last name of a link's target: {@code vmw_pvrdma} for {@code device/driver}. A symbolic
     * link is read as such; a plain file (recorded trees) holds the target as its content.
     *
     * @param relative a path relative to the root
     * @return the target's last name, empty when there is no such link
     */
    public Optional<String> linkName(String relative) {
        Path p = path(relative);
        try {
            if (Files.isSymbolicLink(p)) {
                return Optional.of(lastName(Files.readSymbolicLink(p).toString()));
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return read(relative).filter(s -> !s.isEmpty()).map(SysfsRoot::lastName);
    }

    private static String lastName(String target) {
        String t = target.endsWith("/") ? target.substring(0, target.length() - 1) : target;
        return t.substring(t.lastIndexOf('/') + 1);
    }

    @Override
    public String toString() {
        return root.toString();
    }
}
