package io.github.odrust.agent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void escapesQuotesBackslashAndControlCharacters() {
        assertEquals("\"a\\\"b\\\\c\"", Json.quote("a\"b\\c"));
        assertEquals("\"\\n\\r\\t\\b\\f\\u0000\\u001f\\u007f\"", Json.quote("\n\r\t\b\f\u0000\u001f\u007f"));
        assertEquals("\"\\u2028\\u2029\"", Json.quote("\u2028\u2029"));
    }

    @Test
    void keepsNonAsciiAndNonBmpAndReplacesLoneSurrogates() {
        assertEquals("\"é☃\uD83D\uDE00\"", Json.quote("é☃\uD83D\uDE00"));
        assertEquals("\"x\uFFFDy\uFFFD\"", Json.quote("x\uD800y\uDC00"));
        assertEquals("\"\uFFFD\"", Json.quote("\uD83D"));
    }

    @Test
    void writesObjectsThatParseBack() {
        String s = Json.event("test")
                .put("test", "a.B#c[1]")
                .put("n", 3)
                .put("t", true)
                .put("x", null)
                .put("l", Arrays.asList("p", "q\""))
                .put("trace", "line1\n\tat x")
                .toString();
        assertEquals(
                "{\"event\":\"test\",\"test\":\"a.B#c[1]\",\"n\":3,\"t\":true,\"x\":null,\"l\":[\"p\",\"q\\\"\"],"
                        + "\"trace\":\"line1\\n\\tat x\"}",
                s);
        Map<String, Object> m = Harness.object(s);
        assertEquals("q\"", ((java.util.List<?>) m.get("l")).get(1));
        assertEquals("line1\n\tat x", m.get("trace"));
    }

    @Test
    void roundTripsEveryCharacterClass() {
        StringBuilder b = new StringBuilder();
        for (char c = 0; c < 0x100; c++) {
            b.append(c);
        }
        b.append("\uD83D\uDE00\u4E2D");
        String s = b.toString();
        assertEquals(s, Harness.parse(Json.quote(s)));
    }
}
