package com.example.fid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A plain test and a parameterized one of the same name (as commons-cli's UtilTest has): three tests. */
class OverloadedTest {
    @Test
    void find() {
        assertEquals(3, "abc".length());
    }

    @ParameterizedTest
    @CsvSource({"a, true", "b, false"})
    void find(Character c, boolean first) {
        assertTrue(("a".equals(c.toString())) == first);
    }
}
