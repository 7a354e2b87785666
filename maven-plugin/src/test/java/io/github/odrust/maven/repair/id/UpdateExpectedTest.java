package io.github.odrust.maven.repair.id;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The expected literal of a failing comparison rewritten to the order the fixed code gives. */
class UpdateExpectedTest {
    private static final String TEST = String.join(
            "\r\n",
            "package com.acme;",
            "",
            "import static org.junit.Assert.assertEquals;",
            "",
            "public class PointTest {",
            "    private static final String JSON = \"{\\\"y\\\":2,\\\"x\\\":1}\";",
            "",
            "    @org.junit.Test",
            "    public void names() {",
            "        assertEquals(\"zeta,alpha\", Describer.names(Point.class));",
            "    }",
            "",
            "    @org.junit.Test",
            "    public void viaLocal() {",
            "        String expected = \"b\\ta\";",
            "        String got = Describer.tabbed(Point.class);",
            "        assertEquals(expected, got);",
            "    }",
            "",
            "    @org.junit.Test",
            "    public void viaConstant() {",
            "        assertEquals(JSON, Json.of(new Point()));",
            "    }",
            "",
            "    @org.junit.Test",
            "    public void hash() {",
            "        assertEquals(-12345, Describer.hash(Point.class));",
            "    }",
            "}",
            "");

    @Test
    void theLiteralOnTheFailingLineBecomesTheNewOrderAndNothingElseChanges() {
        DexFix.Result r = UpdateExpected.rewrite(TEST, 10, "zeta,alpha", "alpha,zeta");
        assertTrue(r.applies(), r.toString());
        assertEquals(TEST.replace("\"zeta,alpha\"", "\"alpha,zeta\""), r.source());
        assertTrue(
                r.description().startsWith("UpdateExpected: the expected string at line 10 becomes \"alpha,zeta\""),
                r.description());
    }

    @Test
    void aLocalOfTheMethodAndAConstantOfTheClassAreFoundWithEscapesKept() {
        DexFix.Result local = UpdateExpected.rewrite(TEST, 17, "b\ta", "a\tb");
        assertTrue(local.applies(), local.toString());
        assertEquals(TEST.replace("\"b\\ta\"", "\"a\\tb\""), local.source());
        DexFix.Result constant = UpdateExpected.rewrite(TEST, 22, "{\"y\":2,\"x\":1}", "{\"x\":1,\"y\":2}");
        assertTrue(constant.applies(), constant.toString());
        assertEquals(TEST.replace("\"{\\\"y\\\":2,\\\"x\\\":1}\"", "\"{\\\"x\\\":1,\\\"y\\\":2}\""), constant.source());
    }

    @Test
    void aValueThatIsNotAReorderingANumberOrAnUnknownLiteralIsRefusedSayingWhy() {
        DexFix.Result other = UpdateExpected.rewrite(TEST, 10, "zeta,alpha", "alpha,beta");
        assertFalse(other.applies());
        assertTrue(other.reason().contains("only an order is updated"), other.reason());
        DexFix.Result number = UpdateExpected.rewrite(TEST, 27, "-12345", "-54321");
        assertFalse(number.applies());
        assertTrue(number.reason().contains("numbers are not updated"), number.reason());
        DexFix.Result missing = UpdateExpected.rewrite(TEST, 10, "nowhere", "erehwon");
        assertFalse(missing.applies());
        assertTrue(missing.reason().contains("no literal with the expected value"), missing.reason());
    }

    @Test
    void twoEqualLiteralsInTheMethodAreAmbiguous() {
        String src =
                "class T {\n  void t() {\n    String a = \"b,a\";\n    String b = \"b,a\";\n    assertEquals(a, b);\n  }\n}\n";
        DexFix.Result r = UpdateExpected.rewrite(src, 5, "b,a", "a,b");
        assertFalse(r.applies());
        assertTrue(r.reason().contains("2 literals in t()"), r.reason());
    }

    @Test
    void valuesComeFromTheAgentElseFromAJunit4Message() {
        assertArrayEquals(new String[] {"a", "b"}, UpdateExpected.values("a", "b", "whatever"));
        assertArrayEquals(
                new String[] {"[x, y]", "[y, x]"},
                UpdateExpected.values(null, null, "sets expected:<[x, y]> but was:<[y, x]>"));
        assertNull(UpdateExpected.values(null, null, "expected true"));
    }

    @Test
    void theFailingLineIsTheDeepestFrameOfTheTestClassInItsFile() {
        String trace = "org.junit.ComparisonFailure: expected:<[zeta,]alpha> but was:<alpha[,zeta]>\n"
                + "\tat org.junit.Assert.assertEquals(Assert.java:117)\n"
                + "\tat com.acme.PointTest$Nested.check(PointTest.java:40)\n"
                + "\tat com.acme.PointTest.names(PointTest.java:10)\n";
        assertEquals(
                java.util.List.of(40, 10), UpdateExpected.failingLines(trace, "com.acme.PointTest", "PointTest.java"));
        assertTrue(UpdateExpected.failingLines(trace, "com.acme.Other", "Other.java")
                .isEmpty());
    }

    private static final String MORE = String.join(
            "\n",
            "class MoreTest {",
            "  void input() {",
            "    String csv = \"zeta,alpha\";",
            "    assertEquals(csv, roundTrip(csv));",
            "  }",
            "  void inputOnTheLine() {",
            "    assertEquals(expected(), roundTrip(\"b,a\"));",
            "  }",
            "  void assertj() {",
            "    assertThat(names()).isEqualTo(\"zeta,alpha\");",
            "  }",
            "  void escaped() {",
            "    assertEquals(\"\\u00e9,a\", names());",
            "  }",
            "  void viaHelper() {",
            "    assertNames(\"y,x\", names());",
            "  }",
            "  void assertNames(String want, String got) {",
            "    assertEquals(want, got);",
            "  }",
            "  void viaOtherHelper() {",
            "    check(\"y,x\", names());",
            "  }",
            "}",
            "");

    @Test
    void aLiteralThatIsTheTestsInputIsNeverRewritten() {
        DexFix.Result twice = UpdateExpected.rewrite(MORE, 4, "zeta,alpha", "alpha,zeta");
        assertFalse(twice.applies(), twice.toString());
        DexFix.Result input = UpdateExpected.rewrite(MORE, 7, "b,a", "a,b");
        assertFalse(input.applies(), input.toString());
        assertTrue(input.reason().contains("compared on the line"), input.reason());
    }

    @Test
    void assertjQuotedValuesUnicodeEscapesAndACallersLiteral() {
        DexFix.Result assertj = UpdateExpected.rewrite(MORE, 10, "\"zeta,alpha\"", "\"alpha,zeta\"");
        assertTrue(assertj.applies(), assertj.toString());
        assertTrue(assertj.source().contains("isEqualTo(\"alpha,zeta\")"), assertj.source());
        DexFix.Result escaped = UpdateExpected.rewrite(MORE, 13, "\u00e9,a", "a,\u00e9");
        assertTrue(escaped.applies(), escaped.toString());
        assertTrue(escaped.source().contains("assertEquals(\"a,\\u00e9\", names());"), escaped.source());
        // the assertion is in a helper (line 19): the literal is in the calling test (line 16),
        // taken when the helper is named as an assertion (assert...), not from any call
        assertFalse(UpdateExpected.rewrite(MORE, 19, "y,x", "x,y").applies());
        DexFix.Result caller = UpdateExpected.rewrite(MORE, 16, "y,x", "x,y");
        assertTrue(caller.applies(), caller.toString());
        assertFalse(UpdateExpected.rewrite(MORE, 22, "y,x", "x,y").applies());
    }
}
