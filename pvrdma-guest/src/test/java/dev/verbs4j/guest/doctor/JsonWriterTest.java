package dev.verbs4j.guest.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class JsonWriterTest {

    @Test
    void escapesQuotesBackslashesAndControlCharacters() {
        String json = new JsonWriter().beginObject().field("s", "a\"b\\c\nd\te\u0001").field("n", -1)
                .field("b", true).stringArray("a", List.of("x", "y")).name("o").beginObject().endObject()
                .endObject().toString();
        assertEquals("{\"s\":\"a\\\"b\\\\c\\nd\\te\\u0001\",\"n\":-1,\"b\":true,\"a\":[\"x\",\"y\"],\"o\":{}}", json);
        JsonCheck.validate(json);
    }
}
