package dev.verbs4j.verbs;

import java.util.ArrayList;
import java.util.List;

/**
 * A test's native resources, closed in the reverse order of their creation (a QP before its CQ,
 * an MR before its PD); one that fails to close is reported and the rest still close.
 */
final class ReverseCloser implements AutoCloseable {
    private final List<AutoCloseable> resources = new ArrayList<>();

    <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }

    @Override
    public void close() {
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                System.err.println("closing " + resources.get(i) + ": " + e);
            }
        }
        resources.clear();
    }
}
