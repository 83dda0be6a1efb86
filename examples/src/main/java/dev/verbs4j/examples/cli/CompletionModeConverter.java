package dev.verbs4j.examples.cli;

import dev.verbs4j.loop.CompletionMode;

/** {@code --mode busy|event|adaptive}, as {@link CompletionMode#parse} reads it. */
public final class CompletionModeConverter extends WordConverter<CompletionMode> {
    public CompletionModeConverter() {
        super(CompletionMode::parse);
    }
}
