package dev.verbs4j.bindings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Compares the Java side of each {@link LayoutFact} with what the C compiler printed for it. */
final class LayoutComparison {

    private LayoutComparison() {
    }

    /** Returns one readable line per disagreement; empty when every fact matches. */
    static List<String> mismatches(List<LayoutFact> facts, Map<String, Long> cValues) {
        List<String> problems = new ArrayList<>();
        for (LayoutFact fact : facts) {
            Long cValue = cValues.get(fact.cExpression());
            if (cValue == null) {
                problems.add(fact.cExpression() + ": no value from the C program");
            } else if (cValue != fact.javaValue()) {
                problems.add(fact.cExpression() + ": Java " + fact.javaValue() + ", C " + cValue);
            }
        }
        return problems;
    }
}
