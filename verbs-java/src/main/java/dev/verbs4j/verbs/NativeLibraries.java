package dev.verbs4j.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * The two rdma-core libraries, found by soname so only the runtime packages are needed, and
 * downcall handles that capture errno (the generated bindings do not).
 */
final class NativeLibraries {
    static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");

    private NativeLibraries() {}

    private static final class Verbs {
        static final SymbolLookup LOOKUP = load("libibverbs.so.1", "libibverbs1 ibverbs-providers");
    }

    private static final class RdmaCm {
        static final SymbolLookup LOOKUP = load("librdmacm.so.1", "librdmacm1");
    }

    private static SymbolLookup load(String soname, String packages) {
        try {
            return SymbolLookup.libraryLookup(soname, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new VerbsException(soname + " cannot be loaded", "dlopen", 0,
                    "install rdma-core's runtime libraries: apt-get install " + packages);
        }
    }

    /** A libibverbs function whose errno is captured into a leading segment argument. */
    static MethodHandle verbs(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(find(Verbs.LOOKUP, name), descriptor, CAPTURE_ERRNO);
    }

    /** A librdmacm function whose errno is captured into a leading segment argument. */
    static MethodHandle rdmacm(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(find(RdmaCm.LOOKUP, name), descriptor, CAPTURE_ERRNO);
    }

    private static java.lang.foreign.MemorySegment find(SymbolLookup lookup, String name) {
        return lookup.find(name).orElseThrow(() -> new VerbsException(
                "symbol " + name + " not found", name, 0,
                "the installed rdma-core is older than the headers verbs4j was generated from (rdma-core 44)"));
    }
}
