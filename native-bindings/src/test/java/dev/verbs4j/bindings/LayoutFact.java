package dev.verbs4j.bindings;

/**
 * One number that Java and C must agree on: a C constant expression such as
 * {@code offsetof(struct ibv_wc, imm_data)} and the value the generated layouts give for it.
 */
record LayoutFact(String cExpression, long javaValue) {

    static LayoutFact sizeOf(String cType, long javaValue) {
        return new LayoutFact("sizeof(" + cType + ")", javaValue);
    }

    static LayoutFact alignOf(String cType, long javaValue) {
        return new LayoutFact("_Alignof(" + cType + ")", javaValue);
    }

    static LayoutFact offsetOf(String cType, String memberPath, long javaValue) {
        return new LayoutFact("offsetof(" + cType + ", " + memberPath + ")", javaValue);
    }

    static LayoutFact memberSize(String cType, String memberPath, long javaValue) {
        return new LayoutFact("sizeof(((" + cType + " *)0)->" + memberPath + ")", javaValue);
    }
}
