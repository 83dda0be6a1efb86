package dev.verbs4j.unix.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Tests' view of the kernel's epoll sets (/proc/self/fdinfo): which of them hold an fd. */
public final class EpollSets {
    private EpollSets() {}

    /** How many of this process's epoll sets hold {@code fd}, from the kernel's own listing. */
    public static int holding(int fd) throws IOException {
        Pattern entry = Pattern.compile("^tfd:\\s+" + fd + "\\s.*", Pattern.MULTILINE);
        int sets = 0;
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path link : fds.toList()) {
                try {
                    if (!Files.readSymbolicLink(link).toString().equals("anon_inode:[eventpoll]")) {
                        continue;
                    }
                    String info = Files.readString(Path.of("/proc/self/fdinfo", link.getFileName().toString()));
                    if (entry.matcher(info).find()) {
                        sets++;
                    }
                } catch (IOException gone) {
                    // an fd closed while listing (the listing's own, or another thread's)
                }
            }
        }
        return sets;
    }
}
