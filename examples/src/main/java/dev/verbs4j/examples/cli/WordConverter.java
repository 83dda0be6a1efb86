package dev.verbs4j.examples.cli;

import java.util.function.Function;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A picocli converter for a word that a {@code parse(String)} method of the library reads. The
 * parser's IllegalArgumentException becomes picocli's TypeConversionException, so a bad word is a
 * usage error of one line ({@code Invalid value for option '--mode': mode must be busy, ...}) with
 * the parser's own message, not picocli's "cannot convert" with the exception's class name.
 *
 * @param <T> what the word names
 */
public abstract class WordConverter<T> implements ITypeConverter<T> {
    private final Function<String, T> parser;

    protected WordConverter(Function<String, T> parser) {
        this.parser = parser;
    }

    @Override
    public final T convert(String value) {
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }
}
