package dev.verbs4j.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What each verbs4j module exports, read from its module-info.class: a package of another module
 * may be used only if that module exports it, to everyone or by name to the user's module.
 */
final class ModuleExports {
    /** package name to its module's descriptor */
    private final Map<String, ModuleDescriptor> owners = new HashMap<>();

    private ModuleExports() {}

    static ModuleExports of(JavaClasses classes) {
        ModuleExports e = new ModuleExports();
        for (JavaClass c : classes) {
            ModuleDescriptor d = e.owners.get(c.getPackageName());
            if (d == null && !c.getPackageName().isEmpty()) {
                d = descriptorOf(c);
                for (String p : d.packages()) {
                    e.owners.put(p, d);
                }
            }
        }
        return e;
    }

    private static ModuleDescriptor descriptorOf(JavaClass c) {
        Path location;
        try {
            location = Path.of(c.reflect().getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        if (Files.isDirectory(location) && !Files.exists(location.resolve("module-info.class"))) {
            // classes without a module-info (the cli): an automatic module, all its packages open
            return ModuleDescriptor.newAutomaticModule("automatic." + c.getPackageName())
                    .packages(Set.of(c.getPackageName())).build();
        }
        Set<ModuleReference> found = ModuleFinder.of(location).findAll();
        if (found.size() != 1) {
            throw new IllegalStateException(c.getName() + " comes from " + location + ", which is not one module");
        }
        return found.iterator().next().descriptor();
    }

    /** The named modules found (the cli, which has no module-info, is not one). */
    List<String> moduleNames() {
        return owners.values().stream().filter(d -> !d.isAutomatic()).map(ModuleDescriptor::name).distinct()
                .sorted().toList();
    }

    /** Whether {@code origin} may use {@code target}: same module, or an export that reaches it. */
    boolean allows(JavaClass origin, JavaClass target) {
        ModuleDescriptor to = owners.get(target.getPackageName());
        ModuleDescriptor from = owners.get(origin.getPackageName());
        if (to == null || from == null || to == from) {
            return true; // the JDK, a library, or the same module
        }
        return to.exports().stream().anyMatch(x -> x.source().equals(target.getPackageName())
                && (!x.isQualified() || x.targets().contains(from.name())));
    }
}
