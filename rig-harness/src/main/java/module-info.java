/** What the tests that run in the soft-RoCE rig share; used in test scope only. */
module dev.verbs4j.rig {
    exports dev.verbs4j.rig;
}
