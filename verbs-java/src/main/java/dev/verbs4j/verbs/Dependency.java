package dev.verbs4j.verbs;

import java.lang.foreign.MemorySegment;

/**
 * Records that an object uses another besides its parent (a QP uses its CQs and SRQ), so that one
 * refuses to close first just as a parent does. Holds no native resource.
 */
final class Dependency extends NativeObject {
    Dependency(String user, NativeObject usedObject) {
        super(user, MemorySegment.NULL, usedObject);
    }

    @Override
    void destroy(MemorySegment ignored) {
        // nothing native: closing only releases the hold on the used object
    }
}
