package com.example.j5;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CalcTest {
    @BeforeAll
    static void beforeAll() {
        Trace.log("CalcTest@BeforeAll");
    }

    @Test
    void adds() {
        Trace.log("CalcTest#adds");
        assertEquals(4, 2 + 2);
    }

    @ParameterizedTest
    @ValueSource(ints = {10, 20, 30})
    void p(int value) {
        Trace.log("CalcTest#p(" + value + ")");
        assertTrue(value % 10 == 0);
    }

    @Nested
    class WhenEmpty {
        private final List<Integer> values = new ArrayList<>();

        @Test
        void isEmpty() {
            Trace.log("CalcTest$WhenEmpty#isEmpty");
            assertTrue(values.isEmpty());
        }
    }
}
