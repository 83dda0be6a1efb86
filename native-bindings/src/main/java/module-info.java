/** jextract-generated bindings for libibverbs and librdmacm (see the module README). */
module dev.verbs4j.bindings {
    exports dev.verbs4j.bindings;
}
