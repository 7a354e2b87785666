package io.github.odrust.agent.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import org.junit.jupiter.api.Test;

class GroupsTest {
    private static boolean matches(String expression, String... names) {
        return Groups.parse(expression).matches(new HashSet<>(Arrays.asList(names))::contains);
    }

    @Test
    void namesAndOperatorsBindAsSurefiresGroupExpressions() {
        assertTrue(matches("a.A", "a.A"));
        assertFalse(matches("a.A", "a.B"));
        // a comma is an or, as the list Surefire's groups are
        assertTrue(matches("a.A, a.B", "a.B"));
        assertTrue(matches("A & !B", "A"));
        assertFalse(matches("A && !B", "A", "B"));
        // and binds tighter than or; not tighter than and
        assertTrue(matches("A | B & C", "A"));
        assertFalse(matches("(A | B) & C", "A"));
        assertTrue(matches("NOT A AND B or C", "B"));
        assertFalse(matches("not (A || B)", "B"));
        assertTrue(matches("!!A", "A"));
        assertNull(Groups.parse("  "));
        assertNull(Groups.parse(null));
    }

    @Test
    void whatCannotBeReadIsNamed() {
        assertEquals(
                "'A &' ends where a group name was expected",
                assertThrows(IllegalArgumentException.class, () -> Groups.parse("A &"))
                        .getMessage());
        assertEquals(
                "'(A | B' : a '(' is not closed".replace(" :", ":"),
                assertThrows(IllegalArgumentException.class, () -> Groups.parse("(A | B"))
                        .getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Groups.parse("A B"))
                .getMessage()
                .contains("unexpected 'B'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Groups.parse("A # B"))
                .getMessage()
                .contains("unexpected '#'"));
    }
}
