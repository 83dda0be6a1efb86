package dev.verbs4j.bindings;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.UnionLayout;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Walks the generated struct/union classes by reflection and turns every size, alignment and
 * member offset they encode into a {@link LayoutFact} that a C compiler can check.
 *
 * <p>Named nested structs/unions are nested classes whose offsets are relative to the enclosing
 * member, so offsets are added up along the C member path ({@code wr.rdma.rkey}). Anonymous
 * members are already flattened by jextract, exactly as C's {@code offsetof} sees them.
 */
final class GeneratedStructs {

    private static final String PACKAGE_DIR = "dev/verbs4j/bindings";

    final List<LayoutFact> facts = new ArrayList<>();
    /** Top-level generated class names that were checked. */
    final Set<String> types = new TreeSet<>();
    /** Checked members as {@code class.member.path}, e.g. {@code ibv_send_wr.wr.rdma.rkey}. */
    final Set<String> members = new TreeSet<>();
    /** Generated struct classes whose C spelling could not be derived. */
    final List<String> skipped = new ArrayList<>();

    static GeneratedStructs collect() throws IOException, ReflectiveOperationException {
        GeneratedStructs structs = new GeneratedStructs();
        for (String simpleName : topLevelClassNames()) {
            structs.addType(Class.forName(Rdma.class.getPackageName() + "." + simpleName));
        }
        return structs;
    }

    private void addType(Class<?> type) throws ReflectiveOperationException {
        GroupLayout layout = groupLayoutOf(type);
        if (layout == null) {
            return; // the header class and its helpers
        }
        String cType = cTypeName(type, layout);
        if (cType == null) {
            skipped.add(type.getSimpleName());
            return;
        }
        types.add(type.getSimpleName());
        facts.add(LayoutFact.sizeOf(cType, layout.byteSize()));
        facts.add(LayoutFact.alignOf(cType, layout.byteAlignment()));
        if (!isTypedefAlias(type)) { // an alias's members are checked on the struct it names
            addMembers(cType, type, type.getSimpleName() + ".", "", 0);
        }
    }

    private void addMembers(String cType, Class<?> type, String ownerPrefix, String pathPrefix, long base)
            throws ReflectiveOperationException {
        for (Method accessor : offsetAccessors(type)) {
            String name = accessor.getName().substring(0, accessor.getName().length() - "$offset".length());
            long offset = base + (long) accessor.invoke(null);
            MemoryLayout memberLayout = (MemoryLayout) type.getMethod(name + "$layout").invoke(null);
            String path = pathPrefix + name;
            facts.add(LayoutFact.offsetOf(cType, path, offset));
            facts.add(LayoutFact.memberSize(cType, path, memberLayout.byteSize()));
            members.add(ownerPrefix + path);

            Class<?> nested = nestedGroupClass(type, name);
            if (nested != null) {
                addMembers(cType, nested, ownerPrefix, path + firstElementSuffix(memberLayout) + ".", offset);
            }
        }
    }

    /** C spelling of the type: {@code struct X} / {@code union X} for tags, bare name for typedefs. */
    private static String cTypeName(Class<?> type, GroupLayout layout) {
        String javaName = type.getSimpleName();
        String layoutName = layout.name().orElse("");
        if (isTypedefAlias(type) || layoutName.startsWith("$anon")) {
            return javaName; // typedef of a named type, or typedef of an anonymous struct/union
        }
        if (layoutName.equals(javaName)) {
            return (layout instanceof UnionLayout ? "union " : "struct ") + javaName;
        }
        return null;
    }

    /** jextract renders {@code typedef struct X Y} as {@code class Y extends X}. */
    private static boolean isTypedefAlias(Class<?> type) {
        return type.getSuperclass().getPackage() == Rdma.class.getPackage();
    }

    private static GroupLayout groupLayoutOf(Class<?> type) throws ReflectiveOperationException {
        for (Method method : type.getMethods()) {
            if (method.getName().equals("layout") && method.getParameterCount() == 0
                    && Modifier.isStatic(method.getModifiers())
                    && GroupLayout.class.isAssignableFrom(method.getReturnType())) {
                return (GroupLayout) method.invoke(null);
            }
        }
        return null;
    }

    /** The nested class generated for a named struct/union member, or null (scalars, function pointers). */
    private static Class<?> nestedGroupClass(Class<?> type, String memberName) throws ReflectiveOperationException {
        for (Class<?> nested : type.getDeclaredClasses()) {
            if (nested.getSimpleName().equals(memberName) && groupLayoutOf(nested) != null) {
                return nested;
            }
        }
        return null;
    }

    private static List<Method> offsetAccessors(Class<?> type) {
        return Arrays.stream(type.getDeclaredMethods())
                .filter(m -> m.getName().endsWith("$offset") && m.getParameterCount() == 0
                        && Modifier.isStatic(m.getModifiers()) && m.getReturnType() == long.class)
                .sorted(Comparator.comparing(Method::getName))
                .toList();
    }

    /** A member that is an array of structs is entered through its first element: {@code a[0].b}. */
    private static String firstElementSuffix(MemoryLayout layout) {
        StringBuilder suffix = new StringBuilder();
        while (layout instanceof SequenceLayout sequence) {
            suffix.append("[0]");
            layout = sequence.elementLayout();
        }
        return suffix.toString();
    }

    /** Simple names of the top-level classes in the generated package (directory or jar). */
    private static List<String> topLevelClassNames() throws IOException {
        Path location;
        try {
            location = Path.of(Rdma.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        if (Files.isDirectory(location)) {
            return classNamesIn(location.resolve(PACKAGE_DIR));
        }
        try (FileSystem jar = FileSystems.newFileSystem(location)) {
            return classNamesIn(jar.getPath(PACKAGE_DIR));
        }
    }

    private static List<String> classNamesIn(Path packageDir) throws IOException {
        try (Stream<Path> files = Files.list(packageDir)) {
            return files.map(file -> file.getFileName().toString())
                    .filter(name -> name.endsWith(".class") && !name.contains("$"))
                    .map(name -> name.substring(0, name.length() - ".class".length()))
                    .sorted()
                    .toList();
        }
    }
}
