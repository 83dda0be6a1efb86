package dev.verbs4j.architecture;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules every module keeps, checked on the main classes of all of them: no package depends on
 * itself through others (dependencies point down), and no class reaches into a package that its
 * module does not export to the reader's module (the module-info files are the rule book).
 */
class DependencyRulesTest {
    private static JavaClasses classes;
    private static ModuleExports exports;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.verbs4j");
        exports = ModuleExports.of(classes);
    }

    @Test
    void everyModuleOfTheBuildIsChecked() {
        assertEquals(List.of("dev.verbs4j.benchmarks", "dev.verbs4j.bindings", "dev.verbs4j.examples",
                        "dev.verbs4j.guest", "dev.verbs4j.loop", "dev.verbs4j.netty", "dev.verbs4j.nvmf",
                        "dev.verbs4j.rig", "dev.verbs4j.unix", "dev.verbs4j.verbs"),
                exports.moduleNames(), "a new module joins this test (and its dependency in the pom)");
    }

    @Test
    void noPackageCycles() {
        slices().matching("dev.verbs4j.(**)").namingSlices("$1")
                .should().beFreeOfCycles()
                .check(classes);
    }

    /** The rig harness sits under every module's tests, so it may use none of them. */
    @Test
    void theRigHarnessDependsOnNoOtherModule() {
        noClasses().that().resideInAPackage("dev.verbs4j.rig..")
                .should().dependOnClassesThat(resideInAPackage("dev.verbs4j..")
                        .and(resideInAPackage("dev.verbs4j.rig..").negate()))
                .check(classes);
    }

    @Test
    void noClassUsesAPackageItsModuleCannotRead() {
        List<String> violations = classes.stream()
                .flatMap(c -> c.getDirectDependenciesFromSelf().stream())
                .filter(d -> !exports.allows(d.getOriginClass(), d.getTargetClass()))
                .map(Dependency::getDescription)
                .distinct()
                .sorted()
                .toList();
        assertEquals(List.of(), violations, "dependencies on packages that their module does not export to the reader");
    }
}
