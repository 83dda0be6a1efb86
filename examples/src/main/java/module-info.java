/** Runnable programs behind bin/verbs4j. */
module dev.verbs4j.examples {
    requires dev.verbs4j.verbs;
    requires dev.verbs4j.guest;
    requires org.slf4j;
}
