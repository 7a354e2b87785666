package com.example.rare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Jupiter; starts from the default mode, like ResetOneTest. */
class ResetTwoTest {
    @BeforeAll
    static void defaults() {
        Settings.mode = "default";
    }

    @Test
    void case1() {
        assertEquals(1, Integer.valueOf(1));
    }

    @Test
    void case2() {
        assertEquals(2, Integer.valueOf(2));
    }

    @Test
    void case3() {
        assertEquals(3, Integer.valueOf(3));
    }

    @Test
    void case4() {
        assertEquals(4, Integer.valueOf(4));
    }

    @Test
    void case5() {
        assertEquals(5, Integer.valueOf(5));
    }

    @Test
    void case6() {
        assertEquals(6, Integer.valueOf(6));
    }

    @Test
    void case7() {
        assertEquals(7, Integer.valueOf(7));
    }
}
